"""The format cache: a module whose unformatted text is unchanged reuses ruff's earlier output.

Observed without timings or mocks. A hit is seen through a marked entry (a well-formed entry,
stored under the key the run computes, whose text carries a marker comment): the marker shows up
in the output. Every other test compares bytes with a run that used no cache at all: warm and
cold trees are identical, and a damaged, foreign or symlinked entry is ignored (the module is
formatted afresh, the entry rewritten) without changing a byte of the output.
"""

from __future__ import annotations

import hashlib
import json
import os
import zlib
from pathlib import Path, PurePosixPath

import pytest
from support.cache_inputs import cache_entries, drop_whole_run_entries, edited_overlay
from xcompleteness.cli import main
from xcompleteness.emit import _cache as gencache
from xcompleteness.emit import _format_cache as fc
from xcompleteness.emit._format import format_key, format_many, format_store, needs_format
from xcompleteness.emit._generate import generate

MARK = "# reused from the format cache\n"


def _entries() -> list[Path]:
    return cache_entries(fc.SUFFIX)


def _entry_for(text: str) -> Path:
    """The entry whose formatted text is ``text`` (one module of a run)."""
    found = [p for p in _entries() if fc.FormatCache().get(p.name.removesuffix(fc.SUFFIX)) == text]
    assert len(found) == 1, found
    return found[0]


def _raw_entry(key: str, text: str) -> bytes:
    body = zlib.compress(text.encode("utf-8"))
    header = {
        "generator": "xcompleteness",
        "kind": "formatted-module",
        "format": fc.FORMAT,
        "key": key,
        "size": len(body),
        "sha256": hashlib.sha256(body).hexdigest(),
    }
    return json.dumps(header).encode() + b"\n" + body


def _module(files: dict[PurePosixPath, str]) -> PurePosixPath:
    """A formatted module of the run (the first, in path order)."""
    return min(p for p in files if needs_format(p))


def test_cold_and_warm_runs_give_the_bytes_of_an_uncached_run(inputs, tmp_path: Path) -> None:
    spec, overlay = inputs
    edit = edited_overlay(overlay, "one")
    plain = generate(spec, [edit], "repos", cache=False).files
    assert _entries() == []  # cache=False writes none
    cold = generate(spec, [overlay], "repos")
    count = len(_entries())
    assert count == sum(needs_format(p) for p in cold.files)
    warm = generate(spec, [edit], "repos")  # a whole-run miss: every module is looked up
    assert not warm.cached and warm.files == plain
    assert len(_entries()) <= count + 2  # the edit changed few modules, if any
    # the CLI writes the same tree with a warm format cache as with none
    drop_whole_run_entries()
    assert main(["generate", str(spec), "--overlay", str(edit), "-o", str(tmp_path / "a")]) == 0
    drop_whole_run_entries()  # b: the pipeline runs, every module from the format cache
    code = main(["generate", str(spec), "--overlay", str(edit), "-o", str(tmp_path / "b")])
    assert code == 0
    args = ["generate", str(spec), "--overlay", str(edit), "--no-cache", "-o", str(tmp_path / "c")]
    assert main(args) == 0
    trees = [
        {
            p.relative_to(tmp_path / d).as_posix(): p.read_bytes()
            for p in (tmp_path / d).rglob("*")
            if p.is_file()
        }
        for d in ("a", "b", "c")
    ]
    assert trees[0] == trees[1] == trees[2]


def test_a_stored_module_is_what_the_next_run_uses(inputs) -> None:
    spec, overlay = inputs
    first = generate(spec, [overlay], "repos")
    rel = _module(first.files)
    entry = _entry_for(first.files[rel])
    key = entry.name.removesuffix(fc.SUFFIX)
    fc.FormatCache().put_many({key: first.files[rel] + MARK})
    reused = generate(spec, [edited_overlay(overlay, "two")], "repos")
    assert not reused.cached and reused.files[rel].endswith(MARK)
    assert generate(spec, [overlay], "repos", cache=False).files[rel] == first.files[rel]


@pytest.mark.parametrize(
    "damage", ["truncate", "flip", "empty", "garbage", "foreign_key", "group_writable"]
)
def test_a_damaged_entry_is_ignored_and_rewritten(inputs, damage: str) -> None:
    spec, overlay = inputs
    first = generate(spec, [overlay], "repos")
    rel = _module(first.files)
    entry = _entry_for(first.files[rel])
    key = entry.name.removesuffix(fc.SUFFIX)
    blob = _raw_entry(key, first.files[rel] + MARK)  # well-formed: the marker would show
    if damage == "truncate":
        entry.write_bytes(blob[: len(blob) - 7])
    elif damage == "flip":
        entry.write_bytes(blob[:-10] + bytes([blob[-10] ^ 0x01]) + blob[-9:])
    elif damage == "empty":
        entry.write_bytes(b"")
    elif damage == "garbage":
        entry.write_bytes(b"import os; os.system('echo pwned')\n")
    elif damage == "foreign_key":  # a valid entry for another module, under this name
        entry.write_bytes(_raw_entry("0" * 64, first.files[rel] + MARK))
    elif damage == "group_writable":  # valid, but others could have written it
        entry.write_bytes(blob)
        entry.chmod(0o666)
    assert fc.FormatCache().get(key) is None
    again = generate(spec, [edited_overlay(overlay, damage)], "repos")
    assert (
        not again.cached
        and again.files
        == generate(spec, [edited_overlay(overlay, damage)], "repos", cache=False).files
    )
    assert MARK not in again.files[rel]
    assert fc.FormatCache().get(key) == first.files[rel]  # rewritten by the fresh run
    assert not entry.is_symlink() and (entry.stat().st_mode & 0o077) == 0


