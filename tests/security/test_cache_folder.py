"""A hostile cache folder (issue 18, items 3 and 4): only entries the current user owns and nobody
else can write are trusted, an entry can only produce names the generator emits, and the files an
overlay's ``$ref`` pulls in are part of what a hit must match."""

from __future__ import annotations

import os
import stat
from pathlib import Path, PurePosixPath

import pytest
from support.hostile import SPEC, codes, run, schema_ref, write_overlay, write_spec
from xcompleteness.emit import _cache as gencache

EVIL = "import os\nos.system('touch /tmp/pwned-by-cache')\n"


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg"


def _plant(spec: Path, files: dict[str, str], *, mode: int, folder_mode: int) -> Path:
    """Store an entry under the key ``generate SPEC`` will compute, then loosen its modes."""
    key = gencache.input_key(str(spec), [], package=None, tests=False)
    assert key is not None
    entry = gencache.Entry(
        files={PurePosixPath(k): v for k, v in files.items()},
        diagnostics=[],
        package="hostile",
        summary="summary: planted",
    )
    path = gencache.store(key, entry)
    assert path is not None
    os.chmod(path, mode)
    os.chmod(path.parent, folder_mode)
    return path


def _generate(capsys: pytest.CaptureFixture[str], spec: Path, out: Path) -> tuple[int, str]:
    rc, _, err = run(capsys, "generate", str(spec), "-o", str(out))
    return rc, err


