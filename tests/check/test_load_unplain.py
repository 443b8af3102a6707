"""``SourceDoc.unplain``: the containers of a JSON text's data that hold a float or an integer
beyond 64 bits, noted by the load's walk, so the validation walk meta-checks every other schema
without walking it for plain JSON again (``check._lean.fast_meta_valid(known_plain=...)``).

The set must be exactly the containers ``plain_json`` could refuse (any other answer lets a
schema past the plain-JSON test it needs, or costs the walk again), and it must not outlive the
data it was found in (overlays, YAML: None).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xcompleteness.check._validate import validate_openapi
from xcompleteness.document import plain_tree
from xcompleteness.load import load_document

_numbers = (
    st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([1.0, -0.0, 2**64, 2**64 - 1, -(2**63), -(2**63) - 1, 0.5])
)
_values = st.recursive(
    st.none() | st.booleans() | st.text(max_size=4) | _numbers,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=4), children, max_size=4)
    ),
    max_leaves=25,
)


def _containers(node: Any) -> list[Any]:
    found, stack = [], [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found.append(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            found.append(item)
            stack.extend(item)
    return found


def _holds_no_number_to_check(node: Any) -> bool:
    """``plain_json`` with every float refused: what a container outside ``unplain`` holds."""
    return plain_tree(node, lambda _: False)


def _spec(body: Any) -> dict[str, Any]:
    return {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {},
        "x-body": body,
    }


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=_values, indent=st.sampled_from([None, 2]))
def test_unplain_is_every_container_holding_a_float_or_a_long_integer(
    tmp_path: Path, body: Any, indent: int | None
) -> None:
    """Exactly the containers holding, at any depth, a float or an integer outside 64 bits
    are in it, whether the text is on one line or indented (read key by key)."""
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(_spec(body), indent=indent), encoding="utf-8")
    doc = load_document(path)
    assert doc.unplain is not None
    for node in _containers(doc.data):
        assert (id(node) in doc.unplain) is not _holds_no_number_to_check(node), node
    assert len(doc.unplain) == sum(not _holds_no_number_to_check(n) for n in _containers(doc.data))


def test_unplain_is_none_where_the_data_is_not_a_json_text_s(tmp_path: Path) -> None:
    """A YAML text and a document the overlays made carry no set (their containers were never
    walked for it)."""
    spec = _spec({"a": 1.5})
    (tmp_path / "spec.yaml").write_text(json.dumps(spec), encoding="utf-8")  # JSON is YAML
    (tmp_path / "spec.yml").write_text(
        "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\nx-a: 1.5\n", encoding="utf-8"
    )
    assert load_document(tmp_path / "spec.yml").unplain is None
    (tmp_path / "spec.json").write_text(json.dumps(spec), encoding="utf-8")
    overlay = tmp_path / "o.yaml"
    overlay.write_text(
        "overlay: 1.0.0\ninfo: {title: o, version: '1'}\n"
        "actions:\n  - target: $\n    update: {x-b: 2.5}\n",
        encoding="utf-8",
    )
    assert load_document(tmp_path / "spec.json").unplain is not None
    assert load_document(tmp_path / "spec.json", [overlay]).unplain is None


def test_schemas_holding_floats_still_get_the_stock_verdict(tmp_path: Path) -> None:
    """Schemas with integral floats, long integers and plain ones beside each other: the lean
    walk (which skips the plain-JSON walk outside ``unplain``) reports what the stock validator
    reports."""
    schemas = {
        "Plain": {"type": "object", "properties": {"n": {"type": "integer", "maximum": 10}}},
        "Length": {"type": "string", "maxLength": 2.0},
        "Long": {"type": "integer", "maximum": 2**64},
        "Items": {"type": "array", "items": {"type": "string", "minLength": 1.0}},
        "Half": {"type": "number", "multipleOf": 0.5, "default": 1.5},
    }
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/a": {
                "get": {
                    "operationId": "a",
                    "parameters": [
                        {"name": "q", "in": "query", "schema": {"type": "string", "maxLength": 3.0}}
                    ],
                    "responses": {"200": {"description": "ok"}},
                }
            }
        },
        "components": {"schemas": schemas},
    }
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec, indent=2), encoding="utf-8")
    doc = load_document(path)
    assert doc.unplain is not None and id(schemas) not in doc.unplain  # another object: parsed
    lean = validate_openapi(doc)
    assert lean == validate_openapi(doc, speedup=False)
    assert {d.pointer for d in lean} >= {"/components/schemas/Length/maxLength"}
