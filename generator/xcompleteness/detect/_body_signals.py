"""Native completeness signals in a response: body fields (``has_more``, next tokens and links,
totals...) whose schema type fits their kind, and headers (``Link``, totals)."""

from __future__ import annotations

import re
from typing import Any

from xcompleteness.detect import _prose as prose
from xcompleteness.detect import _words as sig
from xcompleteness.detect._finding import BOOL_KINDS, Signal, body_expr
from xcompleteness.detect._schema_walk import Located, SchemaWalker
from xcompleteness.diagnostics import pointer_join
from xcompleteness.document import Parameter, pointer_tokens

__all__ = [
    "body_signals",
    "described_header_token",
    "header_signals",
    "told_header_doubt",
    "settle_totals",
]


def header_signals(headers: list[tuple[str, str]]) -> list[Signal]:
    out: list[Signal] = []
    for name, ptr in headers:
        kind = sig.SIGNAL_HEADERS.get(sig.fold(name)) or _vendor_token(name)
        if kind == "link_header":
            out.append(Signal(kind, name, "$response.link.next", ptr))
        elif kind is not None:
            out.append(Signal(kind, name, f"$response.header.{name}", ptr))
    return out


def _vendor_token(name: str) -> str | None:
    """``next_token`` for a response header named like a next token, after a vendor prefix or
    without one (DLx's ``dlx-continuation``, ``X-Acme-Next-Cursor``, Visma Severa's
    ``NextPageToken``): the prefix is any leading words."""
    words = name.split("-")
    for start in range(len(words)):
        if sig.fold("".join(words[start:])) in sig.HEADER_TOKENS:
            return "next_token"
    return None


# "returned in the `X-Acme-Next-Token` response header", "the `dlx-continuation` header of the
# response": a header name quoted or in backticks, then ``header``, in a sentence about a response
_NAMED_HEADER = re.compile(r"[`'\"]([A-Za-z][A-Za-z0-9-]*)[`'\"] (?:response )?header\b")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_RESPONSE_SIDE = re.compile(r"\brespon\w*|\breturn\w*", re.IGNORECASE)


def described_header_token(
    texts: list[str], params: tuple[Parameter, ...], declared: list[tuple[str, str]], pointer: str
) -> Signal | None:
    """A next token in a response header said only in prose: a sentence of ``texts`` (the
    operation's summary, description and query parameters' descriptions) or of a header
    parameter's description that names a header like a next token (:func:`_vendor_token`) and
    speaks of the response, while no success response declares that header. The draft then
    reads it (its schema patch adds the header and asks)."""
    have = {name.lower() for name, _ in declared}
    said = [p.get("description") for p in params if p.location == "header"]
    for text in [*texts, *(t for t in said if isinstance(t, str))]:
        if "header" not in text.lower():
            continue  # most texts: told without splitting them into sentences
        for sentence in _SENTENCE_END.split(text):  # raw: the quotes around a name matter
            if not _RESPONSE_SIDE.search(sentence):
                continue
            for name in _NAMED_HEADER.findall(sentence):
                named = sig.SIGNAL_HEADERS.get(sig.fold(name)) == "next_token"
                if (named or _vendor_token(name)) and name.lower() not in have:
                    return Signal("next_token", name, f"$response.header.{name}", pointer)
    return None


def told_header_doubt(told: Signal | None, style: str) -> str | None:
    """Why a cursor walk on a next-token header said only in prose is asked (else None)."""
    if told is None or style != "cursor":
        return None
    return (
        f"no response declares the {told.name} header the next page's token is read from; only "
        "the description says the response returns it: confirm the header's name and how the "
        "last page shows it (the draft ends when it is missing or empty)"
    )


def body_signals(
    props: dict[str, Located],
    walker: SchemaWalker,
    base: str,
    skip: str | None,
    depth: int,
    cursor_keys: set[str] | frozenset[str] = frozenset(),
) -> list[Signal]:
    out: list[Signal] = []
    for name, (sub, sptr) in props.items():
        rel = pointer_join(base, name)
        if rel == skip:
            continue
        key = sig.fold(name)
        kind = sig.SIGNAL_FIELDS.get(key)
        if kind is None and any(key == "next" + c for c in cursor_keys):
            kind = "next_token"  # ``next_stream_position`` for ``stream_position``
        if kind is None and sig.is_next_link_name(key):
            kind = "next_link"  # ``next_page_uri``, ``nextUri``, ``next_page_link``
        if key == sig.AMBIGUOUS_NEXT:
            kind = (
                "next_link"
                if _is_url(sub, sptr, walker) or "link" in base.lower()
                else "next_token"
            )
        elif kind == "next_token" and key.startswith("next") and _is_url(sub, sptr, walker, True):
            kind = "next_link"  # Jira's ``nextPage``: a URI, not a token
        if kind is not None:
            signal = _typed_signal(kind, name, rel, sub, sptr, walker)
            if signal is not None:
                out.append(signal)
                continue
        if depth < 2 and key in sig.CONTAINERS and "object" in walker.types(sub, sptr):
            inner = walker.properties(sub, sptr)
            out.extend(body_signals(inner, walker, rel, skip, depth + 1, cursor_keys))
    return out


