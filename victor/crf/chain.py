"""The labels and marginals of a chain of blocks from their scores and the
label-to-label transitions: Viterbi and forward-backward, each by a
doubling scan over the blocks rather than a loop (victor/crf/tagger.py
computes the scores)."""

from __future__ import annotations

import numpy as np

from victor.compiled import twin


def viterbi(scores: np.ndarray, transition: np.ndarray) -> list[int]:
    """The best label sequence; ties go to the lower label number, as in
    crfsuite. Each block's best score by label comes from the running
    max-plus products of the step matrices (`_max_plus_products`), all at
    once, and the path is then read back from them: a loop over the
    blocks paid numpy's call overhead a few times a block, the largest
    cost of tagging after the scores. The same labels as that loop on
    every page of data/ with every shipped model."""
    n = len(scores)
    best = np.empty(scores.shape)
    best[0] = scores[0]
    back: list[list[int]] = []
    if n > 1:
        # steps[t - 1][i, j]: label i at block t - 1, then j at block t.
        steps = transition[None, :, :] + scores[1:, None, :]
        best[1:] = (scores[0][None, :, None] + _max_plus_products(steps)).max(axis=1)
        back = (best[:-1, :, None] + transition[None]).argmax(axis=1).tolist()
    path = [int(best[-1].argmax())]
    for t in range(n - 2, -1, -1):
        path.append(back[t][path[-1]])
    return path[::-1]


def _max_plus_products(steps: np.ndarray) -> np.ndarray:
    """Every running product steps[0] (x) ... (x) steps[t] in the max-plus
    algebra (a sum of scores along the best path between two labels), by
    the same doubling scan as `_products`. The blocks are the last axis, so
    that each of the few label-by-label operations runs over contiguous
    memory."""
    p = np.ascontiguousarray(steps.transpose(1, 2, 0))
    labels, n = p.shape[0], p.shape[2]
    reach = 1
    while reach < n:
        a, b = p[:, :, :-reach], p[:, :, reach:]
        q = a[:, 0, None, :] + b[None, 0, :, :]
        for j in range(1, labels):
            np.maximum(q, a[:, j, None, :] + b[None, j, :, :], out=q)
        p = np.concatenate([p[:, :, :reach], q], axis=2)
        reach *= 2
    return p.transpose(2, 0, 1)


def _products(steps: np.ndarray, reverse: bool = False) -> np.ndarray:
    """Every running product of a chain of matrices, steps[0] @ ... @
    steps[t] for each t (with `reverse`, steps[t] @ ... @ steps[0]), each
    scaled to sum 1. Doubling the reach each round (a Hillis-Steele scan)
    takes log2(n) batched products where a loop over the blocks took n
    small ones, each paying numpy's call overhead; decoding reads the
    marginals of every page."""
    p = steps / steps.sum(axis=(1, 2), keepdims=True)
    reach = 1
    while reach < len(p):
        q = p[reach:] @ p[:-reach] if reverse else p[:-reach] @ p[reach:]
        p = np.concatenate([p[:reach], q / q.sum(axis=(1, 2), keepdims=True)])
        reach *= 2
    return p


def forward_backward(scores: np.ndarray, transition: np.ndarray) -> np.ndarray:
    """P(label of block t | page). Block t's forward vector is the first
    block's scores times the step matrices up to t, its backward vector
    the steps after t summed over their end; each product is rescaled to
    sum 1, which nothing but the final normalisation sees, so nothing
    overflows."""
    states = np.exp(scores - scores.max(axis=1, keepdims=True))
    if len(scores) < 2:
        return states / states.sum(axis=1, keepdims=True)
    # steps[t - 1][i, j]: weight of label i at block t - 1 followed by j at t.
    steps = np.exp(transition)[None, :, :] * states[1:, None, :]
    forward = np.empty(scores.shape)
    forward[0] = states[0]
    forward[1:] = states[0] @ _products(steps)
    backward = np.ones(scores.shape)
    backward[:-1] = _products(steps[::-1], reverse=True)[::-1].sum(axis=2)
    joint = forward * backward
    return joint / joint.sum(axis=1, keepdims=True)


# Viterbi compiled (victor/compiled/_chain.pyx) where it was built; the
# function above stays the reference and the fallback.
viterbi_py = viterbi
viterbi = twin(viterbi_py, "_chain")