def test_an_entry_others_can_write_is_never_used(
    tmp_path: Path, cache_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = write_spec(tmp_path / "in")
    planted = _plant(spec, {"hostile/client.py": EVIL}, mode=0o666, folder_mode=0o777)
    rc, err = _generate(capsys, spec, tmp_path / "out")
    assert rc == 0, err
    assert "XC607" in codes(err) and "writable by others" in err
    assert "os.system" not in (tmp_path / "out" / "hostile" / "client.py").read_text()
    assert stat.S_IMODE(planted.parent.stat().st_mode) == 0o700  # our folder: tightened


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs chown (root)")
def test_an_entry_another_user_owns_is_never_used(
    tmp_path: Path, cache_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = write_spec(tmp_path / "in")
    planted = _plant(spec, {"hostile/client.py": EVIL}, mode=0o600, folder_mode=0o700)
    os.chown(planted, 65534, 65534)
    rc, err = _generate(capsys, spec, tmp_path / "out")
    assert rc == 0 and "XC607" in codes(err) and "owned by user id 65534" in err
    assert "os.system" not in (tmp_path / "out" / "hostile" / "client.py").read_text()
    os.chown(planted.parent, 65534, 65534)  # a folder of someone else's: not even looked into
    rc, err = _generate(capsys, spec, tmp_path / "out2")
    assert rc == 0 and "XC607" in codes(err) and "the folder is owned" in err


def test_an_entry_can_only_produce_names_the_generator_emits(
    tmp_path: Path, cache_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = write_spec(tmp_path / "in")
    hooks = {".git/hooks/post-checkout": "#!/bin/sh\nid\n", "hostile/client.py": EVIL}
    _plant(spec, hooks, mode=0o600, folder_mode=0o700)
    rc, err = _generate(capsys, spec, tmp_path / "out")
    assert rc == 0, err
    assert not (tmp_path / "out" / ".git").exists()
    assert "os.system" not in (tmp_path / "out" / "hostile" / "client.py").read_text()
    assert "reused the result" not in err


def test_a_file_an_overlay_ref_pulls_in_is_part_of_the_key(
    tmp_path: Path, cache_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "in"
    spec = write_spec(folder, SPEC)
    item = folder / "item.yaml"
    body = SPEC["paths"]["/items"]["get"]["responses"]["200"]["content"]["application/json"]
    import yaml

    item.write_text(yaml.safe_dump(body["schema"]), encoding="utf-8")
    overlay = write_overlay(folder, schema_ref("item.yaml"))
    argv = ["generate", str(spec), "--overlay", str(overlay), "--allow-external-refs"]
    rc, _, err = run(capsys, *argv, "-o", str(tmp_path / "a"))
    assert rc == 0, err
    rc, _, err = run(capsys, *argv, "-o", str(tmp_path / "b"))
    assert rc == 0 and "reused the result" in err
    item.write_text("type: 42\n", encoding="utf-8")  # now an invalid schema
    rc, _, err = run(capsys, *argv, "-o", str(tmp_path / "c"))
    assert rc == 1 and "XC030" in codes(err) and "reused the result" not in err


@pytest.fixture
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``XC_CACHE_DIR`` below a folder ``shared`` (mode 0755 until a test loosens it)."""
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    monkeypatch.setenv("XC_CACHE_DIR", str(shared / "xc"))
    return shared / "xc"


def test_a_cache_below_a_folder_everyone_can_write_is_not_used(
    tmp_path: Path, own_cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Whoever can write a folder above the cache can rename the cache away and put theirs in
    its place between the check and the read (OpenSSH refuses such a path for the same
    reason): the cache is not used, and a warning names the folder."""
    spec = write_spec(tmp_path / "in")
    _plant(spec, {"hostile/client.py": EVIL}, mode=0o600, folder_mode=0o700)
    own_cache.parent.chmod(0o777)
    rc, err = _generate(capsys, spec, tmp_path / "out")
    assert rc == 0, err
    assert "XC607" in codes(err) and f"the folder {own_cache.parent} above it" in err
    assert "writable by everyone (mode 777, no sticky bit)" in err
    assert "reused the result" not in err
    assert "os.system" not in (tmp_path / "out" / "hostile" / "client.py").read_text()


def test_a_cache_below_a_sticky_folder_like_tmp_is_used(
    tmp_path: Path, own_cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The sticky bit (``/tmp``) lets nobody rename what is not theirs: such a parent is fine."""
    own_cache.parent.chmod(0o1777)
    spec = write_spec(tmp_path / "in")
    rc, err = _generate(capsys, spec, tmp_path / "a")
    assert rc == 0 and "XC607" not in codes(err), err
    rc, err = _generate(capsys, spec, tmp_path / "b")
    assert rc == 0 and "reused the result" in err and "XC607" not in codes(err)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs chown (root)")
def test_a_cache_below_a_folder_another_user_owns_is_not_used(
    tmp_path: Path, own_cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``shared`` (above the cache) is another user's, in a folder anyone can write: they could
    have made it, and can swap the cache inside it."""
    spec = write_spec(tmp_path / "in")
    _plant(spec, {"hostile/client.py": EVIL}, mode=0o600, folder_mode=0o700)
    os.chown(own_cache.parent, 65534, 65534)
    tmp_path.chmod(0o1777)  # like /tmp
    rc, err = _generate(capsys, spec, tmp_path / "out")
    assert rc == 0 and "XC607" in codes(err) and "owned by user id 65534" in err, err
    assert "os.system" not in (tmp_path / "out" / "hostile" / "client.py").read_text()


def test_an_entry_swapped_for_a_link_after_its_check_is_never_read(
    tmp_path: Path, cache_home: Path, capsys: pytest.CaptureFixture[str], monkeypatch
) -> None:
    """Every cache reads an entry the one way (:func:`xcompleteness.safety.read_private`): never
    through a symbolic link, and only the very file that was checked. Here the entry is replaced
    by a link to a poisoned entry right after its check (what a swap of a folder above would
    do): the poisoned entry is not read, the run generates afresh."""
    from xcompleteness import safety

    spec = write_spec(tmp_path / "in")
    poison = tmp_path / "poison.xcgen"
    os.replace(_plant(spec, {"hostile/client.py": EVIL}, mode=0o600, folder_mode=0o700), poison)
    rc, err = _generate(capsys, spec, tmp_path / "a")  # a fresh run stores the good entry
    assert rc == 0 and "os.system" not in (tmp_path / "a/hostile/client.py").read_text(), err
    real = safety.private_file

    def check_then_swap(path: Path) -> os.stat_result:
        st = real(path)
        if path.name.endswith(gencache.SUFFIX):
            path.unlink()
            path.symlink_to(poison)
        return st

    monkeypatch.setattr(safety, "private_file", check_then_swap)
    monkeypatch.setattr(gencache, "private_file", check_then_swap, raising=False)
    rc, err = _generate(capsys, spec, tmp_path / "b")
    assert rc == 0, err
    assert "reused the result" not in err
    assert "os.system" not in (tmp_path / "b" / "hostile" / "client.py").read_text()
