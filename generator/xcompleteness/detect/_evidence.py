"""What a spec's own text says beyond a schema's shape: examples, descriptions, ``required``.

The list-likeness heuristic reads shapes; these helpers read the evidence that settles (or
unsettles) a drafted value, so a draft is right or carries a TODO:

* ``example_values``: the response examples of a media object (``example``, ``examples.*.value``,
  an example given as JSON text), to check that an items location really holds an array;
* ``item_id``: the item's identifier from a ranked list of id-like names, a field whose schema or
  description says "deprecated" demoted to the end, with the equally ranked alternatives;
* ``cursor_end``: how the last page shows a next cursor -- absent/null, or the empty string
  (a ``required``, non-nullable cursor, an example ``""``, a description saying "empty");
* ``documented_caps``: sentences of parameter and operation descriptions that state a cap on
  how far a listing goes ("offset above 10000 returns 400", "up to the thousandth user").
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from xcompleteness.detect import _words as sig
from xcompleteness.detect._schema_walk import Located, SchemaWalker
from xcompleteness.document import pointer_tokens

__all__ = [
    "cursor_end",
    "documented_caps",
    "example_contradicts_array",
    "example_shows_array",
    "example_values",
    "item_id",
    "live_fields",
    "value_at",
]


_MISSING = object()


def example_values(media: Any) -> list[Any]:
    """Every example body a media (or response) object shows; JSON text examples parsed."""
    if not isinstance(media, dict):
        return []
    raw: list[Any] = []
    if "example" in media:
        raw.append(media["example"])
    examples = media.get("examples")
    if isinstance(examples, dict):
        for ex in examples.values():
            if isinstance(ex, dict) and "value" in ex:
                raw.append(ex["value"])
    out = []
    for value in raw:
        if isinstance(value, str) and value.lstrip()[:1] in ("{", "["):
            try:
                value = json.loads(value)
            except ValueError:
                continue
        out.append(value)
    return out


def value_at(value: Any, pointer: str) -> Any:
    """The value at a relative JSON pointer (``/a/b``), or ``_MISSING``."""
    for name in pointer_tokens(pointer) or ():
        if isinstance(value, dict) and name in value:
            value = value[name]
        else:
            return _MISSING
    return value


def example_contradicts_array(examples: list[Any], pointer: str) -> bool:
    """An example shows an object (or a scalar) where the items array should be."""
    for ex in examples:
        found = value_at(ex, pointer)
        if found is not _MISSING and found is not None and not isinstance(found, list):
            return True
    return False


def example_shows_array(examples: list[Any], pointer: str) -> bool:
    return any(isinstance(value_at(ex, pointer), list) for ex in examples)


# -- identifiers --------------------------------------------------------------------------------

# Ranked: the plain ``id`` first, then short identifiers that name the object itself (Twilio's
# ``sid``, Asana's ``gid``), then ``<resource>_id`` names, then the weaker keys.
_STRONG_IDS = [sig.fold(n) for n in ("id",)]
_SHORT_IDS = [sig.fold(n) for n in ("gid", "sid", "uuid", "uid", "guid")]
_WEAK_IDS = [sig.fold(n) for n in ("key", "slug", "identifier")]
_EXACT_IDS = frozenset(_STRONG_IDS + _SHORT_IDS)
_NAMED_IDS = frozenset(_SHORT_IDS + _WEAK_IDS)
_DEPRECATED = re.compile(r"\bdeprecated\b|no longer (?:available|supported|used)", re.IGNORECASE)


def _deprecated(node: Any, ptr: str, walker: SchemaWalker) -> bool:
    node, _ = walker.resolve(node, ptr)
    if not isinstance(node, dict):
        return False
    text = node.get("description")
    return node.get("deprecated") is True or (isinstance(text, str) and _says_deprecated(text))


def _says_deprecated(text: str) -> bool:
    """:data:`_DEPRECATED` found in ``text``; an ASCII text that holds neither phrase in lower
    case is told without the search (most descriptions: a property's each time it is read)."""
    if text.isascii():
        low = text.lower()
        if "deprecated" not in low and "no longer" not in low:
            return False
    return bool(_DEPRECATED.search(text))


def _singular(word: str) -> str:
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("ses", "xes")):
        return word[:-2]
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def live_fields(props: dict[str, Located], walker: SchemaWalker) -> dict[str, str]:
    """Each property name that is not deprecated with its folded key, in order."""
    return {
        n: sig.fold(n) for n in props if isinstance(n, str) and not _deprecated(*props[n], walker)
    }


