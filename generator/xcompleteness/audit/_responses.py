"""``audit --responses``: cross-check drafts against responses the user recorded (issue 19 §5).

A description cannot settle everything (does the last page send the cursor as ``""``? which
field is unique? is the "string" a next URL?); recorded responses can. For every drafted listing
with recorded pages (:mod:`xcompleteness.load` reads a HAR file or a folder of JSON pages), the
draft is checked and each finding is written into it with the evidence named:

* **items**: the drafted location holds a list on every recorded page (a doubt about it is
  resolved), or it does not (a TODO is raised);
* **id**: the drafted field is present and unique across the recorded items; when the draft
  asked which of several fields is the id (or found none), the one field that is present and
  unique everywhere answers it;
* **the end**: the last recorded page's next cursor is ``""`` (the condition must test for it),
  absent or null; a "cursor" whose recorded values are URLs is a next URL (style ``next-url``);
* **total**: the declared total is a number on every page;
* **the next cursor's location**, when the spec does not show it: the field of page *k* whose
  value is the cursor parameter that page *k+1* was requested with (HAR), or a ``next``-named
  field set on every page but the last (folders);
* **a cursor sent in the request body** (a POST search, ``request.cursor: $request.body#/NAME``):
  the HAR request bodies (``postData``) show where page *k+1* sent page *k*'s next token. The
  drafted field carrying it confirms the draft (and the one size-named body field the requests
  send becomes ``request.size``); another body field or a query parameter carrying it raises a
  TODO naming that field.

Resolved TODOs are deleted and the reason is recorded under ``x-evidence`` (a list of strings
naming the recording, e.g. ``tasks.har entry 2``); raised ones are ``x-todo`` entries ending in
``(evidence: ...)``. Evidence never quotes a value that could be a secret: a cursor is described
(``""``, ``null``, "a URL on the recorded host"), ids are counted, queries are not printed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from xcompleteness.audit._walks import (
    MISSING,
    WalkRoles,
    carried,
    recorded_walks,
    same_value,
    scalar_leaves,
    value_at,
)
from xcompleteness.detect import SIZE_PARAMS, Finding, fold
from xcompleteness.diagnostics import Diagnostic, Severity
from xcompleteness.load import RecordedPage

__all__ = [
    "BODY",
    "EVIDENCE_KEY",
    "TODO_KEY",
    "UNMATCHED_CODE",
    "assign",
    "cross_check",
    "recorded_for",
    "unmatched",
]


EVIDENCE_KEY = "x-evidence"
TODO_KEY = "x-todo"
BODY = "$response.body#"
REQUEST_BODY = "$request.body#"
_MISSING = MISSING
UNMATCHED_CODE = "XC019"
_ID_LIKE = re.compile(r"(?:^|_)(?:id|gid|sid|uid|uuid|guid|key|uri)$|[a-z]Id$|ID$")


def assign(
    document: Any,
    pages: Iterable[RecordedPage],
    operations: Iterable[tuple[str, str, str, str | None]],
) -> dict[str, list[RecordedPage]]:
    """Operation pointer -> its recorded pages, in recorded order.

    ``operations`` are (method, path template, pointer, operationId). A HAR page matches the
    operation whose template matches the end of its URL path (the server's base path may come
    first), the most literal template winning; a folder page names its operationId.
    """
    del document
    ops = list(operations)
    by_id = {op_id: ptr for _, _, ptr, op_id in ops if op_id}
    patterns = []
    for method, template, ptr, _ in ops:
        literal = len(re.sub(r"\{[^}]*\}", "", template))
        regex = re.escape(template)
        regex = re.sub(r"\\\{[^}]*\\\}", "[^/]+", regex)
        patterns.append((method, re.compile(r"(?:.*?)" + regex + r"/?"), literal, ptr))
    out: dict[str, list[RecordedPage]] = {}
    for page in pages:
        ptr = None
        if page.operation is not None:
            ptr = by_id.get(page.operation)
        elif page.path is not None:
            fits = [
                (literal, p)
                for method, rx, literal, p in patterns
                if method == page.method and rx.fullmatch(page.path)
            ]
            ptr = max(fits)[1] if fits else None
        if ptr is not None:
            out.setdefault(ptr, []).append(page)
    return out


_at = value_at


def _describe(value: Any, origin: str | None = None) -> str:
    """A recorded value, told without quoting it (cursors and ids may be secrets)."""
    if value is _MISSING:
        return "absent"
    if value is None:
        return "null"
    if value == "":
        return '""'
    if isinstance(value, str) and _is_url(value):
        return "a URL" + (" on the recorded host" if origin and value.startswith(origin) else "")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return "0" if value == 0 else "a number"  # 0 is an end marker, not a position
    return f"a {type(value).__name__}"


def _is_url(value: Any) -> bool:
    return isinstance(value, str) and (
        value.startswith(("http://", "https://")) or value.startswith("/")
    )


def _drop(decl: dict[str, Any], topic: str) -> int:
    before = len(decl[TODO_KEY])
    decl[TODO_KEY] = [t for t in decl[TODO_KEY] if not t.startswith(topic + ":")]
    return before - len(decl[TODO_KEY])


def _raise(decl: dict[str, Any], topic: str, text: str, evidence: str) -> None:
    decl[TODO_KEY].append(f"{topic}: {text} (evidence: {evidence})")


def _note(decl: dict[str, Any], text: str) -> None:
    decl.setdefault(EVIDENCE_KEY, []).append(text)


def _sources(pages: list[RecordedPage]) -> str:
    if len(pages) <= 3:
        return ", ".join(p.source for p in pages)
    return f"{pages[0].source} ... {pages[-1].source} ({len(pages)} pages)"


def cross_check(decl: dict[str, Any], f: Finding, recorded: list[RecordedPage]) -> None:
    """Check one draft declaration against its operation's recorded pages (mutates ``decl``)."""
    pages = [p for p in recorded if 200 <= p.status < 300]
    if not pages or TODO_KEY not in decl:
        return
    items = _check_items(decl, pages)
    carrier = _find_next(decl, f, pages)
    _link_header(decl, f, pages)
    _next_is_url(decl, pages)
    hits = _body_hits(decl, pages)
    top = _most(hits)
    cursor = decl.get("pagination", {}).get("request", {}).get("cursor") if hits else None
    if cursor in top or len(top) == 1:  # where the recording shows the walks send the cursor
        carrier = cursor if cursor in top else top[0]
    walks = _walks(decl, f, pages, carrier)
    _check_end(decl, walks)
    _check_body_cursor(decl, pages, hits)
    if items is not None:
        ids = [[i for p in walk for i in _at(p.body, decl["items"])] for walk in walks]
        _check_id(decl, f, pages, items, ids)
    _check_total(decl, pages)