def settle_totals(
    signals: list[Signal], props: dict[str, Located], walker: SchemaWalker
) -> tuple[list[Signal], str | None]:
    """The body's total-like fields reduced to the one total, or a question when several remain.

    An envelope holding two or more total-like fields (OnSched's ``{count, total, hasMore, data}``,
    neither described) gives no evidence which one counts every item: the other may count this
    page. When exactly one of them is described as counting all items ("total", "all",
    "matching"), it is the total and the others are dropped; otherwise every candidate is kept
    (the first is drafted) and the returned sentence names them for a TODO, never a pick."""
    totals = [
        s for s in signals if s.kind == "total" and s.expression.startswith("$response.body#")
    ]
    if len(totals) < 2:
        return signals, None
    described = [s for s in totals if prose.says_total(_description_at(s, props, walker))]
    if len(described) == 1:
        return [s for s in signals if s not in totals or s is described[0]], None
    named = ", ".join(f"{s.name} ({s.expression})" for s in totals)
    return signals, (
        f"the response holds {len(totals)} total-like fields, {named}, and nothing in the spec "
        "says which one counts every item (another may count this page only)"
    )


def total_bound(
    signals: list[Signal], props: dict[str, Located], walker: SchemaWalker
) -> str | None:
    """Why the drafted body total may not be exact: its description says it is accurate only up
    to a bound (Stripe search's ``total_count``, "only accurate up to 10,000"). A walk comparing
    the items it read with such a count would call a longer listing partial; the draft asks."""
    total = next(
        (s for s in signals if s.kind == "total" and s.expression.startswith("$response.body#")),
        None,
    )
    if total is None:
        return None
    sentence = prose.bounded_count(_description_at(total, props, walker))
    if sentence is None:
        return None
    return f'the response\'s {total.name} ({total.expression}) says "{sentence[:160]}"'


def _description_at(signal: Signal, props: dict[str, Located], walker: SchemaWalker) -> str | None:
    """The description of the body field a signal reads (walked from the top-level ``props``)."""
    tokens = pointer_tokens(signal.expression.removeprefix("$response.body#")) or ()
    located: Located | None = None
    level = props
    for token in tokens:
        located = level.get(token)
        if located is None:
            return None
        level = walker.properties(*located)
    return _description(*located, walker) if located is not None else None


def _typed_signal(
    kind: str, name: str, rel: str, sub: Any, sptr: str, walker: SchemaWalker
) -> Signal | None:
    """A signal when the field's type fits its kind (a ``total`` object reads its ``value``).

    A count whose description says it counts one page ("the number of results in this
    response") or only estimates ("approximate") is no total: an offset walk ending on it would
    stop early and call the result complete."""
    types = walker.types(sub, sptr)
    if kind == "total" and prose.not_a_total(_description(sub, sptr, walker)):
        return None
    if kind == "total" and _an_amount(sub, sptr, types, walker):
        return None
    if kind in BOOL_KINDS and types and "boolean" not in types:
        return None
    if kind == "shards":
        failed = walker.properties(sub, sptr).get("failed")
        return Signal(kind, name, body_expr(rel + "/failed"), failed[1]) if failed else None
    if (
        kind in ("total", "total_pages", "remaining")
        and types
        and not types & {"integer", "number"}
    ):
        value = walker.properties(sub, sptr).get("value")  # Elasticsearch {value, relation}
        if kind == "total" and value is not None:
            return Signal(kind, name, body_expr(rel + "/value"), value[1])
        return None
    if kind == "next_token" and types and not types & {"string", "integer", "number"}:
        return None  # a number is a token too: Vercel's ``next`` "Timestamp ... the next page"
    if kind == "next_link" and types and not types & {"string", "integer"}:
        return None
    if kind == "next_link" and types and "string" not in types:
        return None  # a next URL is a string; a number there is a page number, not a link
    return Signal(kind, name, body_expr(rel), sptr)


_AMOUNT_WORDS = re.compile(
    r"\b(?:amount|price|cost|dollars?|euros?|currency|balance|tax(?:es)?)\b", re.IGNORECASE
)


def _an_amount(sub: Any, sptr: str, types: set[str], walker: SchemaWalker) -> bool:
    """A ``total`` that is a sum of money, not a count of items (Linode's invoice ``total``:
    "The amount of the Invoice after taxes in US Dollars", a number with example 132.5): a
    count is an integer, so a non-integer type with a fractional example or an amount-like
    description is no total to walk to."""
    if "integer" in types or "number" not in types:
        return False
    node, _ = walker.resolve(sub, sptr)
    example = node.get("example") if isinstance(node, dict) else None
    if isinstance(example, float) and not example.is_integer():
        return True
    return bool(_AMOUNT_WORDS.search(_description(sub, sptr, walker) or ""))


def _description(sub: Any, sptr: str, walker: SchemaWalker) -> str | None:
    node, _ = walker.resolve(sub, sptr)
    text = node.get("description") if isinstance(node, dict) else None
    return text if isinstance(text, str) else None


def _is_url(sub: Any, sptr: str, walker: SchemaWalker, strict: bool = False) -> bool:
    """A URL by its format, by an example that is one, or by a description that says so
    (Spotify's ``next``: "URL to the next page of items"); ``strict``: format or example only."""
    node, _ = walker.resolve(sub, sptr)
    if not isinstance(node, dict):
        return False
    fmt = node.get("format")
    if isinstance(fmt, str) and fmt.lower() in ("uri", "url", "uri-reference"):
        return True  # Zuora writes ``format: URL`` on its 45 ``nextPage`` fields
    example = node.get("example")
    if isinstance(example, str) and example.startswith(("http://", "https://", "/")):
        return True
    if strict:
        return False
    return prose.says_url(node.get("description"))
