"""Overlay 1.0 application: merge semantics, removal, line bookkeeping (properties + examples)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xcompleteness.diagnostics import InputError
from xcompleteness.load import load_spec
from xcompleteness.load._overlay import apply_overlays

keys = st.sampled_from(["a", "b", "c", "d"])
scalars = st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=3)
trees = st.recursive(
    scalars,
    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(keys, kids, max_size=3),
    max_leaves=12,
)
objects = st.dictionaries(keys, trees, max_size=4)


def _write(tmp: Path, name: str, data: Any) -> Path:
    path = tmp / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _base(tmp: Path, body: dict[str, Any]) -> Path:
    return _write(tmp, "spec.json", {"openapi": "3.1.0", "x-doc": body})


def _overlay(tmp: Path, *actions: dict[str, Any]) -> Path:
    return _write(
        tmp,
        "overlay.json",
        {"overlay": "1.0.0", "info": {"title": "t", "version": "1"}, "actions": list(actions)},
    )


def expected_merge(target: Any, update: Any) -> Any:
    """Overlay 1.0 update, written the slow obvious way."""
    if isinstance(target, dict) and isinstance(update, dict):
        out = dict(target)
        for k, v in update.items():
            out[k] = expected_merge(target[k], v) if k in target else v
        return out
    if isinstance(target, list) and isinstance(update, list):
        return target + update
    return update


@settings(max_examples=120, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=objects, update=objects)
def test_update_is_a_deep_merge(tmp_path: Path, body: dict, update: dict) -> None:
    doc = load_spec(_base(tmp_path, body))
    before = copy.deepcopy(doc.data)
    out = apply_overlays(doc, [_overlay(tmp_path, {"target": "$['x-doc']", "update": update})])
    assert out.data["x-doc"] == expected_merge(body, update)
    assert doc.data == before  # the input document is never mutated


@settings(max_examples=80, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.dictionaries(keys, trees, min_size=1, max_size=4), data=st.data())
def test_remove_drops_exactly_the_target(tmp_path: Path, body: dict, data: Any) -> None:
    key = data.draw(st.sampled_from(sorted(body)))
    doc = load_spec(_base(tmp_path, body))
    target = f"$['x-doc']['{key}']"
    out = apply_overlays(doc, [_overlay(tmp_path, {"target": target, "remove": True})])
    assert out.data["x-doc"] == {k: v for k, v in body.items() if k != key}


def test_array_target_appends_one_entry(tmp_path: Path) -> None:
    doc = load_spec(_base(tmp_path, {"list": [1, 2]}))
    ov = _overlay(tmp_path, {"target": "$['x-doc'].list", "update": {"three": 3}})
    assert apply_overlays(doc, [ov]).data["x-doc"]["list"] == [1, 2, {"three": 3}]


def test_removing_filtered_array_items_keeps_the_others_in_order(tmp_path: Path) -> None:
    doc = load_spec(_base(tmp_path, {"list": [{"n": 1}, {"n": 2}, {"n": 3}, {"n": 4}]}))
    ov = _overlay(tmp_path, {"target": "$['x-doc'].list[?@.n > 1 && @.n < 4]", "remove": True})
    assert apply_overlays(doc, [ov]).data["x-doc"]["list"] == [{"n": 1}, {"n": 4}]


def test_lines_follow_their_origin(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "openapi: 3.1.0\npaths:\n  /a:\n    get:\n      summary: x\n"
        "x-list:\n  - one\n  - two\n  - three\n",
        encoding="utf-8",
    )
    overlay = tmp_path / "overlay.yaml"
    overlay.write_text(
        "overlay: 1.0.0\ninfo: {title: t, version: '1'}\nactions:\n"
        "  - target: $.paths['/a'].get\n    update:\n      x-completeness:\n"
        "        kind: resource\n"
        "  - target: $['x-list'][0]\n    remove: true\n",
        encoding="utf-8",
    )
    doc = apply_overlays(load_spec(spec), [overlay])
    assert doc.locate("/paths/~1a/get/summary") == (str(spec), 5)  # untouched: base line
    assert doc.locate("/paths/~1a/get/x-completeness/kind") == (str(overlay), 7)
    # items after a removed array element shifted: their old lines are dropped, not wrong
    assert doc.data["x-list"] == ["two", "three"]
    assert doc.locate("/x-list/0") == (str(spec), 6)


def test_a_one_line_overlay_places_what_it_writes_on_line_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An overlay written on one line (JSON from a program): its nodes are on line 1, found
    without looking each one up, as the lookup finds them."""
    from xcompleteness.load._lines import LazyJsonLines

    spec = _base(tmp_path, {"a": {"b": [1, {"c": 2}]}, "l": [0]})
    update = {"a": {"x-completeness": {"kind": "resource", "why": ["w", {"d": None}]}}}
    overlay = _overlay(
        tmp_path,
        {"target": "$['x-doc']", "update": update},
        {"target": "$['x-doc'].l", "update": {"e": [3]}},
    )
    fast = apply_overlays(load_spec(spec), [overlay])
    monkeypatch.setattr(LazyJsonLines, "one_line", property(lambda self: False))
    slow = apply_overlays(load_spec(spec), [overlay])
    assert fast.lines.added == slow.lines.added and fast.origins == slow.origins  # type: ignore[attr-defined]
    assert fast.locate("/x-doc/a/x-completeness/why/1/d") == (str(overlay), 1)
    assert fast.locate("/x-doc/l/1/e/0") == (str(overlay), 1)


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"target": "$.nothing", "update": {"a": 1}}, "XC021"),
        ({"target": "$[", "remove": True}, "XC022"),
        ({"target": "$.openapi", "update": {"a": 1}}, "XC023"),
        ({"target": "$['x-doc']", "update": [1]}, "XC023"),
        ({"target": "$", "remove": True}, "XC024"),
        ({"target": "$['x-doc']"}, "XC020"),
    ],
)
def test_bad_actions_are_refused(tmp_path: Path, action: dict, code: str) -> None:
    doc = load_spec(_base(tmp_path, {"a": 1}))
    with pytest.raises(InputError) as info:
        apply_overlays(doc, [_overlay(tmp_path, action)])
    assert [d.code for d in info.value.diagnostics] == [code]
    assert info.value.diagnostics[0].file.endswith("overlay.json")


