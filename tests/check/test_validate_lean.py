"""The lean path of OpenAPI validation (check/_lean.py) keeps the stock verdicts.

What it decides without importing openapi-spec-validator is checked against the stock code it
stands for: the same meta-schemas, the same structural verdict on every fixture, a default value
it accepts is one the stock value check accepts (property test), the literals the walk copies.
And the checks have teeth: a lean default check that waved a bad default through is caught by
the verdict comparison.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xcompleteness.check import _lean
from xcompleteness.check._osv_walk import OPERATIONS
from xcompleteness.check._validate import validate_openapi
from xcompleteness.diagnostics import InputError
from xcompleteness.load import load_spec

INVALID = Path(__file__).resolve().parents[1] / "invalid"
SPECS = Path(__file__).resolve().parent / "specs"


def _key(diags: list) -> list:
    return [(d.code, d.pointer, d.message, d.line) for d in diags]


def _docs() -> list[Any]:
    docs = []
    for spec in sorted(INVALID.glob("*/spec.yaml")) + sorted(SPECS.glob("*.yaml")):
        try:
            docs.append(load_spec(spec))
        except InputError:
            continue
    return docs


def test_the_copied_literals_are_the_librarys() -> None:
    from openapi_spec_validator.validation import exceptions as exc
    from openapi_spec_validator.validation.keywords import PathValidator

    assert frozenset(PathValidator.OPERATIONS) == OPERATIONS
    for cls in (
        exc.OpenAPIValidationError,
        exc.ParameterDuplicateError,
        exc.ExtraParametersError,
        exc.DuplicateOperationIDError,
        exc.UnresolvableParameterError,
    ):
        assert cls("a message").message == "a message"  # the walk yields the text itself


def test_the_meta_schemas_read_from_disk_are_the_stock_ones() -> None:
    from openapi_schema_validator import OAS30Validator
    from openapi_spec_validator.schemas import schema_v30, schema_v31

    assert _lean.document_meta_schema("3.0") == dict(schema_v30)
    assert _lean.document_meta_schema("3.1") == dict(schema_v31)
    assert _lean.schema_meta_schema() == dict(OAS30Validator.META_SCHEMA)
    assert _lean.OAS_FORMATS <= {
        *__import__("openapi_schema_validator").oas30_format_checker.checkers
    }


def test_the_structural_verdict_is_the_stock_one_on_every_fixture(tmp_path: Path) -> None:
    from xcompleteness.check._osv_stock import stock_validator

    docs = _docs()
    for version in ("3.0.3", "3.1.0"):  # structurally broken on purpose
        broken = tmp_path / f"broken-{version}.yaml"
        data = {"openapi": version, "info": {"title": "t"}, "paths": {"/a": {"get": 3}}}
        broken.write_text(yaml.safe_dump(data), encoding="utf-8")
        docs.append(load_spec(broken))
    verdicts = set()
    for doc in docs:
        version = str(doc.data["openapi"])[:3]
        stock = stock_validator(doc, version).schema_validator
        expected = not any(True for _ in stock.iter_errors(doc.data))
        assert _lean.structural_valid(doc.data, version) is expected, doc.origin
        verdicts.add(expected)
    assert verdicts == {True, False}


def test_settings_in_the_environment_turn_the_lean_checks_off(monkeypatch) -> None:
    monkeypatch.setenv("OPENAPI_SPEC_VALIDATOR_SCHEMA_VALIDATOR_BACKEND", "jsonschema")
    assert _lean.structural_valid({"openapi": "3.0.3"}, "3.0") is None
    assert _lean.lean_meta_check("3.0") is None


def test_the_lean_meta_check_is_live_and_only_for_30() -> None:
    compiled = _lean.lean_meta_check("3.0")
    assert compiled is not None and _lean.lean_meta_check("3.1") is None
    assert _lean.fast_meta_valid(compiled, {"type": "string", "pattern": "^[a-z]+$"})
    assert not _lean.fast_meta_valid(compiled, {"type": "string", "pattern": "(?<n>a)"})
    assert not _lean.fast_meta_valid(compiled, {"type": "strange"})


def test_a_specs_odd_pattern_prints_no_warning_of_ours(tmp_path: Path) -> None:
    """``[[a]`` compiles with a FutureWarning (a possible nested set); the regex format check
    keeps the verdict (a valid pattern) and stderr stays clean (amadeus-flight-order-management
    printed our file's name)."""
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {},
        "components": {"schemas": {"Code": {"type": "string", "pattern": "[[a]"}}},
    }
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-W", "default", "-m", "xcompleteness", "check", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Warning" not in proc.stderr, proc.stderr


# -- default values -------------------------------------------------------------------------


def _stock_default_errors(schema: dict[str, Any], value: Any) -> list[str]:
    """What openapi-spec-validator's 3.0 ``default`` check reports (its own value validator)."""
    from openapi_spec_validator.validation.keywords import OpenAPIV30ValueValidator

    validator = OpenAPIV30ValueValidator.value_validator_cls(
        copy.deepcopy(schema),
        format_checker=OpenAPIV30ValueValidator.value_validator_format_checker,
    )
    return [e.message for e in validator.iter_errors(copy.deepcopy(value))]


_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 200),
    st.sampled_from([0.5, -1.5, 1.0, 2.0, 1e300, float("inf")]),
    st.sampled_from(["", "a", "abc", "public", "x" * 150, "not-a-date", "2024-01-01", "(", "1"]),
    st.lists(st.integers(0, 2), max_size=2),
)
_RULES = {
    "type": st.sampled_from(["boolean", "integer", "number", "string", "array", "object", "null"]),
    "enum": st.lists(_values, max_size=3),
    "nullable": st.booleans(),
    "minimum": st.one_of(st.integers(-2, 50), st.sampled_from([0.5, True, "1"])),
    "maximum": st.one_of(st.integers(-2, 150), st.sampled_from([99.5, False])),
    "exclusiveMinimum": st.booleans(),
    "minLength": st.one_of(st.integers(0, 5), st.sampled_from([1.0, "2"])),
    "maxLength": st.one_of(st.integers(0, 200), st.sampled_from([3.0])),
    "format": st.sampled_from(
        ["uri", "date", "date-time", "email", "int32", "byte", "regex", "uuid", "made-up", 5]
    ),
    "pattern": st.sampled_from(["^a", "b"]),
    "multipleOf": st.sampled_from([2, 0.5]),
    "items": st.just({"type": "integer"}),
    "description": st.just("d"),
    "deprecated": st.booleans(),
    "example": _values,
    "x-note": _values,
}
_schemas = st.dictionaries(st.sampled_from(sorted(_RULES)), st.none(), max_size=5).flatmap(
    lambda keys: st.fixed_dictionaries({k: _RULES[k] for k in keys})
)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schema=_schemas, value=_values)
def test_a_default_the_lean_check_accepts_is_one_the_stock_check_accepts(
    schema: dict[str, Any], value: Any
) -> None:
    if _lean.default_ok(schema, value):
        assert _stock_default_errors(schema, value) == [], (schema, value)


