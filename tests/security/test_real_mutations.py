"""Classes found by mutating real descriptions (tests/support/fuzz_surfaces.py, surface
``real``; tests/support/mangle_spec.py), each at its mechanism.

The item models' early child (a second core) reads the item schemas as soon as the spec is
loaded, before the validator has seen them: a component schema that is ``null`` (a duplicate key
in slicebox's description, its second value null) was a ``TypeError`` out of ``generate``. The
start is speculative: whatever fails there leaves the work to the one-process path, which
reports the schema (XC030).
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml
from support.hostile import SPEC
from support.mangle import cache_folder, jobs
from xcompleteness import api

N = 40  # past AHEAD_MIN_SCHEMAS: the models' child is started


def _spec() -> dict:
    """support.hostile's listing, its items a component schema that refers to N others."""
    spec = copy.deepcopy(SPEC)
    schemas = {
        f"S{i}": {"type": "object", "properties": {"v": {"type": "string"}}} for i in range(N)
    }
    refs = {f"s{i}": {"$ref": f"#/components/schemas/S{i}"} for i in range(N)}
    schemas["Item"] = {"type": "object", "properties": {"id": {"type": "string"}, **refs}}
    spec["components"] = {"schemas": schemas}
    body = spec["paths"]["/items"]["get"]["responses"]["200"]["content"]["application/json"]
    body["schema"]["properties"]["items"]["items"] = {"$ref": "#/components/schemas/Item"}
    return spec


def test_a_null_component_schema_with_the_models_child_on_is_a_finding(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    clean = _spec()
    spec.write_text(yaml.safe_dump(clean), "utf-8")
    with cache_folder(None), jobs(True):
        assert api.generate(spec, None, (), package="p", cache=False).exit_code == 0
    broken = _spec()
    broken["components"]["schemas"]["S7"] = None
    spec.write_text(yaml.safe_dump(broken), "utf-8")
    for two in (True, False):
        with cache_folder(None), jobs(two):
            result = api.generate(spec, None, (), package="p", cache=False)
        errors = {(d.code, d.pointer) for d in result.diagnostics if d.severity.value == "error"}
        assert int(result.exit_code) == 1 and not result.files
        assert ("XC030", "/components/schemas/S7") in errors


# --------------------------------------------------------------------------- lone surrogates
# A JSON "\ud800" escape is read as half a surrogate pair: a str no UTF-8 writer can encode.
# It reached generated text and failed the write (UnicodeEncodeError out of generate).


def _json_spec_with(tmp_path: Path, text: str, writer: str = "json") -> Path:
    """examples/service_accounts/openapi.yaml as JSON text, its first summary ``text`` (as
    written in JSON, escapes and all). ``writer``: ``json`` (``json.dumps``), ``orjson`` or
    ``orjson-indent`` (orjson's own writing, on one line or indented by two: the texts the
    loader reads with orjson and proves by writing them back, load._canonical)."""
    import json

    import orjson
    from support.paths import EXAMPLES

    data = yaml.safe_load((EXAMPLES / "service_accounts" / "openapi.yaml").read_text("utf-8"))
    data["info"]["description"] = "MARK"
    spec = tmp_path / "spec.json"
    written = {
        "json": lambda: json.dumps(data),
        "orjson": lambda: orjson.dumps(data).decode(),
        "orjson-indent": lambda: orjson.dumps(data, option=orjson.OPT_INDENT_2).decode(),
    }[writer]()
    spec.write_text(written.replace('"MARK"', f'"{text}"'), "utf-8")
    return spec


@pytest.mark.parametrize("writer", ["json", "orjson", "orjson-indent"])
def test_a_lone_surrogate_escape_is_a_syntax_error_where_it_is_written(
    tmp_path: Path, writer: str
) -> None:
    # orjson's writing: the loader skips the escape scan for a text orjson read and wrote back
    # byte for byte; a lone surrogate escape must still be found (orjson refuses to read it, so
    # the text takes the ordinary way)
    for lone in ("a \\ud800 b", "\\udc00", "x\\ud83d"):
        spec = _json_spec_with(tmp_path, lone, writer)
        for result in (
            api.check(spec),
            api.audit(spec),
            api.generate(spec, None, (), package="p", cache=False),
            api.generate(spec, tmp_path / "out", (), package="p", cache=False),
        ):
            errors = [
                (d.code, d.pointer) for d in result.diagnostics if d.severity.value == "error"
            ]
            assert int(result.exit_code) == 2 and errors == [("XC003", "/info/description")]
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("writer", ["json", "orjson"])
def test_a_surrogate_pair_and_an_escaped_backslash_are_text(tmp_path: Path, writer: str) -> None:
    spec = _json_spec_with(tmp_path, "smile \\ud83d\\ude00, pattern [\\\\ud800-\\\\udfff]", writer)
    result = api.generate(spec, None, (), package="p", cache=False)
    assert int(result.exit_code) == 0
    text = "\n".join(str(v) for v in result.files.values())
    assert "smile \U0001f600" in text and "\\ud800" in text


def test_an_escaped_backslash_before_ud800_in_orjson_writing_is_text(tmp_path: Path) -> None:
    # read as orjson's own writing (no escape scan): the backslash is text, nothing is refused
    spec = _json_spec_with(tmp_path, "pattern [\\\\ud800-\\\\udfff]", "orjson-indent")
    from xcompleteness.load._canonical import read_canonical

    raw = spec.read_bytes()
    assert read_canonical(raw, raw.decode()) is not None
    result = api.check(spec)
    assert int(result.exit_code) == 0, result.diagnostics
    assert "[\\ud800-\\udfff]" in spec.read_text("utf-8").replace("\\\\", "\\")
