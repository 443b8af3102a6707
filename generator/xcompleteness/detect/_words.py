"""What the list-likeness heuristic (``listlike``) recognises: paging parameters, signals, wrappers.

Kept as plain data so the heuristics are reviewable in one place and tests can name what they
expect. Names are compared case-insensitively with ``-``, ``_``, ``.``, ``@`` and ``$`` removed,
so ``page_token``, ``pageToken`` and ``PageToken`` are one name (``@odata.nextLink`` is
``odatanextlink``).
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = [
    "AGGREGATE_FIELDS",
    "AGGREGATE_PREFIXES",
    "AMBIGUOUS_NEXT",
    "BACKWARD_CURSORS",
    "CONTAINERS",
    "CURSOR_PARAMS",
    "ITEM_ID_CURSORS",
    "ITEM_NAMES",
    "LINK_FIELDS",
    "META_NAMES",
    "NOT_PLURAL",
    "OFFSET_PARAMS",
    "PAGE_PARAMS",
    "CREDENTIAL_PARAMS",
    "PAGING_PARAMS",
    "QUERY_PARAMS",
    "REPORT_WORDS",
    "SEARCH_WORDS",
    "SHAPING_PARAMS",
    "SIGNAL_FIELDS",
    "HEADER_TOKENS",
    "SIGNAL_HEADERS",
    "SINGLE_OBJECT_NOUNS",
    "SINGLE_OBJECT_WORDS",
    "SIZE_ORDER",
    "SIZE_PARAMS",
    "STREAM_ACTIONS",
    "STREAM_MEDIA",
    "TIME_WORDS",
    "WINDOW_ENDS",
    "WINDOW_STARTS",
    "fold",
    "is_meta_array",
    "name_parts",
    "role_keys",
    "is_next_link_name",
    "is_search",
    "plural_word",
    "word_list",
    "words",
]


# Brackets fold away like any other punctuation; what the parts of a bracketed or dotted name
# mean (which part names the role) is :func:`role_keys`' alone
_FOLD = re.compile(r"[-_.@$\s\[\]]")
_MEMO = 65_536
"""Names repeat across a large document's operations and schemas: fold and split each once."""


# ... the same for an ASCII name, in one table lookup per character (``\s`` of ASCII is these six
# and the four information separators)
_FOLD_ASCII = str.maketrans("", "", "-_.@$[] \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f")


@lru_cache(maxsize=_MEMO)
def fold(name: str) -> str:
    """The comparison key of a parameter, property or header name."""
    if name.isascii():
        return name.translate(_FOLD_ASCII).lower()
    return _FOLD.sub("", name).lower()


_PARTS = re.compile(r"^([^\[\].]+)((?:\[[^\[\]]*\])+|(?:\.[^\[\].]+)+)$")
_PART = re.compile(r"\[([^\[\]]*)\]|\.([^\[\].]+)")


@lru_cache(maxsize=_MEMO)
def name_parts(name: str) -> tuple[str, ...]:
    """The parts of a bracketed or dotted name: ``filter[phone][eq]`` -> (filter, phone, eq),
    ``queryOptions.pageSize`` -> (queryOptions, pageSize); any other name -> (name,)."""
    match = _PARTS.match(name)
    if match is None:
        return (name,)
    return (match.group(1), *(a or b for a, b in _PART.findall(match.group(2))))


@lru_cache(maxsize=_MEMO)
def role_keys(name: str) -> tuple[str, ...]:
    """The folded keys a parameter's paging role is looked up by, first the whole name's
    (``page[number]`` -> ``pagenumber``; brackets and dots fold away). A bracketed or dotted
    name also gives its last part when the family is JSON:API's ``page`` (``page[offset]`` ->
    ``offset``, ``page[after]`` -> ``after``) or when the last part is itself a page word of
    several words (Magento's ``searchCriteria[currentPage]`` -> ``currentpage``,
    ``searchCriteria[pageSize]`` and ``queryOptions.pageSize`` -> ``pagesize``). A part under
    another family that names no page (``filter[from]``, ``created[gte]``) is a filter, never a
    position. The one place that reads what the parts of a name mean: detect's paging roles,
    the size words and the tools' paging words all ask it."""
    parts = name_parts(name)
    if len(parts) == 1:
        return (fold(name),)
    last = word_list(parts[-1])
    keys = [fold(name)]
    if (fold(parts[0]) == "page" and len(parts) == 2) or (len(last) > 1 and "page" in last):
        keys.append(fold(parts[-1]))
    return tuple(dict.fromkeys(keys))