def test_a_symlinked_entry_is_not_followed(inputs, tmp_path: Path) -> None:
    spec, overlay = inputs
    first = generate(spec, [overlay], "repos")
    rel = _module(first.files)
    entry = _entry_for(first.files[rel])
    key = entry.name.removesuffix(fc.SUFFIX)
    outside = tmp_path / "outside.xcfmt"
    planted = _raw_entry(key, first.files[rel] + MARK)  # valid in every other respect
    outside.write_bytes(planted)
    outside.chmod(0o600)
    entry.unlink()
    entry.symlink_to(outside)
    assert fc.FormatCache().get(key) is None
    again = generate(spec, [edited_overlay(overlay, "symlink")], "repos")
    assert MARK not in again.files[rel]
    assert outside.read_bytes() == planted  # the write replaced the link, not its target
    assert not entry.is_symlink() and fc.FormatCache().get(key) == first.files[rel]


def test_a_symlinked_cache_folder_is_not_used(inputs, tmp_path: Path, monkeypatch) -> None:
    spec, overlay = inputs
    real = tmp_path / "elsewhere"
    real.mkdir(mode=0o700)
    link = tmp_path / "linked"
    link.symlink_to(real)
    monkeypatch.setenv("XC_CACHE_DIR", str(link))
    expected = generate(spec, [overlay], "repos", cache=False).files
    assert generate(spec, [overlay], "repos").files == expected
    assert list(real.iterdir()) == []


def test_disabled_by_option_or_environment(inputs, monkeypatch: pytest.MonkeyPatch) -> None:
    spec, overlay = inputs
    expected = generate(spec, [overlay], "repos", cache=False).files
    assert not gencache.cache_dir().exists()
    monkeypatch.setenv("XC_NO_CACHE", "1")
    assert generate(spec, [overlay], "repos").files == expected
    assert not generate(spec, [overlay], "repos").cached
    assert not gencache.cache_dir().exists()
    monkeypatch.setenv("XC_NO_CACHE", "0")
    assert generate(spec, [overlay], "repos").files == expected
    assert _entries()


def test_xc_cache_dir_names_the_folder(inputs, tmp_path: Path, monkeypatch) -> None:
    spec, overlay = inputs
    folder = tmp_path / "shared-parent" / "mine"
    monkeypatch.setenv("XC_CACHE_DIR", str(folder))
    expected = generate(spec, [overlay], "repos", cache=False).files
    assert generate(spec, [overlay], "repos").files == expected
    assert gencache.cache_dir() == folder and _entries()
    assert (folder.stat().st_mode & 0o077) == 0
    assert generate(spec, [overlay], "repos").cached
    monkeypatch.setenv("XC_CACHE_DIR", "relative/dir")  # ignored, as XDG_CACHE_HOME would be
    assert gencache.cache_dir() == tmp_path / "xdg" / "xcompleteness" / "generate"


def test_only_the_newest_entries_are_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(fc, "MAX_ENTRIES", 3)
    store = fc.FormatCache()
    keys = [hashlib.sha256(b"%d" % i).hexdigest() for i in range(5)]
    for i, key in enumerate(keys):
        store.put_many({key: f"x = {i}\n"})
        os.utime(gencache.cache_dir() / f"{key}{fc.SUFFIX}", (i, i))  # distinct ages
    assert [p.name.removesuffix(fc.SUFFIX) for p in _entries()] == sorted(keys[2:])
    store.put_many({keys[0]: "x = 0\n"})  # written now: the newest; the oldest kept one goes
    assert len(_entries()) == 3 and store.get(keys[0]) == "x = 0\n"


def test_the_key_is_the_name_and_the_text() -> None:
    key = format_key("mod.py", "x=1\n")
    assert key == format_key("mod.py", "x=1\n")
    assert key != format_key("__init__.py", "x=1\n")
    assert key != format_key("mod.py", "x = 1\n")


def test_format_many_with_a_store_matches_format_many_without(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    long_text = "x" * 150
    sources = {
        PurePosixPath("p/__init__.py"): (
            "import os\nfrom typing import Optional\nA: Optional[int]=1\n"
        ),
        PurePosixPath("p/m.py"): f'def f(a:int)->str:\n    return g(a, "{long_text}")\n',
    }
    plain = format_many(sources)
    with format_store(fc.FormatCache()):
        cold = format_many(sources)
        warm = format_many(sources)
    assert plain == cold == warm and len(_entries()) == 2
