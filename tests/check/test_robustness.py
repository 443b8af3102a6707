"""Property: any mangling of a valid spec yields diagnostics, never an exception."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xcompleteness.check._pipeline import check_spec
from xcompleteness.diagnostics import InputError

BASE = yaml.safe_load(
    (Path(__file__).resolve().parents[1] / "invalid" / "base.yaml").read_text(encoding="utf-8")
)
BASE["x-completeness-registry"]["reasons"]["SHARD_MOVING"]["review-by"] = "2030-01-01"

values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.sampled_from(
        ["", "MORE_PAGES_AVAILABLE", "$response.body#/items", "/id", "#/x", "cursor", "always"]
    ),
    lambda kids: (
        st.lists(kids, max_size=3)
        | st.dictionaries(
            st.sampled_from(["code", "when", "$ref", "kind", "items", "present", "type"]),
            kids,
            max_size=3,
        )
    ),
    max_leaves=8,
)


def _nodes(node: Any, path: tuple = ()) -> list[tuple]:
    out = [path]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _nodes(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _nodes(v, (*path, i))
    return out


PATHS = [p for p in _nodes(BASE) if p]


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(where=st.lists(st.sampled_from(PATHS), min_size=1, max_size=3), value=values)
def test_mangled_specs_give_diagnostics_not_exceptions(
    tmp_path: Path, where: list, value: Any
) -> None:
    data = json.loads(json.dumps(BASE))
    for path in where:
        node = data
        try:
            for part in path[:-1]:
                node = node[part]
            node[path[-1]] = json.loads(json.dumps(value))  # a fresh copy: no cycles
        except (KeyError, IndexError, TypeError):
            continue
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(data), encoding="utf-8")
    try:
        result = check_spec(spec)
    except InputError as exc:
        assert all(d.code.startswith("XC0") for d in exc.diagnostics)
        return
    for d in result.diagnostics:
        assert d.code.startswith("XC") and d.message
