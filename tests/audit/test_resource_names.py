"""A listing's drafted ``scope.resource`` names what it lists, never how it is read.

Data2CRM lists every entity at ``/application/entity/<entity>/list``: audit drafted
``scope.resource: list`` for all 34 listings, silently (no TODO), and the MCP answers carried the
items under ``data.list``. A trailing action word (``list``, ``all``, ``search``...) now yields to
the segment before it; a version or API prefix is no resource either (``/v1/list`` keeps
``list``, Jira's ``/rest/api/2/search`` keeps ``search``), and a plural collection named like a
verb (``/queries``, ``/filters``) keeps its name.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from xcompleteness import api

PATHS = {
    "/application/entity/account/list": "account",
    "/application/entity/{entity_id}/list": "entity",
    "/users/all": "users",
    "/orders/search": "orders",
    "/contacts/listAll": "contacts",
    "/v1/list": "list",
    "/rest/api/2/search": "search",
    "/json/search": "search",
    "/queries": "queries",
    "/filters": "filters",
    "/2010-04-01/Accounts/{Sid}/Messages.json": "messages",
}


def _spec() -> dict:
    item = {"type": "object", "properties": {"id": {"type": "string"}}}
    page = {"name": "page", "in": "query", "schema": {"type": "integer", "minimum": 1}}
    paths = {}
    for i, path in enumerate(PATHS):
        params = [page] + [
            {"name": seg[1:-1], "in": "path", "required": True, "schema": {"type": "string"}}
            for seg in path.split("/")
            if seg.startswith("{")
        ]
        paths[path] = {
            "get": {
                "operationId": f"list{i}",
                "parameters": params,
                "responses": {
                    "200": {
                        "description": "a page",
                        "content": {
                            "application/json": {"schema": {"type": "array", "items": item}}
                        },
                    }
                },
            }
        }
    return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": paths}


def test_the_drafted_resource_is_what_the_listing_lists(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(yaml.safe_dump(_spec()), encoding="utf-8")
    drafts = api.audit(spec).drafts
    drafted = {
        a["target"].split("'")[1]: a["update"]["x-completeness"]["scope"]["resource"]
        for a in drafts["actions"]
    }
    assert drafted == PATHS
