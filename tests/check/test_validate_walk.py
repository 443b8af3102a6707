"""The keyword walk over the plain document (check/_osv_walk.py) gives the stock verdicts.

Each case is a structurally valid document (so the walk decides it rather than handing it to the
stock walk) with one kind of error only the keyword walk finds; the stock validator is the
oracle: same codes, pointers, messages and lines. The cases that must be declined are checked to
be declined, and still give the stock verdict.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema_path import SchemaPath
from xcompleteness.check._osv_stock import FAST_VALIDATORS
from xcompleteness.check._osv_walk import Undecided, walk_errors
from xcompleteness.check._validate import validate_openapi
from xcompleteness.load import load_spec

OK = {"200": {"description": "ok"}}


def _spec(version: str, paths: dict[str, Any], schemas: dict[str, Any] | None = None, **kw: Any):
    doc: dict[str, Any] = {"openapi": version, "info": {"title": "t", "version": "1"}}
    doc |= kw
    doc["paths"] = paths
    if schemas is not None:
        doc["components"] = {"schemas": schemas}
    return doc


def _json(schema: Any) -> dict[str, Any]:
    return {"200": {"description": "ok", "content": {"application/json": {"schema": schema}}}}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _cases(v: str) -> dict[str, dict[str, Any]]:
    q = {"name": "q", "in": "query", "schema": {"type": "string"}}
    q2 = {"name": "q", "in": "query", "schema": {"type": "integer"}}  # unique as an object
    return {
        "duplicate operationId": _spec(
            v,
            {
                "/a": {"get": {"operationId": "x", "responses": OK}},
                "/b": {"get": {"operationId": "x", "responses": OK}},
            },
        ),
        "duplicate parameter": _spec(v, {"/a": {"get": {"parameters": [q, q2], "responses": OK}}}),
        "duplicate path-level parameter": _spec(
            v, {"/a": {"parameters": [q, q2], "get": {"responses": OK}}}
        ),
        "unresolved path parameters": _spec(
            v,
            {
                "/a/{id}/{other}": {
                    "parameters": [
                        {"name": "zz", "in": "path", "required": True, "schema": {"type": "string"}}
                    ],
                    "get": {"responses": OK},
                    "put": {
                        "parameters": [
                            {
                                "name": "id",
                                "in": "path",
                                "required": True,
                                "schema": {"type": "string"},
                            }
                        ],
                        "responses": OK,
                    },
                }
            },
        ),
        "duplicate tags": _spec(
            v, {}, tags=[{"name": "a"}, {"name": "b"}, {"name": "a", "description": "again"}]
        ),
        "required names not defined under allOf": _spec(
            v,
            {"/a": {"get": {"responses": _json(_ref("Top"))}}},
            {
                "Top": {
                    "allOf": [_ref("Base"), {"properties": {"b": {"type": "string"}}}],
                    "required": ["a", "b", "c", "d", "e"],
                },
                "Base": {"type": "object", "properties": {"a": {"type": "string"}}},
            },
        ),
        "bad defaults, nested and through $ref": _spec(
            v,
            {
                "/a": {
                    "get": {
                        "parameters": [
                            {
                                "name": "n",
                                "in": "query",
                                "schema": {"type": "integer", "default": "x"},
                            }
                        ],
                        "responses": _json(
                            {"type": "object", "properties": {"p": _ref("WithDefault")}}
                        ),
                    }
                }
            },
            {
                "WithDefault": {
                    "type": "object",
                    "properties": {"k": {"type": "string"}},
                    "default": {"k": 5},
                },
                "Null": {"type": "string", "default": None},
            },
        ),
        "meta-check errors at the entry points": _spec(
            v,
            {"/a": {"get": {"responses": _json(_ref("Bad"))}}},
            {"Bad": {"type": "string", "pattern": "(?<name>a)"}, "Good": {"type": "string"}},
        ),
        "shared schemas visited once, first path wins": _spec(
            v,
            {
                "/a": {"get": {"responses": _json({"items": _ref("Shared"), "type": "array"})}},
                "/b": {"get": {"responses": _json(_ref("Shared"))}},
            },
            {
                "Shared": {
                    "allOf": [{"properties": {"x": {"type": "string"}}}],
                    "properties": {"y": {"type": "string", "default": 3}},
                    "required": ["x", "y", "z"],
                }
            },
        ),
        "responses and path items through $ref, extensions skipped": _spec(
            v,
            {
                "/a": {
                    "get": {
                        "responses": {
                            "200": {"$ref": "#/components/responses/R"},
                            "x-note": "not a response",
                        }
                    },
                },
                "x-ext": {"note": 1},
            },
            {"S": {"type": "integer", "default": "no"}},
            **{"x-responses": {}},
        ),
    }


def _shared_holders(v: str) -> dict[str, Any]:
    """A ``$ref``'d response and parameter met by three operations. The first meeting reports
    the meta error of Bad's schema and stops there, so the stock walk enters that schema at the
    next meeting (meta-checked, not visited) and reports its nested default error there; Good
    and P are reported once and then only met again (the walk skips what met cleanly)."""
    bad_schema = {
        "type": "object",
        "pattern": "(?<name>a)",
        "properties": {"n": {"type": "integer", "default": "x"}},
    }
    op = {
        "parameters": [
            {"$ref": "#/components/parameters/P"},
            {"$ref": "#/components/parameters/Q"},
        ],
        "responses": {
            "200": {"$ref": "#/components/responses/Bad"},
            "400": {"$ref": "#/components/responses/Good"},
        },
    }
    data = _spec(v, {"/a": {"get": op}, "/b": {"get": op, "post": op}}, {"S": {"type": "string"}})
    data["components"]["parameters"] = {
        "P": {"name": "p", "in": "query", "schema": {"type": "integer", "default": "x"}},
        "Q": {"name": "q", "in": "query", "schema": {"type": "string", "pattern": "(?<q>a)"}},
    }
    data["components"]["responses"] = {
        "Bad": {"description": "b", "content": {"application/json": {"schema": bad_schema}}},
        "Good": _json(_ref("S"))["200"],
    }
    return data


def _written_alike(v: str) -> dict[str, Any]:
    """Inline parameter schemas written the same way under several operations (as Microsoft
    Graph writes its query options): the clean ones are walked once, every error is reported
    at each place it is written (a bad default, an ``allOf`` whose ``required`` names nothing)."""

    def params() -> list[dict[str, Any]]:  # fresh objects each time: no YAML aliases
        return [
            {"name": "top", "in": "query", "schema": {"type": "integer", "minimum": 0}},
            {"name": "bad", "in": "query", "schema": {"type": "integer", "default": "x"}},
            {
                "name": "all",
                "in": "query",
                "schema": {"allOf": [{"type": "object"}], "required": ["zz"]},
            },
            {
                "name": "sel",
                "in": "query",
                "schema": {"type": "array", "items": {"enum": ["a", "b"], "type": "string"}},
            },
        ]

    paths = {f"/{n}": {"get": {"parameters": params(), "responses": OK}} for n in "abc"}
    return _spec(v, paths)


def _with_response_component(data: dict[str, Any]) -> dict[str, Any]:
    if "/a" in data["paths"] and "x-ext" in data["paths"]:
        data["components"]["responses"] = {"R": _json(_ref("S"))["200"]}
    return data


CASES = {
    f"{name} {v}": _with_response_component(data)
    for v in ("3.0.3", "3.1.0")
    for name, data in (
        *_cases(v).items(),
        ("shared holders met again", _shared_holders(v)),
        ("parameter schemas written alike", _written_alike(v)),
    )
}


def _key(diags: list) -> list:
    return [(d.code, d.pointer, d.message, d.line) for d in diags]


def _load(tmp_path: Path, data: dict[str, Any]):
    path = tmp_path / "spec.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return load_spec(path)


def _walk(doc) -> list:
    version = str(doc.data["openapi"])[:3]
    return walk_errors(
        doc.data, version, lambda: FAST_VALIDATORS[version](SchemaPath.from_dict(doc.data))
    )


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_walk_decides_and_matches_the_stock_validator(name: str, tmp_path: Path) -> None:
    doc = _load(tmp_path, CASES[name])
    found = _walk(doc)  # decided: raises Undecided otherwise
    assert found, "each case holds at least one error only the keyword walk finds"
    fast, stock = validate_openapi(doc), validate_openapi(doc, speedup=False)
    assert _key(fast) == _key(stock)
    assert fast


def test_pointers_follow_the_walk_through_refs(tmp_path: Path) -> None:
    doc = _load(tmp_path, CASES["shared schemas visited once, first path wins 3.0.3"])
    pointers = {d.pointer for d in validate_openapi(doc)}
    # Shared is reached first under /a's array items: its errors are found there, once. The
    # walk enters it as a nested schema, so (as in the stock walk) its required list is not
    # checked there, and not again under /b or in components: visited. The error is named
    # where it is written (through the $ref), at the default the validator checked.
    assert pointers == {"/components/schemas/Shared/properties/y/default"}


@pytest.mark.parametrize("version", ["3.0.3", "3.1.0"])
def test_shared_holders_report_what_the_stock_walk_reports_at_each_meeting(
    version: str, tmp_path: Path
) -> None:
    doc = _load(tmp_path, _shared_holders(version))
    fast = _key(validate_openapi(doc))
    assert fast == _key(validate_openapi(doc, speedup=False))
    pointers = [pointer for _, pointer, _, _ in fast]
    bad = "/components/responses/Bad/content/application~1json/schema"
    # the meta error at the first meeting, the nested default error at the second, then
    # nothing; each named where it is written (the component the operations' $refs reach)
    assert [p for p in pointers if bad in p] == [f"{bad}/pattern", f"{bad}/properties/n/default"]
    assert pointers.count("/components/parameters/P/schema/default") == 1  # P: once
    assert pointers.count("/components/parameters/Q/schema/pattern") == 1  # Q: once


@pytest.mark.parametrize("version", ["3.0.3", "3.1.0"])
def test_a_schema_written_alike_reports_at_each_place(version: str, tmp_path: Path) -> None:
    doc = _load(tmp_path, _written_alike(version))
    fast = _key(validate_openapi(doc))
    assert fast == _key(validate_openapi(doc, speedup=False))
    pointers = [pointer for _, pointer, _, _ in fast]
    for n in "abc":
        assert f"/paths/~1{n}/get/parameters/1/schema/default" in pointers  # the bad default
        assert f"/paths/~1{n}/get/parameters/2/schema" in pointers  # required names nothing
    assert not [p for p in pointers if "parameters/0" in p or "parameters/3" in p]


def test_a_node_of_a_schema_written_alike_met_again_by_ref(tmp_path: Path) -> None:
    """A ``$ref`` into the second of two parameter schemas written alike reaches a node the
    stock walk visited there (nested: its ``allOf``'s ``required`` list unchecked), so it is
    skipped at the ``$ref`` too: a schema holding ``allOf`` is walked at every place."""
    nested = {"allOf": [{"type": "object"}], "required": ["zz"]}

    def param() -> dict[str, Any]:
        return {
            "name": "p",
            "in": "query",
            "schema": {"type": "array", "items": json.loads(json.dumps(nested))},
        }

    paths = {f"/{n}": {"get": {"parameters": [param()], "responses": OK}} for n in "ab"}
    data = _spec("3.0.3", paths, {"X": {"$ref": "#/paths/~1b/get/parameters/0/schema/items"}})
    doc = _load(tmp_path, data)
    assert _walk(doc) == []  # decided, and nothing found: the stock walk finds nothing either
    assert _key(validate_openapi(doc)) == _key(validate_openapi(doc, speedup=False)) == []


DECLINED = {
    "structural error": _spec("3.0.3", {"/a": {"get": {"responses": 12}}}),
    "boolean schema": _spec("3.1.0", {"/a": {"get": {"responses": _json(_ref("T"))}}}, {"T": True}),
    "unbalanced braces in a path": _spec("3.0.3", {"/a/{b": {"get": {"responses": OK}}}),
    "escaped $ref": _spec(
        "3.0.3",
        {"/a": {"get": {"responses": _json({"$ref": "#/components/schemas/A%20B"})}}},
        {"A B": {"type": "string", "default": 1}},
    ),
    "recursive allOf": _spec(
        "3.0.3",
        {"/a": {"get": {"responses": _json(_ref("R"))}}},
        {"R": {"allOf": [_ref("R")], "required": ["q"]}},
    ),
}


@pytest.mark.parametrize("name", sorted(DECLINED))
def test_what_the_walk_declines_goes_to_the_stock_walk(name: str, tmp_path: Path) -> None:
    doc = _load(tmp_path, DECLINED[name])
    with pytest.raises(Undecided):
        _walk(doc)
    assert _key(validate_openapi(doc)) == _key(validate_openapi(doc, speedup=False))
