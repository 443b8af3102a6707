"""Pagination parameters: which query parameter is the cursor, offset, page, page token, size or
query text, and the pagination style the roles and the response's signals make."""

from __future__ import annotations

from xcompleteness.detect import _prose as prose
from xcompleteness.detect import _words as sig
from xcompleteness.detect._finding import Signal
from xcompleteness.detect._schema_walk import SchemaWalker
from xcompleteness.detect._size_words import size_by_words
from xcompleteness.document import Parameter, pointer_tokens

__all__ = [
    "bare_next_link_doubt",
    "cursor_fed_by_token",
    "header_cursor",
    "pagination_style",
    "param_roles",
]


# -- parameters ---------------------------------------------------------------------------------


def param_roles(params: tuple[Parameter, ...], walker: SchemaWalker) -> dict[str, str]:
    """Pagination role -> query parameter name (first match wins; size by preference order).

    An offset or page parameter must be a number: a text ``page`` is a token (Stripe's search
    ``page`` is the ``next_page`` of the previous response; role ``page_token``), and a time
    (``start`` described as a timestamp, or formatted as a date) is a filter, not a position.
    """
    roles: dict[str, str] = {}
    sizes: list[str] = []
    cursors: list[str] = []
    # ``start``/``from`` beside ``end``/``to``/``until``/``duration`` bound a window (Mist's
    # ``start``, ``end``, ``duration`` beside ``page``): no position, whatever their type
    windowed = any(p.location == "query" and sig.fold(p.name) in sig.WINDOW_ENDS for p in params)
    for p in params:
        if p.location != "query" or prose.reserved(p.get("description")):
            continue  # a parameter the API keeps for itself is never a position the walk sets
        name = p.name
        # a bracketed or dotted name by its parts (JSON:API's ``page[offset]``, Magento's
        # ``searchCriteria[currentPage]``, ``queryOptions.pageSize``)
        key = next((k for k in sig.role_keys(name) if k in sig.PAGING_PARAMS), sig.fold(name))
        if key in sig.CURSOR_PARAMS:
            cursors.append(name)
        elif key not in sig.PAGING_PARAMS and prose.describes_cursor(p.get("description")):
            cursors.append(name)  # "a pagination cursor" whatever its name (``batch_token``)
        elif key in sig.OFFSET_PARAMS or key in sig.PAGE_PARAMS:
            role = "offset" if key in sig.OFFSET_PARAMS else "page"
            kind = _position_kind(p, walker, role)
            if role == "offset" and windowed and key in sig.WINDOW_STARTS:
                kind = "time"
            if kind == "number":
                roles.setdefault(role, name)
            elif kind == "text" and role == "page":
                roles.setdefault("page_token", name)
            elif kind == "text" and not _numeric_text(p):
                cursors.append(name)  # a text offset is an opaque token (Asana's ``offset``)
            elif kind == "text":
                roles.setdefault(role, name)  # a string offset described as a number
        elif key in sig.SIZE_PARAMS or _named_as_size(p, walker):
            sizes.append(name)
    if cursors:  # forward cursors first: ``after`` over ``before``
        roles["cursor"] = min(cursors, key=_backward)
    queries = [
        (p, sig.fold(p.name))
        for p in params
        if p.location == "query" and prose.describes_query_text(p.get("description"))
    ]
    if any(p.get("required") is True and key in sig.QUERY_PARAMS for p, key in queries):
        roles["query"] = next(p.name for p, key in queries if key in sig.QUERY_PARAMS)
    if sizes:
        order = {k: i for i, k in enumerate(sig.SIZE_ORDER)}
        roles["size"] = min(sizes, key=lambda n: order.get(sig.fold(n), len(order)))
    return roles


def _backward(name: str) -> bool:
    """A cursor that pages backward (``before``, ``page[before]``, ``since_id``)."""
    return any(k in sig.BACKWARD_CURSORS for k in sig.role_keys(name))


