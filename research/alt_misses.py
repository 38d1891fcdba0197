"""Where the images' alt texts that benchmarks.structure counts as missed
go (issue 48), and what two levers on the decision would give back.

`collect`: for each `<img alt>` of two words or more whose alt text the
gold keeps (benchmarks.structure's count), whether Victor's held-out text
and Markdown keep it, and for each miss its cause: the labels of the
blocks that hold the same words (preclean makes an image's alt text a
block of its own inside the image, left out here), the copy of the words
nearest the image, their common ancestor, whether the image is inside a
link, and the grid it stands in (its nearest ancestor with three counted
images or more). With `--peers`, what each structured peer keeps of the
same alt texts, page by page. `summary` prints the counts.

`grid`: a grid of cards (three or more siblings of one tag, each holding
an image with alt text) kept whole when `SHARE` of its cards are kept,
scored as benchmarks.quality scores the held-out run (`RUN`: the saved
5 site folds' paths, marginals and trees' probabilities) and, with
`--structure`, as benchmarks.structure scores it.

`bars`: benchmarks.structure with WCXB's own page type (an oracle a
cleaned page does not have) giving listing-like pages lower second-pass
bars: how far the decision alone can take the alt texts.

A research tool: nothing in victor/ or tests/ imports it.

    python3 -m research.alt_misses collect --labels LABELS.json --out misses.json [--peers]
    python3 -m research.alt_misses summary misses.json
    python3 -m research.alt_misses grid RUN.pkl 0.5 0.67 0.8
    python3 -m research.alt_misses grid RUN.pkl 0.5 --structure LABELS.json
    python3 -m research.alt_misses bars 0.25,0.2,0.1 --types collection,listing,forum \
        --structure LABELS.json
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import benchmarks.structure as bench
from benchmarks.structure import WCXB, fold, markdown_text, peer_output, peers_set_up, structure
from victor import decoding, output
from victor.batch.inputs import read_input
from victor.config import DEFAULT_CONFIG, load_config
from victor.decoding import content_label
from victor.labels import OTHER
from victor.reading.parser import Element

CARD_WORDS = 160  # a common ancestor of more words is no card of the image's own
GRID = 3  # cards a grid has at least


# --- collect ---------------------------------------------------------------------

def _walk(body: Element) -> tuple[dict, dict, list]:
    """Document order of every child slot, each element's parent, the images."""
    order: dict[tuple[int, int], int] = {}
    parent: dict[int, Element] = {}
    images: list[tuple[Element, Element, int]] = []
    work: list[tuple[Element, int]] = [(body, 0)]
    n = 0
    while work:
        el, i = work.pop()
        if i >= len(el.children):
            continue
        work.append((el, i + 1))
        order[(id(el), i)] = n
        n += 1
        c = el.children[i]
        if isinstance(c, Element):
            parent[id(c)] = el
            if c.tag == "img":
                images.append((c, el, i))
            work.append((c, 0))
    return order, parent, images


def _words(el: Element) -> int:
    out, stack = 0, [el]
    while stack:
        e = stack.pop()
        if isinstance(e, str):
            out += len(e.split())
        elif e.tag not in ("script", "style", "template"):
            stack.extend(e.children)
    return out


def _images_in(el: Element) -> list[Element]:
    out, stack = [], [el]
    while stack:
        e = stack.pop()
        if isinstance(e, Element):
            if e.tag == "img":
                out.append(e)
            stack.extend(e.children)
    return out


def _ancestors(el: Element, parent: dict) -> list[Element]:
    out = [el]
    while id(out[-1]) in parent:
        out.append(parent[id(out[-1])])
    return out