def test_the_lean_default_check_decides_the_common_shapes() -> None:
    """Regression guard: GitHub's and Graph's defaults are of these shapes (973 and 406 of them);
    if they went to the stock check, every check would import the validator stack again."""
    common = [
        ({"type": "boolean", "default": False}, False),
        ({"type": "string", "enum": ["a", "b"], "default": "b", "nullable": True}, "b"),
        ({"type": "integer", "minimum": 1, "maximum": 100, "default": 30}, 30),
        ({"type": "string", "maxLength": 140, "default": ""}, ""),
        ({"type": "string", "format": "uri", "default": ""}, ""),
        ({"type": "boolean", "deprecated": True, "x-github": {"a": 1}}, True),
    ]
    for schema, value in common:
        assert _lean.default_ok(schema, value), schema
        assert _stock_default_errors(schema, value) == []
    for schema, value in [
        ({"type": "integer"}, "x"),
        ({"type": "integer"}, True),
        ({"type": "string", "enum": ["a"]}, "b"),
        ({"type": "integer", "maximum": 10}, 30),
        ({"type": "string", "maxLength": 1}, "ab"),
        ({"type": "string", "format": "date"}, "not-a-date"),
        ({"type": "string", "pattern": "^a"}, "b"),
    ]:
        assert not _lean.default_ok(schema, value), schema


def _write(tmp_path: Path, data: dict[str, Any]) -> Any:
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return load_spec(path)


def _bad_defaults(version: str = "3.0.3") -> dict[str, Any]:
    schemas = {
        "A": {"type": "integer", "maximum": 10, "default": 30},
        "B": {"type": "string", "enum": ["x", "y"], "default": "z"},
        "C": {"type": "string", "format": "date", "default": "yesterday"},
        "D": {"type": "boolean", "default": "no"},
        "E": {"type": "integer", "default": 3},
    }
    ok = {"description": "ok", "content": {"application/json": {"schema": {"type": "string"}}}}
    return {
        "openapi": version,
        "info": {"title": "t", "version": "1"},
        "paths": {"/a": {"get": {"responses": {"200": ok}}}},
        "components": {"schemas": schemas},
    }


@pytest.mark.parametrize("version", ["3.0.3", "3.1.0"])
def test_bad_defaults_are_reported_as_the_stock_validator_reports_them(
    tmp_path: Path, version: str
) -> None:
    doc = _write(tmp_path, _bad_defaults(version))
    lean, stock = validate_openapi(doc), validate_openapi(doc, speedup=False)
    assert _key(lean) == _key(stock)
    # the validator reports a default's error at the schema; the finding names the default
    assert [(d.pointer, d.message) for d in lean] == [
        ("/components/schemas/A/default", "30 is greater than the maximum of 10"),
        ("/components/schemas/B/default", "'z' is not one of ['x', 'y']"),
        ("/components/schemas/C/default", "'yesterday' is not a 'date'"),
        ("/components/schemas/D/default", "'no' is not of type 'boolean'"),
    ]
    assert all("default" in d.hint and "remove: true" in d.hint for d in lean)


