"""Hostile overlays through the whole ``generate`` pipeline, cold and as an edit on a warm cache.

The attacker writes an overlay (type confusion, deleted, duplicated and non-string keys, refs to
nowhere or to themselves: :mod:`support.mangle`). Whatever it holds, ``generate`` gives a result
with a documented exit code (0, 1, 2; docs/cli.md) and never raises; an *edit* (the same input
after a run of the unmutated example filled the cache: item models, formatted modules, verdicts,
clean declarations, walks) gives exactly what a run without any cache gives, with the second
core forced on or off. The bounded twin of the campaign ``tests/support/fuzz_generate.py``.

Also here: the classes that campaign found, each with the input that showed it.
"""

from __future__ import annotations

import json
import random
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.mangle import copy_cache, load_case, mutate, outcome, write_case
from xcompleteness import api
from xcompleteness.check import _verdict
from xcompleteness.emit import _cache as gencache
from xcompleteness.emit import _verdict_cache as vc
from xcompleteness.load import load_document

CASES = ("link_header_search", "service_accounts", "github", "link_header_defaults")
"""The bundled examples that come as a spec and overlays (the last with a defaults overlay)."""


@pytest.fixture(scope="session")
def warm(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Per example, a cache folder filled by a run of the unmutated example (made once)."""
    root = tmp_path_factory.mktemp("warm")
    out = {}
    for name in CASES:
        spec, overlays = write_case(load_case(name), root / name / "src")
        assert outcome(spec, overlays, root / name / "cache", two=False).exit_code == 0
        out[name] = root / name / "cache"
    return out


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    name=st.sampled_from(CASES),
    rng=st.randoms(use_true_random=False),
    count=st.integers(1, 2),
    two=st.booleans(),
    as_json=st.booleans(),
)
def test_a_mangled_overlay_gives_a_documented_result_and_the_edit_gives_the_cold_tree(
    warm: dict[str, Path],
    tmp_path_factory: pytest.TempPathFactory,
    name: str,
    rng: random.Random,
    count: int,
    two: bool,
    as_json: bool,
) -> None:
    case, mutations = mutate(load_case(name), rng, count, overlays_only=True, declarations=True)
    folder = tmp_path_factory.mktemp("mangled")
    spec, overlays = write_case(case, folder / "src", as_json=as_json)
    cold = outcome(spec, overlays, None, two=False)  # no cache at all, one process
    assert cold.exit_code in (0, 1, 2), mutations
    assert bool(cold.files) == (cold.exit_code == 0), mutations
    cache = copy_cache(warm[name], folder / "cache")
    edit = outcome(spec, overlays, cache, two=two)
    assert not edit.astray, mutations  # a sound cache never needs the retry without it
    assert edit == cold, mutations  # exit code, error codes and pointers, every file's bytes
    again = outcome(spec, overlays, cache, two=not two)  # now a whole-run hit, if accepted
    assert again == cold, mutations


# --- the classes the campaign found --------------------------------------------------------


def _check_and_generate(spec: Path, overlays: list[Path]) -> tuple[object, ...]:
    """What ``check`` and an uncached ``generate`` (no OUT) give for the same input."""
    return (
        api.check(spec, overlays),
        api.generate(spec, None, overlays, package="mangled", cache=False),
    )


def test_a_planted_clean_verdict_for_an_invalid_document_is_a_refusal_not_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A clean OpenAPI verdict planted under the key of a document that is not OpenAPI (a
    parameter's ``type`` a mapping) let the IR read that document: a TypeError out of
    ``generate``. A failure under what the cache gave now runs the pipeline again without
    the cache, whose result (here the validator's refusal) stands."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("XC_JOBS", "1")
    case = load_case("link_header_search")
    params = case.spec["paths"]["/orgs/{org}/repos"]["get"]["parameters"]
    params[0]["schema"]["type"] = {"code": "MORE_PAGES_AVAILABLE"}  # org: {type: string}
    spec, overlays = write_case(case, tmp_path / "src")
    key = _verdict.verdict_key(load_document(spec, overlays))
    assert key is not None
    vc.VerdictCache().put(key)  # "this document is valid OpenAPI"
    result = api.generate(spec, None, overlays, package="repos")
    assert result.exit_code == 1
    assert any(d.code == "XC030" for d in result.diagnostics)  # what no cache says
    assert not result.files


def test_a_forged_whole_run_entry_with_a_list_for_a_severity_is_a_miss(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A whole-run entry whose checksum is right but whose recorded diagnostic has a list as
    its severity raised TypeError (unhashable) while it was checked; it is now a miss."""
    import hashlib

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    spec, overlays = write_case(load_case("link_header_search"), tmp_path / "src")
    first = api.generate(spec, None, overlays, package="repos")
    (entry,) = gencache.cache_dir().glob("*" + gencache.SUFFIX)
    head, _, body = entry.read_bytes().partition(b"\n")
    meta, nl, contents = zlib.decompress(body).partition(b"\n")
    record = json.loads(meta)
    record["diagnostics"] = [
        {
            "file": "",
            "pointer": "",
            "code": "XC1",
            "severity": [],
            "message": "",
            "hint": "",
            "line": None,
        }
    ]
    body = zlib.compress(json.dumps(record).encode() + nl + contents)
    header = {**json.loads(head), "size": len(body), "sha256": hashlib.sha256(body).hexdigest()}
    entry.write_bytes(json.dumps(header).encode() + b"\n" + body)
    again = api.generate(spec, None, overlays, package="repos")
    assert not again.cached and again.exit_code == 0
    assert dict(again.files) == dict(first.files)


@pytest.mark.parametrize("target", ["", " ", "$[", "$.paths[?"])
def test_an_overlay_target_the_jsonpath_library_cannot_describe_is_a_diagnostic(
    tmp_path: Path, target: str
) -> None:
    """An empty target made the JSONPath library's own error message fail (ValueError from
    its ``__str__``): a traceback out of check and generate. The text of another library's
    exception enters a diagnostic through one function that never raises
    (``diagnostics.exception_text``)."""
    case = load_case("link_header_search")
    case.overlays[0]["actions"][1]["target"] = target
    spec, overlays = write_case(case, tmp_path / "src")
    for result in _check_and_generate(spec, overlays):
        assert result.exit_code == 2
        assert [(d.code, d.pointer) for d in result.diagnostics] == [("XC022", "/actions/1/target")]


@pytest.mark.parametrize("kind", [{"code": 5}, ["collection"], None, 5])
def test_a_declaration_whose_kind_is_not_text_beside_defaults_is_a_diagnostic(
    tmp_path: Path, kind: object
) -> None:
    """With ``x-completeness-defaults`` in the document, a declaration whose ``kind`` is a
    mapping raised TypeError (unhashable) where the defaults are merged, before the schema
    check that reports it: the merge now reads only a text ``kind``."""
    case = load_case("link_header_defaults")
    case.overlays[0]["actions"][1]["update"]["x-completeness"]["kind"] = kind
    spec, overlays = write_case(case, tmp_path / "src")
    pointer = "/paths/~1search~1repositories/get/x-completeness/kind"
    for result in _check_and_generate(spec, overlays):
        assert result.exit_code == 1
        assert any(d.pointer == pointer and d.code.startswith("XC04") for d in result.diagnostics)


@pytest.mark.parametrize(
    ("keyword", "value", "at"),
    [
        ("required", 5, "/required"),
        ("required", [{}], "/required/0"),
        ("properties", 5, "/properties"),
        ("properties", {"ids": {"required": 5}, "evidence": {}}, "/properties/ids/required"),
        ("type", "foo", "/type"),
    ],
)
def test_a_request_body_schema_that_is_not_json_schema_is_xc030_in_openapi_3_1(
    tmp_path: Path, keyword: str, value: object, at: str
) -> None:
    """openapi-spec-validator never reads an operation's ``requestBody`` (and the 3.1 document
    schema takes any object there), so a mutation body with ``required: 5`` was "valid" and
    the IR reading its fields raised TypeError. Request body schemas are now meta-checked
    like response schemas: XC030 at the keyword, from check and from generate."""
    case = load_case("service_accounts_inline")
    assert case.spec["openapi"].startswith("3.1")
    op = case.spec["paths"]["/service-accounts/archive"]["post"]
    op["requestBody"]["content"]["application/json"]["schema"][keyword] = value
    spec, overlays = write_case(case, tmp_path / "src")
    pointer = "/paths/~1service-accounts~1archive/post/requestBody/content/application~1json"
    for result in _check_and_generate(spec, overlays):
        assert result.exit_code == 1
        found = [(d.code, d.pointer) for d in result.diagnostics if d.severity.value == "error"]
        assert found == [("XC030", pointer + "/schema" + at)]


def test_a_request_body_component_is_meta_checked_where_it_is_written(tmp_path: Path) -> None:
    case = load_case("service_accounts_inline")
    op = case.spec["paths"]["/service-accounts/archive"]["post"]
    body = op["requestBody"]
    body["content"]["application/json"]["schema"]["required"] = 5
    case.spec["components"]["requestBodies"] = {"Archive": body}
    op["requestBody"] = {"$ref": "#/components/requestBodies/Archive"}
    spec, overlays = write_case(case, tmp_path / "src")
    result = api.check(spec, overlays)
    pointer = "/components/requestBodies/Archive/content/application~1json/schema/required"
    assert [(d.code, d.pointer) for d in result.diagnostics if d.severity.value == "error"] == [
        ("XC030", pointer)
    ]


def test_a_run_the_cache_leads_astray_is_made_again_without_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The guard itself: whatever fails only with the per-stage caches in use (here the
    item-model store cannot even be opened) gives the files of a run without any cache, warning
    XC607, and stores nothing (the next run computes afresh)."""
    from xcompleteness.emit import _model_cache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    spec, overlays = write_case(load_case("link_header_search"), tmp_path / "src")
    plain = api.generate(spec, None, overlays, package="repos", cache=False)

    def broken(self: object) -> None:
        raise RuntimeError("a stage that fails only with the cache")

    monkeypatch.setattr(_model_cache.ModelCache, "__init__", broken)
    result = api.generate(spec, None, overlays, package="repos")
    assert result.exit_code == 0 and dict(result.files) == dict(plain.files)
    notes = [d for d in result.diagnostics if d.code == "XC607"]
    assert len(notes) == 1 and "astray" in notes[0].message
    assert not list(gencache.cache_dir().glob("*" + gencache.SUFFIX))  # nothing stored
