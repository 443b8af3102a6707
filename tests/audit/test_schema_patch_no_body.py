"""audit drafts the success body of a declared listing whose spec describes none (XC151).

Walmart's Item API answers every operation with ``default: {description: successful
operation}`` and no content. A user declares the feeds walk as the API really answers
(``items: $response.body#/results/feed``, ``total: $response.body#/totalResults``); ``check``
warns XC151, adopting.md §3a says ``audit`` drafts the schema patch, and audit drafted nothing
("nothing to draft"): the patch drafter only added properties to a schema that existed. It now
adds the whole JSON body, every location the declaration reads typed by its role and the items'
declared ``id`` inside them, to the first 2xx response or, without one, as a ``200``.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from xcompleteness import api

SPEC = {
    "openapi": "3.0.3",
    "info": {"title": "feeds", "version": "1"},
    "paths": {
        "/feeds": {
            "get": {
                "operationId": "listFeeds",
                "parameters": [
                    {"name": "offset", "in": "query", "schema": {"type": "string"}},
                    {"name": "limit", "in": "query", "schema": {"type": "string"}},
                ],
                "responses": {"default": {"description": "successful operation"}},
            }
        },
        "/skus": {
            "get": {
                "operationId": "listSkus",
                "parameters": [{"name": "page", "in": "query", "schema": {"type": "integer"}}],
                "responses": {"200": {"description": "OK"}},
            }
        },
    },
}
DECLARE = {
    "overlay": "1.0.0",
    "info": {"title": "answers", "version": "1"},
    "actions": [
        {
            "target": "$.paths['/feeds'].get",
            "update": {
                "x-completeness": {
                    "kind": "collection",
                    "mode": "adapter",
                    "scope": {
                        "resource": "feeds",
                        "visibility": "the seller's",
                        "snapshot": "none",
                    },
                    "items": "$response.body#/results/feed",
                    "id": "/feedId",
                    "pagination": {
                        "style": "offset",
                        "request": {"offset": "offset", "size": "limit"},
                        "max-page-size": 50,
                        "response": {"total": "$response.body#/totalResults"},
                    },
                    "reasons": ["MORE_PAGES_AVAILABLE"],
                }
            },
        },
        {
            "target": "$.paths['/skus'].get",
            "update": {
                "x-completeness": {
                    "kind": "collection",
                    "mode": "adapter",
                    "scope": {"resource": "skus", "visibility": "the seller's", "snapshot": "none"},
                    "items": "$response.body#",
                    "id": "/sku",
                    "pagination": {
                        "style": "page",
                        "request": {"page": "page"},
                        "end": "empty-page",
                    },
                    "reasons": ["MORE_PAGES_AVAILABLE"],
                }
            },
        },
    ],
}


def test_audit_drafts_the_missing_body_and_check_then_lists_only_its_todos(tmp_path: Path) -> None:
    spec, declare, draft = tmp_path / "s.yaml", tmp_path / "d.yaml", tmp_path / "patch.yaml"
    spec.write_text(yaml.safe_dump(SPEC), "utf-8")
    declare.write_text(yaml.safe_dump(DECLARE), "utf-8")
    before = api.check(spec, [declare], strict=True)
    assert sorted(d.code for d in before.diagnostics) == ["XC151", "XC151"]
    assert "--emit-overlay" in before.diagnostics[0].hint
    api.audit(spec, [declare], emit_overlay=draft)
    overlay = yaml.safe_load(draft.read_text("utf-8"))
    bodies = {
        a["target"]: a["update"] for a in overlay["actions"] if "x-completeness" not in a["update"]
    }
    feeds = bodies["$['paths']['/feeds']['get']['responses']"]["200"]["content"]
    schema = feeds["application/json"]["schema"]
    assert schema["properties"]["totalResults"]["type"] == "integer"
    feed = schema["properties"]["results"]["properties"]["feed"]
    assert feed["type"] == "array" and "feedId" in feed["items"]["properties"]
    skus = bodies["$['paths']['/skus']['get']['responses']['200']"]["content"]
    assert skus["application/json"]["schema"]["type"] == "array"

    report = api.check(spec, [declare, draft], strict=True)
    assert [d.code for d in report.diagnostics] == ["XC900", "XC900"]  # the review is left

    for action in overlay["actions"]:  # the reviewer confirms each body and drops its TODO
        action.pop("x-todo", None)
        if "x-completeness" in action["update"]:
            action["update"]["x-completeness"]["x-todo"] = []
    draft.write_text(yaml.safe_dump(overlay), "utf-8")
    assert api.check(spec, [declare, draft], strict=True).exit_code == 0
