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
  field set on every page but the last (folders).

Resolved TODOs are deleted and the reason is recorded under ``x-evidence`` (a list of strings
naming the recording, e.g. ``tasks.har entry 2``); raised ones are ``x-todo`` entries ending in
``(evidence: ...)``. Evidence never quotes a value that could be a secret: a cursor is described
(``""``, ``null``, "a URL on the recorded host"), ids are counted, queries are not printed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from xcompleteness.detect import Finding, fold
from xcompleteness.document import pointer_tokens
from xcompleteness.load import RecordedPage

__all__ = ["BODY", "EVIDENCE_KEY", "TODO_KEY", "assign", "cross_check", "recorded_for"]


EVIDENCE_KEY = "x-evidence"
TODO_KEY = "x-todo"
BODY = "$response.body#"
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
        _check_id(decl, f, pages, items)
    _find_next(decl, f, pages)
    _link_header(decl, f, pages)
    _check_next(decl, pages)
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


def _unique_fields(items: list[Any]) -> dict[str, bool]:
    """Field name -> present in every item and unique, over the item fields that look like ids."""
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
        keys = [repr(v) for v in values]
        out[name] = present and len(set(keys)) == len(keys)
    return out


def _check_id(
    decl: dict[str, Any], f: Finding, pages: list[RecordedPage], items: list[Any]
) -> None:
    if len(items) < 2:
        return  # one item proves nothing about uniqueness
    unique = _unique_fields(items)
    where = _sources(pages)
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
            else f"repeats across the {len(dicts)} recorded items"
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
