"""The bound on one tool answer: how much of a listing one MCP answer hands a model.

Why: a walk of 20 pages of 500 (Postmark's search) put 10,000 items into one answer, far more
than an agent's context takes. The host bounds each answer by the bytes of its items' compact
JSON (:data:`DEFAULT_MAX_ANSWER_BYTES`) and, when it says so, by their number. An answer that
reaches the bound ends ``partial`` with the client reason ``CLIENT_ANSWER_LIMIT`` and a
``next_cursor`` continuation that resumes at the next item, exactly: the walk cuts the page it
was reading (``PageStream.cut``), so no item is lost or repeated between answers. An answer
always holds at least one item, so a chain of answers always moves on.

Standard library only: copied verbatim into generated packages.
"""

from __future__ import annotations

import json
from typing import Any

from .plain import plain
from .walk_results import CLIENT_ANSWER_LIMIT

__all__ = ["DEFAULT_MAX_ANSWER_BYTES", "bounded_walk"]

DEFAULT_MAX_ANSWER_BYTES = 100_000
"""About 25,000 tokens of JSON (3-4 bytes a token): the size at which agent hosts start to cut
a tool's output themselves (Claude Code's default for an MCP tool answer is 25,000 tokens)."""


def _size(item: Any) -> int:
    """Bytes of one item in the answer's compact JSON, its separating comma included."""
    return len(_json(item).encode("utf-8")) + 1


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def bounded_walk(stream: Any, *, max_items: int | None, max_bytes: int | None) -> dict[str, Any]:
    """Read ``stream`` (a listing's ``iter_pages``) until it ends or one answer is full.

    Returns the result's fields as a mapping (``items`` as plain JSON values) for
    :func:`.tool_result.tool_result`. A page that does not fit whole is cut after the items that
    do; the walk's continuation then starts at the first item left out.
    """
    items: list[Any] = []
    size = 0
    details = {
        k: v for k, v in (("max_items", max_items), ("max_bytes", max_bytes)) if v is not None
    }
    for page in stream:
        page_items = [plain(item) for item in page.items]
        fits = max_items is None or len(items) + len(page_items) <= max_items
        if fits and max_bytes is not None and page_items:
            # One encoding of the whole page: its items and commas, less the brackets.
            whole = len(_json(page_items).encode("utf-8")) - 1
            fits = size + whole <= max_bytes
            if fits:
                size += whole
        if fits:
            items.extend(page_items)
            keep = len(page_items)
        else:
            keep = 0
            for data in page_items:
                grown = size + _size(data) if max_bytes is not None else 0
                full = (max_items is not None and len(items) >= max_items) or (
                    max_bytes is not None and grown > max_bytes
                )
                if full and items:  # never an empty answer: a chain of answers must move on
                    break
                items.append(data)
                size, keep = grown, keep + 1
        if keep < len(page_items) or (max_items is not None and len(items) >= max_items):
            return _fields(stream.cut(keep, CLIENT_ANSWER_LIMIT, **details), items)
    return _fields(stream.result, items)


def _fields(result: Any, items: list[Any]) -> dict[str, Any]:
    return {
        "items": items,
        "complete": result.complete,
        "reasons": result.reasons,
        "continuation": result.continuation,
        "snapshot": result.snapshot,
        "warnings": result.warnings,
        "evidence": result.evidence,
    }
