"""A page-size parameter by its words: its name, its schema type and its description, not by
a list of one API's names.

The conventional names (``limit``, ``per_page``, ``max_results`` ...) are ``SIZE_PARAMS``.
Many APIs spell the size otherwise: ``rowCount``, ``PageLength``, ``numberOfEntries``,
``MaxNumberOfMessages``, ``results``, JSON:API's ``page[size]`` or a ``filter[limit]``. A
numeric (or untyped) query parameter is a size when

* its name is made of how-many words (``count``, ``limit``, ``size``, ``length``, ``max``,
  ``number`` ...), generic words for what a listing holds (``rows``, ``results``, ``entries``,
  ``items`` ...) and glue (``page``, ``per``, ``of``), with at least one how-many word and more
  than a lone ``number`` (``pageNumber`` and ``number`` are positions): ``rowCount``,
  ``PageLength``, ``numberOfEntries``; or
* the first sentence of its description says it is how many things one answer holds ("The
  maximum number of messages to return", "Limits the number of results", "The maximum number
  of returned results", "How many events to return", "Page size").

and no word of its name says it is something else: a bound on a value (``min``, ``minimum``),
a position (``offset``, ``skip``, ``start``, ``index``), an id, a time or a measure
(``maxAge``, ``maxDistance``, ``retryCount``). A description counting time or a measure ("the
number of days to return") is not a size either. The type must admit a number (or say
nothing): a boolean ``filter[count]`` is a switch.

A bracketed name (``page[size]``, ``filter[limit]``, ``page[offset]``) is read by its parts:
:func:`role_keys` gives the folded keys a paging role is looked up by.
"""

from __future__ import annotations

import re

from xcompleteness.detect._prose import sentences
from xcompleteness.detect._words import fold, word_list

__all__ = ["bracket_parts", "role_keys", "size_by_words"]

_BRACKETS = re.compile(r"^([^\[\]]+)((?:\[[^\[\]]*\])+)$")

_HOW_MANY = frozenset(
    {"limit", "count", "size", "length", "max", "maximum", "number", "num", "top", "take"}
)
_HELD = frozenset(
    {
        "result", "results", "item", "items", "record", "records", "row", "rows", "entry",
        "entries", "hit", "hits", "element", "elements", "object", "objects", "match", "matches",
    }
)  # fmt: skip
_GLUE = frozenset({"page", "per", "of", "to", "return", "returned", "batch", "response"})
_POSITION_NUMBERS = frozenset({"number", "num"})
_NOT_A_SIZE = frozenset(
    {
        "min", "minimum", "offset", "skip", "start", "starting", "index", "position", "id", "ids",
        "since", "until", "before", "after", "from", "age", "ago", "day", "days", "hour", "hours",
        "minute", "minutes", "second", "seconds", "ms", "week", "weeks", "month", "months",
        "year", "years", "time", "timestamp", "date", "radius", "distance", "price", "depth",
        "level", "version", "port", "retry", "retries", "zoom", "width", "height", "precision",
        "score", "rating", "threshold", "percent", "percentage", "byte", "bytes", "char",
        "chars", "character", "characters", "length_of", "lat", "lng", "lon",
    }
)  # fmt: skip

_RETURNED = (
    r"(?:to (?:be )?(?:return|includ|retriev|fetch|get\b|list|show|display|send|receiv|load"
    r"|read)\w*"
    r"|(?:that (?:will|should|can|may) be |which (?:will|should|can) be |to be |being )?"
    r"(?:returned|included|retrieved|listed|shown|displayed|fetched)\b"
    r"|(?:per|in (?:a|each|the|one|a single)) (?:page|response|request|call|batch|result set))"
)
_SAYS_SIZE = re.compile(
    r"^(?:(?:this (?:is|sets|specifies) |specifies |sets |indicates |determines |defines )?"
    r"(?:the |an? )?(?:optional )?)"
    r"(?:"
    r"(?:max(?:imum)?\.? |upper (?:limit|bound) (?:on|of|for) the |limit (?:on|of|for) the )?"
    r"(?:total )?(?:number|count|amount|no\.?|#) of (?:returned \w+|(?:[\w-]+ ){0,4}?"
    + _RETURNED
    + r")"
    r"|how many (?:[\w-]+ ){0,4}?(?:to |should |will |are |you |per |in )"
    r"|limits? (?:the )?(?:number|count|amount) of (?:[\w-]+ ){0,3}?(?:results|items|records"
    r"|entries|rows|objects|hits|matches|returned|responses?\b)"
    r"|(?:max(?:imum)? )?(?:page|result|batch|response) size\b"
    r"|size of (?:the |a |each |one )?(?:page|response|result set|batch)\b"
    r"|(?:max(?:imum)? )?(?:number of )?(?:results|items|records|entries|rows|hits) "
    r"(?:per page|to return|returned|in (?:the|a|each) (?:response|page))"
    r")",
    re.IGNORECASE,
)
_MEASURED = re.compile(
    r"\b(?:number|count|amount) of (?:\w+ )?(?:days|hours|minutes|seconds|weeks|months|years"
    r"|bytes|characters|chars|digits|decimals|decimal places|retries|attempts|times)\b",
    re.IGNORECASE,
)


