"""Choosing the CRF's training parameters on held-out web sites:
`victor learn --search c2=0.1,1,10`.

Every candidate (a point of the grid of the values given, as
sklearn's ParameterGrid spans it) is cross-validated as `--cross-validate`
does it (victor.training.crossval: folds that keep each site on one side,
labels decoded as the cleaner decodes them, fold language models for the
perplexity feature), on the same folds, so that candidates differ only in
their parameters. The one of the highest held-out LCS word F1 is chosen, the
figure `--cross-validate` reports; a tie goes to the candidate listed first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from victor.config import Config
from victor.crf.params import SETTABLE, check_params
from victor.errors import VictorError
from victor.training.crossval import cross_validate, total
from victor.training.dataset import Example

_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?|-?\.[0-9]+([eE][-+]?[0-9]+)?")


@dataclass(frozen=True)
class Candidate:
    """One point of the grid and its held-out figures."""

    params: dict[str, float]  # the searched parameters, in crfsuite's spelling
    precision: float
    recall: float
    f1: float

    @property
    def name(self) -> str:
        """As the command line spells it: `c2=1 max-iterations=5`."""
        return " ".join(f"{k.replace('_', '-')}={v:g}" for k, v in self.params.items())


def parse_grid(specs: Sequence[str]) -> dict[str, list[float]]:
    """`NAME=V1,V2,...` for each parameter searched (a dash may stand for
    an underscore, as in configs), each value checked as a config's is, or
    a one-line error naming the bad spec."""
    grid: dict[str, list[float]] = {}
    for spec in specs:
        where = f"--search {spec}"
        key, sep, values = spec.partition("=")
        texts = [v.strip() for v in values.split(",")]
        if not sep or not key.strip() or not all(texts):
            raise VictorError(f"{where}: expected NAME=VALUE,VALUE,... "
                              f"(NAME one of {', '.join(n.replace('_', '-') for n in SETTABLE)})")
        bad = [v for v in texts if not _NUMBER.fullmatch(v)]
        if bad:
            raise VictorError(f"{where}: {bad[0]!r} is not a number")
        numbers = [int(v) if v.isdigit() else float(v) for v in texts]
        checked = [check_params({key.strip(): n}, where) for n in numbers]
        name = next(iter(checked[0]))
        if name in grid:
            raise VictorError(f"{where}: {key.strip()} is searched twice; give its values once")
        grid[name] = [c[name] for c in checked]
    if not grid:
        raise VictorError("--search: no parameter to search")
    return grid


def candidates(grid: Mapping[str, Sequence[float]]) -> list[dict[str, float]]:
    """Every combination of the grid's values, in sklearn's order."""
    from sklearn.model_selection import ParameterGrid

    return list(ParameterGrid({k: list(v) for k, v in grid.items()}))


def search(examples: list[Example], config: Config, params: Mapping[str, object],
           grid: Mapping[str, Sequence[float]], k: int, workdir: str, jobs: int = 1,
           split: str = "site",
           on_candidate: Callable[[Candidate], None] | None = None) -> list[Candidate]:
    """Each candidate's held-out figures over k folds, `params` (the
    config's and the command line's) giving the parameters not searched."""
    base = check_params(params, "crf settings")
    out = []
    for point in candidates(grid):
        results = cross_validate(examples, config, k, {**base, **point}, workdir, jobs, split)
        words = total(results).words
        candidate = Candidate(dict(point), words.precision, words.recall, words.f1)
        if on_candidate is not None:
            on_candidate(candidate)
        out.append(candidate)
    return out


def best(found: Sequence[Candidate]) -> Candidate:
    """The highest F1; the first listed of equals."""
    return max(found, key=lambda c: c.f1)  # max keeps the first of equal keys


def record(found: Sequence[Candidate], k: int, split: str) -> dict:
    """What a model's metadata keeps of the search that chose its parameters."""
    return {"folds": k, "split": split, "measure": "held-out LCS word F1",
            "candidates": [{**c.params, "f1": round(c.f1, 4)} for c in found]}
