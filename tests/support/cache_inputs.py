"""Inputs of the generate-cache tests: a private cache folder and an editable copy of the
link_header_search example (base spec + overlay), and overlay edits that change no schema."""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from support.paths import EXAMPLES

__all__ = ["EXAMPLE", "cache_inputs", "damages", "edited_overlay"]

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


def damages(
    entry: Path, folder: Path, **extra: Callable[[], Any]
) -> tuple[dict[str, Callable[[], Any]], bytes, Path]:
    """Ways to spoil the cache entry ``entry``: truncated, one bit flipped, group-writable, a
    symbolic link to a copy of it in ``folder``; plus ``extra`` (name -> how). Returns the ways,
    the entry's sound bytes and the copy (which a link must never let anyone write)."""
    good = entry.read_bytes()
    outside = folder / f"outside{entry.suffix}"
    outside.write_bytes(good)
    outside.chmod(0o600)
    ways = {
        "truncate": lambda: entry.write_bytes(good[:-3]),
        "flip": lambda: entry.write_bytes(good[:-2] + bytes([good[-2] ^ 1]) + good[-1:]),
        **extra,
        "group writable": lambda: (entry.write_bytes(good), entry.chmod(0o666)),
        "symlink": lambda: entry.symlink_to(outside),
    }
    return ways, good, outside


def cache_entries(suffix: str) -> list[Path]:
    """The entries of one kind (``.xcvalid``, ``.xcfmt``, ...) in the generate cache folder."""
    from xcompleteness.emit import _cache as gencache

    folder = gencache.cache_dir()
    return sorted(folder.glob("*" + suffix)) if folder.is_dir() else []


def drop_whole_run_entries() -> None:
    """Remove the whole-run entries, so the next run goes through the per-stage caches."""
    from xcompleteness.emit import _cache as gencache

    for path in cache_entries(gencache.SUFFIX):
        path.unlink()
