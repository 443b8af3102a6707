"""Fetchers that connect the walk straight to the fault collection (no HTTP), and scripts."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from xcompleteness.runtime.expressions import ResponseView
from xcompleteness.runtime.walk import PageRequest

from support.fault_server import FaultyCollection

BASE = "http://fault.test"


def native_fetch(coll: FaultyCollection, log: list[PageRequest] | None = None) -> Callable:
    def fetch(req: PageRequest) -> ResponseView:
        if log is not None:
            log.append(req)
        status, headers, body = coll.native({k: str(v) for k, v in req.params.items()})
        return ResponseView(status=status, headers=headers, body=body)

    return fetch


def github_fetch(coll: FaultyCollection, log: list[PageRequest] | None = None) -> Callable:
    def fetch(req: PageRequest) -> ResponseView:
        if log is not None:
            log.append(req)
        params = {k: str(v) for k, v in req.params.items()}
        if req.url is not None:
            params = dict(parse_qsl(urlsplit(req.url).query))
        status, headers, body = coll.github(params, BASE)
        return ResponseView(status=status, headers=headers, body=body)

    return fetch


def scripted(responses: Iterable[tuple[int, dict[str, str], Any]], log: list | None = None):
    """A fetcher that answers from a fixed script (and fails loudly when asked for more)."""
    queue = list(responses)

    def fetch(req: PageRequest) -> ResponseView:
        if log is not None:
            log.append(req)
        assert queue, f"the walk asked for more pages than scripted: {req}"
        status, headers, body = queue.pop(0)
        return ResponseView(status=status, headers=headers, body=body)

    return fetch


def envelope(items, *, reasons=(), next_cursor=None, snapshot="s1", evidence=None, warnings=()):
    """A native page body."""
    reasons = [r if isinstance(r, dict) else {"code": r} for r in reasons]
    return {
        "items": [i if isinstance(i, dict) else {"id": i} for i in items],
        "complete": not reasons,
        "incomplete_reasons": reasons,
        "next_cursor": next_cursor,
        "scope": {"resource": "items", "visibility": "all", "snapshot": snapshot},
        "warnings": list(warnings),
        "evidence": evidence,
    }


class FakeClock:
    """An injectable clock: ``tick`` seconds pass on every fetch (or manually)."""

    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds

    async def asleep(self, seconds: float) -> None:
        self.sleep(seconds)