def _check_items(decl: dict[str, Any], pages: list[RecordedPage]) -> list[Any] | None:
    expr = decl.get("items")
    values = [(p, _at(p.body, expr)) for p in pages]
    wrong = [(p, v) for p, v in values if not isinstance(v, list)]
    if wrong:
        p, v = wrong[0]
        where = expr[len(BODY) :] or "the body"
        arrays = _common_arrays(pages)
        hint = f"; the recorded pages hold one array, at {arrays[0]}" if len(arrays) == 1 else ""
        _drop(decl, "items")
        _raise(
            decl,
            "items",
            f"{where} is {_describe(v)} in a recorded response, not a list{hint}; point items "
            "at the array of results, or delete this declaration if the operation returns one "
            "object",
            p.source,
        )
        return None
    if _drop(decl, "items"):
        _note(decl, f"items: {expr} holds a list on every recorded page ({_sources(pages)})")
    return [item for _, v in values for item in v]


def _common_arrays(pages: list[RecordedPage]) -> list[str]:
    sets = []
    for p in pages:
        body = p.body
        found = {"$response.body#"} if isinstance(body, list) else set()
        if isinstance(body, dict):
            found |= {f"$response.body#/{k}" for k, v in body.items() if isinstance(v, list)}
        sets.append(found)
    common = set.intersection(*sets) if sets else set()
    return sorted(common)


