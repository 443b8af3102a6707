"""One $ref / JSON-pointer resolver (RFC 6901 + percent-decoding) for check, audit and the IR."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.paths import ROOT
from xcompleteness import document
from xcompleteness.check._pipeline import check_spec
from xcompleteness.detect._schema_walk import SchemaWalker
from xcompleteness.ir._build import build_ir

DOC = {
    "components": {
        "schemas": {
            "A B": {"type": "object", "properties": {"id": {"type": "string"}}},
            "a/b~c": {"type": "string"},
            "Alias": {"$ref": "#/components/schemas/A%20B"},
            "Loop": {"$ref": "#/components/schemas/Loop"},
        }
    },
    "list": [{"x": 1}],
}


@pytest.mark.parametrize(
    ("ref", "pointer", "name"),
    [
        ("#/components/schemas/A%20B", "/components/schemas/A B", "A B"),
        ("#/components/schemas/a~1b~0c", "/components/schemas/a~1b~0c", "a/b~c"),
        ("#/components/schemas/a~1b%7E0c", "/components/schemas/a~1b~0c", "a/b~c"),
        ("#/list/0", "/list/0", None),
        ("other.yaml#/components/schemas/A", None, None),
    ],
)
def test_ref_pointer_and_component(ref: str, pointer: str | None, name: str | None) -> None:
    assert document.ref_pointer(ref) == pointer
    assert document.ref_component(ref) == name


def test_every_resolver_reads_a_percent_encoded_ref_the_same_way() -> None:
    target = DOC["components"]["schemas"]["A B"]
    node = {"$ref": "#/components/schemas/A%20B"}
    assert document.resolve_ref(DOC, node["$ref"]) == (True, target)
    assert document.follow_refs(DOC, {"$ref": "#/components/schemas/Alias"}) == (True, target)
    assert document.deref(DOC, node) is target
    assert document.deref_mapping(DOC, node) is target
    assert SchemaWalker(DOC).resolve(node, "/x") == (target, "/components/schemas/A B")
    assert document.deref_at(DOC, {"$ref": "#/components/schemas/Alias"}, "/x") == (
        target,
        "/components/schemas/A B",
    )
    assert document.deref_at(DOC, {"type": "string"}, "/x") == ({"type": "string"}, "/x")
    assert document.follow_refs(DOC, {"$ref": "#/list/0"}) == (True, {"x": 1})
    # a cycle, a dangling and an external ref resolve to nothing, everywhere
    for bad in ("#/components/schemas/Loop", "#/components/schemas/Nope", "x.yaml#/a"):
        assert document.follow_refs(DOC, {"$ref": bad}) == (False, None)
        assert document.deref(DOC, {"$ref": bad}) is None
        assert document.deref_mapping(DOC, {"$ref": bad}) == {}
        assert document.deref_at(DOC, {"$ref": bad}, "/x") is None
        assert SchemaWalker(DOC).resolve({"$ref": bad}, "/x") == ({}, "/x")


# How a module would split an RFC 6901 pointer on its own: unescaping tokens, or cutting the
# leading "/" off the pieces of a split (``rel.split("/")[1:]``).
_SPLITTERS = ('.replace("~1", "/")', ".replace('~1', '/')", 'split("/")[1:]')


def test_one_deref_and_one_pointer_splitter_in_the_generator() -> None:
    """Nothing outside document/ (and the runtime, which cannot import it) follows ``$ref``
    chains or splits and unescapes RFC 6901 pointers on its own -- detect/ (the audit's
    schema walker and list-likeness scan) included -- and nothing slices a component name off a
    ``#/components/schemas/`` string."""
    package = ROOT / "generator" / "xcompleteness"
    derefs, splits = [], []
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package).as_posix()
        if rel.startswith(("document/", "runtime/")):
            continue
        text = path.read_text(encoding="utf-8")
        if "def deref(" in text or "def _deref(" in text:
            derefs.append(rel)
        if any(splitter in text for splitter in _SPLITTERS):
            splits.append(rel)
        if "len(REF_PREFIX)" in text or 'removeprefix("#/components/schemas/")' in text:
            splits.append(rel)
    assert derefs == [] and splits == []


def _spec(items_pointer: str) -> dict:
    listing = {
        "operationId": "listThings",
        "parameters": [{"name": "cursor", "in": "query", "schema": {"type": "string"}}],
        "x-completeness": {
            "kind": "collection",
            "scope": {"resource": "things", "snapshot": "none"},
            "items": f"$response.body#{items_pointer}",
            "pagination": {"style": "cursor", "request": {"cursor": "cursor"}},
            "reasons": ["MORE_PAGES_AVAILABLE"],
        },
        "responses": {
            "200": {
                "description": "ok",
                "content": {
                    "application/json": {"schema": {"$ref": "#/components/schemas/Thing%20Page"}}
                },
            }
        },
    }
    page = {
        "type": "object",
        "properties": {"items": {"type": "array", "items": {"$ref": "#/components/schemas/A%20B"}}},
    }
    return {
        "openapi": "3.0.3",
        "info": {"title": "Refs", "version": "1"},
        "paths": {"/things": {"get": listing}},
        "components": {"schemas": {"Thing Page": page, "A B": DOC["components"]["schemas"]["A B"]}},
    }


def _check(tmp_path: Path, items_pointer: str):
    path = tmp_path / "refs.json"
    path.write_text(json.dumps(_spec(items_pointer)), encoding="utf-8")
    return check_spec(path)


def test_percent_encoded_ref_resolves_identically_in_check_and_the_ir(tmp_path: Path) -> None:
    # check's location rules follow #/components/schemas/Thing%20Page: #/items is found ...
    found = _check(tmp_path, "/items")
    assert [d.code for d in found.diagnostics] == []
    # ... and #/nope is reported missing (an unresolved ref would make it unknown, i.e. silent)
    missing = _check(tmp_path, "/nope")
    assert [d.code for d in missing.diagnostics] == ["XC103"]
    # the IR reads the same ref as the component "A B" (its class), not as an anonymous copy
    ir = build_ir(found, "refs")
    assert [o.item_model for o in ir.operations] == ["AB"]
    assert all(d.code != "XC603" for d in ir.diagnostics)