def _keys(*names: str) -> frozenset[str]:
    return frozenset(fold(n) for n in names)


# -- request parameters (query or header) -> the role they play in pagination -----------------

CURSOR_PARAMS = _keys(
    "cursor",
    "after",
    "page_token",
    "next_token",
    "starting_after",
    "ending_before",
    "continue",
    "continuation",
    "continuation_token",
    "continuationtoken",
    "marker",
    "$skiptoken",
    "skiptoken",
    "next_cursor",
    "from_token",
    "since_id",
    "scroll_id",
    "search_after",
    "pagination_token",
    "next",
    "before",
    "start_cursor",
    "page_cursor",
    "offset_token",
    "x-ms-continuation",
    "stream_position",
    "next_page_token",
    "max_id",
    "min_id",
)
# Cursors that take the id of the last item seen (``starting_after=cus_123``): a ``has_more`` flag
# with one of these drafts ``response.next: {last-item: /id}``; any other cursor needs a next token.
ITEM_ID_CURSORS = _keys(
    "starting_after", "ending_before", "after", "since_id", "after_id", "max_id", "min_id"
)
# ``since_id``/``min_id`` ask for newer items than one seen: backward through a newest-first
# feed, whose next page is ``max_id`` (older than the last item).
BACKWARD_CURSORS = _keys(
    "before",
    "ending_before",
    "prev",
    "previous",
    "prev_cursor",
    "since_id",
    "min_id",
)
# Query parameters carrying the search text: a listing that requires one is a search.
QUERY_PARAMS = _keys("q", "query", "search", "term", "keyword", "keywords", "search_term")
# ``startAt`` and its kin are offsets (Jira's ``startAt``/``maxResults``), whatever their case.
OFFSET_PARAMS = _keys(
    "offset",
    "skip",
    "$skip",
    "start",
    "start_index",
    "startIndex",
    "from",
    "start_at",
    "start_position",
    "first_result",
)
PAGE_PARAMS = _keys(
    "page", "page_number", "pageNumber", "page_no", "pageNo", "page_num", "pg", "current_page"
)
SIZE_PARAMS = _keys(
    "per_page",
    "pagelen",
    "page_size",
    "limit",
    "size",
    "max_results",
    "$top",
    "top",
    "count",
    "max_items",
    "max_keys",
    "maxkeys",
    "max_records",
    "rows",
    "first",
    "take",
    "results_per_page",
    "num_results",
    "max",
    "batch_size",
    "items_per_page",
)
PAGING_PARAMS = (
    CURSOR_PARAMS | OFFSET_PARAMS | PAGE_PARAMS | SIZE_PARAMS | _keys("start_at", "page_size_max")
)
"""Every parameter name that moves or sizes a page: what the walk of a listing owns (the
generated tools never offer them to a model)."""
SHAPING_PARAMS = _keys(
    # field selectors: Google's fields, OData $select, PostgREST select, WordPress _fields,
    # Google field masks, SCIM attributes / excludedAttributes
    "fields",
    "select",
    "field_mask",
    "read_mask",
    "exclude_fields",
    "omit_fields",
    "only_fields",
    "attributes",
    "excluded_attributes",
    # response-format switches: Google alt, JSONP callback, OData $format
    "alt",
    "callback",
    "jsonp",
    "format",
    "output_format",
    "response_format",
)
"""Parameter names that shape a listing's answer (which fields, which format): a value from the
model could drop the walk's own signals (``fields=items(id)`` drops ``nextPageToken`` and the walk
would end after page 1 saying complete), so the generated tools never offer them on a listing."""
CREDENTIAL_PARAMS = _keys(
    "key",
    "api_key",
    "x_api_key",
    "api_token",
    "access_key",
    "access_token",
    "oauth_token",
    "auth_token",
    "authorization",
    "client_secret",
    "api_secret",
    "private_token",
    "session_token",
)
"""Query parameter names that carry a credential (Google's ``key``, ``access_token``,
``oauth_token``): never a tool argument; the MCP server's host supplies them (``--query``)."""
# Preference when several size-like parameters exist (first wins).
SIZE_ORDER = [fold(n) for n in ("per_page", "page_size", "limit", "max_results", "size", "$top")]