def _walks(
    decl: dict[str, Any], f: Finding, pages: list[RecordedPage], carrier: str | None
) -> list[list[RecordedPage]]:
    """The recorded pages cut into walks (``audit._walks``): by the drafted chain, the cursor
    read where the recording showed it sent (``carrier``). A listing drafted without paging
    (style none) is one request a walk. Without a chain (no pagination drafted), a HAR
    request that carries none of the drafted paging parameters starts a walk.
    Two walks may read the same items: an id repeats across walks, never within one."""
    roles = WalkRoles.of_declaration(decl, carrier)
    if roles is not None or any(p.method is None for p in pages):
        return recorded_walks(pages, roles)
    if (decl.get("pagination") or {}).get("style") == "none":
        return [[p] for p in pages]  # each recorded request is a whole walk
    names = [f.request[r] for r in ("cursor", "offset", "page") if r in f.request]
    if not names:
        return [pages]
    out: list[list[RecordedPage]] = []
    for page in pages:
        body = page.request_body if isinstance(page.request_body, dict) else {}
        sent = [
            body.get(n.removeprefix(REQUEST_BODY + "/"))
            if n.startswith(REQUEST_BODY)
            else page.query.get(n)
            for n in names
        ]
        if not out or all(v in (None, "") for v in sent):
            out.append([page])
        else:
            out[-1].append(page)
    return out


def _unique_fields(items: list[Any], walks: list[list[Any]]) -> dict[str, bool]:
    """Field name -> present in every item and unique within each walk, over the item fields
    that look like ids."""
    dicts = [i for i in items if isinstance(i, dict)]
    if not dicts or len(dicts) != len(items):
        return {}
    names = set().union(*(d.keys() for d in dicts))
    out = {}
    for name in sorted(names):
        if not _ID_LIKE.search(name):
            continue
        values = [d.get(name, _MISSING) for d in dicts]
        present = all(v is not _MISSING and v is not None for v in values)
        unique = True
        for walk in walks:
            keys = [repr(d.get(name)) for d in walk if isinstance(d, dict)]
            unique = unique and len(set(keys)) == len(keys)
        out[name] = present and unique
    return out


def _check_id(
    decl: dict[str, Any],
    f: Finding,
    pages: list[RecordedPage],
    items: list[Any],
    walks: list[list[Any]],
) -> None:
    if max(len(w) for w in walks) < 2:
        return  # one item per walk proves nothing about uniqueness
    unique = _unique_fields(items, walks)
    where = _sources(pages)
    if len(walks) > 1:
        where += f"; {len(walks)} walks"
    drafted = decl.get("id")
    name = drafted[1:] if isinstance(drafted, str) and drafted.count("/") == 1 else None
    asked = any(t.startswith("id:") for t in decl[TODO_KEY])
    winners = [n for n, ok in unique.items() if ok]
    if asked:  # the draft asked which field: the one candidate unique everywhere answers it
        candidates = [n for n in winners if name is None or n == name or n in f.id_alternatives]
        if len(candidates) == 1:
            decl["id"] = "/" + candidates[0]
            _drop(decl, "id")
            _note(
                decl,
                f"id: /{candidates[0]} is the one candidate present and unique in "
                f"{len(items)} recorded items ({where})",
            )
            return
    if name is not None and not unique.get(name, False):
        dicts = [i for i in items if isinstance(i, dict)]
        missing = sum(1 for d in dicts if d.get(name) is None)
        problem = (
            f"absent in {missing} of {len(dicts)} recorded items"
            if missing
            else f"repeated within a recorded walk ({len(dicts)} recorded items)"
        )
        better = [n for n in winners if n in f.id_alternatives] or winners
        also = f"; unique in every recorded item: {', '.join('/' + n for n in better)}"
        _drop(decl, "id")
        _raise(decl, "id", f"{drafted} is {problem}" + (also if better else ""), where)
    elif name is not None and not asked:
        _note(decl, f"id: {drafted} is present and unique in {len(items)} recorded items ({where})")