def page_misses(anno: Path, held_page: dict, cleaner, config, peers: dict) -> dict:
    """One WCXB page: its counted alt texts, which each system keeps, and
    each of Victor's text's misses with what tells its cause."""
    html = read_input(str(next(anno.parent.glob(anno.stem + ".html*"))))
    gold = anno.with_suffix(".txt").read_text(encoding="utf-8")
    meta = json.loads(anno.with_suffix(".json").read_text(encoding="utf-8"))
    s = structure(html, gold)
    empty = {"page": anno.stem, "type": meta.get("page_type"), "alts": 0, "misses": [],
             "kept": {}}
    result = cleaner.clean(html, source=str(anno))
    if len(result.page.blocks) != len(held_page["path"]) or not s.alts:
        return empty
    q = held_page["second"]
    labels = decoding.decide(held_page["path"], held_page["marginals"], result.texts,
                             decoding.layout(result.page.blocks), config,
                             trees=None if q is None else (lambda _: q), bridged=True).labels
    result.labels = labels
    text = fold(result.text())
    md = result.markdown()
    md_read, md_written = fold(markdown_text(md)), fold(md)
    blocks, body = result.page.blocks, result.page.body
    order, parent, images = _walk(body)
    # The blocks' folded texts joined, the alt texts' own blocks left out,
    # and which block each character is of.
    in_img = [any(c.tag == "img" for c in b.containers) for b in blocks]
    joined, owner = [], []
    for i, b in enumerate(blocks):
        if in_img[i]:
            continue
        t = fold(b.text)
        if joined:
            joined.append(" ")
            owner.append(-1)
        joined.append(t)
        owner.extend([i] * len(t))
    flat = "".join(joined)
    block_pos = [order.get((id(b.containers[-1] if b.containers else body), b.start), -1)
                 for b in blocks]
    by_alt: dict[str, list[tuple[Element, int]]] = {}
    for img, host, i in images:
        by_alt.setdefault(fold(img.attrs.get("alt") or ""), []).append((img, order[(id(host), i)]))
    used: Counter = Counter()
    counted = []  # (alt, its image or None, its place, kept by the text)
    for alt in s.alts:
        k = used[alt]
        used[alt] += 1
        cands = by_alt.get(alt, [])
        img, pos = cands[k] if k < len(cands) else (None, -1)
        counted.append((alt, img, pos, alt in text))
    kept_img = {id(img): kept for _, img, _, kept in counted if img is not None}
    misses = []
    for alt, img, pos, kept in counted:
        if kept:
            continue
        rec: dict = {"alt": alt, "in_md": alt in md_read, "as_image": f"![{alt}](" in md_written,
                     "img_in_tree": img is not None}
        chain = _ancestors(img, parent) if img is not None else []
        if img is not None:
            own = [i for i, b in enumerate(blocks) if in_img[i] and b.containers[-1] is img]
            rec["alt_block_kept"] = any(labels[i] != OTHER for i in own)
            rec["in_link"] = any(a.tag == "a" and a.attrs.get("href") for a in chain)
            for a in chain[1:]:
                inside = [kept_img[id(e)] for e in _images_in(a) if id(e) in kept_img]
                if len(inside) >= GRID:
                    rec["grid"] = [sum(inside), len(inside)]
                    break
        occ = []
        at = flat.find(alt)
        while at >= 0:
            ids = sorted({owner[j] for j in range(at, at + len(alt)) if owner[j] >= 0})
            occ.append((ids, sum(labels[j] != OTHER for j in ids) / len(ids),
                        sum(held_page["path"][j] != OTHER for j in ids) / len(ids)))
            at = flat.find(alt, at + 1)
        rec["occurrences"] = len(occ)
        if occ:
            near = min(occ, key=lambda o: abs(block_pos[o[0][0]] - pos) if pos >= 0 else 0)
            rec["best_kept"] = max(o[1] for o in occ)
            rec["near_kept"], rec["near_crf"] = near[1], near[2]
            rec["second"] = None if q is None else float(sum(q[j] for j in near[0]) / len(near[0]))
            rec["near_block"] = blocks[near[0][0]].text[:80]
            if chain:
                held = {id(e) for e in blocks[near[0][0]].containers}
                lca = next((a for a in chain if id(a) in held), body)
                rec["lca"], rec["lca_words"] = lca.tag, _words(lca)
        misses.append(rec)
    kept_by = {"victor text": [alt in text for alt in s.alts],
               "victor markdown": [alt in md_read for alt in s.alts]}
    for name, extract in peers.items():
        out = peer_output(name, extract, html, anno.name)
        read = fold(markdown_text(out) if name.endswith("(markdown)") else out)
        kept_by[name] = [alt in read for alt in s.alts]
    return {**empty, "alts": len(s.alts), "misses": misses, "kept": kept_by}


