"""Items that do not match their schema are data; the envelope stays strictly checked.

Issue 10 item 2, at the walk: the native envelope model validates the page, a bad item is kept as
received with an ITEM_SCHEMA_MISMATCH warning (index within the walk, first three errors, message
at most 500 characters), at most MAX_ITEM_WARNINGS per walk (the last counting the rest).
"""

from __future__ import annotations

from typing import ClassVar

import pytest
from pydantic import BaseModel
from support.fault_server import native_contract
from support.walk_helpers import envelope, scripted
from xcompleteness.runtime.envelope import Envelope
from xcompleteness.runtime.walk import MAX_ITEM_WARNINGS, Walker


class Item(BaseModel):
    id: str
    rank: int


class ItemsPage(Envelope):
    declared_reasons: ClassVar[frozenset[str] | None] = frozenset(
        {"MORE_PAGES_AVAILABLE", "SOURCE_UNAVAILABLE"}
    )
    declared_warnings: ClassVar[frozenset[str] | None] = frozenset({"STALE_INDEX"})
    items: list[Item]


def good(k: int) -> dict:
    return {"id": f"i{k}", "rank": k}


def bad(k: int) -> dict:
    return {"id": f"i{k}", "rank": "x" * 900, "extra": True}


def walk(pages, **kw):
    fetch = scripted([(200, {}, p) for p in pages])
    return Walker(native_contract(), fetch, parse_page=ItemsPage.model_validate, **kw)


def test_a_bad_item_on_a_later_page_is_indexed_within_the_walk():
    pages = [
        envelope([good(0), good(1)], reasons=["MORE_PAGES_AVAILABLE"], next_cursor="c2"),
        envelope([good(2), bad(3)]),
    ]
    result = walk(pages).collect({})
    assert result.complete is True
    assert isinstance(result.items[2], Item) and result.items[3] == bad(3)
    (w,) = result.warnings
    assert w.code == "ITEM_SCHEMA_MISMATCH" and w.index == 3
    assert w.errors[0]["loc"] == "/rank" and w.errors[0]["type"] == "int_parsing"
    assert len(w.message) <= 500


def test_warnings_are_capped_per_walk_and_the_last_counts_the_rest():
    n = MAX_ITEM_WARNINGS + 7
    result = walk([envelope([bad(k) for k in range(n)])]).collect({})
    mismatches = [w for w in result.warnings if w.code == "ITEM_SCHEMA_MISMATCH"]
    assert len(mismatches) == MAX_ITEM_WARNINGS and len(result.items) == n
    assert mismatches[-1].more == 7 and "7 more item(s)" in mismatches[-1].message
    assert all(w.more is None for w in mismatches[:-1])
    assert result.complete is True


def test_server_warnings_and_item_warnings_are_kept_side_by_side():
    page = envelope([bad(0)], warnings=[{"code": "STALE_INDEX", "source": "idx"}])
    result = walk([page]).collect({})
    assert [w.code for w in result.warnings] == ["STALE_INDEX", "ITEM_SCHEMA_MISMATCH"]


@pytest.mark.parametrize(
    ("broken", "what"),
    [
        ({"complete": "yes"}, "boolean 'complete'"),
        (
            {"incomplete_reasons": [{"code": "NOT_DECLARED"}], "complete": False},
            "undeclared reason code NOT_DECLARED",
        ),
        ({"next_cursor": "dangling"}, "MORE_PAGES_AVAILABLE"),
    ],
)
def test_the_envelope_itself_stays_strictly_checked(broken, what):
    page = {**envelope([bad(0)]), **broken}
    result = walk([page]).collect({})
    assert result.complete is False and result.codes == ["CONTRACT_VIOLATION"]
    assert what in result.reason("CONTRACT_VIOLATION").what


def test_strict_items_names_the_item_in_the_violation():
    result = walk([envelope([good(0), bad(1)])], strict_items=True).collect({})
    assert result.codes == ["CONTRACT_VIOLATION"] and result.items == []
    what = result.reason("CONTRACT_VIOLATION").what
    assert what.startswith("strict_items: item 1 does not match") and "'/rank'" in what
    assert len(what) <= 500


def test_per_call_strict_items_overrides_the_walker_default():
    result = walk([envelope([bad(0)])]).collect({}, strict_items=True)
    assert result.codes == ["CONTRACT_VIOLATION"]


# -- item 8: errors tell what broke ------------------------------------------------------------


def test_walk_failed_names_the_rule_and_shows_the_what():
    from xcompleteness.runtime.walk import WalkFailed

    page = {**envelope([good(0)]), "complete": "yes"}
    with pytest.raises(WalkFailed) as err:
        walk([page]).page({})
    assert str(err.value) == (
        "no page could be read: CONTRACT_VIOLATION: the envelope has no boolean 'complete'"
    )
    assert err.value.what == "the envelope has no boolean 'complete'"
    assert err.value.codes == ["CONTRACT_VIOLATION"]


def test_walk_failed_for_a_strict_item_names_the_item():
    from xcompleteness.runtime.walk import WalkFailed

    with pytest.raises(WalkFailed, match=r"CONTRACT_VIOLATION: strict_items: item 1 does not"):
        walk([envelope([good(0), bad(1)])], strict_items=True).page({})


def test_walk_failed_shows_details_and_message_of_other_reasons():
    from xcompleteness.runtime.walk import WalkFailed

    expired = (410, {}, {"error": {"code": "CURSOR_EXPIRED", "message": "gone"}})
    walker = Walker(native_contract(), scripted([expired]), parse_page=ItemsPage.model_validate)
    with pytest.raises(WalkFailed) as err:
        walker.page({}, resume="c9")
    assert str(err.value) == "no page could be read: CURSOR_EXPIRED" and err.value.what is None