def _find_next(decl: dict[str, Any], f: Finding, pages: list[RecordedPage]) -> str | None:
    """The next cursor's location when the spec does not show it (a pagination TODO, no
    pagination drafted, a cursor parameter known): the one field of page *k* whose value the
    next request sent as the cursor, on the most recorded pairs (a number matches its decimal
    text in the query). Returns the cursor parameter when it declared the walk."""
    if "pagination" in decl or f.style != "cursor" or "cursor" not in f.request:
        return None
    cursor = f.request["cursor"]
    found: str | None = None
    evidence = ""
    hits: dict[str, list[str]] = {}
    for before, after in zip(pages, pages[1:], strict=False):
        sent = after.query.get(cursor)
        if sent:
            for at, value in scalar_leaves(before.body):
                if same_value(value, sent, True):
                    hits.setdefault(at, []).append(f"{before.source} -> {after.source}")
    most = max((len(v) for v in hits.values()), default=0)
    top = [at for at, v in hits.items() if len(v) == most]
    if len(top) == 1:
        found, evidence = BODY + top[0], ", ".join(hits[top[0]][:3])
    if found is None and len(pages) >= 2 and not any(p.query for p in pages):
        found, evidence = _next_by_name(pages)
    if found is None:
        return None
    size = {"size": f.request["size"]} if "size" in f.request else {}
    decl["pagination"] = {
        "style": "cursor",
        "request": {"cursor": cursor, **size},
        "response": {"next": found},
    }
    last = _at(pages[-1].body, found)
    when: dict[str, Any] = {"present": found}
    if last == "" or last is _MISSING:
        when = {"all": [{"present": found}, {"not-equals": [found, ""]}]}
    decl.setdefault("reasons", []).insert(0, {"code": "MORE_PAGES_AVAILABLE", "when": when})
    _drop(decl, "pagination")
    _note(
        decl,
        f"pagination: the next cursor is at {found}: the value recorded there is the "
        f"{cursor} of the next request ({evidence}); the last page has it {_describe(last)}",
    )
    return cursor


_NEXT_LINK = re.compile(r"""<[^>]*>\s*;[^,]*\brel\s*=\s*"?next"?""", re.IGNORECASE)


def _link_header(decl: dict[str, Any], f: Finding, pages: list[RecordedPage]) -> None:
    """Pages that answer with ``Link: <...>; rel="next"`` (a convention many specs state only
    in prose, or not at all) page by the Link header, when the draft has no other walk."""
    pagination = decl.get("pagination")
    if isinstance(pagination, dict) and pagination.get("style") not in ("none", None):
        if pagination.get("style") != "link-header":  # one said only in prose is confirmed
            return
    with_next = [p for p in pages if _NEXT_LINK.search(p.headers.get("link", ""))]
    if not with_next:
        return
    size = {"size": f.request["size"]} if "size" in f.request else {}
    decl["pagination"] = {"style": "link-header", **({"request": size} if size else {})}
    decl["pagination"]["response"] = {"next": "$response.link.next"}
    reasons = [r for r in decl.get("reasons", []) if r.get("code") != "MORE_PAGES_AVAILABLE"]
    more = {"code": "MORE_PAGES_AVAILABLE", "when": {"present": "$response.link.next"}}
    decl["reasons"] = [more, *reasons]
    _drop(decl, "pagination")
    last = "has none" if pages[-1] not in with_next else "has one too"
    _note(
        decl,
        f'pagination: {len(with_next)} recorded page(s) answer with a Link rel="next" header '
        f"({_sources(with_next)}); the last page {last}",
    )