def _held(labels: str) -> dict:
    return {Path(k).name: v for k, v in json.loads(Path(labels).read_text()).items()}


def collect(labels: str, out: str, pages: list[str] | None, with_peers: bool) -> None:
    from victor.cleaner import Cleaner

    peers = peers_set_up() if with_peers else {}
    config = load_config(DEFAULT_CONFIG)
    held = _held(labels)
    cleaner = Cleaner(config)
    rows = [page_misses(anno, held[anno.name], cleaner, config, peers)
            for anno in sorted(WCXB.glob("*.anno"))
            if (not pages or anno.stem in pages) and anno.name in held]
    Path(out).write_text(json.dumps(rows), encoding="utf-8")


def cause(m: dict) -> str:
    """One cause a miss, first that applies."""
    if not m["occurrences"]:
        return "the words are the image's alone (no text of the page has them)"
    if m["best_kept"] == 1:
        return "the labels keep the words; the text output does not show them"
    if m["best_kept"] > 0:
        return "the words' blocks partly kept"
    if m.get("lca_words") is not None and m["lca_words"] > CARD_WORDS:
        return "the words dropped, in a box of more than 160 words around the image"
    return "the words dropped with the image's own card or caption"


def summary(path: str) -> None:
    rows = json.loads(Path(path).read_text())
    total = sum(r["alts"] for r in rows)
    misses = [(r, m) for r in rows for m in r["misses"]]
    print(f"{total} alt texts on {sum(r['alts'] > 0 for r in rows)} pages, {len(misses)} "
          f"missed by the text ({1 - len(misses) / total:.3f} kept) on "
          f"{sum(bool(r['misses']) for r in rows)} pages")
    print("\ncauses:")
    for c, n in Counter(cause(m) for _, m in misses).most_common():
        print(f"  {n:5d}  {c}")
    dropped = [m for _, m in misses if m["occurrences"] and m["best_kept"] < 1]
    print(f"\nof the {len(dropped)} dropped: the CRF's path keeps the nearest copy "
          f"{sum(m['near_crf'] == 1 for m in dropped)}; the image inside a link "
          f"{sum(bool(m.get('in_link')) for m in dropped)}")
    sec = [m["second"] for m in dropped if m.get("second") is not None]
    print("  the trees' probability of the nearest copy: "
          + ", ".join(f"under {b}: {sum(x < b for x in sec)}" for b in (0.1, 0.2, 0.3, 0.4)))
    grids = [m.get("grid") for _, m in misses]
    print(f"  in a grid of {GRID}+ counted images: {sum(g is not None for g in grids)}; the "
          f"text keeps of its other images' alt texts none "
          f"{sum(g is not None and g[0] == 0 for g in grids)}, under half "
          f"{sum(g is not None and 0 < g[0] < (g[1] - 1) / 2 for g in grids)}, half or more "
          f"{sum(g is not None and g[0] >= (g[1] - 1) / 2 > 0 for g in grids)}")
    by_type: dict[str, list[int]] = {}
    for r in rows:
        t = by_type.setdefault(r["type"], [0, 0])
        t[0] += r["alts"]
        t[1] += len(r["misses"])
    print("\nby WCXB's page type: alt texts, misses")
    for t, (a, m) in sorted(by_type.items(), key=lambda x: -x[1][1]):
        print(f"  {t:14s} {a:5d} {m:5d}")
    print("\nthe pages with most misses:")
    for r in sorted(rows, key=lambda r: -len(r["misses"]))[:15]:
        if r["misses"]:
            c = Counter(cause(m) for m in r["misses"]).most_common(1)[0][0]
            print(f"  {r['page']} {r['type']:13s} {len(r['misses']):3d}/{r['alts']:3d}  {c}")
    print(f"\nthe Markdown keeps {sum(m['in_md'] for _, m in misses)} of the text's misses")
    names = sorted({n for r in rows for n in r.get("kept", {})})
    if len(names) <= 2:
        return
    types = sorted(by_type, key=lambda t: -by_type[t][0])
    print("\nkept by each system, by page type:")
    print(" " * 28 + " ".join(f"{t[:10]:>10s}" for t in types) + "        all")
    for n in names:
        cells = []
        for t in [*types, None]:
            ks = [k for r in rows if t in (None, r["type"]) for k in r["kept"].get(n, [])]
            cells.append(f"{sum(ks) / max(len(ks), 1):10.3f}")
        print(f"  {n:26s}" + " ".join(cells))
    print("\nof Victor's text's misses, kept by:")
    for n in names:
        pairs = [(k, v) for r in rows if r["kept"]
                 for k, v in zip(r["kept"][n], r["kept"]["victor text"])]
        print(f"  {n:26s} {sum(k and not v for k, v in pairs):4d}   "
              f"(and misses {sum(v and not k for k, v in pairs)} that Victor's text keeps)")