# -- response body fields -> signal kind --------------------------------------------------------

SIGNAL_FIELDS: dict[str, str] = {}


def _signal(kind: str, *names: str) -> None:
    for name in names:
        SIGNAL_FIELDS[fold(name)] = kind


_signal(
    "has_more",
    "has_more",
    "has_next",
    "has_next_page",
    "more",
    "more_results",
    "has_more_items",
    "has_more_results",
    "more_available",
)
_signal(
    "incomplete_results",
    "incomplete_results",
    "incomplete",
    "is_partial",
    "partial",
    "partial_results",
)
_signal("truncated", "truncated", "is_truncated", "results_truncated")
_signal("timed_out", "timed_out", "timeout", "is_timed_out")
_signal("shards", "_shards")
_signal(
    "next_link",
    "next_link",
    "next_url",
    "next_page_url",
    "odata.nextLink",
    "@odata.nextLink",
    "next_href",
)
_signal(
    "next_token",
    "next_cursor",
    "next_page_token",
    "continue",
    "continuation_token",
    "next_token",
    "next_marker",
    "end_cursor",
    "cursor",
    "next_page_cursor",
    "scroll_id",
    "next_key",
    "last_evaluated_key",
    "after_cursor",
    "page_token",
    "next_page",
    "next_continuation_token",
    "next_page_key",
)
_signal(
    "total",
    "total_count",
    "total",
    "total_results",
    "total_items",
    "total_size",
    "total_entries",
    "total_records",
    "odata.count",
    "@odata.count",
    "count",
    "hits_total",
    "num_results",
    "found",
    # the reversed order (Adyen Management's ``itemsTotal``; DataTables' ``recordsTotal``) and
    # rows (Billbee's ``TotalRows``)
    "items_total",
    "results_total",
    "records_total",
    "total_rows",
)
_signal(
    "total_pages", "total_pages", "page_count", "pages", "num_pages", "last_page", "pages_total"
)
_signal("remaining", "remaining_item_count", "remaining", "remaining_count")

# ``next`` alone is ambiguous: a URL (HAL/JSON:API ``links.next``) or a token (Elastic, Stripe).
AMBIGUOUS_NEXT = fold("next")

# Containers that may hold the signals or the items one level down.
CONTAINERS = _keys(
    "meta",
    "metadata",
    "_metadata",
    "pagination",
    "paging",
    "page_info",
    "pageInfo",
    "links",
    "_links",
    "page",
    "hits",
    "data",
    "result",
    "results",
    "response",
    "_embedded",
    "embedded",
    "list",
    "search",
    "search_metadata",
    "cursor",
    "pager",
    "response_metadata",
)

# Property names that hold the items of a wrapper object.
ITEM_NAMES = _keys(
    "items",
    "data",
    "results",
    "result",
    "value",
    "values",
    "entries",
    "records",
    "nodes",
    "edges",
    "list",
    "elements",
    "content",
    "hits",
    "rows",
    "objects",
    "resources",
    "members",
    "collection",
    "documents",
    "matches",
    "list_items",
    "_embedded",
    "embedded",
    "children",
)

# Properties that a pure wrapper may carry beside its items without looking like a resource.
META_NAMES = _keys(
    "object",
    "url",
    "kind",
    "api_version",
    "apiVersion",
    "type",
    "status",
    "took",
    "links",
    "_links",
    "meta",
    "metadata",
    "_metadata",
    "pagination",
    "paging",
    "page_info",
    "page",
    "per_page",
    "page_size",
    "limit",
    "offset",
    "size",
    "count",
    "message",
    "request_id",
    "success",
    "ok",
    "errors",
    "error",
    "warnings",
    "self",
    "first",
    "last",
    "prev",
    "previous",
    "sort",
    "order",
    "query",
    "filters",
    "facets",
    "aggregations",
    "odata.context",
    "@odata.context",
    "etag",
    "version",
    "resource_version",
    "current_page",
    "from",
    "to",
    "start",
    "end",
    "took_ms",
    "code",
    "max_score",
    "id_token",
    "next",
    "href",
    "first_id",
    "last_id",
    "start_index",
    "items_per_page",
    "results_per_page",
    "has_previous",
    "search_metadata",
    "request",
    "response_metadata",
    "scroll_id",
) | frozenset(SIGNAL_FIELDS)


