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

from xcompleteness.detect import SIZE_PARAMS, Finding, fold
from xcompleteness.document import pointer_tokens
from xcompleteness.load import RecordedPage

__all__ = ["BODY", "EVIDENCE_KEY", "TODO_KEY", "assign", "cross_check", "recorded_for"]


EVIDENCE_KEY = "x-evidence"
TODO_KEY = "x-todo"
BODY = "$response.body#"
REQUEST_BODY = "$request.body#"
_MISSING = object()
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


def _at(value: Any, expr: str) -> Any:
    if not isinstance(expr, str) or not expr.startswith(BODY):
        return _MISSING
    for token in pointer_tokens(expr[len(BODY) :]) or ():
        if isinstance(value, dict) and token in value:
            value = value[token]
        elif isinstance(value, list) and token.isdigit() and int(token) < len(value):
            value = value[int(token)]
        else:
            return _MISSING
    return value


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
    if items is not None:
        walks = [[i for p in walk for i in _at(p.body, decl["items"])] for walk in _walks(f, pages)]
        _check_id(decl, f, pages, items, walks)
    _find_next(decl, f, pages)
    _link_header(decl, f, pages)
    _check_next(decl, pages)
    _check_body_cursor(decl, pages)
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


def _walks(f: Finding, pages: list[RecordedPage]) -> list[list[RecordedPage]]:
    """The recorded pages cut into walks: a HAR request that carries no paging value (no cursor,
    offset or page number: the first page of a listing) starts a new one. Two walks may read the
    same items (two queries, or one query recorded twice): an id repeats across walks, never
    within one. Folder pages (and a HAR of a listing without paging parameters) are one walk."""
    starts = {"cursor": "", "offset": "0", "page": str(f.first_page)}  # a first page sends these
    roles = [(f.request[r], starts[r]) for r in starts if r in f.request]
    if not roles or any(p.method is None for p in pages):
        return [pages]
    out: list[list[RecordedPage]] = []
    for page in pages:
        body = page.request_body if isinstance(page.request_body, dict) else {}
        sent = [
            (
                body.get(r[len(REQUEST_BODY) + 1 :])
                if r.startswith(REQUEST_BODY)
                else page.query.get(r),
                start,
            )
            for r, start in roles
        ]
        first = all(v is None or str(v) in ("", start) for v, start in sent)
        if first or not out:
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


def _find_next(decl: dict[str, Any], f: Finding, pages: list[RecordedPage]) -> None:
    """The next cursor's location when the spec does not show it (a pagination TODO, no
    pagination drafted, a cursor parameter known)."""
    if "pagination" in decl or f.style != "cursor" or "cursor" not in f.request:
        return
    cursor = f.request["cursor"]
    found: str | None = None
    evidence = ""
    for before, after in zip(pages, pages[1:], strict=False):
        sent = after.query.get(cursor)
        if sent:
            hits = [e for e in _string_leaves(before.body, "") if e[1] == sent]
            if len(hits) == 1:
                found, evidence = BODY + hits[0][0], f"{before.source} -> {after.source}"
                break
    if found is None and len(pages) >= 2 and not any(p.query for p in pages):
        found, evidence = _next_by_name(pages)
    if found is None:
        return
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


