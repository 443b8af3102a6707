"""Building the IR of an overlay edit imports no pydantic: what it needs from pydantic and the
runtime's models is plain data checked here, and a pattern pydantic compiled is remembered.

The tables are compared with the real pydantic and runtime; the pattern facts are observed through
a planted entry (a "compiles" fact for a look-ahead pydantic refuses is what makes it accepted),
and an edit with warm caches is run in a fresh interpreter and its modules listed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from pydantic import BaseModel
from support.cache_inputs import cache_entries, cache_inputs, damages, edited_overlay
from xcompleteness.emit import _verdict_cache as vc
from xcompleteness.emit._generate import generate
from xcompleteness.ir import _runtime_names as names
from xcompleteness.ir import _schemas, pattern_store
from xcompleteness.reuse import library_versions
from xcompleteness.runtime.envelope import STANDARD_REASON_MODELS, STANDARD_WARNING_MODELS

LOOK_AHEAD = "(?=x)x"
"""A pattern pydantic's Rust regex engine refuses (look-around)."""
PLAIN = "^[A-Za-z0-9-]+$"


def test_the_runtime_class_tables_are_the_runtimes() -> None:
    assert names.STANDARD_REASON_CLASSES == {
        code: model.__name__ for code, model in STANDARD_REASON_MODELS.items()
    }
    assert names.STANDARD_WARNING_CLASSES == {
        code: model.__name__ for code, model in STANDARD_WARNING_MODELS.items()
    }


def test_the_model_attributes_are_pydantics() -> None:
    installed = frozenset(n for n in dir(BaseModel) if not n.startswith("__"))
    assert names.model_attributes() == installed  # whichever way it was read
    # The table is taken for one pydantic version. A fresh install may bring a newer one: then
    # the names are read from pydantic (the IR imports it: slower, never different), and the
    # table is refreshed from the expression above when the project moves to that version.
    if library_versions(("pydantic",)) == f"pydantic {names.PYDANTIC_VERSION}\n".encode():
        assert names.MODEL_ATTRIBUTES == installed


def test_another_pydantic_version_reads_the_names_from_pydantic(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(names, "PYDANTIC_VERSION", "0.0")
    monkeypatch.setattr(names, "MODEL_ATTRIBUTES", frozenset({"not_pydantics"}))
    names.model_attributes.cache_clear()
    try:
        assert names.model_attributes() == frozenset(
            n for n in dir(BaseModel) if not n.startswith("__")
        )
    finally:
        names.model_attributes.cache_clear()


def _with_pattern(spec: Path) -> Path:
    data = yaml.safe_load(spec.read_text("utf-8"))
    login = data["components"]["schemas"]["Owner"]["properties"]["login"]
    login["pattern"] = PLAIN
    spec.write_text(yaml.safe_dump(data, sort_keys=False), "utf-8")
    return spec


PROBE = """
import json, sys
from xcompleteness.emit._generate import generate
gen = generate(sys.argv[1], [sys.argv[2]], "repos")
print(json.dumps([sorted(sys.modules), {str(k): v for k, v in gen.files.items()}]))
"""


def test_an_edit_reuses_pattern_facts_and_imports_no_pydantic(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec, overlay = cache_inputs(tmp_path, monkeypatch)
    spec = _with_pattern(spec)
    cold = generate(spec, [overlay], "repos")
    assert any(PLAIN in text for text in cold.files.values())  # the pattern is modelled
    assert len(cache_entries(vc.PATTERN_SUFFIX)) == 1
    edit = edited_overlay(overlay, "an edit")
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(spec), str(edit)],
        capture_output=True,
        text=True,
        check=True,
    )
    modules, files = json.loads(done.stdout.splitlines()[-1])
    for name in ("pydantic", "pydantic_core", "xcompleteness.runtime.envelope"):
        assert name not in modules, name
    plain = generate(spec, [edit], "repos", cache=False)
    assert files == {str(k): v for k, v in plain.files.items()}


def test_only_compiling_patterns_are_remembered_and_a_fact_is_what_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache_inputs(tmp_path, monkeypatch)
    assert _schemas.pattern_supported(LOOK_AHEAD) is False  # no store: pydantic answers
    with pattern_store(vc.PatternCache()):
        assert _schemas.pattern_supported(LOOK_AHEAD) is False
        assert cache_entries(vc.PATTERN_SUFFIX) == []  # a refusal is never kept
        assert _schemas.pattern_supported(PLAIN) is True
    assert len(cache_entries(vc.PATTERN_SUFFIX)) == 1
    key = _schemas.pattern_key(LOOK_AHEAD)
    assert key != _schemas.pattern_key(PLAIN)
    vc.PatternCache().put(key)  # planted: "compiles" for a pattern pydantic refuses
    planted = next(p for p in cache_entries(vc.PATTERN_SUFFIX) if p.name.startswith(key))
    with pattern_store(vc.PatternCache()):
        assert _schemas.pattern_supported(LOOK_AHEAD) is True  # the fact was used
    ways, good, outside = damages(planted, tmp_path)
    for name, damage in ways.items():
        if planted.is_symlink() or planted.exists():
            planted.unlink()
        damage()
        with pattern_store(vc.PatternCache()):
            assert _schemas.pattern_supported(LOOK_AHEAD) is False, name
    assert outside.read_bytes() == good
