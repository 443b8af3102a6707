"""Hypothesis stateful tests: the walk never claims more completeness than it earned.

Collections are larger than every configured limit, page sizes change between requests, and
rows are inserted, deleted and moved while a walk is in progress. The invariants:

- with a declared snapshot (``frozen`` tokens, or ``live`` reads that report the version they
  saw), a result says complete only if every item of that snapshot was returned exactly once, in
  order;
- without one (``snapshot: none``), a complete result makes no point-in-time claim
  (``snapshot is None``) and still returned every item that stayed put during the walk exactly
  once (keyset cursors);
- an adapter over live data with no declared snapshot is exact when nothing moved;
- always: ``complete`` iff no reasons, a continuation iff incomplete, client reasons carry
  origin ``client``, and the client's own page limit is never exceeded.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)
from support.fault_server import Faults, FaultyCollection, github_contract, native_contract
from support.walk_helpers import github_fetch, native_fetch
from xcompleteness.runtime.walk import Limits, Walker

SETTINGS = settings(
    max_examples=80,
    stateful_step_count=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
CLIENT = {
    "CLIENT_PAGE_LIMIT",
    "CLIENT_ITEM_LIMIT",
    "CLIENT_DEADLINE_EXCEEDED",
    "CONTRACT_VIOLATION",
    "HTTP_ERROR",  # issue 19: an unmapped error after pages were read
    "DUPLICATE_ITEMS",  # issue 19: an id read twice although the cursor is declared frozen
    "DUPLICATES_UNCHECKED",  # issue 19: a frozen walk past the bound on remembered ids
}
bounded = st.builds(
    Limits,
    max_pages=st.none() | st.integers(1, 6),
    max_items=st.none() | st.integers(1, 80),
)
limits_st = st.just(Limits()) | bounded  # half the walks are unbounded, so they can complete


def check_common(result, limits: Limits) -> None:
    assert result.complete == (not result.reasons)
    assert (result.continuation is None) == result.complete
    for reason in result.reasons:
        assert reason.origin == ("client" if reason.code in CLIENT else "server") or (
            reason.code == "SNAPSHOT_CHANGED" and reason.origin == "client"
        )
    if limits.max_pages is not None:
        assert result.pages <= limits.max_pages
    if result.continuation is not None and result.continuation.kind == "next_cursor":
        assert result.continuation.cursor


class NativeWalk(RuleBasedStateMachine):
    """A native cursor listing read page by page while the data changes."""

    @initialize(
        n=st.integers(60, 160),
        mode=st.sampled_from(["frozen", "live", "none"]),
        size=st.integers(1, 40),
        limits=limits_st,
    )
    def start(self, n, mode, size, limits):
        self.mode = mode
        self.coll = FaultyCollection(n, snapshot=mode)
        self.size = size
        self.limits = limits
        self.start_ids = set(self.coll.alive_ids())
        self.moved: set[str] = set()
        self.returned: list[str] = []
        inner = native_fetch(self.coll)

        def fetch(req):
            return inner(type(req)({**req.params, "limit": self.size}, req.url, req.timeout))

        snapshot = "none" if mode == "none" else "token"
        walker = Walker(native_contract(snapshot), fetch)
        self.stream = walker.iter_pages({}, limits)
        self.done = False

    def _touch(self, item_id: str) -> None:
        self.moved.add(item_id)

    @precondition(lambda self: not self.done)
    @rule(size=st.integers(1, 40))
    def resize(self, size):
        self.size = size

    @precondition(lambda self: not self.done)
    @rule(rank=st.integers(-5, 200))
    def insert(self, rank):
        self._touch(self.coll.insert(rank=rank))

    @precondition(lambda self: not self.done)
    @rule(data=st.data())
    def delete(self, data):
        alive = self.coll.alive_ids()
        if alive:
            victim = data.draw(st.sampled_from(alive))
            self.coll.delete(victim)
            self._touch(victim)

    @precondition(lambda self: not self.done)
    @rule(data=st.data(), rank=st.integers(-5, 200))
    def reorder(self, data, rank):
        alive = self.coll.alive_ids()
        if alive:
            item = data.draw(st.sampled_from(alive))
            self.coll.reorder(item, rank)
            self._touch(item)

    @precondition(lambda self: not self.done)
    @rule()
    def expire_cursors(self):
        self.coll.faults = Faults(expire_from=self.coll.requests + 1)

    @precondition(lambda self: not self.done)
    @rule()
    def next_page(self):
        try:
            page = next(self.stream)
        except StopIteration:
            self.done = True
            self.check()
            return
        self.returned.extend(item["id"] for item in page.items)

    @rule()
    def look(self):
        """Always available, so a finished walk still has a rule to run."""

    @invariant()
    def limits_hold(self):
        if self.limits.max_pages is not None:
            assert len(self.returned) <= self.limits.max_pages * 40 + 40

    def teardown(self):
        if not self.done:
            for page in self.stream:
                self.returned.extend(item["id"] for item in page.items)
            self.check()

    def check(self):
        result = self.stream.result
        check_common(result, self.limits)
        assert result.item_count == len(self.returned)
        if not result.complete:
            return
        if self.mode in ("frozen", "live"):
            version = int(str(result.snapshot).removeprefix("v"))
            assert self.returned == self.coll.alive_ids(version)
        else:
            assert result.snapshot is None
            stayed = self.start_ids - self.moved
            for item in stayed:
                assert self.returned.count(item) == 1, item


class AdapterWalk(RuleBasedStateMachine):
    """A GitHub-like adapter (Link header, result cap, incomplete flag) over static data."""

    @initialize(
        n=st.integers(0, 1300),
        per_page=st.integers(1, 100),
        limits=limits_st,
        incomplete_from=st.none() | st.integers(1, 20),
    )
    def start(self, n, per_page, limits, incomplete_from):
        self.coll = FaultyCollection(
            n, snapshot="none", faults=Faults(incomplete_from=incomplete_from)
        )
        self.limits = limits
        self.stream = Walker(github_contract(), github_fetch(self.coll)).iter_items(
            {"per_page": per_page}, limits
        )
        self.returned: list[str] = []
        self.done = False

    @precondition(lambda self: not self.done)
    @rule(k=st.integers(1, 150))
    def read(self, k):
        for _ in range(k):
            try:
                self.returned.append(next(self.stream)["id"])
            except StopIteration:
                self.done = True
                self.check()
                return

    @rule()
    def look(self):
        """Always available, so a finished walk still has a rule to run."""

    def teardown(self):
        if not self.done:
            self.returned.extend(item["id"] for item in self.stream)
            self.check()

    def check(self):
        result = self.stream.result
        check_common(result, self.limits)
        alive = self.coll.alive_ids()
        if result.complete:
            assert self.returned == alive and len(alive) <= 1000
            assert result.snapshot is None
        if len(alive) > 1000:
            assert "RESULT_LIMIT_REACHED" in result.codes or not result.complete
        assert self.returned == alive[: len(self.returned)]  # no skip, no duplicate


TestNativeWalk = NativeWalk.TestCase
TestNativeWalk.settings = SETTINGS
TestAdapterWalk = AdapterWalk.TestCase
TestAdapterWalk.settings = settings(SETTINGS, max_examples=25)
