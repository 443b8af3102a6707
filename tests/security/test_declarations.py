"""Hostile declarations (issue 18, items 8 and 9): bounded counts with linear checks on
``x-completeness-defaults``; ``x-completeness-defaults: null``; evidence from a ``kind: none``
operation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support.hostile import SPEC, codes, run, write_spec


def _spec() -> dict[str, Any]:
    return json.loads(json.dumps(SPEC))


def test_a_huge_defaults_list_is_refused_once_not_checked_quadratically(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = _spec()
    reasons = [{"code": f"X_CUSTOM_{i}", "when": "always"} for i in range(20_000)]
    spec["x-completeness-defaults"] = {"reasons": reasons}
    path = write_spec(tmp_path, spec, "spec.json")
    rc, _, err = run(capsys, "check", str(path))
    assert rc == 1
    assert "#/x-completeness-defaults/reasons" in err and "XC052" in codes(err)
    assert "20000 reasons" in err


def test_a_declaration_list_over_the_bound_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = _spec()
    decl = spec["paths"]["/items"]["get"]["x-completeness"]
    decl["warnings"] = [f"W_{i}" for i in range(300)]
    rc, _, err = run(capsys, "check", str(write_spec(tmp_path, spec, "spec.json")))
    assert rc == 1 and "XC052" in codes(err) and "300 warnings" in err


def test_duplicate_object_reasons_are_still_found(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = _spec()
    decl = spec["paths"]["/items"]["get"]["x-completeness"]
    more = {"code": "MORE_PAGES_AVAILABLE", "when": {"present": "$response.body#/next_cursor"}}
    decl["reasons"] = [more, {"when": more["when"], "code": more["code"]}]  # same, keys reordered
    rc, _, err = run(capsys, "check", str(write_spec(tmp_path, spec, "spec.json")))
    assert rc == 1 and "non-unique" in err


def test_defaults_null_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = _spec()
    spec["x-completeness-defaults"] = None
    rc, _, err = run(capsys, "check", str(write_spec(tmp_path, spec)))
    assert rc == 1 and "XC040" in codes(err) and "#/x-completeness-defaults" in err


def test_evidence_from_a_kind_none_operation_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = _spec()
    spec["paths"]["/other"] = {
        "get": {
            "operationId": "getOther",
            "responses": {"200": {"description": "ok"}},
            "x-completeness": {"kind": "none", "why": "a single object"},
        }
    }
    spec["paths"]["/items"]["post"] = {
        "operationId": "deleteItems",
        "requestBody": {
            "content": {
                "application/json": {
                    "schema": {
                        "type": "object",
                        "properties": {
                            "ids": {"type": "array", "items": {"type": "string"}},
                            "evidence": {"type": "string"},
                        },
                    }
                }
            }
        },
        "responses": {"200": {"description": "ok"}},
        "x-completeness": {
            "kind": "mutation",
            "destructive": True,
            "evidence": {
                "from": "getOther",
                "ids": "$request.body#/ids",
                "token": "$request.body#/evidence",
            },
        },
    }
    rc, _, err = run(capsys, "check", str(write_spec(tmp_path, spec)))
    assert rc == 1 and "XC117" in codes(err) and "kind: none" in err