# --- grid ------------------------------------------------------------------------

def _says(el: Element, look: int = 400) -> bool:
    """Whether `el` holds an image with alt text, within `look` nodes."""
    stack: list = [el]
    while stack and look:
        look -= 1
        e = stack.pop()
        if isinstance(e, Element):
            if e.tag == "img" and any(c.isalnum() for c in e.attrs.get("alt", "")):
                return True
            stack.extend(e.children)
    return False


def grids(blocks) -> list[list[list[int]]]:
    """Each grid of cards on the page, as its cards' blocks: a grid is an
    element with GRID or more children of one tag each holding an image
    with alt text; a block belongs to the nearest grid around it."""
    memo: dict[int, set[str]] = {}

    def card_tags(grid: Element) -> set[str]:
        if id(grid) not in memo:
            by_tag: dict[str, list[Element]] = {}
            for c in grid.children:
                if isinstance(c, Element):
                    by_tag.setdefault(c.tag, []).append(c)
            memo[id(grid)] = {t for t, cs in by_tag.items()
                              if len(cs) >= GRID and sum(map(_says, cs)) >= GRID}
        return memo[id(grid)]

    found: dict[int, dict[int, list[int]]] = {}
    for b in blocks:
        cs = b.containers
        for k in range(len(cs) - 1, 0, -1):
            if cs[k].tag in card_tags(cs[k - 1]):
                found.setdefault(id(cs[k - 1]), {}).setdefault(id(cs[k]), []).append(b.id)
                break
    return [list(cards.values()) for cards in found.values()]


def grid_step(labels: Sequence[str], marginals: Sequence, found: list[list[list[int]]],
              share: float) -> list[str]:
    """The labels with each grid whose cards are kept `share` or more
    (a card is kept when a block of it is) kept whole."""
    out = list(labels)
    for cards in found:
        kept = [any(out[i] != OTHER for i in card) for card in cards]
        if len(cards) >= GRID and sum(kept) >= share * len(cards) and not all(kept):
            for card, k in zip(cards, kept):
                for i in card if not k else ():
                    out[i] = content_label(marginals[i], i > 0 and out[i - 1] != OTHER)
    return out


def grid_replay(run_path: str, shares: list[float]) -> None:
    """LCS word F1 of CleanEval and Dragnet, WCXB's bag-of-words F1, as
    benchmarks.quality scores the held-out run, with grids kept whole at
    each share."""
    from benchmarks.quality.running import COLLECTIONS, pages_of
    from benchmarks.quality.scoring import score
    from victor.annotation import load_training_page

    started = time.perf_counter()
    run = pickle.loads(Path(run_path).read_bytes())
    config = load_config(DEFAULT_CONFIG)
    root = Path(__file__).resolve().parent.parent
    texts: dict[str, dict[str, str]] = {"shipped": {}, **{str(s): {} for s in shares}}
    changed = Counter()
    for name, p in run["preds"].items():
        page, _ = load_training_page(name, config)
        block_texts = [b.text for b in page.blocks]
        q = run["q"][name]
        labels = decoding.decide(p.path, p.marginals, block_texts, decoding.layout(page.blocks),
                                 config, trees=lambda _: q).labels
        key = str(root / "data" / Path(name).parent.name / Path(name).name)
        texts["shipped"][key] = output.plain_text(block_texts, labels)
        found = grids(page.blocks)
        for s in shares:
            again = grid_step(labels, p.marginals, found, s)
            changed[str(s)] += again != labels
            texts[str(s)][key] = output.plain_text(block_texts, again)
    for variant, by_page in texts.items():
        cells = []
        for c in COLLECTIONS:
            sc = score(pages_of(c, None), by_page)
            cells.append(f"{c} LCS {sc.lcs.f1:.4f} (P {sc.lcs.precision:.3f} R "
                         f"{sc.lcs.recall:.3f}) bag {sc.bag_f1:.4f}")
        print(f"{variant:8s} pages changed {changed[variant]:4d} | " + " | ".join(cells))
    print(f"({time.perf_counter() - started:.0f} s)")


