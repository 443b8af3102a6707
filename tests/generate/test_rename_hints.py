"""XC602's hint says what fixes a name clash for the kind of name that clashed, so someone who
consumes a spec they cannot edit is not told to edit it: an operationId by the overlay action
that renames it (applied here, it removes the clash), a parameter's keyword by its spec name
(which goes on the wire and must not be renamed), a component's class by nothing (an overlay
cannot rename a component)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml
from xcompleteness.check._pipeline import check_spec
from xcompleteness.ir._build import build_ir


def _listing(op_id: str, params: list[str], item: dict) -> dict:
    return {
        "get": {
            "operationId": op_id,
            "parameters": [
                {"name": n, "in": "query", "schema": {"type": "string"}} for n in params
            ],
            "x-completeness": {
                "kind": "collection",
                "scope": {"resource": "things", "snapshot": "none"},
                "pagination": {"style": "cursor", "request": {"cursor": "cursor"}},
                "reasons": ["MORE_PAGES_AVAILABLE"],
            },
            "responses": {
                "200": {
                    "description": "ok",
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "properties": {"items": {"type": "array", "items": item}},
                            }
                        }
                    },
                }
            },
        }
    }


def _spec(tmp_path: Path) -> Path:
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "Clash", "version": "1"},
        "paths": {
            "/a": _listing("listThings", ["cursor"], {"$ref": "#/components/schemas/FooBar"}),
            "/b": _listing(
                "list_things",
                ["cursor", "page_size", "page-size"],
                {"$ref": "#/components/schemas/foo_bar"},
            ),
        },
        "components": {
            "schemas": {
                "FooBar": {"type": "object", "properties": {"id": {"type": "string"}}},
                "foo_bar": {"type": "object", "properties": {"id": {"type": "integer"}}},
            }
        },
    }
    path = tmp_path / "clash.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    return path


def _clashes(spec: Path, overlays: list[Path] = ()) -> list:  # type: ignore[assignment]
    ir = build_ir(check_spec(spec, overlays), "clash")
    return [d for d in ir.diagnostics if d.code == "XC602"]


def test_an_operation_name_clash_names_the_overlay_that_renames_it(tmp_path: Path) -> None:
    spec = _spec(tmp_path)
    ops = [d for d in _clashes(spec) if "name 'list_things'" in d.message]
    assert ops, "the operation names of list_things clash with listThings'"
    for d in ops:
        assert "operationId" in d.hint and "--overlay" in d.hint
        assert "$['paths']['/b']['get']" in d.hint
    # The action the hint names, applied as an overlay, is the fix: no operation name clashes.
    target = re.search(r'target: "([^"]+)"', ops[0].hint)
    assert target is not None
    overlay = tmp_path / "rename.yaml"
    overlay.write_text(
        yaml.safe_dump(
            {
                "overlay": "1.0.0",
                "info": {"title": "rename", "version": "1"},
                "actions": [
                    {"target": target.group(1), "update": {"operationId": "listOtherThings"}}
                ],
            }
        ),
        encoding="utf-8",
    )
    assert [d for d in _clashes(spec, [overlay]) if "'list_things'" in d.message] == []


def test_a_parameter_keyword_clash_says_the_spec_name_works_and_is_not_renamed(
    tmp_path: Path,
) -> None:
    params = [d for d in _clashes(_spec(tmp_path)) if "'page-size'" in d.hint]
    assert params, [d.hint for d in _clashes(_spec(tmp_path))]
    hint = params[0].hint
    assert "'page_size_2'" in hint  # the keyword the clash produced
    assert "params={'page-size': ...}" in hint  # and how the spec's name is still passed
    assert "do not rename" in hint and "operationId" not in hint


def test_a_component_class_clash_says_an_overlay_cannot_rename_it(tmp_path: Path) -> None:
    comps = [d for d in _clashes(_spec(tmp_path)) if d.pointer.startswith("/components/")]
    assert comps
    assert all("cannot rename a component" in d.hint for d in comps)
    assert all("'FooBar2'" in d.hint for d in comps)


def test_untyped_items_name_the_overlay_that_describes_them(tmp_path: Path) -> None:
    """XC603 (no item schema) told the user to declare the items in the spec; the hint now
    names the schema an overlay updates."""
    op = _listing("listThings", ["cursor"], {})
    op["get"]["responses"]["200"]["content"]["application/json"]["schema"]["properties"][
        "items"
    ] = {"type": "array"}
    spec = tmp_path / "untyped.json"
    spec.write_text(
        json.dumps(
            {"openapi": "3.0.3", "info": {"title": "U", "version": "1"}, "paths": {"/a": op}}
        ),
        encoding="utf-8",
    )
    ir = build_ir(check_spec(spec), "untyped")
    found = [d for d in ir.diagnostics if d.code == "XC603"]
    assert len(found) == 1, ir.diagnostics
    target = "$['paths']['/a']['get']['responses']['200']['content']['application/json']['schema']"
    assert f"an overlay does it: target {target} with update" in found[0].hint
