"""The typed document views: what each view reads, with its JSON pointer, and the one resolver.

Each test builds a small document whose shape is the point (refs, path-level parameters, YAML's
integer status keys, percent-encoded component names) and asserts what the views say about it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.paths import ROOT
from xcompleteness.document import (
    DECLARATION_KEY,
    HTTP_METHODS,
    deref,
    iter_operations,
    pointer_tokens,
    views,
)
from xcompleteness.load import load_spec

DOC = {
    "openapi": "3.1.0",
    "info": {"title": "T", "version": "1"},
    "paths": {
        "/items/{id}": {
            "parameters": [
                {"$ref": "#/components/parameters/Id"},
                {"name": "limit", "in": "query", "schema": {"type": "integer"}},
            ],
            "post": {"operationId": "second", "responses": {}},
            "get": {
                "operationId": "first",
                "summary": "List",
                "x-completeness": {"kind": "collection"},
                "parameters": [
                    {
                        "name": "limit",
                        "in": "query",
                        "required": True,
                        "schema": {"type": "string"},
                    },
                    {"name": "broken"},
                    "not a mapping",
                ],
                "requestBody": {"$ref": "#/components/requestBodies/Body"},
                "responses": {
                    "default": {"description": "err"},
                    201: {"description": "created"},
                    "200": {"$ref": "#/components/responses/Page"},
                    "404": {"$ref": "#/components/responses/Missing"},
                },
            },
        },
        "/bad": "not a path item",
    },
    "components": {
        "parameters": {"Id": {"name": "id", "in": "path", "schema": {"type": "string"}}},
        "requestBodies": {
            "Body": {
                "required": True,
                "content": {
                    "text/plain": {"schema": {"type": "string"}},
                    "application/merge-patch+json": {"schema": {"type": "object"}},
                    "application/json": {"schema": {"$ref": "#/components/schemas/A%20B"}},
                },
            }
        },
        "responses": {
            "Page": {
                "description": "ok",
                "headers": {"Link": {"schema": {"type": "string"}}},
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Loop"}}},
            }
        },
        "schemas": {
            "A B": {"type": "object"},
            "Loop": {"$ref": "#/components/schemas/Loop"},
        },
    },
}


def test_operations_in_document_order_and_methods_in_table_order() -> None:
    ops = views(DOC).operations
    assert [(o.path, o.method) for o in ops] == [("/items/{id}", "get"), ("/items/{id}", "post")]
    assert HTTP_METHODS.index("get") < HTTP_METHODS.index("post")
    assert [o.pointer for o in ops] == [p for *_, p in iter_operations(DOC)]
    assert ops[0].pointer == "/paths/~1items~1{id}/get"


def test_operation_by_id_and_at() -> None:
    doc = views(DOC)
    first = doc.operation("first")
    assert first is not None and first is doc.at("/items/{id}", "GET")
    assert doc.at("/items/{id}", "post") is doc.operations[1]
    assert doc.at("/items/{id}", "put") is None and doc.at("/nowhere", "get") is None
    assert first.summary == "List" and first.description == ""
    assert first.declared and first.declaration == {"kind": "collection"}
    assert first.declaration_pointer == first.pointer + "/" + DECLARATION_KEY
    assert doc.operation("missing") is None and not doc.operation("second").declared


def test_parameters_merge_path_level_and_follow_refs() -> None:
    first = views(DOC).operation("first")
    assert [(p.location, p.name) for p in first.parameters] == [("path", "id"), ("query", "limit")]
    identifier, limit = first.parameters
    assert identifier.pointer == "/paths/~1items~1{id}/parameters/0"
    assert identifier.required and identifier.schema.schema == {"type": "string"}
    # the operation's own parameter wins over the path item's of the same (in, name)
    assert limit.pointer == "/paths/~1items~1{id}/get/parameters/0" and limit.required
    assert limit.schema.schema == {"type": "string"} and limit.get("style") is None
    assert first.parameter("query", "limit") is limit and first.parameter("query", "id") is None


def test_request_body_media_and_preferred_json() -> None:
    body = views(DOC).operation("first").request_body
    assert body is not None and body.required
    assert body.pointer == "/paths/~1items~1{id}/get/requestBody"
    assert [m.name for m in body.json_media()] == [
        "application/merge-patch+json",
        "application/json",
    ]
    schema = body.json_schema()
    # the reference is percent-decoded before it is read as a pointer
    assert schema.ref == "#/components/schemas/A%20B" and schema.component == "A B"
    assert schema.target == "/components/schemas/A B" and schema.schema == {"type": "object"}
    assert schema.pointer == "/paths/~1items~1{id}/get/requestBody/content/application~1json/schema"


def test_responses_text_status_success_and_unresolved() -> None:
    first = views(DOC).operation("first")
    assert [r.status for r in first.responses] == ["default", "201", "200", "404"]
    missing = first.responses[-1]  # a dangling $ref: kept, empty, and said so
    assert not missing.resolved and missing.node == {} and missing.content == ()
    assert [r.status for r in first.success_responses()] == ["201", "200"]
    assert first.first_success().status == "200"
    assert first.response_headers(success_only=True) == {"link"}
    # Loop is a $ref cycle: the schema view says so instead of looping
    (loop,) = first.response_schemas(success_only=True)
    assert loop.component == "Loop" and not loop.resolved and loop.schema is None
    assert len(first.request_schemas()) == 2


def test_one_resolver_agrees_on_cycles_dangling_and_plain_nodes() -> None:
    assert deref(DOC, {"$ref": "#/components/schemas/Loop"}) is None
    assert deref(DOC, {"$ref": "#/nowhere"}) is None
    assert deref(DOC, {"$ref": "other.yaml#/x"}) is None
    assert deref(DOC, {"type": "string"}) == {"type": "string"}
    assert deref(DOC, None) is None or deref(DOC, None) is None
    assert pointer_tokens("/a~1b/c~0d/~01") == ("a/b", "c~d", "~1")
    assert pointer_tokens("a") is None and pointer_tokens("") == ()


def test_document_level_views() -> None:
    doc = views(DOC)
    assert doc.openapi == "3.1.0" and doc.info["title"] == "T"
    assert set(doc.schemas) == {"A B", "Loop"}
    assert views({}).operations == () and views({}).schemas == {}


@pytest.mark.parametrize("example", ["service_accounts", "github"])
def test_a_loaded_spec_keeps_its_views(example: str) -> None:
    folder = ROOT / "examples" / example
    spec = folder / ("openapi.yaml" if (folder / "openapi.yaml").exists() else "excerpt.yaml")
    doc = load_spec(Path(spec))
    assert doc.views is doc.views
    assert [o.pointer for o in doc.views.operations] == [p for *_, p in iter_operations(doc.data)]
    assert doc.views.operations
