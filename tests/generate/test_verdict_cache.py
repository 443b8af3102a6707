"""The verdict cache: a clean OpenAPI verdict is reused when only x-completeness values changed.

Observed without timings or mocks. A hit is seen through a planted entry: a well-formed "clean"
entry stored under the key of a document that is in fact invalid lets ``generate`` through, so
every run that refuses such a document proves the entry was not used. Output is compared byte for
byte with a run that used no cache at all.
"""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from support.cache_inputs import (
    EXAMPLE,
    cache_entries,
    cache_inputs,
    damages,
    drop_whole_run_entries,
)
from xcompleteness.check import _verdict
from xcompleteness.emit import _cache as gencache
from xcompleteness.emit import _verdict_cache as vc
from xcompleteness.emit._generate import GenerationRefused, generate
from xcompleteness.load import load_document

OP = "$.paths['/orgs/{org}/repos'].get"


@pytest.fixture(params=["one process", "two processes"])
def inputs(request, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    monkeypatch.setenv("XC_JOBS", "1" if request.param == "one process" else "")
    return cache_inputs(tmp_path, monkeypatch)


def _overlay(overlay: Path, name: str, *extra: dict[str, Any], visibility: str = "") -> Path:
    """``overlay`` with the first declaration's scope.visibility changed and ``extra`` actions."""
    data = yaml.safe_load(overlay.read_text("utf-8"))
    if visibility:
        decl = data["actions"][0]["update"]["x-completeness"]
        decl["scope"]["visibility"] = visibility
    data["actions"].extend(extra)
    out = overlay.with_name(f"{name}.yaml")
    out.write_text(yaml.safe_dump(data, sort_keys=False), "utf-8")
    return out


INVALID = {"target": OP, "update": {"bogus": 1}}
"""An operation field OpenAPI does not define: XC030 (nothing else in the pipeline reads it)."""


def _verdicts() -> list[Path]:
    return cache_entries(vc.SUFFIX)


def _key(spec: Path, overlay: Path) -> str:
    key = _verdict.verdict_key(load_document(spec, [overlay]))
    assert key is not None
    return key


def _raw_entry(key: str, payload: bytes = vc.PAYLOAD) -> bytes:
    header = {
        "generator": "xcompleteness",
        "kind": "openapi-verdict",
        "format": vc.FORMAT,
        "key": key,
        "size": len(payload),
        "sha256": hashlib.sha256(payload).hexdigest(),
    }
    return json.dumps(header).encode() + b"\n" + payload


def test_an_edit_of_declarations_reuses_the_verdict_and_the_bytes_are_unchanged(
    inputs, tmp_path: Path
) -> None:
    spec, overlay = inputs
    edit = _overlay(overlay, "edit", visibility="repositories the token can read (edited)")
    cold = generate(spec, [overlay], "repos")
    assert len(_verdicts()) == 1  # the clean verdict was recorded
    assert generate(spec, [overlay], "repos").files == cold.files  # warm
    edited = generate(spec, [edit], "repos")
    assert not edited.cached
    assert len(_verdicts()) == 1  # same key: the edit changed only an x-completeness value
    plain = generate(spec, [edit], "repos", cache=False)
    assert edited.files == plain.files
    assert [d.to_json() for d in edited.diagnostics] == [d.to_json() for d in plain.diagnostics]
    assert edited.files != cold.files  # the edited text landed somewhere


def test_a_stored_verdict_is_what_the_next_run_uses(inputs) -> None:
    spec, overlay = inputs
    bad = _overlay(overlay, "bad", INVALID)
    with pytest.raises(GenerationRefused) as refused:
        generate(spec, [bad], "repos")
    assert any(d.code == "XC030" for d in refused.value.diagnostics)
    assert _verdicts() == []  # an error verdict is never stored
    vc.VerdictCache().put(_key(spec, bad))  # a planted "clean" entry for that document
    assert generate(spec, [bad], "repos").files  # the entry was used: no validation ran
    with pytest.raises(GenerationRefused):
        generate(spec, [bad], "repos", cache=False)


def test_a_change_outside_x_completeness_is_validated_again(inputs) -> None:
    spec, overlay = inputs
    generate(spec, [overlay], "repos")
    assert len(_verdicts()) == 1
    # x-completeness edited as well as a non-extension field: the verdict must not be reused
    bad = _overlay(overlay, "bad", INVALID, visibility="edited")
    with pytest.raises(GenerationRefused) as refused:
        generate(spec, [bad], "repos")
    assert [d.code for d in refused.value.diagnostics if d.code == "XC030"]
    # a valid change outside x-completeness: a new key, validated and recorded
    summary = _overlay(overlay, "summary", {"target": OP, "update": {"summary": "Changed"}})
    assert generate(spec, [summary], "repos").files
    assert len(_verdicts()) == 2


def _doc(data: dict[str, Any], tmp_path: Path, name: str = "spec.json") -> Any:
    path = tmp_path / name
    path.write_text(json.dumps(data), "utf-8")
    return load_document(path)


def _base() -> dict[str, Any]:
    return yaml.safe_load((EXAMPLE / "openapi.yaml").read_text("utf-8"))


def test_the_key_ignores_only_x_completeness_values_of_the_root_and_operations(
    tmp_path: Path,
) -> None:
    base = _base()
    key = _verdict.verdict_key(_doc(base, tmp_path))
    assert key is not None
    changed = copy.deepcopy(base)
    op = changed["paths"]["/orgs/{org}/repos"]["get"]
    op["x-completeness"]["scope"]["visibility"] = "something else"
    del changed["paths"]["/search/repositories"]["get"]["x-completeness"]
    changed["x-completeness-defaults"] = {"scope": {"visibility": "v"}}
    assert _verdict.verdict_key(_doc(changed, tmp_path)) == key
    for edit in (
        lambda d: d["paths"]["/orgs/{org}/repos"]["get"].update(summary="other"),
        lambda d: d["paths"]["/orgs/{org}/repos"]["get"].update({"x-other": 1}),
        lambda d: d["info"].update(title="other"),
        # a property named x-completeness is a schema, not an extension: never ignored
        lambda d: (
            next(iter(d["components"]["schemas"].values()))
            .setdefault("properties", {})
            .update({"x-completeness": {"type": "string"}})
        ),
    ):
        other = copy.deepcopy(base)
        edit(other)
        assert _verdict.verdict_key(_doc(other, tmp_path)) != key
    assert _doc(base, tmp_path).data == base  # stripping never changes the document


def test_no_key_where_a_removed_value_could_matter(tmp_path: Path) -> None:
    base = _base()
    into = copy.deepcopy(base)  # a $ref that reads into a declaration
    schemas = into["components"]["schemas"]
    schemas["Odd"] = {"$ref": "#/paths/~1orgs~1{org}~1repos/get/x-completeness/scope"}
    assert _verdict.verdict_key(_doc(into, tmp_path)) is None
    dangling = copy.deepcopy(base)
    dangling["components"]["schemas"]["Gone"] = {"$ref": "#/components/schemas/Nowhere"}
    assert _verdict.verdict_key(_doc(dangling, tmp_path)) is None


def test_damaged_or_symlinked_entries_are_ignored(inputs, tmp_path: Path) -> None:
    spec, overlay = inputs
    bad = _overlay(overlay, "bad", INVALID)
    key = _key(spec, bad)
    vc.VerdictCache().put(key)
    entry = _verdicts()[0]
    ways, good, outside = damages(
        entry,
        tmp_path,
        **{
            "other payload": lambda: entry.write_bytes(_raw_entry(key, b"valid\n")),
            "foreign key": lambda: entry.write_bytes(_raw_entry("0" * 64)),
        },
    )
    for name, damage in ways.items():
        if entry.is_symlink() or entry.exists():
            entry.unlink()
        damage()
        assert vc.VerdictCache().get(key) is False, name
        with pytest.raises(GenerationRefused):
            generate(spec, [bad], "repos")
    assert outside.read_bytes() == good  # never written through the link


def test_no_cache_writes_no_verdict(inputs, monkeypatch: pytest.MonkeyPatch) -> None:
    spec, overlay = inputs
    generate(spec, [overlay], "repos", cache=False)
    monkeypatch.setenv("XC_NO_CACHE", "1")
    generate(spec, [overlay], "repos")
    assert _verdicts() == []
    monkeypatch.delenv("XC_NO_CACHE")
    drop_whole_run_entries()
    generate(spec, [overlay], "repos")
    assert len(_verdicts()) == 1


# -- the parse cache: a spec text known free of duplicate keys is parsed without the hook ---------


def _parses() -> list[Path]:
    folder = gencache.cache_dir()
    return sorted(folder.glob("*" + vc.PARSE_SUFFIX)) if folder.is_dir() else []


def _json_spec(spec: Path, duplicate: bool = False) -> Path:
    """``spec`` as JSON text; with ``duplicate``, ``info.version`` written twice (XC013)."""
    text = json.dumps(yaml.safe_load(spec.read_text("utf-8")), indent=1)
    if duplicate:
        text = text.replace('"info": {', '"info": {\n  "version": "0",', 1)
    out = spec.with_suffix(".dup.json" if duplicate else ".json")
    out.write_text(text, "utf-8")
    return out


def test_a_known_spec_text_gives_the_same_document_and_output(inputs) -> None:
    spec, overlay = inputs
    spec = _json_spec(spec)
    edit = _overlay(overlay, "edit", visibility="edited")
    generate(spec, [overlay], "repos")
    assert len(_parses()) == 1
    edited = generate(spec, [edit], "repos")
    assert len(_parses()) == 1  # same text, same key
    plain = generate(spec, [edit], "repos", cache=False)
    assert edited.files == plain.files
    assert [d.to_json() for d in edited.diagnostics] == [d.to_json() for d in plain.diagnostics]
    from xcompleteness.emit._verdict_cache import ParseCache
    from xcompleteness.load import parse_store

    with parse_store(ParseCache()):
        known = load_document(spec, [edit])
    fresh = load_document(spec, [edit])
    assert (known.data, known.diagnostics, known.refs, dict(known.origins)) == (
        fresh.data,
        fresh.diagnostics,
        fresh.refs,
        dict(fresh.origins),
    )


def test_duplicate_keys_are_never_recorded_and_a_planted_fact_is_used(inputs) -> None:
    from xcompleteness.emit._verdict_cache import ParseCache
    from xcompleteness.load import Limits, parse_store
    from xcompleteness.load._parse import parse_key

    spec, overlay = inputs
    dup = _json_spec(spec, duplicate=True)
    first = generate(dup, [overlay], "repos")
    assert any(d.code == "XC013" for d in first.diagnostics)
    assert _parses() == []  # a text with duplicate keys is never recorded
    drop_whole_run_entries()
    assert any(d.code == "XC013" for d in generate(dup, [overlay], "repos").diagnostics)
    key = parse_key(dup.read_bytes(), Limits.from_env())
    assert key != parse_key(dup.read_bytes(), Limits(max_depth=Limits.from_env().max_depth - 1))
    ParseCache().put(key)  # planted: "no duplicate keys" for a text that has one
    with parse_store(ParseCache()):
        planted = load_document(dup, [overlay])
    assert not any(d.code == "XC013" for d in planted.diagnostics)  # the fact was used
    _parses()[0].write_bytes(b'{"generator": "xcompleteness"}\n' + vc.PARSE_PAYLOAD)
    with parse_store(ParseCache()):
        damaged = load_document(dup, [overlay])
    assert any(d.code == "XC013" for d in damaged.diagnostics)  # a damaged entry is ignored
