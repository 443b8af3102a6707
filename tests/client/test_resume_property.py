"""Resuming a walk, any number of times, ends and adds up to one uninterrupted walk.

Issue 10 item 3: a page-style listing with a declared total (DigitalOcean, ``meta.total``) resumed
from a continuation counted only the items read since the resume, so its end test never held and
it requested page 4, 5, 6 ... forever. The continuation now carries the items read so far. The
property below cuts one walk into a chain of walks at random ``max_pages`` / ``max_items`` limits,
for every pagination style, and checks the chain ends and equals the walk it was cut from.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xcompleteness.runtime.expressions import ResponseView
from xcompleteness.runtime.walk import (
    ContinuationMismatch,
    Limits,
    PageRequest,
    Walker,
    decode_continuation,
    encode_continuation,
)

# page0: pages numbered from 0 (pagination.first-page: 0), ended by the page count
STYLES = ("cursor", "link-header", "offset", "page", "page0", "last-item")
BASE = "http://api.test/items"


def _reason(code: str, continuation: str, when: Any = None) -> dict[str, Any]:
    return {
        "code": code,
        "when": when,
        "details": {},
        "continuation": continuation,
        "origin": "server",
    }


def contract(style: str, *, restricted: bool = False, invalidated_by=()) -> dict[str, Any]:
    """The canonical adapter contract of one style over the fake below."""
    request = {"cursor": None, "size": "per_page", "offset": None, "page": None}
    response = {"next": None, "next_last_item": None, "total": None, "pages": None}
    more = _reason("MORE_PAGES_AVAILABLE", "next_cursor")
    if style == "cursor":
        request["cursor"] = "cursor"
        response["next"] = "$response.body#/next"
    elif style == "link-header":
        response["next"] = "$response.link.next"
    elif style == "offset":
        request["offset"] = "offset"
        response["total"] = "$response.body#/meta/total"
    elif style == "page":
        request["page"] = "page"
        response["total"] = "$response.body#/meta/total"
    elif style == "page0":
        request["page"] = "page"
        response["pages"] = "$response.body#/meta/pages"
    else:  # last-item, Stripe's has_more
        request["cursor"] = "starting_after"
        response["next_last_item"] = "/id"
        more["when"] = {"equals": ["$response.body#/has_more", True]}
    reasons = [more]
    if restricted:
        reasons.append(_reason("VISIBILITY_RESTRICTED", "none", "always"))
    return {
        "operation_id": "listThings",
        "method": "get",
        "path": "/items",
        "kind": "collection",
        "mode": "adapter",
        "scope": {"resource": "things", "snapshot": "none"},
        "items": "$response.body#/things",
        "id": "/id",
        "pagination": {
            "style": "link-header"
            if style == "link-header"
            else ("cursor" if style in ("cursor", "last-item") else style.replace("page0", "page")),
            **({"first_page": 0} if style == "page0" else {}),
            "request": request,
            "response": response,
            "max_page_size": None,
            "ordering": None,
            "cursor": {
                "snapshot": "live",
                "ttl_seconds": None,
                "invalidated_by": list(invalidated_by),
                "on_expiry": "error",
            },
        },
        "reasons": reasons,
        "warnings": [],
        "deadline": None,
        "evidence": None,
    }


class Fake:
    """A collection of ``n`` items served in every style; counts the requests it answers."""

    def __init__(self, n: int, size: int) -> None:
        self.items = [{"id": f"i{k:04d}"} for k in range(n)]
        self.size = size
        self.requests = 0

    def __call__(self, style: str, req: PageRequest) -> ResponseView:
        self.requests += 1
        assert self.requests < 10_000, "the walk does not end"
        params = {k: str(v) for k, v in req.params.items()}
        if req.url is not None:
            params.update(dict(parse_qsl(urlsplit(req.url).query)))
        size = int(params.get("per_page", self.size))
        if style == "cursor":
            start = int(params.get("cursor", "c0")[1:])
        elif style == "link-header":
            start = (int(params.get("page", "1")) - 1) * size
        elif style == "offset":
            start = int(params.get("offset", "0"))
        elif style == "page":
            start = (int(params.get("page", "1")) - 1) * size
        elif style == "page0":
            start = int(params.get("page", "0")) * size
        else:
            after = params.get("starting_after")
            ids = [i["id"] for i in self.items]
            start = ids.index(after) + 1 if after else 0
        chunk = self.items[start : start + size]
        end = start + len(chunk)
        pages = -(-len(self.items) // size)
        body: dict[str, Any] = {"things": chunk, "meta": {"total": len(self.items), "pages": pages}}
        headers: dict[str, str] = {}
        if style == "cursor":
            body["next"] = f"c{end}" if end < len(self.items) else None
        elif style == "link-header" and end < len(self.items):
            headers["link"] = f'<{BASE}?page={start // size + 2}&per_page={size}>; rel="next"'
        elif style == "last-item":
            body["has_more"] = end < len(self.items)
        return ResponseView(status=200, headers=headers, body=body)


def _walker(style: str, fake: Fake, **kw: Any) -> Walker:
    return Walker(contract(style, **kw), lambda req: fake(style, req))


def _chain(
    style: str, fake: Fake, params: dict, cuts: list[tuple[int | None, int | None]], **kw: Any
):
    """Collect, then resume from each continuation with the next limits; the last has none."""
    items: list[Any] = []
    resume = None
    walks = 0
    for max_pages, max_items in [*cuts, (None, None)]:
        walks += 1
        result = _walker(style, fake, **kw).collect(
            params, Limits(max_pages=max_pages, max_items=max_items), resume=resume
        )
        items.extend(result.items)
        client_stop = {"CLIENT_PAGE_LIMIT", "CLIENT_ITEM_LIMIT"} & set(result.codes)
        if not client_stop:
            return items, result, walks
        resume = result.continuation
        assert resume is not None and resume.kind == "next_cursor" and resume.cursor
    raise AssertionError("the last walk had no limit and still stopped at one")


cut = st.tuples(
    st.one_of(st.none(), st.integers(1, 4)), st.one_of(st.none(), st.integers(1, 30))
).filter(lambda c: c != (None, None))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    style=st.sampled_from(STYLES),
    n=st.integers(0, 60),
    size=st.integers(1, 9),
    cuts=st.lists(cut, max_size=6),
    restricted=st.booleans(),
)
def test_any_resume_chain_ends_and_equals_one_uninterrupted_walk(style, n, size, cuts, restricted):
    params = {"per_page": size}
    whole = _walker(style, Fake(n, size), restricted=restricted).collect(params)
    fake = Fake(n, size)
    items, last, _ = _chain(style, fake, params, cuts, restricted=restricted)
    assert [i["id"] for i in items] == [i["id"] for i in whole.items]
    assert [i["id"] for i in items] == [f"i{k:04d}" for k in range(n)]
    assert last.complete is whole.complete is (not restricted)
    assert last.codes == whole.codes
    assert (last.continuation is None) is (whole.continuation is None)
    if last.continuation is not None:
        assert last.continuation.kind == whole.continuation.kind


@pytest.mark.parametrize("style", STYLES)
def test_the_digitalocean_case_page_style_resume_reads_only_the_rest(style):
    """collect(max_pages=1) then collect(continuation=...) ends after the remaining pages."""
    fake = Fake(25, 10)
    first = _walker(style, fake).collect({"per_page": 10}, Limits(max_pages=1))
    assert first.codes == ["CLIENT_PAGE_LIMIT"] and len(first.items) == 10
    fake.requests = 0
    rest = _walker(style, fake).collect({"per_page": 10}, resume=first.continuation)
    assert rest.complete is True
    assert [i["id"] for i in rest.items] == [f"i{k:04d}" for k in range(10, 25)]
    assert fake.requests == 2  # pages 2 and 3, nothing beyond


def test_a_page_continuation_carries_the_items_read_and_the_total():
    fake = Fake(25, 10)
    first = _walker("page", fake).collect({"per_page": 10}, Limits(max_pages=2))
    state = decode_continuation(first.continuation.cursor)
    assert state == {"o": "listThings", "s": "page", "c": "3", "n": 20, "t": 25}


def test_a_bare_page_number_resumes_by_estimating_the_earlier_pages():
    """A page number from ``Page.next_cursor`` (no count inside) still ends at the total."""
    fake = Fake(25, 10)
    rest = _walker("page", fake).collect({"per_page": 10}, resume="2")
    assert rest.complete is True and len(rest.items) == 15 and fake.requests == 2


def test_a_forged_count_cannot_make_an_endless_walk():
    """A model handing back a continuation that understates the items read: the walk stops at
    the first empty page with a CONTRACT_VIOLATION instead of requesting pages forever."""
    fake = Fake(25, 10)
    forged = encode_continuation({"o": "listThings", "s": "page", "c": "3", "n": 0})
    result = _walker("page", fake).collect({"per_page": 10}, resume=forged)
    assert result.complete is False
    assert result.codes == ["CONTRACT_VIOLATION"]
    assert "page 4 is empty" in result.reason("CONTRACT_VIOLATION").what
    assert fake.requests == 2


@pytest.mark.parametrize(
    "text",
    [
        "xc1.eyJjIjoiMyJ9.0000000000000000",  # wrong check digest
        "xc1.not-base64!.abc",
        "xc1.only-one-part",
    ],
)
def test_a_damaged_continuation_is_refused(text):
    with pytest.raises(ContinuationMismatch, match="damaged"):
        _walker("page", Fake(5, 2)).collect({"per_page": 2}, resume=text)


def test_a_continuation_of_another_listing_is_refused():
    other = encode_continuation({"o": "listOther", "s": "page", "c": "2", "n": 10})
    with pytest.raises(ContinuationMismatch, match="another listing"):
        _walker("page", Fake(5, 2)).collect({"per_page": 2}, resume=other)


def test_a_negative_count_is_refused():
    bad = encode_continuation({"o": "listThings", "s": "page", "c": "2", "n": -5})
    with pytest.raises(ContinuationMismatch, match="malformed"):
        _walker("page", Fake(5, 2)).collect({"per_page": 2}, resume=bad)


def test_a_total_that_changed_since_the_continuation_is_a_snapshot_change():
    first = _walker("page", Fake(25, 10)).collect({"per_page": 10}, Limits(max_pages=1))
    rest = _walker("page", Fake(26, 10)).collect({"per_page": 10}, resume=first.continuation)
    assert rest.complete is False and rest.codes == ["SNAPSHOT_CHANGED"]
    assert rest.items == [] and rest.continuation.kind == "restart"


@pytest.mark.parametrize("style", ["cursor", "last-item"])
def test_resuming_with_a_changed_invalidating_parameter_is_refused(style):
    """cursor.invalidated-by: [filter, page-size] (a cursor-style declaration): an adapter walk
    carries the parameters' digest in its continuation and refuses before any request."""
    fake = Fake(25, 10)
    walker = _walker(style, fake, invalidated_by=["filter", "page-size"])
    first = walker.collect({"per_page": 10, "tag": "a"}, Limits(max_pages=1))
    fake.requests = 0
    for changed in ({"per_page": 10, "tag": "b"}, {"per_page": 5, "tag": "a"}, {"per_page": 10}):
        with pytest.raises(ContinuationMismatch, match="invalidated-by"):
            walker.collect(changed, resume=first.continuation)
    assert fake.requests == 0
    rest = walker.collect({"per_page": 10, "tag": "a"}, resume=first.continuation)
    assert rest.complete is True and len(rest.items) == 15


def test_without_a_declared_invalidator_the_page_size_may_change():
    fake = Fake(25, 10)
    walker = _walker("cursor", fake, invalidated_by=["filter"])
    first = walker.collect({"per_page": 10}, Limits(max_pages=1))
    rest = walker.collect({"per_page": 5}, resume=first.continuation)
    assert rest.complete is True and len(rest.items) == 15
