"""The keyword walk leaves plain subschemas unvisited (``check._osv_walk._quiet``).

A subschema holding none of the keys the walk reads (``{"type": "string", "example": ...}``)
finds nothing when visited and only joins ``visited``, which the walk reads to return early,
as walking such a leaf does anyway. These tests hold the walk that skips them to the walk that
visits every subschema (the same errors, in the same order, the same declined cases) on
generated documents: shared schemas met again through ``$ref``, ``$ref``s into a plain leaf met
first nested, bad and good defaults, ``allOf`` with ``required``, boolean and odd subschemas;
and to the stock validator on the cases a leaf met again decides.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema_path import SchemaPath
from xcompleteness.check import _osv_walk
from xcompleteness.check._osv_stock import FAST_VALIDATORS
from xcompleteness.check._osv_walk import Undecided, walk_errors
from xcompleteness.check._validate import validate_openapi
from xcompleteness.load import load_spec

NAMES = ["A", "B", "C"]


def _refs(names: list[str]) -> st.SearchStrategy[dict[str, str]]:
    """A ``$ref`` to one of ``names`` or into D or E (no cycle: A reaches only B and C...)."""
    return st.sampled_from(
        [f"#/components/schemas/{n}" for n in names]
        + ["#/components/schemas/D/properties/a", "#/components/schemas/E/items"]
    ).map(lambda ref: {"$ref": ref})


_leaf = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(["string", "integer", "object", "array"]),
        "description": st.just("a leaf"),
        "example": st.sampled_from([1, "x", {"required": ["a"]}]),
        "default": st.sampled_from([1, "x", None, [], {"k": 5}]),
        "nullable": st.booleans(),
        "format": st.sampled_from(["date", "uri"]),
    },
)


def _node(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    names = st.sampled_from(["a", "b", "c"])
    return st.fixed_dictionaries(
        {},
        optional={
            "type": st.sampled_from(["object", "array"]),
            "allOf": st.lists(children, min_size=1, max_size=2),
            "anyOf": st.lists(children, min_size=1, max_size=2),
            "oneOf": st.lists(children, min_size=1, max_size=2),
            "not": children,
            "items": children,
            "properties": st.dictionaries(names, children, max_size=3),
            "required": st.lists(names, min_size=1, max_size=3, unique=True),
            "default": st.sampled_from([1, {"a": 1}, None]),
        },
    )


def _schema(names: list[str], boolean: bool) -> st.SearchStrategy[Any]:
    """Schemas whose ``$ref``s reach ``names`` (and D, E); ``boolean``: a leaf may be ``true``
    (3.1 only: a boolean schema is a structural error in 3.0)."""
    base = [_leaf, _leaf, _refs(names)] + ([st.just(True)] if boolean else [])
    return st.recursive(st.one_of(*base), _node, max_leaves=10)


def _document(
    version: str, schemas: list[Any], bodies: list[Any], leaf: Any = None
) -> dict[str, Any]:
    """Components A, B, C (``schemas``), D and E (``$ref``s reach into them: D's property ``a``
    and E's ``items`` are ``leaf``), an operation per body (a parameter and a response)."""
    paths = {
        f"/p{i}": {
            "get": {
                "parameters": [{"name": "q", "in": "query", "schema": body}],
                "responses": {
                    "200": {
                        "description": "ok",
                        "content": {"application/json": {"schema": body}},
                    }
                },
            }
        }
        for i, body in enumerate(bodies)
    }
    return {
        "openapi": version,
        "info": {"title": "t", "version": "1"},
        "paths": paths,
        "components": {
            "schemas": {
                **dict(zip(NAMES, schemas, strict=True)),
                "D": {"type": "object", "properties": {"a": leaf or {"type": "string"}}},
                "E": {"type": "array", "items": leaf or {"type": "string"}},
            }
        },
    }


def _outcome(data: dict[str, Any], version: str) -> Any:
    try:
        return walk_errors(
            data, version, lambda: FAST_VALIDATORS[version](SchemaPath.from_dict(data))
        )
    except Undecided:
        return Undecided


@st.composite
def _documents(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    version = draw(st.sampled_from(["3.0", "3.1"]))
    schemas = [draw(_schema(NAMES[i + 1 :], version == "3.1")) for i in range(len(NAMES))]
    bodies = draw(st.lists(_schema(NAMES, version == "3.1"), min_size=1, max_size=3))
    written = "3.1.0" if version == "3.1" else "3.0.3"
    return version, _document(written, schemas, bodies, draw(_leaf))


@settings(max_examples=300, deadline=None)
@given(case=_documents())
def test_skipping_plain_leaves_finds_what_visiting_them_finds(
    case: tuple[str, dict[str, Any]],
) -> None:
    version, data = case
    skipping = _outcome(data, version)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_osv_walk, "_quiet", lambda node: False)
        visiting = _outcome(data, version)
    assert skipping == visiting


def _leaf_met_again() -> dict[str, Any]:
    """A plain leaf met first nested (inside A), then as a parameter's schema by ``$ref``, and
    a nested leaf with a bad default beside it (not plain: visited and reported)."""
    return {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/a": {
                "get": {
                    "parameters": [
                        {
                            "name": "q",
                            "in": "query",
                            "schema": {"$ref": "#/components/schemas/A/properties/leaf"},
                        }
                    ],
                    "responses": {
                        "200": {
                            "description": "ok",
                            "content": {
                                "application/json": {"schema": {"$ref": "#/components/schemas/A"}}
                            },
                        }
                    },
                }
            }
        },
        "components": {
            "schemas": {
                "A": {
                    "type": "object",
                    "properties": {
                        "leaf": {"type": "string", "example": "x"},
                        "bad": {"type": "integer", "default": "x"},
                        "list": {"type": "array", "items": {"type": "string"}},
                        # a subschema holding one keyword only, a bad default below it
                        **{
                            f"only_{word}": {word: inner}
                            for word, inner in (
                                ("items", _BAD),
                                ("not", _BAD),
                                ("properties", {"x": _BAD}),
                                ("allOf", [_BAD]),
                                ("anyOf", [_BAD]),
                                ("oneOf", [_BAD]),
                            )
                        },
                        "only_ref": {"$ref": "#/components/schemas/Bad"},
                    },
                },
                "Bad": _BAD,
            }
        },
    }