# -- response headers -> signal kind ---------------------------------------------------------

# The last words of a response header that carries the next page's token behind a vendor
# prefix (``dlx-continuation``, ``X-Acme-Next-Cursor``)
HEADER_TOKENS = _keys(
    "continuation", "continuation_token", "next_token", "next_cursor", "next_page_token"
)
SIGNAL_HEADERS: dict[str, str] = {
    fold("Link"): "link_header",
    fold("X-Total-Count"): "total",
    fold("X-Total"): "total",
    fold("Total-Count"): "total",
    fold("X-Total-Pages"): "total_pages",
    fold("X-Next-Page"): "next_token",
    fold("X-Next-Cursor"): "next_token",
    fold("X-Continuation-Token"): "next_token",
    fold("x-ms-continuation"): "next_token",
    fold("X-Has-More"): "has_more",
    fold("X-Result-Count"): "total",
    fold("X-Pagination-Total"): "total",
    fold("X-Pagination-Next"): "next_token",
}

SEARCH_WORDS = frozenset(
    {"search", "searches", "query", "queries", "find", "lookup", "suggest", "autocomplete"}
)
AGGREGATE_PREFIXES = (
    "aggregat",
    "statistic",
    "stats",
    "histogram",
    "facet",
    "rollup",
)
# Words in a parameter's description that make ``start``/``from`` a time window, not a position.
TIME_WORDS = frozenset(
    {"timestamp", "time", "date", "datetime", "epoch", "unix", "timezone", "utc", "gmt"}
)
# A window's two bounds: ``start``/``from`` beside one of WINDOW_ENDS is a time filter.
WINDOW_STARTS = _keys("start", "from")
WINDOW_ENDS = _keys("end", "to", "until", "duration")
# Media types (or a ``stream=`` media-type parameter) of a response that never ends: Kubernetes
# ``watch``, server-sent events, newline-delimited JSON. Completeness does not apply to a stream.
STREAM_MEDIA = frozenset(
    {
        "text/event-stream",
        "application/x-ndjson",
        "application/ndjson",
        "application/jsonl",
        "application/x-jsonlines",
        "application/jsonlines",
        "application/stream+json",
        "application/json-seq",
    }
)
STREAM_ACTIONS = frozenset({"watch", "watchlist"})  # Kubernetes ``x-kubernetes-action``

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_NON_WORD = re.compile(r"[^A-Za-z0-9]+")


def words(text: str) -> set[str]:
    """Lower-case words of a path or operationId (``listRepos-for_org``: list repos for org)."""
    return set(word_list(text))


def word_list(text: str) -> list[str]:
    """The words of ``words`` in order (``GetChargesSearch``: get, charges, search)."""
    return list(_word_tuple(text))


@lru_cache(maxsize=_MEMO)
def _word_tuple(text: str) -> tuple[str, ...]:
    # one pass: the runs of ASCII letters and digits, cut where a lower-case letter or digit
    # meets an upper-case one (a property test keeps it equal to splitting on _NON_WORD, then
    # on _CAMEL, dropping empty parts)
    return tuple(map(str.lower, _WORD.findall(text)))


# A word: upper-case letters then lower-case letters and digits (no upper-case letter after
# them: that is a camel cut), or lower-case letters and digits alone. Searched by its opening
# class, not tried at every character as a look-behind is.
_WORD = re.compile(r"[A-Z]+[a-z0-9]*|[a-z0-9]+")


def has_word(text: str, word: str) -> bool:
    """``word in words(text)`` for a lower-case ASCII ``word``, told without splitting a text
    that does not hold it: each of the words is a run of ASCII letters and digits of the text,
    lower-cased letter by letter, so it is also a run of ``text.lower()`` (Microsoft Graph's
    11,422 operationIds are each split only when they could name a listing or a search)."""
    return word in text.lower() and word in _word_tuple(text)


_SEARCH_STEMS = ("search", "quer", "find", "lookup", "suggest", "autocomplete")
"""Text every member of :data:`SEARCH_WORDS` holds (a test keeps them covering it)."""


