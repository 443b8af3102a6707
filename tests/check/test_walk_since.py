"""The walk after the overlays from a kept walk of the spec text (``load._parse.walk_since``).

A JSON spec text an earlier run walked is not walked again after the overlays: containers the
overlays left as they were contribute the kept walk's refs and mixed enums. Observed here by
loading the same spec and overlays with and without the stores: the refs (in order), the
diagnostics and the data are those of a whole walk, whatever the overlays wrote, removed or
shifted; a value an overlay writes past the depth cap is refused as before.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xcompleteness.diagnostics import InputError
from xcompleteness.load import load_document, parse_store, walk_store
from xcompleteness.load._parse import BaseWalk, walk_document, walk_since


class Facts:
    def __init__(self) -> None:
        self.kept: set[str] = set()

    def get(self, key: str) -> bool:
        return key in self.kept

    def put(self, key: str) -> None:
        self.kept.add(key)


class Values:
    def __init__(self) -> None:
        self.kept: dict[str, Any] = {}

    def get(self, key: str) -> Any:
        return self.kept.get(key)

    def put(self, key: str, value: Any) -> None:
        self.kept[key] = json.loads(json.dumps(value))  # as a JSON entry gives it back


PET = {"$ref": "#/components/schemas/Pet"}
SPEC: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {"title": "t", "version": "1"},
    "paths": {
        "/pets": {
            "parameters": [{"$ref": "#/components/parameters/Limit"}, {"name": "q", "in": "query"}],
            "get": {
                "operationId": "listPets",
                "parameters": [
                    {"$ref": "#/components/parameters/Limit"},
                    {"name": "kind", "in": "query", "schema": {"enum": ["a", 1, None]}},
                    {"name": "tag", "in": "query", "schema": PET},
                ],
                "responses": {
                    "200": {
                        "description": "ok",
                        "content": {
                            "application/json": {"schema": {"type": "array", "items": PET}}
                        },
                    }
                },
            },
        },
        "/pets/{id}": {
            "get": {
                "operationId": "getPet",
                "responses": {"200": {"$ref": "#/components/responses/One"}},
            }
        },
    },
    "components": {
        "parameters": {"Limit": {"name": "limit", "in": "query", "schema": {"type": "integer"}}},
        "responses": {
            "One": {
                "description": "one",
                "content": {"application/json": {"schema": PET}},
            }
        },
        "schemas": {
            "Pet": {
                "type": "object",
                "properties": {
                    "id": {"type": "integer"},
                    "kind": {"enum": ["cat", 2]},
                    "owner": {"$ref": "#/components/schemas/Owner"},
                },
            },
            "Owner": {"type": "object", "properties": {"pets": {"type": "array", "items": PET}}},
        },
    },
}

ACTIONS: list[dict[str, Any]] = [
    {  # a declaration with a ref inside, merged into an operation
        "target": "$.paths['/pets'].get",
        "update": {
            "x-completeness": {"kind": "listing", "x-note": {"$ref": "#/components/schemas/Owner"}}
        },
    },
    {  # items shift: the list is copied, the items after it are the text's at other indices
        "target": "$.paths['/pets'].get.parameters[0]",
        "remove": True,
    },
    {  # appended: a ref and a mixed enum the text does not have
        "target": "$.paths['/pets'].parameters",
        "update": {"name": "extra", "in": "query", "schema": {"enum": [True, "x"], **PET}},
    },
    {"target": "$.components.schemas.Owner", "remove": True},  # refs below it are gone
    {  # a new subtree holding a ref, inside a container the text has
        "target": "$.components.schemas.Pet.properties",
        "update": {"friend": {"$ref": "#/components/schemas/Pet"}},
    },
]


def _files(tmp_path: Path, actions: list[dict[str, Any]]) -> tuple[Path, Path]:
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(SPEC, indent=2), "utf-8")
    overlay = tmp_path / "overlay.yaml"
    info = {"title": "o", "version": "1"}
    overlay.write_text(yaml.safe_dump({"overlay": "1.0.0", "info": info, "actions": actions}))
    return spec, overlay


def _same_as_a_whole_walk(spec: Path, overlay: Path) -> None:
    plain = load_document(spec, [overlay])
    values = Values()
    with parse_store(Facts()), walk_store(values):
        first = load_document(spec, [overlay])  # walks the text and keeps what it found
        assert len(values.kept) == 1
        again = load_document(spec, [overlay])  # from the kept walk
    for doc in (first, again):
        assert doc.refs == plain.refs  # the same refs in the same order
        assert doc.diagnostics == plain.diagnostics  # mixed enums, dangling refs, lines
        assert doc.data == plain.data


def test_the_walk_since_the_overlays_is_a_whole_walk(tmp_path: Path) -> None:
    spec, overlay = _files(tmp_path, ACTIONS)
    _same_as_a_whole_walk(spec, overlay)
    plain = load_document(spec, [overlay])
    assert ("/paths/~1pets/parameters/2/schema", "#/components/schemas/Pet") in plain.refs
    assert [d for d in plain.diagnostics if d.code == "XC016"]  # mixed enums, old and new


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.sampled_from(range(len(ACTIONS))), min_size=1, max_size=5, unique=True))
def test_any_sequence_of_actions(tmp_path: Path, picked: list[int]) -> None:
    spec, overlay = _files(tmp_path, [ACTIONS[i] for i in picked])
    _same_as_a_whole_walk(spec, overlay)


def test_a_value_written_past_the_depth_cap_is_refused_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XC_MAX_DEPTH", "12")
    deep: Any = {"type": "string"}
    for _ in range(8):
        deep = {"items": deep}
    spec, overlay = _files(
        tmp_path, [{"target": "$.components.schemas.Pet.properties", "update": {"deep": deep}}]
    )
    with pytest.raises(InputError) as plain:
        load_document(spec, [overlay])
    with parse_store(Facts()), walk_store(Values()):
        for _ in range(2):  # the first run keeps the walk, the second uses it
            with pytest.raises(InputError) as walked:
                load_document(spec, [overlay])
            assert [d.code for d in walked.value.diagnostics] == [
                d.code for d in plain.value.diagnostics
            ]


def test_a_subtree_whose_refs_are_not_one_run_is_walked(tmp_path: Path) -> None:
    """A kept walk whose refs below a container are not consecutive (not what a walk gives)
    is not spliced in for it: that container is walked."""
    data = json.loads(json.dumps(SPEC))
    limits_refs = walk_document(data, "x", _limits())
    shuffled = limits_refs[1:] + limits_refs[:1]  # the first ref moved to the end
    base = BaseWalk(data, shuffled, [])
    copy = dict(data)  # the root copied, everything below it the text's own
    assert walk_since(copy, base, "x", _limits(), []) == limits_refs


def _limits() -> Any:
    from xcompleteness.load import Limits

    return Limits.from_env()
