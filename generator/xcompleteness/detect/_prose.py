"""What a spec's prose says about paging: descriptions read as evidence, never as code.

The list-likeness heuristic reads names and shapes; some APIs say the decisive thing only in
words. These helpers read the words (markdown links and inline code are reduced to their text,
identifiers are not prose) and answer narrow questions:

* ``reserved``: a parameter the API keeps for itself ("Reserved for DocuSign", "Internal
  parameter", "for internal use"): never a paging position the walk would set;
* ``shapes_response``: a parameter whose description says it selects the fields of a partial
  response or switches the response format (Google's ``fields``, ``alt``, ``callback``);
* ``describes_cursor``: a parameter whose description says it is a pagination cursor or page
  token, whatever its name (Square v1's ``batch_token``);
* ``one_object_sentence``: a first sentence that reads one thing ("get next outgoing
  transaction", "a single ...", "... by ID"): an array answered there may be one object;
* ``link_header_sentence``: the sentence saying pagination goes through the HTTP ``Link`` header
  when no response declares one (Mastodon: "Use HTTP `Link` header for pagination");
* ``search_sentence``: the sentence whose prose says "search" (not inside a link target, a path
  or an identifier such as ``SearchCatalogObjects``): a collection that may be a search;
* ``not_a_total``: a count described as counting one page or response ("the number of results
  in this response", "on the page") or as an estimate ("approximate"), not every item;
* ``zero_based_sentence``: a page number that counts from 0 ("zero-based", "starts at 0"): a
  page walk counts from 1 and would skip the first page;
* ``first_sentence_lists``: a summary or description that says the operation returns a list
  ("Gets a list of brands", "Returns a paginated list of commits");
* ``says_url``: a description that says its value is a URL or a link (Spotify's ``next``: "URL
  to the next page of items"; SendGrid's ``page_token``: "call the passed `_metadata.next` URL").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache

__all__ = [
    "describes_cursor",
    "first_sentence_lists",
    "link_header_sentence",
    "not_a_total",
    "one_object_sentence",
    "reserved",
    "says_url",
    "search_sentence",
    "sentences",
    "shapes_response",
    "zero_based_sentence",
]


_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
# A sentence ends at ``.``, ``!`` or ``?`` followed by white space and a capital, a code mark, a
# bracket or an emphasis mark (``(?<=[.!?])\s+(?=[A-Z`\[*_(])``). In plain text white space is
# one space, so the ends are found by ``str.find`` of the mark and its space.
_SENTENCE_MARKS = (". ", "! ", "? ")
_SENTENCE_OPENERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ`[*_(")


_PER_TEXT = 16_384
"""Texts whose answers are kept: a spec repeats its shared parameter descriptions in every
operation (Microsoft Graph's ``$orderby``, ``$select``... on thousands), so each question about
one text is answered once."""


@lru_cache(maxsize=_PER_TEXT)
def _plain(text: str) -> str:
    """Markdown links reduced to their text, inline code marks dropped, whitespace collapsed.
    (Cached: a spec repeats its shared parameter descriptions in every operation.)"""
    if "](" in text:  # a markdown link holds "](" (most descriptions have none)
        text = _LINK.sub(r"\1", text)
    # ``str.split`` cuts at the white space ``\s`` matches: runs collapse, ends drop
    return " ".join(text.replace("`", "").split())


@lru_cache(maxsize=_PER_TEXT)
def _sentences(text: str) -> tuple[str, ...]:
    plain = _plain(text)
    ends = []  # where each sentence but the last ends: after its mark, before the space
    for mark in _SENTENCE_MARKS:
        at = plain.find(mark)
        while at != -1:
            if plain[at + 2 : at + 3] in _SENTENCE_OPENERS:
                ends.append(at + 1)
            at = plain.find(mark, at + 2)
    if not ends:
        return (plain,) if plain else ()
    ends.sort()
    starts = [0] + [end + 1 for end in ends]
    parts = [plain[a:b] for a, b in zip(starts, [*ends, len(plain)], strict=True)]
    return tuple(part.strip() for part in parts if part.strip())


def sentences(text: str) -> Iterator[str]:
    """The sentences of a description, as plain text."""
    yield from _sentences(text)


_RESERVED = re.compile(
    r"^(?:this (?:parameter|field) is )?(?:reserved\b|internal (?:parameter|use)\b"
    r"|for internal use\b|do not use\b|not for (?:public|external) use\b|undocumented\b)",
    re.IGNORECASE,
)


def reserved(description: str | None) -> bool:
    """The description opens by saying the API keeps the parameter for itself."""
    return isinstance(description, str) and _reserved(description)


@lru_cache(maxsize=_PER_TEXT)
def _reserved(description: str) -> bool:
    return any(_RESERVED.match(s) for s in sentences(description))


_CURSOR_WORDS = re.compile(
    r"\b(?:pagination|paging|page|continuation) (?:cursor|token|marker)\b"
    r"|\bcursor\b[^.]{0,60}\bnext (?:set|page|batch)\b"
    r"|\bnext (?:set|page|batch) of results\b[^.]{0,40}\b(?:cursor|token)\b",
    re.IGNORECASE,
)


_QUERY_TEXT = re.compile(
    r"\b(?:search\w*|match\w*|find\w*|texts?|keywords?|terms?|strings?|contain\w*|filter\w*|"
    r"phrases?|words?|names?|full.?text|lookups?|prefix\w*|fuzzy|jql|expressions?)\b",
    re.IGNORECASE,
)


def describes_query_text(description: str | None) -> bool:
    """A query-named parameter (``q``, ``query``, ``search``) takes text to search for: it has no
    description, or its description says search, match, text, keywords, terms, a string, a
    filter, a name... ("The origin site to query" names one site instead)."""
    return not isinstance(description, str) or _describes_query_text(description)


@lru_cache(maxsize=_PER_TEXT)
def _describes_query_text(description: str) -> bool:
    if not description.strip():
        return True
    return bool(_QUERY_TEXT.search(_plain(description)))


_PAGE_SIZE = re.compile(
    r"^(?:the )?(?:max(?:imum)? )?number of (?:results|items|records|entries|rows) "
    r"(?:to (?:return|include|retrieve|fetch)|(?:per|in (?:a|each|the)) (?:page|response)"
    r"|(?:returned|included) (?:per|in (?:a|each|the)) (?:page|response))\b",
    re.IGNORECASE,
)


def describes_page_size(description: str | None) -> bool:
    """The description's first sentence says the parameter is how many results one response
    holds ("Number of results to include in the response", "Maximum number of items per
    page")."""
    if not isinstance(description, str):
        return False
    return bool(_PAGE_SIZE.search(next(sentences(_plain(description)), "")))


def describes_cursor(description: str | None) -> bool:
    """The description says the parameter is a pagination cursor or a page token."""
    return isinstance(description, str) and _describes_cursor(description)


@lru_cache(maxsize=_PER_TEXT)
def _describes_cursor(description: str) -> bool:
    plain = _plain(description)
    if plain.isascii() and not any(w in plain.lower() for w in ("cursor", "token", "marker")):
        return False  # each way :data:`_CURSOR_WORDS` matches names one of the three
    return bool(_CURSOR_WORDS.search(plain))


_SHAPING_WORDS = re.compile(
    r"\bpartial (?:response|resource|representation)\b"
    r"|\b(?:fields|properties|attributes|columns)\s+(?:to|that (?:are|will be|should be))\s+"
    r"(?:be\s+)?(?:includ|return|select)\w*"
    r"|\b(?:fields|properties|attributes) (?:are |to be )?(?:returned|included) in the response\b"
    r"|\bresponse format\b|\bformat (?:of|for) (?:the )?(?:response|output)\b|\bjsonp\b",
    re.IGNORECASE,
)


def shapes_response(description: str | None) -> bool:
    """The description says the parameter selects the fields of the response ("which fields to
    include in a partial response", "properties to return") or its format ("Data format for
    response", "JSONP")."""
    return isinstance(description, str) and _shapes_response(description)


@lru_cache(maxsize=_PER_TEXT)
def _shapes_response(description: str) -> bool:
    return bool(_SHAPING_WORDS.search(_plain(description)))


_URL_WORDS = re.compile(r"\b(?:url|uri|link)\b", re.IGNORECASE)


def says_url(description: str | None) -> bool:
    """The description names a URL, URI or link (read as written: a markdown link's target
    counts, as the body's next-link test always read it)."""
    return isinstance(description, str) and bool(_URL_WORDS.search(description))


_LINK_HEADER = re.compile(r"\blink\b (?:response )?headers?\b|\bheaders?\b[^.]{0,20}\blink\b", re.I)
_PAGING = re.compile(r"\bpaginat|\bnext\b|\bprevious\b|\bpages?\b", re.IGNORECASE)


def link_header_sentence(texts: Iterable[str]) -> str | None:
    """The first sentence saying the pages are linked through the HTTP ``Link`` header."""
    for text in texts:
        found = _link_header_in(text)
        if found is not None:
            return found
    return None


@lru_cache(maxsize=_PER_TEXT)
def _link_header_in(text: str) -> str | None:
    plain = _plain(text)
    if plain.isascii() and "link" not in plain.lower():
        return None  # :data:`_LINK_HEADER` needs the word in every sentence it finds
    for s in sentences(text):
        if _LINK_HEADER.search(s) and _PAGING.search(s):
            return s
    return None


# "search" as a word of prose: not inside a path (``tasks/search``), an identifier
# (``SearchCatalogObjects``, ``search_text``) or a URL.
_SEARCH = re.compile(r"(?<![\w/{.#-])search(?:es|ed|ing)?(?![\w/}.-]\w)", re.IGNORECASE)
_URL = re.compile(r"\S*(?:/|://)\S*")


_SEARCH_PARAM = re.compile(
    r"^(?:the |a |free[- ]text )?search\b|\bsearch (?:query|text|terms?|string|criteria|phrase"
    r"|keywords?)\b|\b(?:for|when) searching\b|\bto search for\b",
    re.IGNORECASE,
)


# A parameter that takes text to look for, in other words than "search": "Text to find". (A
# mention of "full text" alone is not enough: OpenDataSoft's dataset list takes "An array of full
# text search." as one filter among many, a collection.)
_FIND_TEXT = re.compile(
    r"^(?:the |a |any )?(?:free[- ]?|full[- ]?)?text (?:to|that you want to) "
    r"(?:find|look for|look up|match)\b",
    re.IGNORECASE,
)


def search_sentence(texts: Iterable[str], *, parameter: bool = False) -> str | None:
    """The opening sentence of a text, when its prose says "search" (a later mention is too
    often an aside: "if searching for unassigned tasks..."). A ``parameter``'s sentence must say
    the parameter is search text ("Search query", "Query string for searching drives") or text
    to find ("Text to find"), not merely use the verb ("ID of the shared drive to search")."""
    for text in texts:
        first = _URL.sub(" ", next(sentences(text), ""))
        if parameter and _FIND_TEXT.search(first):
            return first
        if _SEARCH.search(first) and (not parameter or _SEARCH_PARAM.search(first)):
            return first
    return None


_LISTS = re.compile(
    r"^(?:(?:gets?|returns?|retrieves?|lists?|fetch(?:es)?|shows?) )?"
    r"(?:(?:an? |the )?(?:paginated |paged )?list(?:ing)? of\b|all (?:the )?(?:\w+ )?\w+s\b"
    r"|(?:an? |the )?list (?:with|containing) all\b)"  # Billbee: "a list with all defined ..."
    r"|^lists? (?:all |the )?\w+",
    re.IGNORECASE,
)


def first_sentence_lists(texts: Iterable[str]) -> bool:
    """A summary or description whose first sentence says the operation returns a list."""
    for text in texts:
        first = next(sentences(text), "")
        if first and _LISTS.search(first):
            return True
    return False


_ONE_PAGE = re.compile(
    r"\b(?:in|on|of) (?:this|the|the current|a single|each) "
    r"(?:page|response|batch|chunk|result set)\b"
    r"|\b(?:items|results|records|entries|objects) (?:returned|included) (?:in|on)\b"
    r"|\bnumber of (?:items|results|records|entries) returned\b",
    re.IGNORECASE,
)
_ESTIMATE = re.compile(r"\b(?:approximate(?:ly)?|estimated?|estimation|roughly|at least)\b", re.I)
_ALL = re.compile(r"\b(?:total|all|across|every|whole|entire|matching)\b", re.IGNORECASE)
_BOUNDED = re.compile(
    r"\b(?:accurate|exact|precise)(?:ly)? (?:only )?(?:up to|to|below|until|for up to)\b"
    r"|\bcapped at\b|\bmaxes out at\b",
    re.IGNORECASE,
)


def bounded_count(description: str | None) -> str | None:
    """The sentence saying a count is exact only up to a bound (Stripe search's total_count,
    "only accurate up to 10,000"), else None: above the bound it is no exact total."""
    if not isinstance(description, str):
        return None
    return next((s for s in sentences(description) if _BOUNDED.search(s)), None)


def says_total(description: str | None) -> bool:
    """The count is described as counting every item ("the total number", "all matching")."""
    return (
        isinstance(description, str)
        and bool(_ALL.search(_plain(description)))
        and not (not_a_total(description))
    )


def not_a_total(description: str | None) -> bool:
    """The count counts one page (and never says "total"/"all"), or only estimates."""
    if not isinstance(description, str):
        return False
    text = _plain(description)
    if _ESTIMATE.search(text):
        return True
    return bool(_ONE_PAGE.search(text)) and not _ALL.search(text)


_ZERO_BASED = re.compile(
    r"\b(?:zero|0)[- ](?:based|indexed)\b|\b(?:starts?|starting|begins?|counts?) (?:at|from|with) "
    r"(?:0|zero)\b|\bfirst page is (?:0|zero)\b",
    re.IGNORECASE,
)


_ONE_BASED = re.compile(
    r"\b(?:one|1)[- ](?:based|indexed)\b|\b(?:starts?|starting|begins?|counts?) (?:at|from|with) "
    r"(?:1|one)\b|\bfirst page is (?:1|one)\b",
    re.IGNORECASE,
)


def zero_based_sentence(description: str | None) -> str | None:
    """The sentence saying the numbering starts at 0, if any."""
    if not isinstance(description, str):
        return None
    return next((s for s in sentences(description) if _ZERO_BASED.search(s)), None)


def one_based_sentence(description: str | None) -> str | None:
    """The sentence saying the numbering starts at 1, if any."""
    if not isinstance(description, str):
        return None
    return next((s for s in sentences(description) if _ONE_BASED.search(s)), None)


_ONE_OBJECT = re.compile(
    r"(?:\b(?:gets?|fetch(?:es)?|returns?|retrieves?|reads?)\s+(?:the\s+)?|\bthe\s+)next\b"
    r"(?!\s+(?:pages?|set|batch|chunk|results?|items?|records?|entries)\b)"
    r"|\ba single\b(?!\s+(?:page|request|response|call|batch)\b)"
    r"|\bby (?:its |their )?ids?\b",
    re.IGNORECASE,
)


def one_object_sentence(description: str | None) -> str | None:
    """The first sentence, when it reads one thing: "get next outgoing transaction", "a single
    ...", "... by ID" (a read by identifier or of "the next" item, not a listing)."""
    if not isinstance(description, str):
        return None
    first = next(sentences(description), "")
    return first if first and _ONE_OBJECT.search(first) else None
