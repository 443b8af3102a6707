"""The item-model cache: an overlay edit that changes no item schema reuses datamodel-code-
generator's output; what it reuses is checked first, and the bytes are those of a fresh run.

A hit is observed without timings or mocks: an entry stored under the key the run computes (with
a marker comment in its source) shows up in the generated models; a damaged or hostile entry
under that key is ignored and the output is the fresh run's, byte for byte.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from support.cache_inputs import edited_overlay
from xcompleteness.emit import _model_cache as mc
from xcompleteness.emit._cache import cache_dir
from xcompleteness.emit._generate import generate
from xcompleteness.ir import models_key, sub_document_for


def _entries() -> list[Path]:
    folder = cache_dir()
    return sorted(folder.glob("*" + mc.SUFFIX)) if folder.is_dir() else []


def _models(files: dict) -> str:
    return "".join(text for path, text in sorted(files.items()) if "/_items/" in str(path))


def test_an_edit_that_changes_no_item_schema_reuses_the_models(inputs) -> None:
    spec, overlay = inputs
    first = generate(spec, [overlay], "repos")
    (entry,) = _entries()
    fresh = generate(spec, [edited_overlay(overlay, "one")], "repos", cache=False)
    assert len(_entries()) == 1  # --no-cache neither reads nor writes it
    # Mark the stored source: the next (edited, so whole-run miss) run uses it.
    key = entry.name.removesuffix(mc.SUFFIX)
    value = dict(mc.ModelCache().get(key) or {})
    assert set(value) == {"source", "classes", "holders"}
    assert " = None\n" in value["source"]
    value["source"] = value["source"].replace(" = None\n", " = None  # reused\n", 1)
    mc.ModelCache().put(key, value)
    reused = generate(spec, [edited_overlay(overlay, "two")], "repos")
    assert not reused.cached and "# reused" in _models(reused.files)
    assert "# reused" not in _models(first.files) + _models(fresh.files)


def test_the_key_is_the_item_schemas_and_their_order() -> None:
    doc = {
        "A": {"type": "object", "properties": {"a": {"type": "string"}}},
        "B": {"type": "integer"},
    }
    key = models_key(sub_document_for(doc, "3.0.3"))
    assert key == models_key(sub_document_for(json.loads(json.dumps(doc)), "3.0.3"))
    assert key != models_key(sub_document_for(dict(reversed(doc.items())), "3.0.3"))
    assert key != models_key(sub_document_for(doc, "3.1.0"))
    assert key != models_key(sub_document_for({**doc, "B": {"type": "number"}}, "3.0.3"))


@pytest.mark.parametrize(
    "damage",
    [
        "flip a byte",
        "other key",
        "class name not an identifier",
        "schemas not the ones asked",
        "writable by others",
    ],
)
def test_damaged_or_hostile_entries_are_ignored(inputs, damage: str) -> None:
    spec, overlay = inputs
    fresh = generate(spec, [overlay], "repos", cache=False)
    generate(spec, [edited_overlay(overlay, "seed")], "repos")
    (entry,) = _entries()
    key = entry.name.removesuffix(mc.SUFFIX)
    value = dict(mc.ModelCache().get(key) or {})
    value["source"] = value["source"].replace(" = None\n", " = None  # planted\n", 1)
    if damage == "class name not an identifier":
        name = next(iter(value["classes"]))
        value["classes"] = {**value["classes"], name: "os.system('x')"}
    elif damage == "schemas not the ones asked":
        value["classes"] = {**value["classes"], "Planted": "Planted"}
    mc.ModelCache().put(key, value)
    if damage == "flip a byte":
        blob = bytearray(entry.read_bytes())
        blob[-5] ^= 0xFF
        entry.write_bytes(bytes(blob))
    elif damage == "other key":
        other = entry.with_name("0" * 64 + mc.SUFFIX)
        entry.rename(other)
        other.write_bytes(other.read_bytes().replace(key.encode(), b"0" * 64))
        shutil.copy(other, entry)
    elif damage == "writable by others":  # the one ownership guard of the generate cache
        entry.chmod(0o666)
    again = generate(spec, [edited_overlay(overlay, "again")], "repos")
    assert "planted" not in _models(again.files)
    assert _models(again.files) == _models(fresh.files)
