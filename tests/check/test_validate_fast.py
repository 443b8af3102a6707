"""The compiled meta-check (jsonschema-rs first, the stock check on anything but a pass) keeps
every verdict of the stock openapi-spec-validator: same diagnostics, pointers and messages.

The fixtures with OpenAPI errors are compared in test_validate.py; here are the cases the fast
path must hand to the stock check, and a property test of the one implication it relies on
(compiled pass => stock pass) over generated schema objects.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema.exceptions import SchemaError
from openapi_schema_validator import OAS30Validator, OAS31Validator
from xcompleteness.check import _osv_speedup as _osv_speedup
from xcompleteness.check._osv_speedup import compiled_meta_check, fast_meta_valid, plain_json
from xcompleteness.check._validate import validate_openapi
from xcompleteness.load import load_spec

INVALID = Path(__file__).resolve().parents[1] / "invalid"


def _key(diags: list) -> list:
    return [(d.code, d.pointer, d.message, d.line) for d in diags]


def _doc(version: str, schemas: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """A document whose one response uses ``#/components/schemas/Top``."""
    return {
        "openapi": version,
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/a": {
                "get": {
                    "operationId": "a",
                    "responses": {
                        "200": {
                            "description": "ok",
                            "content": {
                                "application/json": {"schema": {"$ref": "#/components/schemas/Top"}}
                            },
                        }
                    },
                }
            }
        },
        "components": {"schemas": schemas},
        **extra,
    }


# An invalid schema that is not a component and sits under an extension key, so the document
# schema never looks at it: only the meta-check of the $ref target can find it.
_HIDDEN = {"x-lib": {"Bad": {"type": "strange"}}}

CASES: dict[str, tuple[str, dict[str, Any]]] = {}
for _v in ("3.0.3", "3.1.0"):
    CASES |= {
        f"valid {_v}": (
            _v,
            _doc(_v, {"Top": {"type": "object", "properties": {"n": {"type": "integer"}}}}),
        ),
        f"nested invalid only through $ref {_v}": (
            _v,
            _doc(
                _v,
                {"Top": {"type": "object", "properties": {"x": {"$ref": "#/x-lib/Bad"}}}},
                **_HIDDEN,
            ),
        ),
        f"ref target is the invalid node {_v}": (
            _v,
            {
                **_doc(_v, {"Top": {"type": "object"}}),
                "paths": {
                    "/b": {
                        "get": {
                            "responses": {
                                "200": {
                                    "description": "ok",
                                    "content": {
                                        "application/json": {"schema": {"$ref": "#/x-lib/Bad"}}
                                    },
                                }
                            }
                        }
                    }
                },
                **_HIDDEN,
            },
        ),
        f"$ref with invalid siblings {_v}": (
            _v,
            _doc(
                _v,
                {
                    "Top": {
                        "type": "object",
                        "properties": {
                            "x": {"$ref": "#/components/schemas/Leaf", "type": "strange"}
                        },
                    },
                    "Leaf": {"type": "string"},
                },
            ),
        ),
        f"integral float {_v}": (
            _v,
            _doc(_v, {"Top": {"type": "string", "minLength": 1.0}}),
        ),
        f"python-invalid regex {_v}": (
            _v,
            _doc(_v, {"Top": {"type": "string", "pattern": "(?<name>a)"}}),
        ),
        f"required list empty {_v}": (
            _v,
            _doc(_v, {"Top": {"type": "object", "required": []}}),
        ),
        f"boolean schemas {_v}": (
            _v,
            _doc(_v, {"Top": {"type": "object", "properties": {"a": True}}, "Never": False}),
        ),
        f"invalid default {_v}": (
            _v,
            _doc(_v, {"Top": {"type": "integer", "default": "x"}}),
        ),
    }
