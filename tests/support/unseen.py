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
    spec = yaml.safe_load((SPECS / spec_name).read_text("utf-8"))
    found, _ = scan_all(spec)
    return {f.path: f for f in found}


def todos(decl: dict[str, Any], topic: str) -> list[str]:
    """The draft's ``x-todo`` entries of one topic (``kind``, ``pagination``...)."""
    return [t for t in decl["x-todo"] if t.startswith(topic + ":")]