def item_id(
    props: dict[str, Located],
    walker: SchemaWalker,
    resource_words: list[str],
    live: dict[str, str] | None = None,
) -> tuple[str | None, tuple[str, ...]]:
    """(the chosen id field, other fields ranked as high) for an item's properties.

    ``resource_words`` are the words naming the items (the array's property name, the last path
    segment): ``PaymentID`` in a list of ``Payments`` is a ``<resource>ID``. A ``*Id`` name that
    names no resource is a candidate only when it is the item's single one (``accountId``).
    ``live``: :func:`live_fields` of ``props`` when already known (read, never changed).
    """
    # each live name with its folded key, in order (read once: an entity has a hundred fields)
    live = live if live is not None else live_fields(props, walker)
    resources = {sig.fold(_singular(w)) for w in resource_words if w}
    suffixed = [n for n, key in live.items() if key.endswith("id") and key not in _EXACT_IDS]
    own = [n for n in suffixed if live[n][:-2] in resources]
    # ``<qualifier><Resource>Id``: AppVeyor's ``deploymentEnvironmentId`` on the items of
    # ``/environments``, ``userInvitationId`` on ``/users/invitations`` (a ``*Id`` naming the
    # items' own resource, however qualified, is theirs; a reference names another resource)
    qualified = [n for n in suffixed if n not in own and _names_resource(n, resources)]
    named: dict[str, list[str]] = {}  # folded short or weak id -> the live names folding to it
    for n, key in live.items():
        if key in _NAMED_IDS:
            named.setdefault(key, []).append(n)
    tiers: list[list[str]] = [[n for n, key in live.items() if key in _STRONG_IDS]]
    tiers += [named.get(key, []) for key in _SHORT_IDS]
    tiers.append(own)
    tiers.append(qualified)
    # a lone ``*Id`` names the item only when its description says it is unique (``accountId``
    # "uniquely identifies the user"); otherwise it is a reference (``project_id``)
    lone = suffixed if len(suffixed) == 1 and _says_unique(*props[suffixed[0]], walker) else []
    tiers.append(lone)
    tiers += [named.get(key, []) for key in _WEAK_IDS]
    ranked: list[str] = []
    for tier in tiers:
        ranked.extend(n for n in tier if n not in ranked)
    if not ranked:
        return None, ()
    chosen = ranked[0]
    same = next(t for t in tiers if chosen in t)
    # Another field that names itself an identifier as strongly makes the choice a question:
    # the same rank, an exact id name of any rank, or a description saying it is unique.
    # (beside a plain ``id``/``uuid``/``gid``..., only another exact id name or a field naming
    # the items' own resource asks: ``<Resource>Id``, or ``<Api><Resource>Id``, qualified by the
    # API's own name and described as an identifier. Billbee's orders carry ``Id`` and
    # ``BillBeeOrderId``, "The Order.Id from the Billbee database": the API's own key for the
    # order beside a plain one, so the choice is a question, whatever the plain one's prose says;
    # other qualifiers name references (``parentSnapshotId``, ``invited_by_account_id``,
    # ``issue_field_id``), and "The number printed on the invoice" is a number, not a key)
    plain = live[chosen] in _EXACT_IDS
    api = walker.fact("api_names", api_names)
    claimed = [n for n in qualified if plain and _qualifier(n) in api]
    others = [
        n
        for n, key in live.items()
        if n != chosen
        and (
            n in same
            or key in _EXACT_IDS
            or (
                _claims_own(n, own, claimed, props, walker)
                if plain
                else _says_unique(*props[n], walker)
            )
        )
    ]
    if live[chosen] in _WEAK_IDS:  # a weak key beside ``*Id`` fields is a question
        others += [n for n in suffixed if n not in others]
    return chosen, tuple(others)


def _names_resource(name: str, resources: set[str]) -> bool:
    """The words of an ``*Id`` name end in one of the items' resource words before ``id``."""
    words = sig.word_list(name)
    return len(words) > 2 and words[-1] == "id" and sig.fold(_singular(words[-2])) in resources


_NOT_A_NAME = frozenset(
    {"api", "apis", "rest", "the", "service", "services", "www", "app", "com", "io", "net",
     "org", "v1", "v2", "v3", "http", "https", "public", "open", "server"}
)  # fmt: skip


def api_names(document: Any) -> frozenset[str]:
    """The folded names an API calls itself by: the words of ``info.title`` and the labels of
    its servers' hosts (``Billbee API`` at ``app.billbee.io``: billbee), generic words aside."""
    texts: list[str] = []
    info = document.get("info") if isinstance(document, dict) else None
    if isinstance(info, dict) and isinstance(info.get("title"), str):
        texts.append(info["title"])
    servers = document.get("servers") if isinstance(document, dict) else None
    for server in servers if isinstance(servers, list) else []:
        url = server.get("url") if isinstance(server, dict) else None
        if isinstance(url, str):
            texts.append(url.split("//", 1)[-1].split("/", 1)[0].replace(".", " "))
    if isinstance(document, dict) and isinstance(document.get("host"), str):
        texts.append(document["host"].replace(".", " "))
    words = {w for t in texts for w in sig.word_list(t)}
    return frozenset(words - _NOT_A_NAME)


def _qualifier(name: str) -> str:
    """``BillBeeOrderId`` -> ``billbee``: the words before ``<Resource>Id``, folded."""
    return "".join(sig.word_list(name)[:-2])


def _claims_own(
    name: str, own: list[str], qualified: list[str], props: dict[str, Located], walker: SchemaWalker
) -> bool:
    """``name`` names the items' own resource: ``<Resource>Id``, or ``<qualifier><Resource>Id``
    described as an identifier."""
    return name in own or (name in qualified and _says_identifier(*props[name], walker))