CASES |= {
    "3.1 $schema draft-07": (
        "3.1.0",
        _doc(
            "3.1.0",
            {"Top": {"$schema": "http://json-schema.org/draft-07/schema#", "type": "strange"}},
        ),
    ),
    "3.1 $schema unknown": (
        "3.1.0",
        _doc("3.1.0", {"Top": {"$schema": "https://example.invalid/dialect", "type": "object"}}),
    ),
    "3.1 jsonSchemaDialect 2020-12": (
        "3.1.0",
        _doc(
            "3.1.0",
            {"Top": {"type": "object", "discriminator": 5}},
            jsonSchemaDialect="https://json-schema.org/draft/2020-12/schema",
        ),
    ),
    "3.1 nested discriminator ($dynamicRef)": (
        "3.1.0",
        _doc("3.1.0", {"Top": {"type": "object", "properties": {"a": {"discriminator": 5}}}}),
    ),
    "3.1 $anchor with a final newline": (
        "3.1.0",
        _doc("3.1.0", {"Top": {"type": "object", "$anchor": "a\n"}}),
    ),
    "3.1 type list": (
        "3.1.0",
        _doc("3.1.0", {"Top": {"type": ["string", "null"], "pattern": "^a$"}}),
    ),
    "3.0 nullable and discriminator": (
        "3.0.3",
        _doc(
            "3.0.3",
            {"Top": {"type": "object", "nullable": True, "discriminator": {"propertyName": "k"}}},
        ),
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_fast_and_stock_verdicts_are_identical(name: str, tmp_path: Path) -> None:
    _, data = CASES[name]
    path = tmp_path / "spec.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    doc = load_spec(path)
    fast, stock = validate_openapi(doc), validate_openapi(doc, speedup=False)
    assert _key(fast) == _key(stock)
    if name.startswith("valid"):
        assert fast == []


def test_the_crafted_cases_do_find_errors(tmp_path: Path) -> None:
    """The comparison above is only worth something if the stock validator fails most cases.

    Not among them: an invalid schema reached only through a ``$ref`` *nested* in another schema.
    The stock validator visits nested schemas with ``meta_checked=True`` and never meta-checks
    them on their own; the fast path changes nothing there (that case is compared above too).
    """
    failing = set()
    for name, (_, data) in CASES.items():
        path = tmp_path / f"{len(failing)}-{abs(hash(name))}.yaml"
        path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
        if validate_openapi(load_spec(path)):
            failing.add(name)
    assert "ref target is the invalid node 3.0.3" in failing
    assert "ref target is the invalid node 3.1.0" in failing
    assert "nested invalid only through $ref 3.0.3" not in failing
    assert "3.1 nested discriminator ($dynamicRef)" in failing
    assert "python-invalid regex 3.0.3" in failing
    assert "boolean schemas 3.0.3" in failing
    assert len(failing) >= 12


def test_fixture_verdicts_are_identical() -> None:
    """Every committed fixture that loads: tests/invalid and tests/check/specs."""
    specs = sorted(INVALID.glob("*/spec.yaml")) + sorted(
        (Path(__file__).parent / "specs").glob("*.yaml")
    )
    compared = 0
    for spec in specs:
        try:
            doc = load_spec(spec)
        except Exception:  # noqa: BLE001 - unusable input never reaches the validator
            continue
        assert _key(validate_openapi(doc)) == _key(validate_openapi(doc, speedup=False)), spec
        compared += 1
    assert compared >= 20


def test_the_fast_path_is_live_and_declines_what_it_cannot_decide() -> None:
    """A regression guard: without this the comparisons pass trivially with the fast path off."""
    v30, v31 = compiled_meta_check("3.0"), compiled_meta_check("3.1")
    assert v30 is not None and v31 is not None
    ordinary = {"type": "object", "properties": {"a": {"type": "string", "pattern": "^[a-z]+$"}}}
    assert fast_meta_valid(v30, ordinary) and fast_meta_valid(v31, ordinary)
    for declined in (
        {"type": "strange"},
        {"minLength": 1.0},
        {"minimum": float("nan")},
        {"maximum": 2**70},
        {"pattern": "(?<name>a)"},
        True,
        False,
        ["not", "a", "schema"],
    ):
        assert not fast_meta_valid(v30, declined), declined
    assert not fast_meta_valid(v31, {"properties": {"a": {"discriminator": 5}}})
    assert not plain_json({1: "non-string key"})


def test_fast_path_off_without_jsonschema_rs(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(_osv_speedup, "jsonschema_rs", None)
    monkeypatch.setattr(_osv_speedup, "_COMPILED", {})
    assert compiled_meta_check("3.0") is None
    _, data = CASES["ref target is the invalid node 3.0.3"]
    path = tmp_path / "spec.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    doc = load_spec(path)
    assert _key(validate_openapi(doc)) == _key(validate_openapi(doc, speedup=False)) != []


# --------------------------------------------------------------------------------------------
# The implication the fast path rests on, over generated schema objects.

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from([0.5, -1.5, 1.0, 0.0, 2**64, 2**70]),
    st.sampled_from(["", "a", "string", "object", "integer", "(", "(?<n>a)", "^a$", "a\n"]),
)
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["a", "b", "$ref"]), inner)
    ),
    max_leaves=6,
)
_KEYWORDS = [
    "type", "format", "pattern", "minLength", "maximum", "exclusiveMinimum", "multipleOf",
    "required", "enum", "items", "properties", "additionalProperties", "allOf", "oneOf", "not",
    "nullable", "discriminator", "default", "$ref", "$anchor", "const", "prefixItems", "$defs",
    "dependentRequired", "uniqueItems", "minItems", "xml", "externalDocs", "example",
]  # fmt: skip
_schemas = st.recursive(
    st.dictionaries(st.sampled_from(_KEYWORDS), _values, max_size=4),
    lambda inner: st.one_of(
        st.dictionaries(st.sampled_from(["properties", "$defs"]), st.dictionaries(
            st.sampled_from(["p", "q"]), inner, max_size=2), max_size=1),
        st.dictionaries(st.sampled_from(["items", "not", "additionalProperties"]), inner,
                        max_size=2),
        st.dictionaries(st.sampled_from(["allOf", "anyOf", "prefixItems"]),
                        st.lists(inner, max_size=2), max_size=1),
    ),
    max_leaves=5,
)  # fmt: skip