# --- benchmarks.structure with the decision changed ---------------------------------

def structure_with(step: Callable, argv: list[str]) -> int:
    """benchmarks.structure (Victor only) with `step(decision, blocks,
    page_type, path, marginals, texts, found, config, kw)` deciding each page's
    labels in place of victor.decoding.decide."""
    decide, layout, read = decoding.decide, decoding.layout, bench.read_input
    state: dict = {}

    def read_page(path: str) -> bytes:
        meta = Path(path.split(".html")[0] + ".json")
        state["type"] = json.loads(meta.read_text()).get("page_type") if meta.exists() else None
        return read(path)

    def layout_page(blocks):
        state["blocks"] = blocks
        return layout(blocks)

    def decide_page(path, marginals, texts, found, config, **kw):
        return step(decide, state["blocks"], state["type"], path, marginals, texts, found,
                    config, kw)

    bench.read_input, decoding.layout, decoding.decide = read_page, layout_page, decide_page
    try:
        return bench.main([*argv, "--no-peers"])
    finally:
        bench.read_input, decoding.layout, decoding.decide = read, layout, decide


def grid_structure(share: float, labels: str) -> int:
    def step(decide, blocks, _type, path, marginals, texts, found, config, kw):
        d = decide(path, marginals, texts, found, config, **kw)
        d.labels = grid_step(d.labels, marginals, grids(blocks), share)
        return d
    return structure_with(step, ["--labels", labels])


def bars_structure(bars: str, types: set[str], labels: str) -> int:
    keep, add, low = map(float, bars.split(","))

    def step(decide, _blocks, page_type, path, marginals, texts, found, config, kw):
        if page_type in types:
            config = replace(config, second_pass=replace(
                config.second_pass, keep=keep, add=add, lowest_page_bar=low))
        return decide(path, marginals, texts, found, config, **kw)
    return structure_with(step, ["--labels", labels])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--labels", required=True)
    c.add_argument("--out", required=True)
    c.add_argument("--pages", nargs="*", help="WCXB page numbers (all where not given)")
    c.add_argument("--peers", action="store_true", help="also what the structured peers keep")
    s = sub.add_parser("summary")
    s.add_argument("misses")
    g = sub.add_parser("grid")
    g.add_argument("run", help="the held-out run (benchmarks.quality's saved predictions)")
    g.add_argument("shares", nargs="+", type=float)
    g.add_argument("--structure", metavar="LABELS", help="benchmarks.structure at the first share")
    b = sub.add_parser("bars")
    b.add_argument("bars", help="keep,add,lowest-page-bar for the pages of --types")
    b.add_argument("--types", default="collection,listing,forum")
    b.add_argument("--structure", metavar="LABELS", required=True)
    args = ap.parse_args(argv)
    if args.command == "collect":
        collect(args.labels, args.out, args.pages, args.peers)
    elif args.command == "summary":
        summary(args.misses)
    elif args.command == "grid":
        if args.structure:
            return grid_structure(args.shares[0], args.structure)
        grid_replay(args.run, args.shares)
    else:
        return bars_structure(args.bars, set(args.types.split(",")), args.structure)
    return 0


if __name__ == "__main__":
    sys.exit(main())
