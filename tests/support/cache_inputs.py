"""Inputs of the generate-cache tests: a private cache folder and an editable copy of the
link_header_search example (base spec + overlay), and overlay edits that change no schema."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest
import yaml

from support.paths import EXAMPLES

__all__ = ["EXAMPLE", "cache_inputs", "edited_overlay"]

EXAMPLE = EXAMPLES / "link_header_search"


def cache_inputs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """Point ``XDG_CACHE_HOME`` into ``tmp_path`` and copy the example there: (spec, overlay)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    src = tmp_path / "src"
    shutil.copytree(EXAMPLE, src)
    return src / "base.yaml", src / "overlay.yaml"


def edited_overlay(overlay: Path, text: str) -> Path:
    """``overlay`` plus one action that changes no schema (the API's description set to
    ``text``): a whole-run miss whose item models and most modules are unchanged."""
    data = yaml.safe_load(overlay.read_text("utf-8"))
    data["actions"].append({"target": "$.info", "update": {"description": text}})
    out = overlay.with_name(f"edited-{hashlib.sha256(text.encode()).hexdigest()[:8]}.yaml")
    out.write_text(yaml.safe_dump(data, sort_keys=False), "utf-8")
    return out
