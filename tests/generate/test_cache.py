"""The generate cache: a hit gives the same bytes; any input change misses; bad entries are ignored.

No timings here (the cold/warm figures are in bench/bench_generate.py and docs/generate.md): a hit
is observed through ``Generation.cached`` and the CLI's summary line, and every test compares the
bytes written with a run that did not use the cache.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from support.paths import TEMPLATES
from xcompleteness.cli import main
from xcompleteness.emit import _cache as gencache
from xcompleteness.emit._generate import GenerationRefused, generate


def _tree(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}


def _entries() -> list[Path]:
    folder = gencache.cache_dir()
    return sorted(folder.glob("*" + gencache.SUFFIX)) if folder.is_dir() else []


def _cli(spec: Path, overlay: Path, out: Path, *extra: str) -> int:
    return main(["generate", str(spec), "--overlay", str(overlay), "-o", str(out), *extra])


def test_a_second_run_is_a_hit_and_writes_the_same_bytes(
    inputs: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec, overlay = inputs
    fresh, first, second = tmp_path / "fresh", tmp_path / "first", tmp_path / "second"
    assert _cli(spec, overlay, fresh, "--package", "repos", "--no-cache") == 0
    assert _entries() == []  # --no-cache writes nothing
    assert _cli(spec, overlay, first, "--package", "repos") == 0
    assert "reused the result" not in capsys.readouterr().err
    assert len(_entries()) == 1
    assert gencache.cache_dir() == tmp_path / "xdg" / "xcompleteness" / "generate"
    assert _cli(spec, overlay, second, "--package", "repos") == 0
    err = capsys.readouterr().err
    assert "reused the result of an identical earlier run" in err
    assert "generated" in err and "written" in err
    assert _tree(first) == _tree(fresh) == _tree(second)
    # the warnings of the computing run are repeated by the hit
    assert _cli(spec, overlay, second, "--package", "repos", "--check", "--format", "json") == 0
    hit = generate(spec, [overlay], "repos")
    miss = generate(spec, [overlay], "repos", cache=False)
    assert hit.cached and not miss.cached
    assert hit.files == miss.files and hit.diagnostics == miss.diagnostics
    assert hit.package == miss.package == "repos"


def test_the_default_package_name_survives_the_cache(inputs: tuple[Path, Path]) -> None:
    spec, overlay = inputs
    first = generate(spec, [overlay])
    second = generate(spec, [overlay])
    assert second.cached and second.package == first.package == first.ir.package


def test_every_input_change_misses(
    inputs: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec, overlay = inputs
    base = generate(spec, [overlay], "repos")
    assert not base.cached and generate(spec, [overlay], "repos").cached

    spec.write_text(spec.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
    assert not generate(spec, [overlay], "repos").cached  # spec bytes
    text = overlay.read_text(encoding="utf-8")
    overlay.write_text(text.replace("1.0.0", "1.0.1", 1), encoding="utf-8")
    assert text != overlay.read_text(encoding="utf-8")
    assert not generate(spec, [overlay], "repos").cached  # overlay bytes
    assert not generate(spec, [overlay], "other").cached  # --package
    assert not generate(spec, [overlay], "repos", tests=True).cached  # --tests
    assert not generate(spec, [], "repos").cached  # the overlay list
    assert generate(spec, [overlay], "repos").cached  # nothing changed since: a hit
    monkeypatch.setenv("XC_MAX_DEPTH", "500")
    assert not generate(spec, [overlay], "repos").cached  # a load limit
    monkeypatch.delenv("XC_MAX_DEPTH")

    # a template edit (a copy of templates/ with one file changed) changes the key
    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATES, templates)
    before = gencache.input_key(spec, [overlay], package="repos", tests=False)
    target = next(p for p in sorted(templates.rglob("*.jinja")))
    target.write_text(target.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    monkeypatch.setattr("xcompleteness.resources.templates_dir", lambda: templates)
    gencache.generator_fingerprint.cache_clear()
    try:
        after = gencache.input_key(spec, [overlay], package="repos", tests=False)
        assert after != before
        assert not generate(spec, [overlay], "repos").cached
    finally:
        gencache.generator_fingerprint.cache_clear()


def test_the_key_covers_every_file_of_the_generator_package(tmp_path: Path, monkeypatch) -> None:
    """The whole ``xcompleteness`` package is hashed, not only the stage this module sits in: an
    edit of the runtime copied into packages (or of any stage) is a miss. (After the stages moved
    into ``emit/``, only ``emit/`` was hashed and a runtime edit reused a stale package.)"""
    import xcompleteness

    root = Path(xcompleteness.__file__).resolve().parent
    assert gencache.package_root() == root
    copy = tmp_path / "xcompleteness"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(gencache, "package_root", lambda: copy)
    gencache.generator_fingerprint.cache_clear()
    try:
        before = gencache.generator_fingerprint()
        for edited in ("runtime/operations.py", "check/__init__.py"):
            target = copy / edited
            target.write_text(target.read_text(encoding="utf-8") + "\n", encoding="utf-8")
            gencache.generator_fingerprint.cache_clear()
            after = gencache.generator_fingerprint()
            assert after != before, edited
            before = after
    finally:
        gencache.generator_fingerprint.cache_clear()


def test_the_day_is_part_of_the_key(inputs: tuple[Path, Path]) -> None:
    import datetime as dt

    spec, overlay = inputs
    one = gencache.input_key(spec, [overlay], package="r", tests=False, today=dt.date(2026, 1, 1))
    two = gencache.input_key(spec, [overlay], package="r", tests=False, today=dt.date(2026, 1, 2))
    assert one != two


@pytest.mark.parametrize(
    "damage",
    ["truncate", "flip", "garbage", "empty", "foreign_key", "unsafe_path", "not_text"],
)
def test_a_corrupt_or_foreign_entry_is_ignored_and_replaced(
    inputs: tuple[Path, Path], tmp_path: Path, damage: str
) -> None:
    spec, overlay = inputs
    expected = generate(spec, [overlay], "repos", cache=False).files
    generate(spec, [overlay], "repos")
    (entry,) = _entries()
    key = entry.name.removesuffix(gencache.SUFFIX)
    blob = entry.read_bytes()
    if damage == "truncate":
        entry.write_bytes(blob[: len(blob) // 2])
    elif damage == "flip":
        entry.write_bytes(blob[:-10] + bytes([blob[-10] ^ 0xFF]) + blob[-9:])
    elif damage == "garbage":
        entry.write_bytes(b"import os; os.system('echo pwned')\n")
    elif damage == "empty":
        entry.write_bytes(b"")
    elif damage == "foreign_key":  # a valid entry of another run, stored under this name
        other = gencache.Entry({Path("x.py"): "x = 1\n"}, [], "x", "")  # type: ignore[dict-item]
        gencache.store("0" * 64, other)
        (tmp_path / "xdg" / "xcompleteness" / "generate" / f"{'0' * 64}.xcgen").replace(entry)
    elif damage in ("unsafe_path", "not_text"):  # well-formed and checksummed, bad content
        name = "../escape.py" if damage == "unsafe_path" else "repos/ok.py"
        files = {Path(name): "x = 1\n"}
        gencache.store(key, gencache.Entry(files, [], "repos", ""))  # type: ignore[arg-type]
        if damage == "not_text":
            raw = entry.read_bytes()
            head, _, body = raw.partition(b"\n")
            import hashlib
            import json
            import zlib

            payload = b'{"files":[["repos/ok.py",2]],"diagnostics":[],"package":"r","summary":""}\n'
            body = zlib.compress(payload + b"\xff\xfe")
            header = json.loads(head)
            header.update(size=len(body), sha256=hashlib.sha256(body).hexdigest())
            entry.write_bytes(json.dumps(header).encode() + b"\n" + body)
    assert gencache.load(key) is None
    again = generate(spec, [overlay], "repos")
    assert not again.cached and again.files == expected
    assert not (tmp_path / "xdg" / "xcompleteness" / "escape.py").exists()
    hit = generate(spec, [overlay], "repos")  # the entry was rewritten by the fresh run
    assert hit.cached and hit.files == expected


def test_refused_runs_are_not_cached_and_external_ref_runs_are_keyed_apart(
    inputs: tuple[Path, Path],
) -> None:
    spec, overlay = inputs
    bad = overlay.with_name("bad.yaml")
    text = overlay.read_text(encoding="utf-8")
    bad.write_text(text.replace("kind: collection", "kind: listing-ish"), encoding="utf-8")
    assert bad.read_text(encoding="utf-8") != text
    with pytest.raises(GenerationRefused):
        generate(spec, [bad], "repos")
    with pytest.raises(GenerationRefused):
        generate(spec, [bad], "repos")
    assert _entries() == []
    # the files refs pull in are recorded in the entry (tests/security/test_cache_folder.py
    # changes one and sees a miss); the flag itself is part of the key
    assert not generate(spec, [overlay], "repos", allow_external_refs=True).cached
    assert generate(spec, [overlay], "repos", allow_external_refs=True).cached
    assert not generate(spec, [overlay], "repos").cached
    assert len(_entries()) == 2


def test_only_the_newest_entries_are_kept(inputs: tuple[Path, Path], tmp_path: Path) -> None:
    spec, overlay = inputs
    for i in range(gencache.MAX_ENTRIES + 2):
        generate(spec, [overlay], f"pkg{i}")
    assert len(_entries()) == gencache.MAX_ENTRIES
    assert not generate(spec, [overlay], "pkg0").cached  # the oldest went first
    assert generate(spec, [overlay], f"pkg{gencache.MAX_ENTRIES + 1}").cached


def test_an_unwritable_cache_never_fails_generate(
    inputs: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec, overlay = inputs
    blocker = tmp_path / "file-not-folder"
    blocker.write_text("x", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert not generate(spec, [overlay], "repos").cached
    assert not generate(spec, [overlay], "repos").cached


def test_xdg_cache_home_must_be_absolute(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/dir")
    assert gencache.cache_dir() == Path.home() / ".cache" / "xcompleteness" / "generate"


def test_an_input_over_the_size_cap_is_not_hashed_and_the_loader_refuses_it(
    inputs: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec, overlay = inputs
    monkeypatch.setenv("XC_MAX_SPEC_BYTES", str(spec.stat().st_size - 1))
    assert gencache.input_key(spec, [overlay], package="repos", tests=False) is None
    assert _cli(spec, overlay, tmp_path / "out", "--package", "repos", "--format", "json") == 2
    assert _entries() == []
    monkeypatch.setenv("XC_MAX_SPEC_BYTES", str(spec.stat().st_size))
    assert gencache.input_key(spec, [overlay], package="repos", tests=False) is not None
