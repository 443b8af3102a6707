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


# A schema whose ``not`` is itself, with a ``default`` the validator checks against it: jsonschema
# recurses without end inside referencing's rpds map, whose Rust code turns the RecursionError
# into pyo3's PanicException, a BaseException that ``except Exception`` let out as a traceback.
SELF_NOT = (
    '{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/a":{"get":{"responses":'
    '{"200":{"description":"ok","content":{"application/json":{"schema":'
    '{"$ref":"#/components/schemas/A"}}}}}}}},'
    '"components":{"schemas":{"A":{"not":{"$ref":"#/components/schemas/A"},"default":1}}}}'
)


def test_the_stock_walk_still_reports_a_recursion_it_meets_as_xc031(tmp_path: Path) -> None:
    """``check`` now stops such a schema before any validator (XC032, tests/check/
    test_self_applied.py); the stock walk's own guard stays for what that check cannot see."""
    from xcompleteness.check._osv_stock import run_stock
    from xcompleteness.check._validate import _collect

    spec = tmp_path / "self_not.json"
    spec.write_text(SELF_NOT, encoding="utf-8")
    (diag,) = run_stock(load_spec(spec), "3.0", _collect, speedup=True)
    assert diag.code == "XC031"
    assert diag.message == "the OpenAPI validator recursed too deeply"


def test_a_rust_panic_is_a_library_failure_and_an_exit_is_not() -> None:
    from xcompleteness.diagnostics import library_failure

    class PanicException(BaseException):  # pyo3's, as its extensions raise it
        pass

    assert library_failure(PanicException("__eq__ failed!"))
    assert library_failure(ValueError("x"))
    assert not library_failure(SystemExit(0))
    assert not library_failure(KeyboardInterrupt())
    assert not library_failure(GeneratorExit())


def test_the_command_line_turns_a_panic_anywhere_into_xc000(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from xcompleteness import cli

    class PanicException(BaseException):
        pass

    def panics(args: object) -> int:
        raise PanicException("called `Result::unwrap()` on an `Err` value")

    monkeypatch.setattr(cli, "run_check", panics)
    assert cli.main(["check", "whatever.yaml"]) == 2
    err = capsys.readouterr().err
    assert "XC000" in err and "PanicException" in err and "Traceback" not in err


def test_a_default_the_schema_refuses_is_named_with_the_overlay_that_fixes_it(
    tmp_path: Path,
) -> None:
    """Telnyx's 3.0 description writes ``default: null`` on 47 schemas that are not nullable and
    a bare string default on an array parameter. The validator reports each at the schema with
    the hint "see the OpenAPI specification for this object"; a user of a spec they do not own
    could not tell what was wrong nor how to fix it without editing the spec."""
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/calls": {
                "get": {
                    "parameters": [
                        {"name": "page", "in": "query", "schema": {"type": "integer"}},
                        {
                            "name": "sort",
                            "in": "query",
                            "schema": {"type": "array", "items": {}, "default": "x"},
                        },
                    ],
                    "responses": {"200": {"description": "ok"}},
                }
            }
        },
        "components": {
            "schemas": {"Fax": {"properties": {"limit": {"type": "integer", "default": None}}}}
        },
    }
    path = tmp_path / "spec.yaml"
    path.write_text(yaml.safe_dump(spec), encoding="utf-8")
    found = validate_openapi(load_spec(path))
    by_pointer: dict[str, list[str]] = {}
    for d in found:
        by_pointer.setdefault(d.pointer, []).append(d.hint)
    null_at = "/components/schemas/Fax/properties/limit/default"
    sort_at = "/paths/~1calls/get/parameters/1/schema/default"
    assert set(by_pointer) == {null_at, sort_at}, found
    null_hint = by_pointer[null_at][0]
    assert "target $['components']['schemas']['Fax']['properties']['limit'] with " in null_hint
    assert "update: {nullable: true}" in null_hint
    sort_hint = by_pointer[sort_at][0]
    assert "target $['paths']['/calls']['get']['parameters'][1]['schema']['default'] with " in (
        sort_hint
    )
    assert "nullable" not in sort_hint
    # the overlays the hints name make the document valid
    overlay = tmp_path / "fix.yaml"
    overlay.write_text(
        "overlay: 1.0.0\ninfo: {title: fix, version: '1'}\nactions:\n"
        "  - target: \"$['components']['schemas']['Fax']['properties']['limit']\"\n"
        "    update: {nullable: true}\n"
        "  - target: \"$['paths']['/calls']['get']['parameters'][1]['schema']['default']\"\n"
        "    remove: true\n",
        encoding="utf-8",
    )
    fixed = apply_overlays(load_spec(path), [overlay])
    assert validate_openapi(fixed) == []


def test_a_long_message_keeps_its_verdict() -> None:
    """A duplicate in a long enum: the message quotes the whole list and says "has non-unique
    elements" at its end, which the cap used to cut off (Telnyx's exception types)."""
    from xcompleteness.check._validate import capped

    message = repr([f"EXCEPTION_TYPE_{i}" for i in range(40)]) + " has non-unique elements"
    short = capped(message)
    assert len(short) <= 300
    assert short.endswith(" has non-unique elements") and short.startswith("['EXCEPTION_TYPE_0'")


def test_an_error_behind_a_ref_is_named_where_it_is_written(tmp_path: Path) -> None:
    """Zuora's shared header parameter ``X-Zuora-WSDL-Version`` (a ``$ref`` from 400
    operations) has ``default: 79`` on a string schema. The validator's path runs through the
    ``$ref``, so the error was named at ``/paths/~1v1~1action~1amend/post/parameters/3/schema``,
    which points at nothing in the file (a ``$ref`` object has no ``schema``), with the generic
    hint and no line. It is named inside the component, with its line and the overlay that fixes
    it, and that overlay makes the document valid."""
    text = (
        "openapi: 3.0.3\n"
        "info: {title: t, version: '1'}\n"
        "paths:\n"
        "  /v1/action/amend:\n"
        "    post:\n"
        "      parameters:\n"
        "        - $ref: '#/components/parameters/WsdlVersion'\n"
        "      responses: {'200': {description: ok}}\n"
        "components:\n"
        "  parameters:\n"
        "    WsdlVersion:\n"
        "      name: X-Zuora-WSDL-Version\n"
        "      in: header\n"
        "      schema:\n"
        "        type: string\n"
        "        default: 79\n"
    )
    path = tmp_path / "spec.yaml"
    path.write_text(text, encoding="utf-8")
    (found,) = validate_openapi(load_spec(path))
    assert found.pointer == "/components/parameters/WsdlVersion/schema/default", found
    assert found.line == 16
    target = "$['components']['parameters']['WsdlVersion']['schema']['default']"
    assert f"target {target} with remove: true" in found.hint
    overlay = tmp_path / "fix.yaml"
    overlay.write_text(
        "overlay: 1.0.0\ninfo: {title: fix, version: '1'}\nactions:\n"
        f'  - target: "{target}"\n    remove: true\n',
        encoding="utf-8",
    )
    assert validate_openapi(apply_overlays(load_spec(path), [overlay])) == []
