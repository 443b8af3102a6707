"""Cost of the shared runtime on the hot path, against hand-written peers in the same run.

1. Adapter conditions: the four ``when`` conditions of the GitHub-search example evaluated on one
   native response through ``runtime/expressions.py``, against the same checks hand-written as
   Python dict lookups (the floor any interpreter of the declaration could reach).
2. Envelope parsing: ``model_validate_json`` of a 200-item page into an envelope with the
   invariant validators, against a plain pydantic model with the same fields and no validators.
3. Tokens: sign + verify of a cursor, and of evidence over 10,000 ids.
"""

import json
import timeit
from typing import Any, ClassVar

from pydantic import BaseModel, Field
from xcompleteness.runtime.envelope import (
    Envelope,
    MorePagesAvailable,
    ResultLimitReached,
    StaleIndex,
    TimeBudgetExceeded,
    code_union,
)
from xcompleteness.runtime.expressions import ResponseView, parse_condition
from xcompleteness.runtime.tokens import TokenSigner

CONDITIONS = [
    {"present": "$response.link.next"},
    {"equals": ["$response.body#/incomplete_results", True]},
    {"gt": ["$response.body#/total_count", 1000]},
    "always",
]
LINK = (
    '<https://api.example.test/search?q=x&page=2>; rel="next", '
    '<https://api.example.test/search?q=x&page=34>; rel="last"'
)


def _best(fn: Any, number: int) -> float:
    """Seconds per call: the best of 50 short runs (robust on a shared, loaded machine)."""
    per_run = max(1, number // 50)
    return min(timeit.repeat(fn, number=per_run, repeat=50)) / per_run


def bench_conditions() -> tuple[float, float]:
    parsed = [parse_condition(c) for c in CONDITIONS]
    body = {"total_count": 1500, "incomplete_results": False, "items": [{"id": 1}] * 30}
    headers = {"Link": LINK, "Content-Type": "application/json"}

    def ours() -> list[bool]:
        response = ResponseView(200, headers, body)  # one view per page, links parsed once
        return [c.holds(response) for c in parsed]

    def by_hand() -> list[bool]:
        link = headers.get("Link", "")
        has_next = 'rel="next"' in link
        return [
            has_next,
            body.get("incomplete_results") is True,
            isinstance(body.get("total_count"), int) and body["total_count"] > 1000,
            True,
        ]

    assert ours() == by_hand()
    return _best(ours, 20_000), _best(by_hand, 20_000)


class Item(BaseModel):
    id: str
    owner: str | None = None
    description: str | None = None


class Page(Envelope):
    declared_reasons: ClassVar[frozenset[str] | None] = frozenset(
        {"MORE_PAGES_AVAILABLE", "RESULT_LIMIT_REACHED", "TIME_BUDGET_EXCEEDED"}
    )
    declared_warnings: ClassVar[frozenset[str] | None] = frozenset({"STALE_INDEX"})
    items: list[Item]
    incomplete_reasons: list[
        code_union([MorePagesAvailable, ResultLimitReached, TimeBudgetExceeded])
    ] = Field(default_factory=list)
    warnings: list[StaleIndex] = Field(default_factory=list)


class PlainPage(BaseModel):
    """The peer: the same wire fields, no invariants, open reasons."""

    items: list[Item]
    complete: bool
    incomplete_reasons: list[dict[str, Any]] = Field(default_factory=list)
    next_cursor: str | None = None
    scope: dict[str, Any] | None = None
    page: dict[str, Any] | None = None
    work: dict[str, Any] | None = None
    warnings: list[dict[str, Any]] = Field(default_factory=list)
    evidence: str | None = None


def bench_envelope() -> tuple[float, float]:
    page = Page.partial_page(
        [{"id": f"svc-{i}", "owner": "ana", "description": "x" * 40} for i in range(200)],
        reasons=[{"code": "RESULT_LIMIT_REACHED", "limit": 1000}],
        next_cursor="c2",
        scope={"resource": "service_accounts", "snapshot": "s1"},
    )
    text = page.model_dump_json()
    assert PlainPage.model_validate_json(text).complete is False
    return (
        _best(lambda: Page.model_validate_json(text), 300),
        _best(lambda: PlainPage.model_validate_json(text), 300),
    )


def bench_tokens() -> tuple[float, float]:
    signer = TokenSigner(b"k" * 32)

    def cursor() -> None:
        token = signer.mint_cursor(
            operation="list", position={"after": "svc-9"}, ttl_seconds=60, query={"q": "x"}
        )
        signer.verify_cursor(token, operation="list", query={"q": "x"})

    ids = [f"svc-{i}" for i in range(10_000)]

    def evidence() -> None:
        token = signer.mint_evidence(
            {"complete": True}, operation="list", ids=ids, ttl_seconds=60, principal="p"
        )
        signer.verify_evidence(token, operation="list", principal="p", ids=ids[:100])

    return _best(cursor, 2_000), _best(evidence, 50)


def main() -> str:
    ours, hand = bench_conditions()
    env, plain = bench_envelope()
    cursor, evidence = bench_tokens()
    payload = json.dumps({"conditions": CONDITIONS})
    return "\n".join(
        [
            "## runtime hot path",
            "",
            "| what | ours | peer (same run) | ratio |",
            "|---|---|---|---|",
            f"| 4 adapter conditions on one response ({len(payload)} B of declarations) "
            f"| {ours * 1e6:.1f} µs | hand-written dict checks {hand * 1e6:.2f} µs "
            f"| {ours / hand:.1f}x |",
            f"| parse a 200-item page with invariants | {env * 1e3:.2f} ms "
            f"| plain pydantic model, no invariants {plain * 1e3:.2f} ms | {env / plain:.2f}x |",
            f"| sign + verify a cursor | {cursor * 1e6:.0f} µs | - | - |",
            f"| mint + verify evidence over 10,000 ids | {evidence * 1e3:.1f} ms | - | - |",
            "",
            "The peer for conditions is a floor (substring test on the Link header, no RFC 8288",
            "parsing); ours parses the header properly, once per page. Tens of microseconds per",
            "page is noise next to one HTTP round trip. The envelope row is the whole cost of",
            "invariants 1-5 plus typed reasons over plain parsing of the same JSON.",
        ]
    )


if __name__ == "__main__":
    print(main())