_IDENTIFIER = re.compile(r"\b(?:id|identifier|key)\b", re.IGNORECASE)


def _says_identifier(node: Any, ptr: str, walker: SchemaWalker) -> bool:
    node, _ = walker.resolve(node, ptr)
    text = node.get("description") if isinstance(node, dict) else None
    return isinstance(text, str) and bool(_IDENTIFIER.search(text))


_UNIQUE = re.compile(r"\bunique(?:ly)?\b", re.IGNORECASE)


def _says_unique(node: Any, ptr: str, walker: SchemaWalker) -> bool:
    node, _ = walker.resolve(node, ptr)
    text = node.get("description") if isinstance(node, dict) else None
    return isinstance(text, str) and bool(_UNIQUE.search(text))


# -- cursor ends --------------------------------------------------------------------------------

_EMPTY_WORDS = re.compile(r"empty string|\"\"|''|blank|empty", re.IGNORECASE)
_ABSENT_WORDS = re.compile(
    r"\b(?:absent|omitted|not (?:be )?(?:present|returned|included|set)|only (?:be )?present"
    r"|null|missing|no more)\b",
    re.IGNORECASE,
)


def cursor_end(
    container: Located | None,
    name: str,
    node: Located,
    walker: SchemaWalker,
    examples: list[Any],
    rel: str,
) -> str:
    """How the last page shows the next cursor at ``rel``: ``absent`` (missing or null),
    ``empty`` (the empty string) or ``either`` (the spec does not settle it)."""
    schema, _ = walker.resolve(*node)
    text = schema.get("description") if isinstance(schema, dict) else None
    text = text if isinstance(text, str) else ""
    if any(value_at(ex, rel) == "" for ex in examples) or (
        _EMPTY_WORDS.search(text) and not _ABSENT_WORDS.search(text)
    ):
        return "empty"
    required = False
    if container is not None:
        parent, _ = walker.resolve(*container)
        req = parent.get("required") if isinstance(parent, dict) else None
        required = isinstance(req, list) and name in req
    nullable = isinstance(schema, dict) and (
        schema.get("nullable") is True
        or (isinstance(schema.get("type"), list) and "null" in schema["type"])
    )
    if required and not nullable:
        return "empty"  # always sent, never null: the last page can only say "" (Slack)
    if _ABSENT_WORDS.search(text) or nullable:
        return "absent"
    return "either"


# -- documented caps ----------------------------------------------------------------------------

_ORDINALS = {
    "hundredth": 100,
    "thousandth": 1000,
    "ten thousandth": 10000,
}
_CAP = re.compile(
    r"(?:up to|at most|no more than|maximum of|limited to|above|over|beyond"
    r"|exceed(?:s|ing)?|greater than)"
    r"\s+(?:the\s+)?(?P<n>\d[\d,]*|ten thousandth|thousandth|hundredth)(?:st|nd|rd|th)?"
    r"\s*(?P<what>[a-z]+)?",
    re.IGNORECASE,
)
_CAP_NOUNS = frozenset(
    {
        "results",
        "result",
        "items",
        "item",
        "records",
        "users",
        "user",
        "entries",
        "objects",
        "returns",
        "return",
        "is",
        "are",
        "will",
        "errors",
        "error",
        "offset",
        "returned",
    }
)


def _sentences(text: str) -> Iterator[str]:
    """Sentences (a line break inside one is wrapping, not an end: "rejected\nwith a 400")."""
    for s in re.split(r"(?<=[.!?])\s+|\n\s*\n|\n(?=\s*[-*#|])", text):
        if s.strip():
            yield " ".join(s.split())


def documented_caps(
    texts: list[tuple[str, str]], *, unpaged: bool = False
) -> list[tuple[int, str, str]]:
    """(N, where, sentence) for every cap on a listing's reach stated in ``texts``.

    ``texts`` are (where, description) pairs: the operation's summary/description and the
    descriptions of its position parameters (offset, page, cursor) -- a size parameter's own
    maximum ("maximum of 100") bounds one page, not the listing, and is not passed here. On an
    ``unpaged`` listing (no position parameter, no paging signal) one page is the whole answer,
    so a sentence capping the page size caps the listing (Asana's task search: "Page sizes are
    limited to a maximum of 100 items").
    """
    out: list[tuple[int, str, str]] = []
    for where, text in texts:
        for sentence in _sentences(text):
            for m in _CAP.finditer(sentence):
                raw = m.group("n").lower()
                n = int(raw.replace(",", "")) if raw[0].isdigit() else _ORDINALS.get(raw, 0)
                what = (m.group("what") or "").lower()
                low = sentence.lower()
                about_reach = (
                    what in _CAP_NOUNS or "offset" in low or "400" in low or "error" in low
                )
                per_page = "per page" in low or "page size" in low
                if n >= 50 and about_reach and (unpaged or not per_page):
                    out.append((n, where, sentence[:200]))
                    break
    return out
