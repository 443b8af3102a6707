"""Read one page of a listing from every shard at once, inside the request's time budget.

The shards are queried in parallel; a shard that is down or cannot answer before the deadline is
left out of the page and *named* in the outcome, so the API layer can say SOURCE_UNAVAILABLE
(which shard) or TIME_BUDGET_EXCEEDED (budget and elapsed time) instead of returning a short
page that looks like the end of the data. Nothing here knows about HTTP or tokens.
"""

from __future__ import annotations

import heapq
import time
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_all
from dataclasses import dataclass, field

from .store import (
    Account,
    Query,
    ShardRead,
    ShardRebalancing,
    ShardTimeout,
    ShardUnavailable,
    Store,
)


@dataclass(frozen=True)
class PageScan:
    """What one fan-out produced: merged items and everything that kept it from being whole."""

    items: list[Account]
    more: bool  # responding shards hold rows after the last item
    unavailable: list[str] = field(default_factory=list)  # shard names that failed
    timed_out: list[str] = field(default_factory=list)  # shard names over budget
    rebalancing: list[str] = field(default_factory=list)  # shards whose index is moving
    hidden: bool = False  # matching rows exist that the credential may not read
    stale: list[str] = field(default_factory=list)  # shards reporting a lagging index
    elapsed_ms: int = 0
    shards_planned: int = 0

    @property
    def shards_completed(self) -> int:
        return self.shards_planned - len(self.missing)

    @property
    def missing(self) -> list[str]:
        """Shards whose rows are not in this page, whatever the cause."""
        return self.unavailable + self.timed_out + self.rebalancing

    @property
    def whole(self) -> bool:
        """Every shard answered (the page may still be followed by more pages)."""
        return not self.missing


class Scanner:
    """Fans a query out over the store's shards with a bounded pool of threads."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._pool = ThreadPoolExecutor(
            max_workers=max(4, 4 * len(store.config.shards)), thread_name_prefix="shard"
        )

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)

    def page(
        self,
        query: Query,
        *,
        snapshot: int,
        teams: frozenset[str],
        after: tuple[int, str] | None,
        limit: int | None,
        budget_ms: int,
    ) -> PageScan:
        """Up to ``limit`` items (None: all) in listing order after ``after`` at ``snapshot``."""
        started = time.monotonic()
        deadline = started + budget_ms / 1000
        shards = list(self.store.config.shards)
        fetch = None if limit is None else limit + 1
        futures: dict[str, Future[ShardRead]] = {
            s.name: self._pool.submit(
                self.store.read_shard,
                s,
                query,
                snapshot=snapshot,
                teams=teams,
                after=after,
                limit=fetch,
                deadline=deadline,
            )
            for s in shards
        }
        # Workers enforce the deadline themselves; the grace only covers thread scheduling.
        wait_all(futures.values(), timeout=budget_ms / 1000 + 5.0)
        reads: list[list[Account]] = []
        unavailable: list[str] = []
        timed_out: list[str] = []
        rebalancing: list[str] = []
        hidden = False
        for name, future in futures.items():
            if not future.done():
                timed_out.append(name)
                continue
            try:
                read = future.result()
            except ShardTimeout:
                timed_out.append(name)
                continue
            except ShardUnavailable:
                unavailable.append(name)
                continue
            except ShardRebalancing:
                rebalancing.append(name)
                continue
            reads.append(read.rows)
            hidden = hidden or read.hidden
        merged = list(heapq.merge(*reads, key=Account.key))
        more = limit is not None and len(merged) > limit
        items = merged if limit is None else merged[:limit]
        answered = set(futures) - set(unavailable) - set(timed_out) - set(rebalancing)
        return PageScan(
            items=items,
            more=more,
            unavailable=unavailable,
            timed_out=timed_out,
            rebalancing=rebalancing,
            hidden=hidden,
            stale=[s.name for s in shards if s.stale and s.name in answered],
            elapsed_ms=int((time.monotonic() - started) * 1000),
            shards_planned=len(shards),
        )
