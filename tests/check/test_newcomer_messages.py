"""Diagnostics a new user meets first, with the step they say to take.

Found by walking three APIs nobody here had used (AppVeyor's Swagger 2.0 YAML, Google Tasks, App
Store Connect) the way a newcomer would: each message below named the problem but not the step.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from support.hostile import codes, run

SWAGGER = """swagger: '2.0'
info: {title: Builds, version: '1.0'}
paths: {}
"""

LISTING = {
    "openapi": "3.0.3",
    "info": {"title": "Things", "version": "1"},
    "paths": {
        "/things": {
            "get": {
                "operationId": "listThings",
                "responses": {
                    "200": {
                        "description": "ok",
                        "content": {
                            "application/json": {
                                "schema": {"type": "array", "items": {"type": "object"}}
                            }
                        },
                    }
                },
            }
        }
    },
}


@pytest.mark.parametrize("name", ["build api.swagger.yaml", "swagger.json"])
def test_swagger_2_names_the_command_that_converts_this_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    spec = tmp_path / name
    swagger = {"swagger": "2.0", "info": {"title": "Builds", "version": "1.0"}, "paths": {}}
    spec.write_text(json.dumps(swagger) if name.endswith(".json") else SWAGGER, encoding="utf-8")
    rc, _, err = run(capsys, "audit", str(spec))
    assert rc == 2 and codes(err) == {"XC007"}
    stem, suffix = name.rsplit(".", 1)
    target = tmp_path / f"{stem}.openapi.{suffix}"
    command = f"npx swagger2openapi --patch {shlex.quote(str(spec))} -o {shlex.quote(str(target))}"
    assert f"hint: convert it to OpenAPI 3.0 first: {command} " in err
    assert "then run xcompleteness on the converted file" in err


def _check_defaults(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], scope: str
) -> tuple[int, str]:
    """check on a one-listing spec with a defaults overlay whose ``scope:`` line is ``scope``."""
    spec = tmp_path / "things.json"
    spec.write_text(json.dumps(LISTING), encoding="utf-8")
    overlay = tmp_path / "defaults.yaml"
    overlay.write_text(
        "overlay: 1.0.0\ninfo: {title: d, version: '1'}\nactions:\n  - target: $\n    update:\n"
        f"      x-completeness-defaults:\n        scope: {scope}\n",
        encoding="utf-8",
    )
    rc, _, err = run(capsys, "check", str(spec), "--overlay", str(overlay))
    return rc, err


def test_a_key_of_several_words_points_at_the_comma_that_cut_a_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scope = "{visibility: apps of the team, within the key's role, snapshot: none}"
    rc, err = _check_defaults(tmp_path, capsys, scope)
    assert rc == 1 and "XC041" in codes(err)
    assert 'unknown key "within the key\'s role"' in err
    assert "inside {...} a comma ends the value, so quote a value that holds one" in err
    assert "known keys: covers, snapshot, visibility" in err


def test_a_misspelt_key_still_gets_the_closest_name_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, err = _check_defaults(tmp_path, capsys, "{visibilty: the team's apps}")
    assert "did you mean 'visibility'?" in err and "comma" not in err


def test_an_undeclared_listing_says_how_to_mark_what_is_not_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = tmp_path / "things.json"
    spec.write_text(json.dumps(LISTING), encoding="utf-8")
    rc, _, err = run(capsys, "check", str(spec))
    assert rc == 0 and codes(err) == {"XC100"}
    assert "if it is not a listing, say so with {kind: none, why: ...}" in err
    assert "kind: resource" not in err


def _paged(when_location: str) -> dict:
    doc = json.loads(json.dumps(LISTING))
    op = doc["paths"]["/things"]["get"]
    op["responses"]["200"]["content"]["application/json"]["schema"] = {
        "type": "object",
        "properties": {
            "deployments": {
                "type": "array",
                "items": {"type": "object", "properties": {"id": {"type": "string"}}},
            }
        },
    }
    op["x-completeness"] = {
        "kind": "collection",
        "mode": "adapter",
        "scope": {
            "resource": "deployments",
            "visibility": "the token's account",
            "snapshot": "none",
        },
        "items": "$response.body#/deployments",
        "id": "/id",
        "pagination": {"style": "none"},
        "reasons": [
            {"code": "RESULT_LIMIT_REACHED", "limit": 20, "when": {"gte": [when_location, 20]}}
        ],
    }
    return doc


def test_a_pointer_that_names_a_member_of_an_array_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Walking AppVeyor, a user wrote ``$response.body#/deployments/length`` to say "the page came
    back full": check said nothing, the condition could never hold, and the mock served the
    items location as an object. An array has no named members."""
    spec = tmp_path / "things.json"
    spec.write_text(json.dumps(_paged("$response.body#/deployments/length")), encoding="utf-8")
    rc, _, err = run(capsys, "check", str(spec))
    assert rc == 1 and codes(err) == {"XC106"}, err
    assert "$response.body#/deployments/length does not exist in the response schema" in err
    spec.write_text(json.dumps(_paged("$response.body#/deployments/0/id")), encoding="utf-8")
    rc, _, err = run(capsys, "check", str(spec))
    assert rc == 0 and "XC106" not in err, err  # an index into the array is a location