def _body_hits(
    decl: dict[str, Any], pages: list[RecordedPage]
) -> dict[str, list[tuple[RecordedPage, RecordedPage]]]:
    """For a cursor drafted in the request body: each place (``$request.body#/NAME`` or
    ``?name``) where a recorded request *k+1* sent page *k*'s next token (a string, or a number
    sent back as the same number, or as its decimal text in a query), with those pairs."""
    pagination = decl.get("pagination")
    if not isinstance(pagination, dict) or pagination.get("style") != "cursor":
        return {}
    request = pagination.get("request") if isinstance(pagination.get("request"), dict) else {}
    response = pagination.get("response") if isinstance(pagination.get("response"), dict) else {}
    cursor, nxt = request.get("cursor"), response.get("next")
    if not isinstance(cursor, str) or not cursor.startswith(REQUEST_BODY):
        return {}
    if not isinstance(nxt, str) or not nxt.startswith(BODY):
        return {}
    hits: dict[str, list[tuple[RecordedPage, RecordedPage]]] = {}
    for before, after in zip(pages, pages[1:], strict=False):
        token = _at(before.body, nxt)
        if token not in (_MISSING, None, "") and not isinstance(token, bool):
            for carrier in carried(after, token):  # none: a new walk starts (or a page skipped)
                hits.setdefault(carrier, []).append((before, after))
    return hits


def _most(hits: dict[str, list[Any]]) -> list[str]:
    """The places that carried the token on the most recorded pairs."""
    most = max((len(v) for v in hits.values()), default=0)
    return [c for c, v in hits.items() if len(v) == most] if most else []


def _check_body_cursor(
    decl: dict[str, Any],
    pages: list[RecordedPage],
    hits: dict[str, list[tuple[RecordedPage, RecordedPage]]],
) -> None:
    """A cursor drafted in the request body, against the recorded request bodies (HAR
    ``postData``, :func:`_body_hits`): the place that carried page *k*'s next token on the most
    recorded pairs confirms the draft, or is named in a TODO."""
    if not hits:
        return  # a folder, a HAR without request bodies, or no page followed another
    pagination = decl["pagination"]
    request, nxt = pagination["request"], pagination["response"]["next"]
    cursor = request["cursor"]
    top = _most(hits)
    mine = [t for t in decl[TODO_KEY] if t.startswith("pagination:") and cursor in t]
    decl[TODO_KEY] = [t for t in decl[TODO_KEY] if t not in mine]
    name = cursor[len(REQUEST_BODY) + 1 :]
    if cursor not in top:
        b, a = hits[top[0]][0]
        there = " or ".join(_told(c) for c in top)
        if len(top) > 1:
            fix = "request.cursor as the one of them the API reads"
        elif top[0].startswith(REQUEST_BODY):
            fix = (
                f"request.cursor: {top[0]} and add the property to the request body schema if "
                "it lacks it (XC146)"
            )
        else:
            fix = f"request.cursor: {top[0].removeprefix('?')} (a query parameter)"
        _raise(
            decl,
            "pagination",
            f"the recorded requests send the {nxt} of the page before in {there}, not in the "
            f"body field {name}; declare {fix}",
            f"{b.source} -> {a.source}",
        )
        return
    follows = hits[cursor]
    pairs = ", ".join(f"{b.source} -> {a.source}" for b, a in follows[:3])
    _note(
        decl,
        f"pagination: each recorded request sends the {nxt} of the page before in the body "
        f"field {name} ({pairs})",
    )
    _body_size(decl, request, [follows[0][0], *(a for _, a in follows)])
    ends = [p for p in pages if _at(p.body, nxt) in (_MISSING, None, "")]
    if not ends:
        _raise(
            decl,
            "pagination",
            f"the recording stops before the last page (its last page still sends {nxt}); "
            "confirm how the last page shows it (the draft ends on a missing, null or empty one)",
            pages[-1].source,
        )
    elif not any(
        e.startswith("pagination: the last recorded page") or "end a walk with" in e
        for e in decl[EVIDENCE_KEY]
    ):
        shown = sorted({_describe(_at(p.body, nxt)) for p in ends})
        reasons = decl.get("reasons") if isinstance(decl.get("reasons"), list) else []
        for more in reasons:
            if more.get("code") == "MORE_PAGES_AVAILABLE" and more.get("when") == {"present": nxt}:
                if '""' in shown:  # the walk must end on "" too
                    more["when"] = {"all": [{"present": nxt}, {"not-equals": [nxt, ""]}]}
        _note(
            decl,
            f"pagination: {len(ends)} recorded page(s) end a walk with {nxt} "
            f"{' or '.join(shown)}; the walk ends there ({_sources(ends)})",
        )