# The words of a page-size name no list of conventional names holds (``recordsNumber``,
# ``numResults``, ``resultsLimit``): one word for what is counted, one for how many.
_COUNTED = frozenset(
    {"record", "records", "result", "results", "item", "items", "row", "rows", "entry", "entries"}
)
_HOW_MANY = frozenset({"number", "num", "count", "limit", "max", "maximum"})


def _named_as_size(p: Parameter, walker: SchemaWalker) -> bool:
    """A numeric parameter named by two words, what is counted and how many (AppVeyor's
    ``recordsNumber``, "Number of results to include in the response"), or described as the
    number of results to return: a page size by its words, not by a conventional name."""
    schema = p.schema.raw if p.schema is not None else p.node  # Swagger 2.0: on the parameter
    types = walker.types(schema, p.pointer)
    if types and not types & {"integer", "number"}:
        return False
    words = sig.word_list(p.name)
    if len(words) == 2 and (
        (words[0] in _COUNTED and words[1] in _HOW_MANY)
        or (words[0] in _HOW_MANY and words[1] in _COUNTED)
    ):
        return True
    return prose.describes_page_size(p.get("description")) or size_by_words(
        p.name, types, p.get("description")
    )


def _numeric_text(p: Parameter) -> bool:
    """A string-typed offset is a position unless its description says it is a token the API
    returns (Asana's "offset token"): a string ``start_position`` still counts items."""
    text = p.get("description") if isinstance(p.get("description"), str) else ""
    return not (sig.words(text) & {"token", "opaque"})


def _position_kind(p: Parameter, walker: SchemaWalker, role: str) -> str:
    """``number`` (a position), ``text`` (a token, or unknown) or ``time`` (a window)."""
    # Swagger 2.0 puts type and format on the parameter itself
    schema = p.schema.raw if p.schema is not None else p.node
    ptr = p.pointer
    node, _ = walker.resolve(schema, ptr)
    fmt = node.get("format") if isinstance(node, dict) else None
    text = p.get("description") if isinstance(p.get("description"), str) else ""
    timed = role == "offset" and bool(sig.words(text) & sig.TIME_WORDS)
    if fmt in ("date", "date-time", "time") or timed:
        return "time"
    types = walker.types(schema, ptr)
    if not types or types & {"integer", "number"}:
        return "number"
    return "text"


def header_cursor(params: tuple[Parameter, ...], signals: list[Signal]) -> str | None:
    """The request header that sends back a next token a response header returns (DLx's
    ``continuation``, "The `dlx-continuation` header is used to send a continuation token",
    beside the response header ``dlx-continuation``): named like a cursor or described as one.
    None without such a response header: a header named like a cursor alone is no walk."""
    if not any(
        s.kind == "next_token" and s.expression.startswith("$response.header.") for s in signals
    ):
        return None
    for p in params:
        if p.location != "header" or prose.reserved(p.get("description")):
            continue
        if sig.fold(p.name) in sig.CURSOR_PARAMS or prose.describes_cursor(p.get("description")):
            return p.name
    return None


def cursor_fed_by_token(
    roles: dict[str, str], signals: list[Signal], params: tuple[Parameter, ...]
) -> None:
    """The cursor parameter the response's next token names (``next_page_token`` feeds
    ``page_token`` or ``next_page_token``) wins over other cursor-like parameters."""
    token = next((s for s in signals if s.kind == "next_token"), None)
    if token is None or "cursor" not in roles:
        return
    key = sig.fold(token.name)
    wanted = {key, key.removeprefix("next")}
    for p in params:
        if p.location == "query" and sig.fold(p.name) in wanted:
            roles["cursor"] = p.name
            return


# -- pagination style ---------------------------------------------------------------------------


