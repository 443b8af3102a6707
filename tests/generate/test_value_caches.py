"""The value caches of an overlay edit: line numbers, list-likeness scan, clean declarations, the
reading of the item-model module and the walk of the spec text (``KEY.xclines``, ``.xcscan``,
``.xcdecl``, ``.xcsplit``, ``.xcwalk``).

Observed without timings or mocks: every run with warm entries gives the bytes and diagnostics
of a run that used no cache at all; a planted, well-formed entry changes what the next run
reports (so the entry is what that run used), and a damaged, foreign, group-writable or
symlinked one is ignored (the output is the uncached one) and rewritten.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from pathlib import Path
from typing import Any

import pytest
import yaml
from support.cache_inputs import cache_inputs, damages, drop_whole_run_entries
from xcompleteness.declare import standard_registry
from xcompleteness.declare._vocabulary import _details_schemas
from xcompleteness.diagnostics import InputError
from xcompleteness.emit import _cache as gencache
from xcompleteness.emit import _value_cache as valc
from xcompleteness.emit._generate import GenerationRefused, generate
from xcompleteness.load._lines import LazyJsonLines

UNDECLARED = "/orgs/{org}/members"
SEARCH = "$.paths['/search/repositories'].get"
KINDS = {
    "scan": valc.ScanCache,
    "declarations": valc.DeclarationCache,
    "split": valc.SplitCache,
    "lines": valc.LineCache,
    "walk": valc.WalkCache,
}


@pytest.fixture
def inputs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """The example as an indented JSON spec (lines are looked up in its text) with one more
    listing nobody declares (an XC100 warning with a line), and the example's overlay."""
    spec, overlay = cache_inputs(tmp_path, monkeypatch)
    data = yaml.safe_load(spec.read_text("utf-8"))
    listing = json.loads(json.dumps(data["paths"]["/orgs/{org}/repos"]["get"]))
    listing["operationId"] = "orgs/list-members"
    listing["summary"] = "List organization members"
    data["paths"][UNDECLARED] = {"get": listing}
    out = spec.with_suffix(".json")
    out.write_text(json.dumps(data, indent=2), "utf-8")
    return out, overlay


def _overlay(overlay: Path, name: str, *, visibility: str = "", drop: str = "", **extra: Any):
    """``overlay`` with the first scope.visibility changed, the action on ``drop`` left out
    and ``extra`` merged into the first declaration."""
    data = yaml.safe_load(overlay.read_text("utf-8"))
    if drop:
        data["actions"] = [a for a in data["actions"] if a["target"] != drop]
    decl = data["actions"][0]["update"]["x-completeness"]
    if visibility:
        decl["scope"]["visibility"] = visibility
    decl.update(extra)
    out = overlay.with_name(f"{name}.yaml")
    out.write_text(yaml.safe_dump(data, sort_keys=False), "utf-8")
    return out


def _entries(kind: str) -> list[Path]:
    folder = gencache.cache_dir()
    return sorted(folder.glob("*" + KINDS[kind].suffix)) if folder.is_dir() else []


def _same_as_uncached(spec: Path, overlay: Path) -> Any:
    drop_whole_run_entries()  # the pipeline runs, with whatever value entries there are
    cached = generate(spec, [overlay], "repos")
    plain = generate(spec, [overlay], "repos", cache=False)
    assert not cached.cached
    assert cached.files == plain.files
    assert [d.to_json() for d in cached.diagnostics] == [d.to_json() for d in plain.diagnostics]
    return cached


def _raw(kind: str, key: str, value: Any) -> bytes:
    body = zlib.compress(json.dumps(value).encode())
    header = {
        "generator": "xcompleteness",
        "kind": KINDS[kind].kind,
        "format": valc.FORMAT,
        "key": key,
        "size": len(body),
        "sha256": hashlib.sha256(body).hexdigest(),
    }
    return json.dumps(header).encode() + b"\n" + body


def _value(path: Path) -> Any:
    head, _, body = path.read_bytes().partition(b"\n")
    return json.loads(zlib.decompress(body))


def _plant(kind: str, value: Any) -> None:
    (entry,) = _entries(kind)
    entry.write_bytes(_raw(kind, entry.name.split(".")[0], value))
    drop_whole_run_entries()


def test_edits_with_warm_entries_give_the_uncached_bytes_and_diagnostics(inputs) -> None:
    spec, overlay = inputs
    cold = _same_as_uncached(spec, overlay)
    assert any(d.code == "XC100" and d.line for d in cold.diagnostics)
    for kind in KINDS:
        assert len(_entries(kind)) == 1, kind
    edits = [
        _overlay(overlay, "visibility", visibility="edited"),
        _overlay(overlay, "undeclared", drop=SEARCH),  # its reason comes from the entry
        _overlay(overlay, "none", drop=SEARCH),
    ]
    none = yaml.safe_load(edits[2].read_text("utf-8"))
    kind_none = {"x-completeness": {"kind": "none", "why": "not a listing after all"}}
    none["actions"].append({"target": SEARCH, "update": kind_none})
    edits[2].write_text(yaml.safe_dump(none, sort_keys=False), "utf-8")
    for edit in edits:
        _same_as_uncached(spec, edit)
    undeclared = _same_as_uncached(spec, edits[1])
    assert [d for d in undeclared.diagnostics if d.code == "XC100" and "search" in d.pointer]
    assert len(_entries("scan")) == 1  # one declaration-free document, one entry


def test_a_stored_scan_is_what_the_next_run_uses(inputs) -> None:
    spec, overlay = inputs
    generate(spec, [overlay], "repos")
    found = _value(_entries("scan")[0])
    pointer = "/paths/~1orgs~1{org}~1members/get"
    assert isinstance(found[pointer], str)
    found[pointer] = "a planted reason"
    _plant("scan", found)
    again = generate(spec, [overlay], "repos")
    assert [d for d in again.diagnostics if d.code == "XC100" and "planted" in d.message]