def _told(carrier: str) -> str:
    if carrier.startswith(REQUEST_BODY):
        return f"the body field {carrier[len(REQUEST_BODY) + 1 :]}"
    return f"the query parameter {carrier[1:]}"


def _body_size(
    decl: dict[str, Any],
    request: dict[str, Any],
    requests: list[RecordedPage],
) -> None:
    """The page-size field of a body-paged request: the one size-named integer property every
    recorded request of the walk sends, never below a page's item count."""
    if "size" in request:
        return
    names: set[str] | None = None
    for page in requests:
        body = page.request_body if isinstance(page.request_body, dict) else {}
        sized = {
            k
            for k, v in body.items()
            if fold(k) in SIZE_PARAMS and isinstance(v, int) and not isinstance(v, bool)
        }
        names = sized if names is None else names & sized
    items = decl.get("items")

    def holds(page: RecordedPage, name: str) -> bool:
        found = _at(page.body, items)
        body = page.request_body if isinstance(page.request_body, dict) else {}
        return not isinstance(found, list) or name not in body or len(found) <= body[name]

    fits = [n for n in sorted(names or ()) if all(holds(p, n) for p in requests)]
    if len(fits) != 1:
        return
    request["size"] = REQUEST_BODY + "/" + fits[0]
    _note(
        decl,
        f"pagination: request.size is the body field {fits[0]}: every recorded request sends it "
        f"and no recorded page holds more items ({_sources(requests)})",
    )


def _string_leaves(value: Any, at: str) -> list[tuple[str, str]]:
    return [(where, v) for where, v in scalar_leaves(value, at) if isinstance(v, str)]


def _next_by_name(pages: list[RecordedPage]) -> tuple[str | None, str]:
    """Folders (no requests): a field named like a next cursor, set on every page but the
    last and absent, null or "" on the last."""
    candidates = None
    for p in pages[:-1]:
        names = {at for at, value in _string_leaves(p.body, "") if value and _cursor_named(at)}
        candidates = names if candidates is None else candidates & names
    fits = [
        c for c in sorted(candidates or ()) if _at(pages[-1].body, BODY + c) in (_MISSING, None, "")
    ]
    if len(fits) == 1:
        return BODY + fits[0], _sources(pages)
    return None, ""


def _cursor_named(at: str) -> bool:
    last = fold(at.rsplit("/", 1)[-1])
    return "next" in fold(at) or last in ("offset", "cursor", "token", "marker")


def _next_is_url(decl: dict[str, Any], pages: list[RecordedPage]) -> None:
    """A drafted cursor whose recorded values are all URLs is a next URL (style next-url)."""
    pagination = decl.get("pagination")
    if not isinstance(pagination, dict) or pagination.get("style") != "cursor":
        return
    nxt = pagination.get("response", {}).get("next")
    if not isinstance(nxt, str) or not nxt.startswith(BODY):
        return
    origin = next((p.origin for p in pages if p.origin), None)
    sent = [v for v in (_at(p.body, nxt) for p in pages) if isinstance(v, str) and v]
    if sent and all(_is_url(v) for v in sent):
        request = pagination.get("request", {})
        pagination["style"] = "next-url"
        pagination["request"] = {k: v for k, v in request.items() if k == "size"} or None
        if pagination["request"] is None:
            del pagination["request"]
        _note(
            decl,
            f"pagination: {nxt} is {_describe(sent[0], origin)} on the recorded pages, not a "
            f"token: style next-url follows it ({_sources(pages)})",
        )


def _token(value: Any) -> bool:
    """A handed-out next cursor: a non-empty string or a non-zero number."""
    if isinstance(value, str):
        return value != ""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value != 0


