"""Shared parts of the issue-19 "unseen class" tests: scan a hand-made spec of
tests/audit/specs/ and read a draft's open questions by topic."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from xcompleteness.detect._listlike import scan_all

SPECS = Path(__file__).resolve().parents[1] / "audit" / "specs"


def findings_by_path(spec_name: str) -> dict[str, Any]:
    """path -> Finding for every list-like operation audit finds in ``specs/<spec_name>``."""
    return _scanned(spec_name)[0]


def excluded_by_path(spec_name: str) -> dict[str, Any]:
    """path -> Excluded for every operation audit leaves out with a reason (a stream, a file)."""
    return _scanned(spec_name)[1]


def _scanned(spec_name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    spec = yaml.safe_load((SPECS / spec_name).read_text("utf-8"))
    found, excluded = scan_all(spec)
    return {f.path: f for f in found}, {e.path: e for e in excluded}


def emitted_drafts(spec: Path, tmp_path: Path) -> dict[str, dict[str, Any]]:
    """path -> the ``x-completeness`` draft ``audit --emit-overlay`` writes for ``spec``."""
    from xcompleteness import api

    out = tmp_path / "draft.yaml"
    result = api.audit(spec, emit_overlay=out)
    assert result.report is not None, result.diagnostics
    overlay = yaml.safe_load(out.read_text("utf-8"))
    return {
        a["target"].split("'")[1]: a["update"]["x-completeness"]
        for a in overlay["actions"]
        if "x-completeness" in a["update"]
    }


def todos(decl: dict[str, Any], topic: str) -> list[str]:
    """The draft's ``x-todo`` entries of one topic (``kind``, ``pagination``...)."""
    return [t for t in decl["x-todo"] if t.startswith(topic + ":")]
