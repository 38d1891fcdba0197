"""Data flows one way: each stage imports only the stages before it (and
the foundation every stage shares), the packages around the stages import
one another without a cycle, and a stage imported alone loads nothing of
the stages after it. Imports are read from the source: those at a
module's top level, not those under TYPE_CHECKING (type hints only) or
inside a function (loaded when called)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The stages in the order a page flows through them (docs/pipeline.md).
STAGES = ("reading", "features", "crf", "decoding", "page_type", "second_pass", "output")
# What every stage may use: errors, labels, the settings' table and the
# configs built on it, files, wildcards, the feature columns' container, the
# boosters' C API, the collector's pause and the switch to the compiled
# twins (victor/compiled/switch.py imports nothing of victor; each twin
# is loaded through its own stage's module).
FOUNDATION = ("errors", "labels", "settings", "config", "files", "wildcards", "columns",
              "boosters", "collector", "compiled")


def _top_imports(body: list[ast.stmt]) -> set[str]:
    found: set[str] = set()
    for node in body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        if isinstance(node, (ast.If, ast.Try)):
            found |= _top_imports(node.body) | _top_imports(node.orelse)
            for handler in getattr(node, "handlers", []):
                found |= _top_imports(handler.body)
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found |= ({f"victor.{a.name}" for a in node.names} if node.module == "victor"
                      else {node.module})
    return found


def package_imports(root: Path = ROOT) -> dict[str, set[str]]:
    """victor's top-level packages and modules, each with the others its
    modules import at their top level."""
    out: dict[str, set[str]] = {}
    for path in sorted((root / "victor").rglob("*.py")):
        part = path.relative_to(root / "victor").parts[0].removesuffix(".py")
        imported = _top_imports(ast.parse(path.read_text(encoding="utf-8")).body)
        out.setdefault(part, set()).update(
            name.split(".")[1] for name in imported
            if name.startswith("victor.") and name.split(".")[1] != part)
    return out


def layering_faults(graph: dict[str, set[str]]) -> list[str]:
    """Each import of a later stage, of a stage by the foundation, and each
    cycle among the packages."""
    faults = []
    for part, imported in graph.items():
        for other in imported:
            if part in FOUNDATION and other not in FOUNDATION:
                faults.append(f"{part} (foundation) imports {other}")
            if (part in STAGES and other in STAGES
                    and STAGES.index(other) > STAGES.index(part)):
                faults.append(f"{part} imports {other}, a later stage")
            if part in STAGES and other not in STAGES + FOUNDATION:
                faults.append(f"{part} (a stage) imports {other}, which is around the stages")
    done: set[str] = set()

    def visit(part: str, path: list[str]) -> None:
        if part in path:
            faults.append("cycle: " + " -> ".join(path[path.index(part):] + [part]))
            return
        if part in done:
            return
        for other in sorted(graph.get(part, ())):
            visit(other, path + [part])
        done.add(part)

    for part in sorted(graph):
        visit(part, [])
    return faults


def test_each_stage_imports_only_earlier_ones_and_nothing_imports_in_a_cycle() -> None:
    assert layering_faults(package_imports()) == []


def test_a_later_stage_or_a_cycle_brought_back_is_found() -> None:
    graph = package_imports()
    assert layering_faults({**graph, "reading": graph["reading"] | {"decoding"}}) == [
        "reading imports decoding, a later stage", "cycle: reading -> decoding -> reading"]
    with_cycle = {**graph, "config": graph["config"] | {"model"}}
    faults = layering_faults(with_cycle)
    assert "config (foundation) imports model" in faults
    assert any(f.startswith("cycle: ") and "model" in f for f in faults)


def test_reading_alone_loads_no_crf_decoding_or_second_pass() -> None:
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, victor.reading.page, victor.reading; "
                               "print(' '.join(sorted(sys.modules)))"],
        capture_output=True, text=True, check=True, cwd=ROOT).stdout.split()
    assert not [m for m in loaded if m.startswith(("victor.crf", "victor.decoding",
                                                   "victor.second_pass", "victor.features",
                                                   "victor.config"))]
