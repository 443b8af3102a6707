"""Why an unpaged array of plain values may be one record typed as an array, not a list.

An array of plain numbers or strings answering one unpaged GET is a list of values or the
values of one thing: MIMIC's ``.../proxy/get/statistics`` ("Show the agent's PROXY statistics")
answers ``[12, 0, 3, ...]``, one record of counters aligned with the field names
``.../get/stats_hdr`` answers; ``.../telnet/server/get/userdb`` ("Show the agent's TELNET user
db file name") answers one file name typed as an array of strings. Whether such a read lists is
a reader's call, so the draft asks (``listing_doubt``) instead of stating a kind:

* a summary (``kind: aggregate``, named so by ``stats``, ``statistics``, ``aggregate`` ...)
  answering nothing but such an array: a vector of counters or a header row, as likely as a
  series of summaries;
* any other such array whose operation's summary (else the first sentence of its description)
  names no plural thing and no list: "Show the agent's current messages' cardinality" reads one
  value ("messages'" is a possessive, the thing read is the cardinality).

Asking costs a TODO on a listing that does list; a non-listing drafted without the question is a
false listing nothing flags.
"""

from __future__ import annotations

import re

from xcompleteness.detect import _prose as prose
from xcompleteness.detect import _words as sig
from xcompleteness.detect._operation_facts import OperationRef
from xcompleteness.detect._shape import Shape

__all__ = ["one_record"]

_PLAIN = frozenset({"string", "integer", "number"})
# words that say the answer is several things whatever their number
_LIST_WORDS = frozenset(
    {
        "list", "lists", "listing", "all", "every", "each", "array", "set", "collection",
        "catalog", "catalogue", "index", "inventory", "history", "log", "feed", "queue",
        "series", "table", "directory", "registry", "enumerate", "enumeration", "many",
        "multiple", "several", "any", "zero", "more",
    }
)  # fmt: skip
_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9'’]*")


def one_record(ref: OperationRef, kind: str, shape: Shape, paged: bool, bare: bool) -> str | None:
    """Why the finding may be one record typed as an array (module doc), else None."""
    if paged or ref.method != "get" or not bare or shape.items is None:
        return None
    if not shape.item_types or not shape.item_types <= _PLAIN or shape.id is not None:
        return None
    if kind == "aggregate":
        return (
            "the path or operationId names a summary (stats, statistics...) and the answer is one "
            "unpaged array of plain values: most likely one record (the values of fixed fields, "
            "in the order of a header row), not a list of summaries"
        )
    if kind != "collection":
        return None
    said = _singular_read(ref)
    if said is None:
        return None
    return (
        f"the answer is one unpaged array of plain values and {said[0]} reads one thing "
        f"({said[1]!r}: no plural, no list): it may be one value typed as an array, not a list"
    )


def _singular_read(ref: OperationRef) -> tuple[str, str] | None:
    """(where, text) when the operation's summary, else the first sentence of its description,
    names no plural noun and no list word (possessives such as ``messages'`` aside)."""
    view = ref.view
    for where, text in (("the summary", view.summary), ("the description", view.description)):
        if not isinstance(text, str) or not text.strip():
            continue
        first = next(prose.sentences(text), "")
        tokens = [t for t in _TOKEN.findall(first) if not t.endswith(("'", "’", "'s", "’s"))]
        words = [w for t in tokens for w in sig.word_list(t)]
        if len(words) < 2:
            return None  # one word says too little either way
        if any(sig.plural_word(w) or w in _LIST_WORDS or w.endswith("ids") for w in words):
            return None
        return where, first
    return None