def _check_body_cursor(decl: dict[str, Any], pages: list[RecordedPage]) -> None:
    """A cursor drafted in the request body, against the recorded request bodies (HAR
    ``postData``): where did page *k+1* send page *k*'s next token?"""
    pagination = decl.get("pagination")
    if not isinstance(pagination, dict) or pagination.get("style") != "cursor":
        return
    request = pagination.get("request") if isinstance(pagination.get("request"), dict) else {}
    response = pagination.get("response") if isinstance(pagination.get("response"), dict) else {}
    cursor, nxt = request.get("cursor"), response.get("next")
    if not isinstance(cursor, str) or not cursor.startswith(REQUEST_BODY):
        return
    if not isinstance(nxt, str) or not nxt.startswith(BODY):
        return
    follows: list[tuple[RecordedPage, RecordedPage, list[str]]] = []
    for before, after in zip(pages, pages[1:], strict=False):
        token = _at(before.body, nxt)
        if isinstance(token, str) and token:
            carriers = _carriers(after, token)
            if carriers:  # else a new walk starts here (or the recording skipped a page)
                follows.append((before, after, carriers))
    if not follows:
        return  # a folder, a HAR without request bodies, or no page followed another
    pairs = ", ".join(f"{b.source} -> {a.source}" for b, a, _ in follows[:3])
    wrong = [(b, a, c) for b, a, c in follows if cursor not in c]
    mine = [t for t in decl[TODO_KEY] if t.startswith("pagination:") and cursor in t]
    decl[TODO_KEY] = [t for t in decl[TODO_KEY] if t not in mine]
    name = cursor[len(REQUEST_BODY) + 1 :]
    if wrong:
        b, a, carriers = wrong[0]
        there = _told(carriers[0])
        fix = (
            f"request.cursor: {carriers[0]}"
            if carriers[0].startswith(REQUEST_BODY)
            else f"request.cursor: {carriers[0].removeprefix('?')} (a query parameter)"
        )
        _raise(
            decl,
            "pagination",
            f"the recorded requests send the {nxt} of the page before in {there}, not in the "
            f"body field {name}; declare {fix}"
            + (
                " and add the property to the request body schema if it lacks it (XC146)"
                if carriers[0].startswith(REQUEST_BODY)
                else ""
            ),
            f"{b.source} -> {a.source}",
        )
        return
    _note(
        decl,
        f"pagination: each recorded request sends the {nxt} of the page before in the body "
        f"field {name} ({pairs})",
    )
    _body_size(decl, request, [follows[0][0], *(a for _, a, _ in follows)])
    ends = [p for p in pages if _at(p.body, nxt) in (_MISSING, None, "")]
    if not ends:
        _raise(
            decl,
            "pagination",
            f"the recording stops before the last page (its last page still sends {nxt}); "
            "confirm how the last page shows it (the draft ends on a missing, null or empty one)",
            pages[-1].source,
        )
    elif not any(e.startswith("pagination: the last recorded page") for e in decl[EVIDENCE_KEY]):
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


def _carriers(page: RecordedPage, token: str) -> list[str]:
    """Where a recorded request sent ``token``: ``$request.body#/NAME`` body locations, then
    ``?name`` query parameters."""
    body = [REQUEST_BODY + at for at, v in _string_leaves(page.request_body, "") if v == token]
    return body + [f"?{k}" for k, v in page.query.items() if v == token]


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


def _string_leaves(value: Any, at: str, depth: int = 0) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if depth > 4:
        return out
    if isinstance(value, dict):
        for k, v in value.items():
            here = f"{at}/{str(k).replace('~', '~0').replace('/', '~1')}"
            if isinstance(v, str):
                out.append((here, v))
            elif isinstance(v, dict):
                out.extend(_string_leaves(v, here, depth + 1))
    return out


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


def _check_next(decl: dict[str, Any], pages: list[RecordedPage]) -> None:
    pagination = decl.get("pagination")
    if not isinstance(pagination, dict) or pagination.get("style") not in ("cursor", "next-url"):
        return
    nxt = pagination.get("response", {}).get("next")
    if not isinstance(nxt, str) or not nxt.startswith(BODY):
        return
    values = [_at(p.body, nxt) for p in pages]
    origin = next((p.origin for p in pages if p.origin), None)
    sent = [v for v in values if isinstance(v, str) and v]
    if pagination["style"] == "cursor" and sent and all(_is_url(v) for v in sent):
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
    last = values[-1]
    reasons = decl.get("reasons") if isinstance(decl.get("reasons"), list) else []
    more = next((r for r in reasons if r.get("code") == "MORE_PAGES_AVAILABLE"), None)
    if more is None or len(pages) < 2 or not all(isinstance(v, str) and v for v in values[:-1]):
        return  # one page, or no clear sequence: nothing to say about the end
    if last == "" and more.get("when") == {"present": nxt}:
        more["when"] = {"all": [{"present": nxt}, {"not-equals": [nxt, ""]}]}
        _note(
            decl,
            f'pagination: the last recorded page sends {nxt} as "" ({pages[-1].source}); the '
            "walk ends on it, not only on an absent cursor",
        )
    elif last in (None, _MISSING, ""):
        _note(
            decl,
            f"pagination: the last recorded page has {nxt} {_describe(last)} ({pages[-1].source})",
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
