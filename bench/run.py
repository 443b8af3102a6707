"""``make bench``: run every ``bench/bench_*.py`` in turn and print their reports.

Each benchmark module defines ``main() -> str`` returning a short Markdown report (figures as
ratios against a named peer measured in the same run). Reports are also written to
``bench/results/`` (ignored by git). Pass names to run a subset: ``python bench/run.py check``.
"""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(HERE))
    wanted = set(argv)
    results = HERE / "results"
    results.mkdir(exist_ok=True)
    failed = 0
    for path in sorted(HERE.glob("bench_*.py")):
        name = path.stem.removeprefix("bench_")
        if wanted and name not in wanted:
            continue
        print(f"== bench {name}", flush=True)
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        started = time.perf_counter()
        try:
            spec.loader.exec_module(module)
            report = module.main()
        except Exception as exc:  # a failing bench is reported, the others still run
            failed += 1
            report = f"FAILED: {type(exc).__name__}: {exc}"
        report += f"\n\n(bench {name} took {time.perf_counter() - started:.1f} s)\n"
        print(report, flush=True)
        (results / f"{name}.md").write_text(report, encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