def test_overlay_that_is_not_an_overlay(tmp_path: Path) -> None:
    doc = load_spec(_base(tmp_path, {}))
    other = tmp_path / "other.yaml"
    other.write_text(yaml.safe_dump({"openapi": "3.1.0"}), encoding="utf-8")
    with pytest.raises(InputError) as info:
        apply_overlays(doc, [other])
    assert {d.code for d in info.value.diagnostics} == {"XC020"}


@settings(max_examples=80, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=objects, first=objects, second=objects, data=st.data())
def test_actions_in_sequence_copy_only_what_they_write(
    tmp_path: Path, body: dict, first: dict, second: dict, data: Any
) -> None:
    """Several actions on one working copy: each sees the one before, the input never changes
    (the working copy shares every subtree no action writes with the input)."""
    doc = load_spec(_base(tmp_path, {"a": body, "b": {"keep": body}}))
    before = copy.deepcopy(doc.data)
    actions: list[dict[str, Any]] = [
        {"target": "$['x-doc'].a", "update": first},
        {"target": "$['x-doc'].a", "update": second},
    ]
    expected = expected_merge(expected_merge(body, first), second)
    if expected:
        gone = data.draw(st.sampled_from(sorted(expected)))
        actions.append({"target": f"$['x-doc'].a['{gone}']", "remove": True})
        expected = {k: v for k, v in expected.items() if k != gone}
    out = apply_overlays(doc, [_overlay(tmp_path, *actions)])
    assert out.data["x-doc"] == {"a": expected, "b": {"keep": body}}
    assert doc.data == before


def test_a_target_selecting_a_node_and_one_inside_it(tmp_path: Path) -> None:
    """Both matches are written as when every match was changed in place: a match inside one
    an earlier match already merged into sees that merge; one the earlier match replaced is no
    longer in the document, so changing it changes nothing."""
    nested = {"k": {"k": {"q": 1}}}
    doc = load_spec(_base(tmp_path, nested))
    ov = _overlay(tmp_path, {"target": "$..[?@.k]", "update": {"k": {"m": 2}}})
    assert apply_overlays(doc, [ov]).data["x-doc"] == {"k": {"k": {"q": 1, "m": 2}, "m": 2}}
    replaced = load_spec(_base(tmp_path, {"k": {"k": 1}}))
    ov = _overlay(tmp_path, {"target": "$..[?@.k]", "update": {"k": 5}})
    assert apply_overlays(replaced, [ov]).data["x-doc"] == {"k": 5}
    assert doc.data["x-doc"] == nested and replaced.data["x-doc"] == {"k": {"k": 1}}


NAME_TARGETS = [
    "$",
    "$.a",
    "$['a']",
    '$["a"].b',
    "$.a['/x/{y}'].get",
    "$['c-d'].e",
    "$.a.b['nope']",
    "$.a.b.c",
]


@settings(max_examples=80, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=objects, target=st.sampled_from(NAME_TARGETS))
def test_name_only_targets_match_what_jsonpath_matches(body: dict, target: str) -> None:
    """Targets made of name selectors are matched without python-jsonpath, with its answer."""
    from xcompleteness.load._overlay import _jsonpath, _name_path_matches

    data = {"a": {"b": body, "/x/{y}": {"get": body}}, "c-d": {"e": [body]}, **body}
    ours = _name_path_matches(target, data)
    assert ours is not None
    _, env = _jsonpath()
    expected = [(m.obj, tuple(m.parts)) for m in env.finditer(target, data)]
    assert [(m.obj, m.parts) for m in ours] == expected


@pytest.mark.parametrize("target", ["$..a", "$.a[0]", "$.a.*", "$['a\\'b']", "$ .a", "$.é"])
def test_other_targets_go_to_jsonpath(target: str) -> None:
    from xcompleteness.load._overlay import _name_path_matches

    assert _name_path_matches(target, {"a": [1]}) is None
