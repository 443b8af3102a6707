"""Package names that shadow modules (issue 18, item 5) and ``audit --emit-overlay`` (item 6)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from support.hostile import SPEC, codes, run, write_spec

SHADOWS = ["os", "json", "typing", "sys", "pydantic", "httpx", "mcp", "jinja2", "anyio"]


@pytest.mark.parametrize("name", SHADOWS)
def test_package_that_shadows_a_module_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    spec = write_spec(tmp_path / "in")
    rc, _, err = run(capsys, "generate", str(spec), "-o", str(tmp_path / "out"), "--package", name)
    assert rc == 2 and "XC601" in codes(err) and "instead" in err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("title", ["json", "HTTPX", "Typing", "class"])
def test_a_title_that_would_shadow_gets_a_suffix_and_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], title: str
) -> None:
    spec = json.loads(json.dumps(SPEC))
    spec["info"]["title"] = title
    path = write_spec(tmp_path / "in", spec)
    out = tmp_path / "out"
    rc, _, err = run(capsys, "generate", str(path), "-o", str(out))
    assert rc == 0, err
    assert "XC608" in codes(err)
    package = title.lower() + "_api"
    assert (out / package / "__init__.py").is_file()


@pytest.fixture
def audited(tmp_path: Path) -> Path:
    spec = json.loads(json.dumps(SPEC))
    del spec["paths"]["/items"]["get"]["x-completeness"]  # something to draft
    return write_spec(tmp_path / "in", spec)


def test_emit_overlay_refuses_the_input(audited: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = audited.read_bytes()
    for extra in ((), ("--force",)):
        rc, _, err = run(capsys, "audit", str(audited), "--emit-overlay", str(audited), *extra)
        assert rc == 2 and "XC901" in codes(err) and "input" in err
        assert audited.read_bytes() == before


def test_emit_overlay_needs_force_for_an_existing_file(
    audited: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    precious = tmp_path / "notes.yaml"
    precious.write_text("mine: true\n")
    rc, _, err = run(capsys, "audit", str(audited), "--emit-overlay", str(precious))
    assert rc == 2 and "XC901" in codes(err) and "--force" in err
    assert precious.read_text() == "mine: true\n"
    rc, _, err = run(capsys, "audit", str(audited), "--emit-overlay", str(precious), "--force")
    assert rc == 1, err  # written: undeclared listings found
    assert precious.read_text().startswith("overlay:") or "overlay: 1.0" in precious.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in", "notes.yaml"]  # no temp file


def test_emit_overlay_never_replaces_a_symlink_or_its_target(
    audited: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "target.txt"
    target.write_text("keep\n")
    link = tmp_path / "draft.yaml"
    link.symlink_to(target)
    for extra in ((), ("--force",)):
        rc, _, err = run(capsys, "audit", str(audited), "--emit-overlay", str(link), *extra)
        assert rc == 2 and "XC901" in codes(err) and "symbolic link" in err
        assert link.is_symlink() and os.readlink(link) == str(target)
        assert target.read_text() == "keep\n"


def test_emit_overlay_writes_a_new_file(
    audited: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    draft = tmp_path / "drafts" / "draft.yaml"
    rc, _, err = run(capsys, "audit", str(audited), "--emit-overlay", str(draft))
    assert rc == 1, err
    assert "overlay: 1.0.0" in draft.read_text()
