"""The quality benchmark, `python3 -m benchmarks.quality` (__main__.py):
running.py trains and predicts (Victor's folds and transfer runs, the
peers), scoring.py scores texts against the gold, tables.py prints the
tables."""
