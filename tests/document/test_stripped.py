"""The declaration-free digest: equal documents give one digest in every process, and documents
that differ outside root/operation ``x-completeness*`` values never share one."""

from __future__ import annotations

import json
import math
import subprocess
import sys

from xcompleteness.document import declaration_free_digest

BASE = {
    "openapi": "3.1.0",
    "x-completeness-defaults": {"scope": {"visibility": "v"}},
    "paths": {"/a": {"get": {"x-completeness": {"kind": "collection"}, "responses": {}}}},
    "components": {"schemas": {"S": {"type": "integer", "maximum": 1}}},
}


def _with(value: object) -> dict:
    return {**BASE, "components": {"schemas": {"S": {"type": "integer", "maximum": value}}}}


def test_only_our_declarations_are_left_out() -> None:
    digest = declaration_free_digest(BASE, [])
    assert digest is not None
    edited = json.loads(json.dumps(BASE))
    edited["paths"]["/a"]["get"]["x-completeness"] = {"kind": "none", "why": "w"}
    del edited["x-completeness-defaults"]
    assert declaration_free_digest(edited, []) == digest
    # values json.dumps would write alike, or not at all, still tell documents apart
    others = [_with(True), _with(1.0), _with(None), _with(math.nan), _with(-0.0), _with(2**70)]
    digests = {declaration_free_digest(d, []) for d in others}
    assert len(digests) == len(others) and digest not in digests
    keyed = {**BASE, "components": {"schemas": {1: {}}}}
    assert declaration_free_digest(keyed, []) != declaration_free_digest(
        {**BASE, "components": {"schemas": {"1": {}}}}, []
    )


def test_the_digest_is_the_same_in_another_process() -> None:
    probe = (
        "import json, sys\n"
        "from xcompleteness.document import declaration_free_digest\n"
        "print(declaration_free_digest(json.loads(sys.argv[1]), []).hex())\n"
    )
    text = json.dumps(BASE)
    done = subprocess.run(
        [sys.executable, "-c", probe, text], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == declaration_free_digest(json.loads(text), []).hex()


def test_no_digest_where_a_removed_value_could_be_read() -> None:
    into = [("/components/schemas/S", "#/paths/~1a/get/x-completeness")]
    assert declaration_free_digest(BASE, into) is None
    assert declaration_free_digest(BASE, [("/x", "other.json#/S")]) is None
    assert declaration_free_digest(BASE, None) is None
    assert declaration_free_digest({**BASE, "odd": object()}, []) is None