def _check_end(decl: dict[str, Any], walks: list[list[RecordedPage]]) -> None:
    """How the recorded walks end: a next cursor every page but a walk's last hands out, and
    the last sends as ``""`` (or ``0``, for a numeric cursor such as Twitter's): the walk must
    end on that value too, not only on an absent one."""
    pagination = decl.get("pagination")
    if not isinstance(pagination, dict) or pagination.get("style") not in ("cursor", "next-url"):
        return
    nxt = pagination.get("response", {}).get("next")
    if not isinstance(nxt, str) or not nxt.startswith(BODY) or not walks:
        return
    middles = [_at(p.body, nxt) for walk in walks for p in walk[:-1]]
    finals = [(walk[-1], _at(walk[-1].body, nxt)) for walk in walks]
    reasons = decl.get("reasons") if isinstance(decl.get("reasons"), list) else []
    more = next((r for r in reasons if r.get("code") == "MORE_PAGES_AVAILABLE"), None)
    if more is None or not middles or not all(_token(v) for v in middles):
        return  # one page a walk, or no clear sequence: nothing to say about the end
    numeric = all(isinstance(v, (int, float)) for v in middles)
    marker: Any = 0 if numeric else ""
    ends = [p for p, v in finals if type(v) is type(marker) and v == marker]
    if ends and more.get("when") == {"present": nxt}:
        more["when"] = {"all": [{"present": nxt}, {"not-equals": [nxt, marker]}]}
        told = "0" if numeric else '""'
        _note(
            decl,
            f"pagination: the last recorded page of each walk sends {nxt} as {told} "
            f"({_sources(ends)}); the walk ends on it, not only on an absent cursor",
        )
        return
    ended = [(p, v) for p, v in finals if v is None or v is _MISSING or v == ""]
    if ended:
        shown = sorted({_describe(v) for _, v in ended})
        _note(
            decl,
            f"pagination: {len(ended)} recorded page(s) end a walk with {nxt} "
            f"{' or '.join(shown)}; the walk ends there ({_sources([p for p, _ in ended])})",
        )


def _check_total(decl: dict[str, Any], pages: list[RecordedPage]) -> None:
    pagination = decl.get("pagination")
    response = pagination.get("response") if isinstance(pagination, dict) else None
    total = response.get("total") if isinstance(response, dict) else None
    if not isinstance(total, str):
        return
    bad = [
        p
        for p in pages
        if not isinstance(_at(p.body, total), int) or isinstance(_at(p.body, total), bool)
    ]
    if bad:
        _raise(
            decl,
            "pagination",
            f"the total {total} is {_describe(_at(bad[0].body, total))} on a recorded page; a "
            "walk cannot see its end without it: declare another end signal",
            bad[0].source,
        )
    else:
        _note(
            decl,
            f"pagination: the total {total} is a number on every recorded page ({_sources(pages)})",
        )


def recorded_for(
    report_recorded: Mapping[str, list[RecordedPage]] | None, f: Finding
) -> list[RecordedPage]:
    return list((report_recorded or {}).get(f.pointer, ()))


def unmatched(
    pages: list[RecordedPage],
    matched: Mapping[str, list[RecordedPage]],
    origin: str,
    what: str = "operation of the spec",
) -> list[Diagnostic]:
    """``XC019`` warnings for recorded answers nothing was checked against: saved pages whose
    file names no ``what`` (a typo, another case), and a HAR none of whose JSON answers matches
    one by method and path (a browser HAR of another site, a spec of another version)."""
    used = {id(p) for group in matched.values() for p in group}
    found: list[tuple[str, str]] = []
    saved = [p.source for p in pages if p.operation is not None and id(p) not in used]
    if saved:
        shown = ", ".join(saved[:8]) + (f" and {len(saved) - 8} more" if len(saved) > 8 else "")
        found.append(
            (
                f"{len(saved)} saved page(s) name no {what}, so nothing is checked against "
                f"them: {shown}",
                "name each file <operationId>.<n>.json (or <operationId>/<n>.json) after the "
                "listing's operationId, as the spec spells it",
            )
        )
    har = [p for p in pages if p.operation is None]
    if har and not any(id(p) in used for p in har):
        found.append(
            (
                f"none of the {len(har)} JSON answer(s) of the recording matches an {what} by "
                "method and URL path, so nothing is checked against them",
                "record the listing's own requests (a base path before the spec's paths is "
                "fine), or check the spec is the one of the recorded API",
            )
        )
    return [Diagnostic(origin, "", UNMATCHED_CODE, Severity.WARNING, m, h) for m, h in found]