_A_POSITION = re.compile(
    r"\b(?:number|index) of the (?:page|first|starting|last)\b|\bpage (?:number|index)\b"
    r"|\b(?:offset|skip|skipped|starting (?:at|from|with|point|position)|start(?:ing)? index)\b",
    re.IGNORECASE,
)


def bracket_parts(name: str) -> tuple[str, ...]:
    """``filter[phone][eq]`` -> (filter, phone, eq); a name without brackets -> (name,)."""
    match = _BRACKETS.match(name)
    if match is None:
        return (name,)
    return (match.group(1), *re.findall(r"\[([^\[\]]*)\]", match.group(2)))


def role_keys(name: str) -> tuple[str, ...]:
    """The folded keys a paging role is looked up by: the name itself; for a bracketed name
    its parts joined (``page[number]`` -> ``pagenumber``), and, in JSON:API's ``page[...]``
    family, its last part (``page[offset]`` -> ``offset``, ``page[cursor]`` -> ``cursor``).
    A bracket under another family (``filter[from]``) is a filter, never a position."""
    parts = bracket_parts(name)
    if len(parts) == 1:
        return (fold(name),)
    keys = [fold(name), fold("".join(parts))]
    if fold(parts[0]) == "page" and len(parts) == 2:
        keys.append(fold(parts[-1]))
    return tuple(dict.fromkeys(keys))


def size_by_words(name: str, types: set[str] | frozenset[str], description: object) -> bool:
    """The parameter ``name`` (its schema ``types``, its ``description``) is a page size by its
    words (module doc). ``filter[limit]`` is read by its last part."""
    if types and not types & {"integer", "number"}:
        return False
    parts = bracket_parts(name)
    words = [w for part in parts[-1:] for w in word_list(part)]
    if not words or _NOT_A_SIZE.intersection(words):
        return False
    text = description if isinstance(description, str) else ""
    first = _OPENING.sub("", next(sentences(text), ""))
    if first.lower().rstrip(".") == "optional":  # "Optional. The max number of ..."
        first = _OPENING.sub("", next(iter(list(sentences(text))[1:2]), ""))
    if _MEASURED.search(first) or _A_POSITION.search(first) or _PER_GROUP.search(first):
        return False  # days, a position, a cap per category: not how many one answer holds
    if len(parts) > 1 and len(words) == 1 and fold(parts[-1]) in _BRACKET_SIZES:
        return True  # filter[limit], page[limit]: a size under any family
    return _sized_name(words) or bool(_SAYS_SIZE.search(first))


_BRACKET_SIZES = frozenset({"limit", "size", "pagesize", "perpage", "maxresults"})
_OPENING = re.compile(
    r"^(?:\(?optional\)?[,:;-]\s*|if (?:specified|set|provided|given),\s*"
    r"|(?:please )?(?:enter|specify|provide|give|set)\s+(?=the |a |an |how ))",
    re.IGNORECASE,
)
_PER_GROUP = re.compile(
    r"\bper (?!page\b|response\b|request\b|call\b|batch\b|query\b|result set\b|page\b)"
    r"(?:\w+ )?\w+",
    re.IGNORECASE,
)
_COUNT_WORDS = frozenset({"count", "limit", "number", "num", "top", "take"})
"""How-many words that count by themselves; ``size``, ``length`` and ``max`` measure a value
(``maxLength``, ``maxSize``) unless a held noun or ``page`` says what they count."""


def _sized_name(words: list[str]) -> bool:
    """Only how-many, held and glue words, with a how-many word, and one of: a held noun
    (``rowCount``, ``maxHits``, ``numberOfEntries``); ``page`` or ``batch`` with ``size``,
    ``length`` or ``limit`` (``PageLength``; ``pageCount`` and ``maxPage`` count pages); or a
    counting word beside ``max`` (``maxCount``). Not a lone word (``count`` alone is a
    conventional name; a lone ``length`` or ``number`` says too little), not ``max`` with
    ``length`` or ``size`` alone (a bound on a value's length or size), not a lone ``number``
    beside ``page`` (a page number)."""
    if len(words) < 2 or not set(words) <= _HOW_MANY | _HELD | _GLUE:
        return False
    counts = _HOW_MANY.intersection(words)
    if not counts:
        return False
    if _HELD.intersection(words):
        return True
    if {"page", "batch"} & set(words):
        return bool(counts & {"size", "length", "limit"})
    return bool(counts & _COUNT_WORDS) and not counts <= _POSITION_NUMBERS
