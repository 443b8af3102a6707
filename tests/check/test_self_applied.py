"""Schemas that apply themselves to the same value: ``XC032`` before the validator runs.

A cycle of ``$ref``s through ``not``/``allOf``/``anyOf``/``oneOf`` with no property or item in
between cannot be validated: jsonschema recursed until ``referencing``'s Rust map panicked (its
hook printed on stderr before ``XC031``). The check reads only the ref pointers the loader
listed; recursive schemas that descend (properties, items) are not cycles.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from support.cli import xc
from xcompleteness.check._validate import validate_openapi
from xcompleteness.load import load_spec


def _doc(schemas: dict[str, Any], version: str = "3.0.3") -> dict[str, Any]:
    return {
        "openapi": version,
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/a": {
                "get": {
                    "responses": {
                        "200": {
                            "description": "ok",
                            "content": {
                                "application/json": {"schema": {"$ref": "#/components/schemas/A"}}
                            },
                        }
                    }
                }
            }
        },
        "components": {"schemas": schemas},
    }


def _codes(tmp_path: Path, data: dict[str, Any]) -> list[tuple[str, str]]:
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(data), encoding="utf-8")
    return [(d.code, d.pointer) for d in validate_openapi(load_spec(spec))]


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


SELF_NOT = _doc({"A": {"not": ref("A"), "default": 1}})


def test_a_schema_that_negates_itself_is_xc032_with_no_panic_on_stderr(tmp_path: Path) -> None:
    spec = tmp_path / "self_not.json"
    spec.write_text(json.dumps(SELF_NOT), encoding="utf-8")
    env = {**os.environ, "RUST_BACKTRACE": "1"}  # a panic would print its whole backtrace
    run = xc("check", str(spec), cwd=tmp_path, timeout=600, env=env)
    assert run.returncode == 1, run.stderr[-2000:]
    assert "error XC032: schema #/components/schemas/A applies itself" in run.stderr
    assert "self_not.json#/components/schemas/A (line 1)" in run.stderr
    assert "hint: no validator can finish such a schema" in run.stderr
    for text in ("panicked", "__eq__", "RecursionError", "Traceback", "XC031"):
        assert text not in run.stderr, run.stderr[-2000:]


@pytest.mark.parametrize(
    ("schemas", "pointer"),
    [
        ({"A": {"not": ref("A")}}, "/components/schemas/A"),
        ({"A": {"allOf": [{"type": "object"}, ref("A")]}}, "/components/schemas/A"),
        ({"A": {"anyOf": [{"type": "string"}, {"not": ref("A")}]}}, "/components/schemas/A"),
        (
            {"A": ref("B"), "B": {"oneOf": [ref("C")]}, "C": {"allOf": [ref("A")]}},
            "/components/schemas/A",
        ),
        # polymorphism written both ways (the validator's own walk recursed on it, default or not)
        (
            {"A": {"oneOf": [ref("Cat")]}, "Cat": {"allOf": [ref("A"), {"type": "object"}]}},
            "/components/schemas/A",
        ),
    ],
)
def test_in_place_cycles_are_found_wherever_they_start(
    tmp_path: Path, schemas: dict[str, Any], pointer: str
) -> None:
    assert _codes(tmp_path, _doc(schemas)) == [("XC032", pointer)]


@pytest.mark.parametrize(
    "schemas",
    [
        {"A": {"type": "object", "properties": {"child": ref("A")}}},  # a tree: descends
        {"A": {"type": "array", "items": ref("A")}},
        {"A": {"allOf": [ref("B")]}, "B": {"properties": {"up": {"not": ref("A")}}}},
        {"A": {"additionalProperties": {"anyOf": [ref("A")]}}},
        {"A": {"type": "object", "properties": {"not": ref("A")}}},  # a property named not
        {"A": {"oneOf": [ref("Cat")]}, "Cat": {"allOf": [{"type": "object"}]}},  # no way back
    ],
)
def test_recursion_that_descends_is_no_cycle(tmp_path: Path, schemas: dict[str, Any]) -> None:
    assert _codes(tmp_path, _doc(schemas)) == []


def test_in_3_0_a_refs_siblings_are_ignored_and_in_3_1_they_apply(tmp_path: Path) -> None:
    schemas = {"A": {"$ref": "#/components/schemas/B", "not": ref("A")}, "B": {"type": "object"}}
    assert _codes(tmp_path, _doc(schemas, "3.0.3")) == []
    assert _codes(tmp_path, _doc(schemas, "3.1.0")) == [("XC032", "/components/schemas/A")]


def test_3_1_conditionals_apply_in_place(tmp_path: Path) -> None:
    schemas = {"A": {"if": {"type": "object"}, "then": ref("A")}}
    assert _codes(tmp_path, _doc(schemas, "3.1.0")) == [("XC032", "/components/schemas/A")]


def test_a_long_chain_is_one_diagnostic_and_no_recursion(tmp_path: Path) -> None:
    n = 5000  # deeper than Python's recursion limit: the search is iterative
    schemas = {f"S{i}": {"allOf": [ref(f"S{(i + 1) % n}")]} for i in range(n)}
    schemas["A"] = ref("S0")
    found = _codes(tmp_path, _doc(schemas))
    assert found == [("XC032", "/components/schemas/S0")]


def test_a_ref_to_a_ref_closes_a_cycle_in_3_1_where_siblings_apply(tmp_path: Path) -> None:
    """``B`` is both a ``$ref`` (to ``A``) and, in 3.1, applies its ``not`` in place."""
    schemas = {
        "A": {"allOf": [ref("B")]},
        "B": {"$ref": "#/components/schemas/A", "not": ref("C")},
        "C": {"type": "object"},
    }
    assert _codes(tmp_path, _doc(schemas, "3.1.0")) == [("XC032", "/components/schemas/A")]
    assert _codes(tmp_path, _doc(schemas, "3.0.3")) == [("XC032", "/components/schemas/A")]


def test_a_key_with_a_line_break_does_not_hide_a_cycle(tmp_path: Path) -> None:
    schemas = {"A\nB": {"not": ref("A%0AB")}}
    assert _codes(tmp_path, _doc(schemas)) == [("XC032", "/components/schemas/A\nB")]
