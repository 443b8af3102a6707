"""A keyset cursor said in prose: a query parameter that takes back a value the response holds.

Listen Notes pages a playlist by ``last_timestamp_ms`` ("For playlist items pagination. It's the
value of **last_timestamp_ms** from the response of last request") and a podcast's episodes by
``next_episode_pub_date`` (the same wording), both integers no list of cursor names holds. A
query parameter is such a cursor when its description

* says it pages ("pagination", "paginate", "next page", "more results"), and
* says it takes the value of a response field by name ("the value of X from the response",
  "X returned in the previous response"), a field the success body holds (at the top or one
  object down)

and no other rule gave the operation a cursor. The field is then the next token, and the walk a
cursor walk asked about (how the last page shows the value is unsaid: a keyset value may be
repeated, zero or null there).
"""

from __future__ import annotations

import re
from functools import lru_cache

from xcompleteness.detect import _prose as prose
from xcompleteness.detect import _words as sig
from xcompleteness.detect._finding import Signal
from xcompleteness.detect._schema_walk import Located, SchemaWalker
from xcompleteness.diagnostics import pointer_join
from xcompleteness.document import Parameter

__all__ = ["Keyset", "keyset_cursor", "keyset_doubt", "keyset_signals"]

_PAGES = re.compile(
    r"\bpaginat\w*|\bpaging\b|\bnext (?:page|set|batch)\b|\bmore (?:results|items)\b",
    re.IGNORECASE,
)
_VALUE_OF = re.compile(
    r"\bvalue of (?:the )?[`*'\"]*(?P<a>[A-Za-z_][\w.-]*)[`*'\"]*(?: field| property)?"
    r" (?:from|in|of) (?:the )?(?:\w+ )?(?:response|result)"
    r"|[`*'\"]*(?P<b>[A-Za-z_][\w.-]*)[`*'\"]*(?: field| property)? (?:returned|given) in the "
    r"(?:previous|last|prior) (?:response|result|request)",
    re.IGNORECASE,
)


class Keyset:
    """The cursor parameter, the response field feeding it, and why the walk is asked."""

    __slots__ = ("doubt", "param", "signal")

    def __init__(self, param: str, signal: Signal, doubt: str) -> None:
        self.param, self.signal, self.doubt = param, signal, doubt


def keyset_cursor(
    params: tuple[Parameter, ...],
    roles: dict[str, str],
    body: Located | None,
    walker: SchemaWalker,
) -> Keyset | None:
    """The keyset cursor of the module doc, or None (a cursor already found, no body)."""
    if body is None or "cursor" in roles or "page_token" in roles:
        return None
    fields: dict[str, tuple[str, str]] | None = None
    for p in params:
        text = p.get("description")
        if p.location != "query" or not isinstance(text, str) or p.name in roles.values():
            continue
        names = _named_values(text)
        if not names:
            continue
        fields = _fields(body, walker) if fields is None else fields
        for name in names:
            found = fields.get(sig.fold(name))
            if found is None:
                continue
            rel, pointer = found
            said = rel.lstrip("/")
            return Keyset(
                p.name,
                Signal("next_token", name, f"$response.body#{rel}", pointer),
                f"{p.name} takes back the response's {said} (said only in its description, a "
                "value no cursor name shows): drafted as a cursor walk; confirm how the last "
                f"page shows {said} (missing, null, 0 or repeated) and that each page's value "
                "is the one to send",
            )
    return None


@lru_cache(maxsize=4096)
def _named_values(text: str) -> tuple[str, ...]:
    """The response fields a paging description says it takes the value of (module doc)."""
    if prose.reserved(text) or not _PAGES.search(text):
        return ()
    return tuple(m.group("a") or m.group("b") for m in _VALUE_OF.finditer(text))


def keyset_signals(keyset: Keyset | None) -> list[Signal]:
    """The next token a keyset cursor is fed by (none without one)."""
    return [] if keyset is None else [keyset.signal]


def keyset_doubt(keyset: Keyset | None, style: str) -> str | None:
    """Why a cursor walk on a keyset cursor is asked (None for any other walk)."""
    return keyset.doubt if keyset is not None and style == "cursor" else None


def _fields(body: Located, walker: SchemaWalker) -> dict[str, tuple[str, str]]:
    """Folded name -> (body pointer, schema pointer) of the body's scalar fields, at the top
    and one object down (``{episodes: [...], next_episode_pub_date}``)."""
    out: dict[str, tuple[str, str]] = {}
    node, at = walker.resolve(*body)
    for name, (sub, ptr) in walker.properties(node, at).items():
        types = walker.types(sub, ptr)
        if types & {"object"}:
            inner, iat = walker.resolve(sub, ptr)
            for iname, (isub, iptr) in walker.properties(inner, iat).items():
                if not walker.types(isub, iptr) & {"object", "array"}:
                    rel = pointer_join(pointer_join("", name), iname)
                    out.setdefault(sig.fold(iname), (rel, iptr))
        elif not types & {"array"}:
            out[sig.fold(name)] = (pointer_join("", name), ptr)
    return out