@lru_cache(maxsize=_MEMO)
def _search_segment(segment: str) -> bool:
    """A literal path segment starting with a search word (Microsoft Graph's 11,422 paths are
    made of a few thousand segments)."""
    if "{" in segment:
        return False
    seg = _word_tuple(segment)
    return bool(seg) and seg[0] in SEARCH_WORDS


def is_search(path: str, operation_id: str | None) -> bool:
    """Whether a path or operationId names a search, not just a noun containing a search word.

    A path segment must *start* with a search word (``/search/repositories``, ``/_search``,
    ``searchUsers``), and an operationId must start or end with one, after an HTTP-verb prefix
    (``search/repos``, ``GetChargesSearch``), or end in one followed by ``results``
    (``GetBookRemoteSearchResults``): ``/v1/sigma/scheduled_query_runs`` lists runs.
    """
    if any(_search_segment(segment) for segment in path.split("/")):
        return True
    if not operation_id or not any(stem in operation_id.lower() for stem in _SEARCH_STEMS):
        return False  # no search word in it (what has a word has it as text: has_word)
    op = word_list(operation_id)
    if op and op[0] in ("get", "post", "put", "list", "do"):
        op = op[1:]
    if op[-2:-1] and op[-1] in ("results", "result") and op[-2] in SEARCH_WORDS:
        op = op[:-1]  # ``GetBookRemoteSearchResults``: the results of a search
    return bool(op) and (op[0] in SEARCH_WORDS or op[-1] in SEARCH_WORDS)


# A response field named ``next...`` and ending in one of these is a next page's URL
# (``next_page_uri``, ``nextUri``, ``next_page_link``), never a token.
_LINK_SUFFIXES = ("url", "uri", "link", "href")


def is_next_link_name(key: str) -> bool:
    """Whether a folded field name names a next page's URL (``nextpageuri``)."""
    return key.startswith("next") and key.endswith(_LINK_SUFFIXES) and key != "next"


def is_meta_array(key: str) -> bool:
    """An array about the response (``errorMessages``, ``warningMessages``), never its items."""
    return "error" in key or "warning" in key


# The fields of a hypermedia link object (``{href, rel}``, Atom's and HAL's link attributes): an
# array of such objects points at other resources, it holds no results of its own.
LINK_FIELDS = _keys(
    "href", "rel", "method", "verb", "type", "title", "templated", "name", "hreflang", "media",
    "profile", "deprecation",
)  # fmt: skip


# Words that name an operation on one object: it reads, checks or transforms one thing, so an
# array in its answer (a license's applications, parsed queries) is not a listing's items.
SINGLE_OBJECT_WORDS = frozenset(
    {
        "info",
        "identity",
        "validate",
        "validation",
        "parse",
        "sanitise",
        "sanitize",
        "verify",
        "license",
        "licence",
        "whoami",
        "me",
        "myself",
        # round 3: checks named by their verb (InfluxDB's ``query/analyze`` answering an errors
        # array, PeerTube's ``videos-exist``)
        "analyze",
        "analyse",
        "exist",
        "exists",
    }
)
# Words ending in s that name one thing or a computed summary, never a plural resource.
NOT_PLURAL = frozenset(
    {"status", "news", "stats", "statistics", "analytics", "metrics", "details", "settings",
     "preferences", "access", "address", "alias", "bonus", "canvas", "census", "corpus",
     "campus", "process", "progress", "success", "class", "business", "series", "species"}
)  # fmt: skip


def plural_word(word: str) -> bool:
    """A lower-case word that reads as a plural noun (``lists``, ``orders``; not ``status``,
    ``settings``, ``address``)."""
    if len(word) < 4 or not word.endswith("s") or word.endswith(("ss", "us", "is", "'s")):
        return False
    return word not in NOT_PLURAL and word not in SINGLE_OBJECT_WORDS


# Nouns naming one configuration object (DRACOON's ``requestAuthConfig`` answering
# ``{authMethods: [...]}``); a bare array answered there is drafted as a list, asked whether it
# lists (settings answered as one entry per kind of thing they configure are a fixed set).
SINGLE_OBJECT_NOUNS = frozenset({"config", "configuration", "settings"})
# A path or operation naming a report: one computed document when it takes no page position.
REPORT_WORDS = frozenset({"report", "reports", "reporting"})

AGGREGATE_FIELDS = _keys("aggregations", "aggs", "buckets", "facets", "histogram")
