"""The typed views follow each ``$ref`` text once per document and keep the answer; every view
must still say exactly what the one resolver says for the node where it is written.

The oracle is the public resolver itself (``deref_at``, ``deref``) and ``pointer_join``, asked
afresh for every node a view was read from; the documents are the bundled examples, the audit's
hand-written specs and a document made of the cases a shared answer could get wrong: one
``$ref`` text met under many pointers, refs with siblings, chains, dangling, external and cyclic
refs, a non-text ``$ref``, status keys that need escaping and YAML's integer status keys.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support.paths import EXAMPLE_IDS, EXAMPLE_SPECS, ROOT
from xcompleteness.diagnostics import pointer_join
from xcompleteness.document import deref, deref_at, iter_operations, operation_nodes, views
from xcompleteness.document._operations import iter_path_items
from xcompleteness.document._refs import is_mapping
from xcompleteness.load import load_document

AUDIT_SPECS = sorted((ROOT / "tests" / "audit" / "specs").glob("*.yaml"))
SPECS: list[tuple[Path, tuple[Path, ...]]] = [
    *EXAMPLE_SPECS,
    *((p, ()) for p in AUDIT_SPECS if not p.name.endswith(".expected.yaml")),
]
IDS = [*EXAMPLE_IDS, *(p.stem for p, _ in SPECS[len(EXAMPLE_SPECS) :])]

_ERROR = {"$ref": "#/components/responses/Error"}


def _op(op_id: str, **extra: Any) -> dict[str, Any]:
    return {
        "operationId": op_id,
        "parameters": [
            {"$ref": "#/components/parameters/Top"},
            {"$ref": "#/components/parameters/Top", "description": "a sibling is ignored"},
            {"$ref": "#/components/parameters/Chain"},
            {"$ref": "#/components/parameters/Missing"},
            {"$ref": "other.yaml#/Top"},
            {"$ref": 7},
            {"name": "inline", "in": "query", "schema": {"$ref": "#/components/schemas/Loop"}},
        ],
        "responses": {
            "2XX": {"$ref": "#/components/responses/Page"},
            "4XX": dict(_ERROR),
            "5XX": _ERROR,
            "a/b~c": {"$ref": "#/components/responses/Chain"},
            "default": {"$ref": "#/components/responses/Missing"},
            404: {"$ref": "#/components/responses/Loop"},
            "418": {"description": "inline", "content": {"application/json": {"schema": {}}}},
        },
        **extra,
    }


TRICKY = {
    "openapi": "3.0.3",
    "info": {"title": "t", "version": "1"},
    "paths": {
        "/a": {"get": _op("a"), "post": _op("b", requestBody={"$ref": "#/components/x/Body"})},
        "/a~b/{id}": {
            "parameters": [{"$ref": "#/components/parameters/Top"}],
            "get": _op("c"),
            "put": _op("d", requestBody={"$ref": "#/components/requestBodies/Missing"}),
        },
        "/ref-item": {"$ref": "#/paths/~1a"},
    },
    "components": {
        "parameters": {
            "Top": {"name": "$top", "in": "query", "schema": {"type": "integer"}},
            "Chain": {"$ref": "#/components/parameters/Top"},
        },
        "responses": {
            "Error": {
                "description": "e",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/E"}}},
            },
            "Page": {
                "description": "p",
                "headers": {"Link": {"schema": {"type": "string"}}},
                "content": {"application/json": {"schema": {"type": "array"}}},
            },
            "Chain": {"$ref": "#/components/responses/Error"},
            "Loop": {"$ref": "#/components/responses/Loop"},
        },
        "x": {"Body": {"content": {"application/json": {"schema": {"type": "object"}}}}},
        "schemas": {"E": {"type": "object"}, "Loop": {"$ref": "#/components/schemas/Loop"}},
    },
}


def _assert_views_say_what_the_resolver_says(data: Any) -> int:
    """Every view of ``data`` against the resolver asked afresh; returns the views checked."""
    ops = views(data).operations
    checked = 0
    expected_ops = [
        (path, method, item, pointer)
        for path, item, pointer in iter_path_items(data)
        for method in ("get", "put", "post", "delete", "options", "head", "patch", "trace")
        if isinstance(item.get(method), dict)
    ]
    assert [(o.path, o.method) for o in ops] == [(p, m) for p, m, _, _ in expected_ops]
    for op, (_, method, item, item_ptr) in zip(ops, expected_ops, strict=True):
        assert op.pointer == pointer_join(item_ptr, method)
        raws = [
            (where, index, raw)
            for source, where in ((item, item_ptr), (op.node, op.pointer))
            for index, raw in enumerate(source.get("parameters") or ())
        ]
        for param in op.parameters:
            (where, index, raw) = next(
                r for r in raws if pointer_join(r[0], "parameters", r[1]) == param.pointer
            )
            assert param.node is deref(data, raw)
            schema = param.schema
            if schema is not None:
                assert schema.pointer == pointer_join(param.pointer, "schema")
                assert schema.schema is deref(data, param.node["schema"])
            checked += 1
        for response, (status, raw) in zip(
            op.responses, op.node.get("responses", {}).items(), strict=True
        ):
            pointer = pointer_join(op.pointer, "responses", status)
            located = deref_at(data, raw, pointer)
            node, target = located if located is not None else (None, pointer)
            assert response.pointer == pointer
            assert response.target == target
            assert response.resolved is is_mapping(node)
            assert response.node is node if is_mapping(node) else response.node == {}
            for media in response.content:
                entry = response.node["content"][media.name]
                assert media.pointer == pointer_join(pointer, "content", media.name)
                assert media.node is entry
                if media.schema is not None:
                    assert media.schema.schema is deref(data, entry["schema"])
            checked += 1
        body = op.request_body
        raw_body = deref(data, op.node.get("requestBody"))
        assert (body.node if body is not None else None) is (
            raw_body if is_mapping(raw_body) else None
        )
        if body is not None:
            assert body.pointer == pointer_join(op.pointer, "requestBody")
            for media in body.content:
                assert media.schema is None or media.schema.schema is deref(
                    data, body.node["content"][media.name]["schema"]
                )
    return checked


def test_one_ref_text_met_under_many_pointers_reads_as_the_resolver_reads_each() -> None:
    checked = _assert_views_say_what_the_resolver_says(TRICKY)
    assert checked >= 50
    (a_get, b_post, *_rest) = views(TRICKY).operations
    # the shared error response: one node, each occurrence at its own pointer
    errors = [r for op in views(TRICKY).operations for r in op.responses if r.status == "4XX"]
    assert len({id(r.node) for r in errors}) == 1
    assert len({r.pointer for r in errors}) == len(errors) == 6
    assert {r.target for r in errors} == {"/components/responses/Error"}
    escaped = next(r for r in a_get.responses if r.status == "a/b~c")
    assert escaped.pointer == "/paths/~1a/get/responses/a~1b~0c"
    assert escaped.target == "/components/responses/Error"
    unresolved = [r for r in a_get.responses if not r.resolved]
    assert [r.status for r in unresolved] == ["default", "404"]
    assert [r.target for r in unresolved] == [r.pointer for r in unresolved]
    assert b_post.request_body is not None
    assert b_post.request_body.pointer == "/paths/~1a/post/requestBody"


@pytest.mark.parametrize(("spec", "overlays"), SPECS, ids=IDS)
def test_views_of_real_documents_read_as_the_resolver_reads(
    spec: Path, overlays: tuple[Path, ...]
) -> None:
    doc = load_document(spec, list(overlays))
    assert _assert_views_say_what_the_resolver_says(doc.data) > 0


@pytest.mark.parametrize(("spec", "overlays"), SPECS, ids=IDS)
def test_operation_nodes_from_the_views_are_iter_operations(
    spec: Path, overlays: tuple[Path, ...]
) -> None:
    """Stages that only read operation objects take them from the views a loaded document
    carries: the same objects, pointers and order as walking ``paths`` again."""
    doc = load_document(spec, list(overlays))
    walked = [(op, pointer) for _, _, op, pointer in iter_operations(doc.data)]
    from_views = list(operation_nodes(doc))
    assert [p for _, p in from_views] == [p for _, p in walked]
    assert all(a is b for (a, _), (b, _) in zip(from_views, walked, strict=True))
    assert list(operation_nodes(doc.data)) == from_views  # plain data: the walk itself


def test_operation_nodes_of_a_tricky_document() -> None:
    walked = [(op, pointer) for _, _, op, pointer in iter_operations(TRICKY)]
    assert len(walked) == 6  # /ref-item's $ref path item is read where it leads
    assert list(operation_nodes(TRICKY)) == walked


_LAZY = {
    "openapi": "3.0.3",
    "info": {"title": "t", "version": "1"},
    "paths": {
        "/things": {
            "get": {
                "operationId": "listThings",
                "responses": {
                    "200": {
                        "description": "ok",
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/List"}},
                            "application/xml": {"schema": {"$ref": "#/components/schemas/Gone"}},
                            "text/plain": {"schema": {"$ref": "#/components/schemas/Loop"}},
                            "text/csv": {"schema": {"$ref": "#/components/schemas/Alias"}},
                            "image/png": {},
                        },
                    },
                    "default": {
                        "description": "e",
                        "content": {"application/json": {"schema": {"type": "object"}}},
                    },
                },
            }
        }
    },
    "components": {
        "schemas": {
            "List": {"type": "array", "items": {"$ref": "#/components/schemas/Thing"}},
            "Thing": {"type": "object", "properties": {"id": {"type": "string"}}},
            "Loop": {"$ref": "#/components/schemas/Loop2"},
            "Loop2": {"$ref": "#/components/schemas/Loop"},
            "Alias": {"$ref": "#/components/schemas/Thing"},
        }
    },
}


def test_media_type_schemas_are_read_and_followed_on_first_use_as_the_resolver_follows() -> None:
    """A media type's schema is made when first read and its ``$ref`` chain followed when its
    node is first read (the XC100 scan reads ``raw`` only): the answers are the resolver's,
    a dangling ``$ref`` (``Gone``) or a cycle met only then included, each kept once read."""
    (op,) = views(_LAZY).operations
    ok = op.responses[0]
    names = [m.name for m in ok.content]
    assert names == ["application/json", "application/xml", "text/plain", "text/csv", "image/png"]
    for media in ok.content:
        assert "schema" not in media.__dict__, "made on first use"
        held = media.schema
        if media.name == "image/png":
            assert held is None
            continue
        assert held is not None and "schema" not in held.__dict__, "followed on first use"
        entry = _LAZY["paths"]["/things"]["get"]["responses"]["200"]["content"][media.name]
        assert held.raw is entry["schema"] and held.pointer == media.pointer + "/schema"
        assert held.schema is deref(_LAZY, entry["schema"])
        assert held.schema is held.schema and media.schema is held  # kept
    by_name = {m.name: m.schema for m in ok.content if m.schema is not None}
    assert by_name["application/xml"].schema is None and not by_name["application/xml"].resolved
    assert by_name["text/plain"].schema is None  # a cycle
    assert by_name["text/csv"].schema is _LAZY["components"]["schemas"]["Thing"]
    assert ok.json_schema() is by_name["application/json"]


def test_check_says_the_same_whether_schemas_are_followed_first_or_last(tmp_path: Path) -> None:
    """The same diagnostics (the dangling ``$ref`` included) whether every media type's schema
    is followed the moment the views exist or only where a stage reads it."""
    import json

    from xcompleteness.check import check_spec

    acyclic = json.loads(json.dumps(_LAZY))  # check refuses a $ref cycle while loading
    del acyclic["paths"]["/things"]["get"]["responses"]["200"]["content"]["text/plain"]
    del acyclic["components"]["schemas"]["Loop"], acyclic["components"]["schemas"]["Loop2"]
    spec = tmp_path / "lazy.json"
    spec.write_text(json.dumps(acyclic), encoding="utf-8")

    def everything_at_once(doc: Any) -> None:
        for op in doc.views.operations:
            for response in op.responses:
                for media in response.content:
                    if media.schema is not None:
                        assert media.schema.schema is deref(doc.data, media.schema.raw)

    lazily = check_spec(spec).diagnostics
    eagerly = check_spec(spec, on_loaded=everything_at_once).diagnostics
    assert lazily == eagerly
    assert any("Gone" in d.message for d in lazily)