_BAD = {"type": "integer", "default": "x"}


def test_a_plain_leaf_met_again_by_ref_gives_the_stock_verdict(tmp_path: Path) -> None:
    path = tmp_path / "spec.yaml"
    path.write_text(yaml.safe_dump(_leaf_met_again(), sort_keys=False), encoding="utf-8")
    doc = load_spec(path)
    found = _outcome(doc.data, "3.0")
    assert found is not Undecided
    assert [f.absolute_path[8:] for f in found] == [
        ("properties", "bad"),
        ("properties", "only_items", "items"),
        ("properties", "only_not", "not"),
        ("properties", "only_properties", "properties", "x"),
        ("properties", "only_allOf", "allOf", 0),
        ("properties", "only_anyOf", "anyOf", 0),
        ("properties", "only_oneOf", "oneOf", 0),
        ("properties", "only_ref"),
    ]
    fast, stock = validate_openapi(doc), validate_openapi(doc, speedup=False)
    key = [(d.code, d.pointer, d.message, d.line) for d in fast]
    assert key == [(d.code, d.pointer, d.message, d.line) for d in stock]


def test_a_nested_boolean_leaf_is_still_declined() -> None:
    """A subschema that is no object is visited (not a plain leaf) and declines the walk."""
    data = _document(
        "3.1.0", [{"properties": {"a": True}}, {}, {}], [{"$ref": "#/components/schemas/A"}]
    )
    assert _outcome(data, "3.1") is Undecided
