"""The quality benchmark's printed tables, each a Markdown table of scores
(benchmarks.quality.scoring) of the runs (benchmarks.quality.running)."""

from __future__ import annotations

from dataclasses import replace

from benchmarks.common import table
from benchmarks.quality.running import Page, Run
from benchmarks.quality.scoring import held_out_blocks, score, snippets
from victor import output
from victor.config import Config
from victor.decoding import calibration

THRESHOLDS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
KEEP_ABOVE = (None, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5)
FALLBACK_SHARES = (0.0, 0.03, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0)


def quality_table(pages: dict[str, list[Page]], systems: dict[str, dict[str, str]]) -> str:
    rows = []
    for collection, ps in pages.items():
        for name, texts in systems.items():
            if not all(p.anno in texts for p in ps):
                continue
            s = score(ps, texts)
            rows.append([collection, name, s.pages, s.empty, s.lcs.precision, s.lcs.recall,
                         s.lcs.f1, s.bag_f1])
    return table(["collection", "system", "pages", "empty", "LCS word P", "LCS word R",
                  "LCS word F1", "bag-of-words F1"], rows)


def page_type_table(ps: list[Page], systems: dict[str, dict[str, str]]) -> str:
    kinds = sorted({p.page_type for p in ps})
    names = [n for n, texts in systems.items() if all(p.anno in texts for p in ps)]
    rows = []
    for kind in kinds + ["all"]:
        sel = [p for p in ps if kind in ("all", p.page_type)]
        rows.append([kind, len(sel)] + [score(sel, systems[n]).bag_f1 for n in names])
    rows.append(["`with` found", ""] + [snippets(ps, systems[n])[0] for n in names])
    rows.append(["`without` kept", ""] + [snippets(ps, systems[n])[1] for n in names])
    return table(["page type", "pages"] + names, rows)


def transfer_table(pages: dict[str, list[Page]], moved: dict[tuple[str, str], Run],
                   peers: dict[str, dict[str, str]]) -> str:
    rows = []
    for (trained, tested), run in sorted(moved.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        s = score(pages[tested], run.texts)
        rows.append([trained, tested, s.lcs.f1, s.bag_f1])
    for tested, ps in pages.items():
        for name in ("trafilatura", "readability"):
            if name in peers:
                s = score(ps, peers[name])
                rows.append([f"({name})", tested, s.lcs.f1, s.bag_f1])
    return table(["trained on", "tested on", "LCS word F1", "bag-of-words F1"], rows)


def calibration_table(pages: dict[str, list[Page]], run: Run, fitted: dict[str, float]) -> str:
    """Expected calibration error and log loss of each collection's blocks:
    as the folds' models give them, at the temperature fitted on the other
    collections, and at the one fitted on all."""
    rows = []
    for collection, ps in pages.items():
        probabilities, content = held_out_blocks(ps, run)
        row = [collection]
        for t in (1.0, fitted.get(collection), fitted["all"]):
            if t is None:
                row.append("-")
                continue
            scaled = calibration.scaled(probabilities, t)
            row.append(f"{calibration.expected_error(scaled, content):.3f} / "
                       f"{calibration.log_loss(scaled, content):.3f}")
        rows.append(row)
    return table(["collection (error / log loss)", "uncalibrated",
                  "temperature of the other collections", f"temperature of all ({fitted['all']:.2f})"],
                 rows)


def reliability_table(pages: dict[str, list[Page]], run: Run, temperature: float) -> str:
    """Blocks by content-probability band, and the share of them the gold
    keeps, before and after calibration: calibrated probabilities have the
    share inside the band."""
    bands = [i / 10 for i in range(11)]
    rows = []
    for collection, ps in pages.items():
        probabilities, content = held_out_blocks(ps, run)
        for name, t in (("", 1.0), (f" at {temperature:.2f}", temperature)):
            counts = calibration.reliability(calibration.scaled(probabilities, t), content)
            rows.append([collection + name] + [f"{k / n:.2f} ({n})" if n else "-" for n, k in counts])
    return table(["collection"] + [f"{a:.1f}-{b:.1f}" for a, b in zip(bands, bands[1:])], rows)


def threshold_table(pages: dict[str, list[Page]], run: Run, config: Config,
                    temperature: float) -> str:
    """Word precision and recall (LCS) when only content blocks with at
    least this calibrated probability are kept (`victor clean --threshold`)."""
    rows = []
    for collection, ps in pages.items():
        cells = []
        for t in THRESHOLDS:
            texts = {p.anno: output.plain_text(run.block_texts[p.anno], run.decided(
                p.anno, config, threshold=t, temperature=temperature)) for p in ps}
            s = score(ps, texts)
            cells.append(f"{s.lcs.precision:.3f} / {s.lcs.recall:.3f}")
        rows.append([collection] + cells)
    return table(["collection (P / R)"] + [f"≥{t}" for t in THRESHOLDS], rows)


def decoding_table(pages: dict[str, list[Page]], run: Run, config: Config) -> str:
    """Each collection's word F1 (LCS / bag-of-words) and WCXB's by page
    type when the same held-out predictions are decided (victor.decoding.decide,
    without a second pass) with other values of the config's `keep-above`
    (its fallback-share kept) and of its `fallback-share` (its keep-above kept).
    "-": no keep-above."""
    kinds = sorted({p.page_type for p in pages.get("wcxb-dev", [])})
    settings = [(f"keep-above {bar if bar is not None else '-'}", bar, config.fallback_share)
                for bar in KEEP_ABOVE]
    settings += [(f"fallback-share {share}", config.keep_above, share) for share in FALLBACK_SHARES]
    rows = []
    for name, bar, share in settings:
        texts = {}
        for ps in pages.values():
            for p in ps:
                labels = run.decided(p.anno, replace(config, keep_above=bar, fallback_share=share,
                                                     second_pass=None))
                texts[p.anno] = output.plain_text(run.block_texts[p.anno], labels)
        row = [name]
        for ps in pages.values():
            s = score(ps, texts)
            row.append(f"{s.lcs.f1:.3f} / {s.bag_f1:.3f}")
        if "wcxb-dev" in pages:
            row += [score([p for p in pages["wcxb-dev"] if p.page_type == k], texts).bag_f1
                    for k in kinds]
        rows.append(row)
    return table(["decoding"] + [f"{c} (LCS / BoW)" for c in pages] + kinds, rows)

