"""Draft the cap of an unpaged listing that takes a page-size parameter (``style: none`` with
``request.size``, docs/vocabulary.md "One answer, capped by its size").

Such an operation answers once, at most as many items as its size parameter asks for; an answer
that long may hide more, and no page can be asked for. The draft declares

    pagination: {style: none, request: {size: NAME}, max-page-size: N}
    reasons: [RESULT_LIMIT_REACHED]

so the walk sends the size itself (the caller's, at most N; else N) and a full answer reads
``RESULT_LIMIT_REACHED``, never ``complete: true``, whether or not a person ever reviews it.
N is the parameter's schema ``maximum``: the most one answer holds, asked nothing. What the
schema does not state is asked (a ``pagination:`` TODO) and the draft errs towards a smaller N,
so that an unconfirmed value can only make a complete answer read partial, never the reverse:
a maximum said in the parameter's description (confirm it), else its default (the server
serves its own default to everyone), else the smallest size the API accepts (its schema
``minimum``, else 1). Never a round guess such as 10: an API whose own, unstated maximum is
below the guess and that clamps silently would answer its maximum, short of the guess, and the
answer would read complete. The smallest size reads every non-empty answer as partial until a
person sets the cap, which is the honest reading of a cap nobody stated. No drafted cap is below
the schema ``minimum`` (the API would refuse the walk's request). A parameter that may be a
position rather than a size (``first`` with no count in its description, or a description
saying offset, skip, start or index) is not drafted as a cap: the walk would send it and start
elsewhere; the draft asks instead. Another parameter that reads like a page position
(``SkipPages`` beside ``PageSize``) which no paging rule took keeps the cap drafted (a full
answer still reads partial) but asks whether the listing pages by it instead.
"""

from __future__ import annotations

import re
from typing import Any

from xcompleteness.detect import Finding

__all__ = ["draft_cap"]

_NUMBER = r"(\d{1,3}(?:,\d{3})+|\d+)"
_PROSE_MAX = re.compile(
    r"(?:\bmax(?:imum)?\.?|\bat most|\bup to|\bcannot exceed|\bcan't exceed|\bmust not exceed|"
    r"\bno more than|\bnot exceed|\bbetween\s+\d+\s+and"
    r"|\b(?:valid|allowed|accepted)\s+(?:values?|range)\s*(?:is|are|:)?\s*(?:from\s+)?\d+\s*"
    r"(?:to|-|\u2013|through)"
    r")\s*(?:allowed\s+)?(?:value\s+)?"
    r"(?:is\s+|of\s+|=\s*|:\s*)?" + _NUMBER + r"\b",
    re.IGNORECASE,
)
_PROSE_DEFAULT = re.compile(
    r"\bdefaults?\s*(?:value\s+)?(?:is\s+|to\s+|of\s+|=\s*|:\s*)?" + _NUMBER + r"\b",
    re.IGNORECASE,
)
_POSITION_WORDS = re.compile(r"\b(offset|skip|skipped|skips|start|starting|index|position)\b", re.I)
_COUNT_WORDS = re.compile(r"\b(number|count|how many|max(imum)?|limit|size|results)\b", re.I)
_SIZE_TYPES = frozenset({"integer", "number", "string"})


def draft_cap(f: Finding, reasons: list[dict[str, Any]], todos: list[str]) -> dict[str, Any]:
    """The ``pagination`` of an unpaged finding with a size parameter; adds its reason and what
    it asks to ``reasons`` and ``todos``."""
    name = f.request["size"]
    param = f.size_param
    doubt = _not_a_size(name, param)
    if doubt is not None:
        todos.append(
            f"pagination: a page-size parameter {name} but no position parameter was found, and "
            f"{doubt}; if {name} caps the one answer, declare pagination {{style: none, request: "
            f"{{size: {name}}}, max-page-size: N}} with RESULT_LIMIT_REACHED among the reasons "
            "(a full answer then reads partial); if it is a position, declare that walk"
        )
        return {"style": "none"}
    cap, asked = _cap(name, param)
    if asked is not None:
        todos.append(f"pagination: {asked}")
    if param.positions:
        others = ", ".join(param.positions)
        todos.append(
            f"pagination: {others} beside the page size {name} may be a page position no rule "
            "recognised; if the API pages by it, declare that walk (style page or offset, "
            f"request {{page|offset: ..., size: {name}}}) instead of one capped answer; if not, "
            "confirm the cap"
        )
    reasons.append({"code": "RESULT_LIMIT_REACHED"})
    return {"style": "none", "request": {"size": name}, "max-page-size": cap}


def _not_a_size(name: str, param: Any) -> str | None:
    """Why ``name`` may not be a page size (None: it reads as one)."""
    if param is None:
        return "the spec does not describe it as a query parameter"
    if param.types and not param.types & _SIZE_TYPES:
        return f"it is typed {', '.join(sorted(param.types))}, not a number"
    text = param.description
    if _POSITION_WORDS.search(text):
        return f"its description ({text[:80]!r}) may describe a position, not a count"
    if name.lower() == "first" and not _COUNT_WORDS.search(text):
        return "'first' may be the first item's position (an offset) rather than a count"
    return None


def _cap(name: str, param: Any) -> tuple[int, str | None]:
    """max-page-size and the question it leaves (None when the schema states the maximum)."""
    if param.maximum is not None:
        return param.maximum, None
    least = param.minimum or 1  # the API refuses a smaller size: the walk never sends one
    said = _said(_PROSE_MAX, param.description)
    if said is not None:
        return max(said, least), (
            f"max-page-size {max(said, least)} is read from {name}'s description "
            f"({param.description[:80]!r}); confirm it is the most one answer holds (the walk "
            "sends at most that many, and a full answer reads RESULT_LIMIT_REACHED)"
        )
    default = param.default
    if default is None:
        default = _said(_PROSE_DEFAULT, param.description)
    if default is not None:
        default = max(default, least)
        return default, (
            f"the spec states no maximum for {name}; the draft caps the one answer at its default "
            f"{default} (the walk asks for at most {default}, so an answer of {default} items "
            "reads RESULT_LIMIT_REACHED, never complete): set max-page-size to the most the API "
            "serves if it documents one"
        )
    where = f"its schema minimum {least}" if param.minimum else "1"
    return least, (
        f"the spec states neither a maximum nor a default for {name}: the draft caps the one "
        f"answer at the smallest size the API accepts ({where}), so an answer of {least} "
        f"item{'s' if least != 1 else ''} reads RESULT_LIMIT_REACHED; any larger guess could be "
        "above the API's own maximum, and an API that clamps silently would then answer short "
        "of it and read complete. Set max-page-size to the most the API serves (the walk and "
        "the tool ask for at most that many)"
    )


def _said(pattern: re.Pattern[str], text: str) -> int | None:
    match = pattern.search(text)
    if match is None:
        return None
    value = int(match.group(1).replace(",", ""))
    return value if value > 0 else None