def test_a_stored_clean_declaration_is_not_validated_again(inputs) -> None:
    spec, overlay = inputs
    bad = _overlay(overlay, "bad", bogus=1)
    with pytest.raises(GenerationRefused) as refused:
        generate(spec, [bad], "repos")
    assert [d for d in refused.value.diagnostics if d.code == "XC041"]
    # plant the digest of that very declaration (the schema never said it was clean)
    decl = yaml.safe_load(bad.read_text("utf-8"))["actions"][0]["update"]["x-completeness"]
    details = _details_schemas(decl, standard_registry())  # what the details check reads
    text = json.dumps([decl, details], sort_keys=True, ensure_ascii=True, separators=(",", ":"))
    known = _value(_entries("declarations")[0])["clean"]
    _plant("declarations", {"clean": [*known, hashlib.sha256(text.encode()).hexdigest()]})
    assert generate(spec, [bad], "repos").files  # the planted entry was used: no XC041
    with pytest.raises(GenerationRefused):
        generate(spec, [bad], "repos", cache=False)


def test_a_stored_reading_of_the_item_models_is_used_and_can_only_cut_the_same_text(
    inputs,
) -> None:
    spec, overlay = inputs
    cold = generate(spec, [overlay], "repos")
    record = _value(_entries("split")[0])
    assert record["defs"]
    moved = {**record, "defs": record["defs"][:1]}  # well-formed: fewer definitions
    _plant("split", moved)
    assert generate(spec, [overlay], "repos").files != cold.files  # it was used
    forged = {**record, "defs": [[["Evil"], [], 1, 10**6]]}  # a span outside the text
    _plant("split", forged)
    assert generate(spec, [overlay], "repos").files == cold.files
    named = {**record, "defs": [[["not an identifier"], [], 1, 1]]}
    _plant("split", named)
    assert generate(spec, [overlay], "repos").files == cold.files


def test_stored_lines_are_what_the_next_run_reports_for_keys_the_text_has(inputs) -> None:
    spec, overlay = inputs
    cold = generate(spec, [overlay], "repos")
    pointer = "/paths/~1orgs~1{org}~1members/get"
    (warning,) = [d for d in cold.diagnostics if d.code == "XC100" and d.pointer == pointer]
    lines = _value(_entries("lines")[0])
    assert lines[pointer] == warning.line  # what the run looked up, kept
    _plant("lines", {**lines, pointer: 4242, "/paths/~1nowhere/get": 7})
    again = generate(spec, [overlay], "repos")
    (moved,) = [d for d in again.diagnostics if d.code == "XC100" and d.pointer == pointer]
    assert moved.line == 4242  # the planted line was used; a key the text lacks never is:
    text = spec.read_text("utf-8")
    index = LazyJsonLines(text)
    index.remembered({"/paths/~1nowhere/get": 7, pointer: True, "": 3}, json.loads(text))
    assert index.get("/paths/~1nowhere/get") is None
    assert index.get(pointer) == warning.line


def test_a_stored_walk_is_what_the_next_run_uses(inputs) -> None:
    spec, overlay = inputs
    cold = generate(spec, [overlay], "repos")
    walk = _value(_entries("walk")[0])
    assert walk["refs"] and all(p == "" or p.startswith("/") for p, _ in walk["refs"])
    # a ref the text does not have, below a container no overlay touches: the next run takes
    # the kept walk for it instead of walking there, so the policy refuses the URL
    _plant("walk", {**walk, "refs": [["/info", "https://example.com/x.json"], *walk["refs"]]})
    with pytest.raises(InputError) as refused:
        generate(spec, [overlay], "repos")
    assert [d for d in refused.value.diagnostics if d.code == "XC009"]
    _plant("walk", {**walk, "refs": [["/info", 7], *walk["refs"]]})  # not the shape: walked
    assert generate(spec, [overlay], "repos").files == cold.files


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_damaged_or_symlinked_entries_are_ignored_and_rewritten(
    inputs, tmp_path: Path, kind: str
) -> None:
    spec, overlay = inputs
    cold = generate(spec, [overlay], "repos", cache=False)
    generate(spec, [overlay], "repos")
    (entry,) = _entries(kind)
    key = entry.name.split(".")[0]
    value = _value(entry)
    ways, good, outside = damages(
        entry,
        tmp_path,
        **{
            "foreign key": lambda: entry.write_bytes(_raw(kind, "0" * 64, value)),
            "other kind": lambda: entry.write_bytes(
                _raw("scan" if kind != "scan" else "split", key, value)
            ),
            "not the shape": lambda: entry.write_bytes(_raw(kind, key, [1, 2, 3])),
        },
    )
    for name, damage in ways.items():
        if entry.is_symlink() or entry.exists():
            entry.unlink()
        damage()
        drop_whole_run_entries()
        again = generate(spec, [overlay], "repos")
        assert again.files == cold.files, name
        assert [d.to_json() for d in again.diagnostics] == [
            d.to_json() for d in cold.diagnostics
        ], name
    assert outside.read_bytes() == good  # never written through the link
    assert not entry.is_symlink() and _value(entry) == _value(outside)  # rewritten


def test_no_cache_writes_no_value_entry(inputs, monkeypatch: pytest.MonkeyPatch) -> None:
    spec, overlay = inputs
    generate(spec, [overlay], "repos", cache=False)
    monkeypatch.setenv("XC_NO_CACHE", "1")
    generate(spec, [overlay], "repos")
    assert not any(_entries(kind) for kind in KINDS)