def pagination_style(roles: dict[str, str], signals: list[Signal]) -> tuple[str, dict[str, str]]:
    kinds = {s.kind for s in signals}
    request = {k: v for k, v in roles.items() if k == "size"}
    if "link_header" in kinds:
        request.update({k: roles[k] for k in ("page",) if k in roles})
        return "link-header", request
    token_walk = "next_token" in kinds and "cursor" in roles  # a token and where to send it
    if not token_walk and any(
        s.kind == "next_link" and s.expression.startswith("$response.body#") for s in signals
    ):
        # Azure nextLink, OData @odata.nextLink, Spotify next: the URL already carries the
        # position ($skiptoken, $skip, page), so following it beats rebuilding it; an OData
        # total (@odata.count) is only sent on request, so an offset walk could not see its end
        return "next-url", request
    fed = "next_token" in kinds or (
        "has_more" in kinds and sig.fold(roles.get("cursor", "")) in sig.ITEM_ID_CURSORS
    )
    if "cursor" in roles and not (not fed and ("offset" in roles or "page" in roles)):
        # a cursor nothing feeds (no next token; not an item id beside a 'more' flag) loses to
        # a numeric offset or page (Box's marker beside offset+total, Mastodon's max_id
        # beside the search's offset)
        request["cursor"] = roles["cursor"]
        return "cursor", request
    if "page_token" in roles and "next_token" in kinds:  # a text page fed from a next token
        request["cursor"] = roles["page_token"]
        return "cursor", request
    if "offset" in roles:
        request["offset"] = roles["offset"]
        return "offset", request
    if "page" in roles:
        request["page"] = roles["page"]
        return "page", request
    if "page_token" in roles or kinds & {"next_link", "next_token", "has_more", "total_pages"}:
        return "unknown", request
    return "none", request


def bare_next_link_doubt(
    roles: dict[str, str],
    signals: list[Signal],
    params: tuple[Parameter, ...],
    walker: SchemaWalker,
) -> str | None:
    """For a next-url walk: why following the body's next link is a guess, else None.

    The operation also takes a token parameter (``page_token``, ``cursor``) the walk never sends,
    and nothing but the link's type says the value is the next page's URL to follow: the field is
    a bare ``next`` (not ``next_page_uri``, not inside a ``links`` object), its description does
    not say URL or link, and neither does the token parameter's. The value may be the token to
    send back (SendGrid's designs: ``page_token`` "as provided by metadata" beside an undescribed
    ``_metadata.next`` typed ``format: uri``); said either way (SendGrid's stats: "call the passed
    `_metadata.next` URL"; Bitbucket's "Link to the next page"), the link walks unasked.
    """
    token = roles.get("cursor") or roles.get("page_token")
    link = next((s for s in signals if s.kind == "next_link"), None)
    if token is None or link is None or not link.expression.startswith("$response.body#"):
        return None
    inside = pointer_tokens(link.expression.partition("#")[2]) or ()
    if sig.fold(link.name) != sig.AMBIGUOUS_NEXT or (
        len(inside) > 1 and sig.fold(inside[-2]) in _LINK_OBJECTS
    ):
        return None  # the name says it: ``next_page_uri``, ``nextLink``, ``links.next``
    node, _ = walker.node_at(link.pointer)
    described = node.get("description") if isinstance(node, dict) else None
    param = next((p for p in params if p.location == "query" and p.name == token), None)
    said = param.get("description") if param is not None else None
    if prose.says_url(described) or prose.says_url(said):
        return None  # "The URL of the next page"; "call the passed `_metadata.next` URL"
    return (
        f"only the type or an example of the response's {link.expression.partition('#')[2]} "
        f"shows a URL (nothing describes it as one), and the operation also takes the token "
        f"parameter {token}: the draft follows it as the next page's URL (next-url); if it "
        f"carries only the token to send as {token}, the walk is a cursor one (request.cursor "
        f"{token}, response.next {link.expression}): confirm which the API documents"
    )


_LINK_OBJECTS = frozenset({"links", "link"})  # folded: ``_links``, ``Links``