def test_a_lean_check_that_dropped_an_error_would_be_caught(tmp_path: Path, monkeypatch) -> None:
    """The comparison above has teeth: a default check that says yes to everything loses the
    stock errors, and the verdicts part."""
    doc = _write(tmp_path, _bad_defaults())
    stock = validate_openapi(doc, speedup=False)
    monkeypatch.setattr(_lean, "default_ok", lambda schema, value: True)
    assert _key(validate_openapi(doc)) != _key(stock)
    assert validate_openapi(doc) == []


_PROBE = """
import json, sys
from xcompleteness.check._validate import validate_openapi
from xcompleteness.load import load_spec
found = validate_openapi(load_spec(sys.argv[1]))
heavy = sorted(m for m in ("openapi_spec_validator", "openapi_schema_validator",
                           "jsonschema_path", "pydantic_settings", "requests") if m in sys.modules)
print(json.dumps([len(found), heavy]))
"""


def test_a_plain_valid_document_is_validated_without_the_validator_stack(tmp_path: Path) -> None:
    data = _bad_defaults()
    data["components"]["schemas"] = {
        "Page": {"type": "integer", "minimum": 1, "default": 1},
        "Kind": {"type": "string", "enum": ["a", "b"], "default": "a"},
        "Item": {"type": "object", "properties": {"id": {"type": "string", "pattern": "^[0-9]+$"}}},
    }
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-c", _PROBE, str(path)], capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout) == [0, []]


def test_the_formats_read_from_jsonschema_are_the_ones_it_checks() -> None:
    """``checked_as_read`` (which formats the stock value check checks, known without importing
    jsonschema) against jsonschema's own ``FormatChecker.checkers`` here, for every format the
    table names, every one jsonschema registers, OpenAPI's and some it never checks. Under any
    other jsonschema release (a fresh install may bring one newer than the table, whose
    ``_format.py`` is then read again) the table must not be used: ``FormatChecker`` is asked."""
    from jsonschema import FormatChecker
    from xcompleteness.reuse import installed_version

    if installed_version("jsonschema") != _lean.JSONSCHEMA_FORMATS_READ:
        assert not _lean._formats_as_read()
        return
    names = (
        set(FormatChecker.checkers)
        | set(_lean._ALWAYS_CHECKED)
        | set(_lean._CHECKED_WITH)
        | _lean.OAS_FORMATS
        | {"github-url", "ip-address", "host-name", "", "URI"}
    )
    for name in sorted(names):
        stock = name in FormatChecker.checkers or name in _lean.OAS_FORMATS
        assert _lean.checked_as_read(name) is stock, name


def test_a_format_an_optional_library_checks_counts_as_checked_when_it_can_be_found(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``uri`` is checked by jsonschema only beside rfc3987 or rfc3986-validator (absent here):
    found on the path, the stock check is asked; a module that cannot be looked up counts as
    found."""
    import importlib.util

    real = importlib.util.find_spec
    assert not _lean.checked_as_read("uri")
    for module in ("rfc3987", "rfc3986_validator"):
        monkeypatch.setattr(
            importlib.util,
            "find_spec",
            lambda name, *a, m=module: object() if name == m else real(name, *a),
        )
        assert _lean.checked_as_read("uri") and _lean.checked_as_read("uri-reference")
        assert _lean.checked_as_read("iri") is (module == "rfc3987")

    def broken(name: str, *args: Any) -> Any:
        raise ValueError(name)

    monkeypatch.setattr(importlib.util, "find_spec", broken)
    assert _lean.checked_as_read("uri") and not _lean.checked_as_read("github-url")


_FORMAT_PROBE = """
import json, sys
from xcompleteness.check._validate import validate_openapi
from xcompleteness.load import load_spec
found = validate_openapi(load_spec(sys.argv[1]))
print(json.dumps([[d.pointer, d.message] for d in found]), "jsonschema" in sys.modules)
"""


def test_a_default_beside_a_format_is_decided_without_importing_jsonschema(
    tmp_path: Path,
) -> None:
    """GitHub's ``{type: string, format: uri, default: ""}`` (and a format no release checks):
    decided without jsonschema in a fresh process, with the stock verdict; a bad default beside
    a format jsonschema always checks still gets the stock error."""
    data = _bad_defaults()
    data["components"]["schemas"] = {
        "Url": {"type": "string", "format": "uri", "default": ""},
        "Own": {"type": "string", "format": "github-url", "default": "x"},
    }
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-c", _FORMAT_PROBE, str(path)], capture_output=True, text=True, check=True
    )
    from xcompleteness.reuse import installed_version

    imported = installed_version("jsonschema") != _lean.JSONSCHEMA_FORMATS_READ  # asked then
    assert out.stdout.split() == ["[]", str(imported)]
    assert validate_openapi(load_spec(path), speedup=False) == []
    data["components"]["schemas"]["Day"] = {"type": "string", "format": "date", "default": "x"}
    path.write_text(json.dumps(data), encoding="utf-8")
    doc = load_spec(path)
    assert _key(validate_openapi(doc)) == _key(validate_openapi(doc, speedup=False)) != []
