"""OpenAPI validation: diagnostics with pointers, and the set-based speed-up keeps verdicts."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from support.paths import EXAMPLES
from xcompleteness.check._validate import validate_openapi
from xcompleteness.diagnostics import InputError
from xcompleteness.load import load_spec
from xcompleteness.load._overlay import apply_overlays

INVALID = Path(__file__).resolve().parents[1] / "invalid"

BROKEN = {
    "openapi": "3.0.3",
    "info": {"title": "broken", "version": "1"},
    "paths": {
        "/a/{id}": {
            "get": {
                "operationId": "dup",
                "responses": {
                    "200": {
                        "description": "ok",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "allOf": [{"$ref": "#/components/schemas/A"}],
                                    "required": ["ghost"],
                                }
                            }
                        },
                    }
                },
            }
        },
        "/b": {"get": {"operationId": "dup", "responses": {"200": {"description": "ok"}}}},
    },
    "components": {
        "schemas": {
            "A": {
                "type": "object",
                "properties": {
                    "n": {"type": "integer", "default": "not a number"},
                    "self": {"$ref": "#/components/schemas/A"},
                    "odd": {"type": "strange"},
                },
            }
        }
    },
}


def _specs(tmp_path: Path) -> list:
    docs = []
    for example in sorted(EXAMPLES.glob("*/openapi.yaml")):
        docs.append(load_spec(example))
        base, overlay = example.with_name("base.yaml"), example.with_name("overlay.yaml")
        if base.exists() and overlay.exists():
            docs.append(apply_overlays(load_spec(base), [overlay]))
    for spec in sorted(INVALID.glob("*/spec.yaml")):
        try:
            docs.append(load_spec(spec))
        except InputError:
            continue
    for version in ("3.0.3", "3.1.0"):
        broken = tmp_path / f"broken-{version}.yaml"
        broken.write_text(yaml.safe_dump({**BROKEN, "openapi": version}), encoding="utf-8")
        docs.append(load_spec(broken))
    return docs


def _key(diags: list) -> list:
    return [(d.code, d.pointer, d.message) for d in diags]


def test_speedup_keeps_the_verdicts(tmp_path: Path) -> None:
    docs = _specs(tmp_path)
    assert len(docs) > 30
    some_invalid = False
    for doc in docs:
        fast, stock = validate_openapi(doc), validate_openapi(doc, speedup=False)
        assert _key(fast) == _key(stock), doc.origin
        some_invalid |= bool(fast)
    assert some_invalid


@pytest.mark.parametrize("version", ["3.0.3", "3.1.0"])
def test_errors_carry_pointers(tmp_path: Path, version: str) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text(yaml.safe_dump({**BROKEN, "openapi": version}), encoding="utf-8")
    diags = validate_openapi(load_spec(path))
    assert diags and {d.code for d in diags} == {"XC030"}
    messages = " ".join(d.message for d in diags)
    assert "ghost" in messages or "strange" in messages or "dup" in messages


def test_missing_info_points_at_root_with_line(tmp_path: Path) -> None:
    path = tmp_path / "noinfo.yaml"
    path.write_text("openapi: 3.1.0\npaths: {}\n", encoding="utf-8")
    (diag,) = validate_openapi(load_spec(path))
    assert diag.code == "XC030" and diag.pointer == "" and "info" in diag.message


def test_bad_value_has_its_pointer_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(
        "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n"
        "      responses: 12\n",
        encoding="utf-8",
    )
    diags = validate_openapi(load_spec(path))
    assert any(d.pointer == "/paths/~1a/get/responses" and d.line == 6 for d in diags)


def test_a_failing_validator_is_one_short_xc031_not_a_dump_of_the_document(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The library's exception text can quote the whole document (seen on a real spec); the
    diagnostic keeps its code and a readable, capped message."""
    from xcompleteness.check import _lean, _osv_stock

    class Exploding:
        def __init__(self, spec_path: object) -> None:
            pass

        def iter_errors(self) -> object:
            raise ValueError("document: " + "x" * 100_000)

    monkeypatch.setitem(_osv_stock.FAST_VALIDATORS, "3.0", Exploding)
    # the walk's structural check asks the stock validator, which cannot answer: the stock
    # walk runs, and fails
    monkeypatch.setattr(_lean, "structural_valid", lambda data, version: None)
    spec = tmp_path / "ok.yaml"
    spec.write_text(
        yaml.safe_dump({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}}),
        encoding="utf-8",
    )
    (diag,) = validate_openapi(load_spec(spec))
    assert diag.code == "XC031"
    assert diag.message.startswith("the OpenAPI validator failed: ValueError: document: xxx")
    assert len(diag.message) <= 300