def _stock_valid(version: str, schema: Any) -> bool:
    cls = OAS30Validator if version == "3.0" else OAS31Validator
    try:
        cls.check_schema(copy.deepcopy(schema), format_checker=cls.FORMAT_CHECKER)
    except SchemaError:
        return False
    return True


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schema=_schemas)
def test_a_compiled_pass_is_a_stock_pass(schema: dict[str, Any]) -> None:
    for version in ("3.0", "3.1"):
        if fast_meta_valid(compiled_meta_check(version), schema):
            assert _stock_valid(version, schema), (version, schema)


# --------------------------------------------------------------------------------------------
# Child lookups without pathable's Protocol check.


def _lookup(node: Any, part: Any) -> tuple[str, Any]:
    from jsonschema_path.nodes import SchemaNode

    try:
        return "ok", SchemaNode._get_subnode(node, part)
    except Exception as exc:  # noqa: BLE001 - the exception type and args are the outcome
        return type(exc).__name__, exc.args


def test_fast_child_lookups_answer_like_the_stock_method_and_are_removed_after() -> None:
    from jsonschema_path.nodes import SchemaNode
    from xcompleteness.check._osv_speedup import fast_child_lookups

    probes = [
        ({"a": 1}, "a"),
        ({"a": 1}, "b"),
        ([1, 2], 1),
        ([1, 2], 5),
        ([1, 2], "x"),
        ("text", 0),
        (5, "a"),
        (None, "a"),
    ]
    stock = [_lookup(n, p) for n, p in probes]
    with fast_child_lookups():
        assert "_get_subnode" in SchemaNode.__dict__  # installed
        with fast_child_lookups():  # nested use keeps it installed
            pass
        assert "_get_subnode" in SchemaNode.__dict__
        assert [_lookup(n, p) for n, p in probes] == stock
    assert "_get_subnode" not in SchemaNode.__dict__  # removed with the last user
    assert [_lookup(n, p) for n, p in probes] == stock
