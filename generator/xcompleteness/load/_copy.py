"""One copy helper the YAML builder and the overlays share (a module of its own: applying a JSON
overlay never imports PyYAML)."""

from __future__ import annotations

from typing import Any

__all__ = ["copy_tree"]


def copy_tree(value: Any) -> Any:
    """Copy an aliased subtree so the result is a tree (overlays may then edit one place)."""
    if isinstance(value, dict):
        return {k: copy_tree(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_tree(v) for v in value]
    return value
