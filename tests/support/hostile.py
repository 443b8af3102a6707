"""Shared pieces of the security tier (tests/security): a small spec, overlays, and the CLI.

Every test there plays an attacker who controls one input (the spec, an overlay, the output
folder, the cache folder or a server) and asserts the refusal or diagnostic the user sees.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from xcompleteness.cli import main

SPEC: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "hostile", "version": "1"},
    "paths": {
        "/items": {
            "get": {
                "operationId": "listItems",
                "parameters": [
                    {"name": "cursor", "in": "query", "schema": {"type": "string"}},
                ],
                "responses": {
                    "200": {
                        "description": "ok",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "properties": {
                                        "items": {
                                            "type": "array",
                                            "items": {
                                                "type": "object",
                                                "properties": {"id": {"type": "string"}},
                                            },
                                        },
                                        "next_cursor": {"type": ["string", "null"]},
                                    },
                                }
                            }
                        },
                    }
                },
                "x-completeness": {
                    "kind": "collection",
                    "mode": "adapter",
                    "scope": {
                        "resource": "items",
                        "visibility": "every item",
                        "snapshot": "none",
                        "covers": "all items",
                    },
                    "items": "$response.body#/items",
                    "id": "/id",
                    "pagination": {
                        "style": "cursor",
                        "request": {"cursor": "cursor"},
                        "response": {"next": "$response.body#/next_cursor"},
                    },
                    "reasons": [
                        {
                            "code": "MORE_PAGES_AVAILABLE",
                            "when": {"present": "$response.body#/next_cursor"},
                        }
                    ],
                },
            }
        }
    },
}

SCHEMA_AT = "$.paths['/items'].get.responses['200'].content['application/json']"


def write_spec(folder: Path, spec: dict[str, Any] | None = None, name: str = "spec.yaml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    data = json.loads(json.dumps(spec or SPEC))
    path.write_text(
        json.dumps(data, indent=1) if name.endswith(".json") else yaml.safe_dump(data),
        encoding="utf-8",
    )
    return path


def write_overlay(folder: Path, *actions: dict[str, Any], name: str = "overlay.yaml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    doc = {"overlay": "1.0.0", "info": {"title": "o", "version": "1"}, "actions": list(actions)}
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    return path


def schema_ref(ref: str) -> dict[str, Any]:
    """An overlay action that points the listing's response schema at ``ref``."""
    return {"target": SCHEMA_AT, "update": {"schema": {"$ref": ref}}}


def run(capsys: Any, *argv: str) -> tuple[int, str, str]:
    """Run the command line; (exit code, stdout, stderr)."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def codes(text: str) -> set[str]:
    """The XCnnn codes in a text report."""
    import re

    return set(re.findall(r"\b(XC\d{3})\b", text))
