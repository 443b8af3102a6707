"""The service's listing and archive rules, independent of HTTP and of the token format.

A listing is a walk over one snapshot. Its cursor carries the snapshot, the position, how many
items were returned so far (the result cap), whether an earlier page was already incomplete
(``taint``: such a walk can never mint evidence), and a running digest of every id returned (the
id set the evidence will bind). The archive re-runs the listing at the evidence's snapshot and
re-checks each target under the writer lock; any mismatch is a typed refusal, never a partial
write.

Tokens are minted and verified by a :class:`Signer` supplied by the app (the generated
``server.py`` helpers); this module only decides what goes into them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .config import Principal, ServiceConfig
from .scan import PageScan, Scanner
from .store import Account, Conflict, Query, Store

ORDERING = "id ascending"
VERIFY_BUDGET_MS = 10_000
_EMPTY_CHAIN = "0" * 64


class TokenError(Exception):
    """A cursor or token cannot be used: ``code`` CURSOR_INVALID (400) or CURSOR_EXPIRED (410).

    ``reason`` says why in a stable word (``expired``, ``invalid``, ``filter_changed``,
    ``authorization_changed``) so a caller can tell a credential change from a plain expiry.
    """

    def __init__(self, code: str, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.reason = reason or ("expired" if code == "CURSOR_EXPIRED" else "invalid")


class Signer(Protocol):
    """Mints and verifies signed, expiring tokens for one purpose (cursor, evidence)."""

    def mint(self, purpose: str, claims: dict[str, Any], ttl_s: int) -> str: ...

    def verify(self, purpose: str, token: str) -> dict[str, Any]:
        """Return the claims; raise :class:`TokenError` (expired or invalid)."""
        ...


@dataclass(frozen=True)
class Page:
    """One page of a listing, ready to be put into the generated envelope."""

    items: list[Account]
    reasons: list[dict[str, Any]]  # {"code": ..., detail: ..., "message": ...}
    warnings: list[dict[str, Any]]
    snapshot: int
    next_cursor: str | None
    evidence: str | None
    requested_size: int
    sources_planned: int
    sources_completed: int
    elapsed_ms: int

    @property
    def complete(self) -> bool:
        return not self.reasons


@dataclass
class Rejection(Exception):
    """An archive refused because of its evidence (HTTP 409 EVIDENCE_REJECTED)."""

    reason: str
    message: str
    ids: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return f"{self.reason}: {self.message}"


def scan_budget_ms(budget_ms: int) -> int:
    """The part of a request's budget the shards get; the rest is kept for answering.

    A caller that allows 250 ms must get its answer (saying which shard was late) within 250 ms,
    not a timeout: so the fan-out stops early by half the budget, at most 500 ms.
    """
    return max(1, budget_ms - min(budget_ms // 2, 500))


def chain(digest: str, ids: Sequence[str]) -> str:
    """Extend the running id digest; the same ids in the same order give the same digest."""
    value = bytes.fromhex(digest)
    for account_id in ids:
        value = hashlib.sha256(value + account_id.encode("utf-8")).digest()
    return value.hex()


class Listings:
    """Listing pages and archives for one store (one instance per service)."""

    def __init__(self, config: ServiceConfig, store: Store, scanner: Scanner, signer: Signer):
        self.config = config
        self.store = store
        self.scanner = scanner
        self.signer = signer

    # -- listing ---------------------------------------------------------------------------

    def page(
        self,
        operation: str,
        query: Query,
        principal: Principal,
        *,
        limit: int | None,
        budget_ms: int | None,
        cursor: str | None,
        mint_evidence: bool,
        frozen: bool = True,
    ) -> Page:
        """One page; raises :class:`TokenError` for an expired or invalid cursor.

        ``frozen``: every page reads at the snapshot the first page took (a ``frozen`` cursor);
        otherwise each page reads the newest version (a ``live`` cursor, search).
        """
        size = min(limit or self.config.default_page_size, self.config.max_page_size)
        budget = min(budget_ms or self.config.default_budget_ms, self.config.max_budget_ms)
        state = self._start(operation, query, principal, cursor)
        snapshot = int(state["snap"]) if frozen else self.store.current_version()
        after = state["after"]
        scan = self.scanner.page(
            query,
            snapshot=snapshot,
            teams=principal.teams,
            after=None if after is None else (int(after[0]), str(after[1])),
            limit=size,
            budget_ms=scan_budget_ms(budget),
        )
        items, reasons, capped = self._reasons(scan, state, size, budget)
        warnings = [
            {"code": "STALE_INDEX", "source": s, "message": f"{s} reports a lagging index"}
            for s in scan.stale
        ]
        digest = chain(state["chain"], [a.id for a in items])
        returned = int(state["returned"]) + len(items)
        taint = bool(state["taint"]) or bool(reasons) or bool(warnings)
        next_cursor = evidence = None
        if scan.more and not capped:
            reasons.append({"code": "MORE_PAGES_AVAILABLE", "message": "more pages follow"})
            position = list(items[-1].key())
            claims = dict(state, after=position, returned=returned, taint=taint, chain=digest)
            next_cursor = self.signer.mint("cursor", claims, self.config.cursor_ttl_s)
        elif mint_evidence and not taint:
            claims = {k: state[k] for k in ("op", "q", "principal", "grants", "snap")}
            claims.update(n=returned, chain=digest)
            evidence = self.signer.mint("evidence", claims, self.config.evidence_ttl_s)
        return Page(
            items=items,
            reasons=reasons,
            warnings=warnings,
            snapshot=snapshot,
            next_cursor=next_cursor,
            evidence=evidence,
            requested_size=size,
            sources_planned=scan.shards_planned,
            sources_completed=scan.shards_completed,
            elapsed_ms=scan.elapsed_ms,
        )

    def _start(
        self, operation: str, query: Query, principal: Principal, cursor: str | None
    ) -> dict[str, Any]:
        if cursor is None:
            return {
                "op": operation,
                "q": query.key(),
                "principal": principal.name,
                "grants": principal.grants_digest(),
                "snap": self.store.current_version(),
                "after": None,
                "returned": 0,
                "taint": False,
                "chain": _EMPTY_CHAIN,
            }
        state = self.signer.verify("cursor", cursor)
        if state.get("op") != operation or state.get("q") != query.key():
            raise TokenError(
                "CURSOR_INVALID",
                "the cursor belongs to another operation or another filter",
                "filter_changed",
            )
        if (state.get("principal"), state.get("grants")) != (
            principal.name,
            principal.grants_digest(),
        ):
            # invalidated-by: authorization. The declared answer to a cursor that can no longer
            # be used is CURSOR_EXPIRED (restart); `reason` says it was the credential.
            raise TokenError(
                "CURSOR_EXPIRED",
                "the credential or its grants changed since this listing started;"
                " restart the listing",
                "authorization_changed",
            )
        return state

    def _reasons(
        self, scan: PageScan, state: dict[str, Any], size: int, budget: int
    ) -> tuple[list[Account], list[dict[str, Any]], bool]:
        reasons: list[dict[str, Any]] = []
        for name in scan.unavailable:
            reasons.append(
                {"code": "SOURCE_UNAVAILABLE", "source": name, "message": f"{name} is unavailable"}
            )
        if scan.timed_out:
            reasons.append(
                {
                    "code": "TIME_BUDGET_EXCEEDED",
                    "budget_ms": budget,
                    "elapsed_ms": scan.elapsed_ms,
                    "message": f"{', '.join(scan.timed_out)} did not answer within the budget",
                }
            )
        for name in scan.rebalancing:
            reasons.append(
                {
                    "code": "SHARD_REBALANCING",
                    "shard": name,
                    "message": f"{name} is rebalancing; its rows are skipped until the move ends",
                }
            )
        if scan.hidden:
            reasons.append(
                {
                    "code": "VISIBILITY_RESTRICTED",
                    "excluded": "service accounts of teams this credential cannot read",
                    "message": "some matching accounts are not visible to this credential",
                }
            )
        items = scan.items
        room = self.config.result_limit - int(state["returned"])
        capped = len(items) > room or (len(items) == room and scan.more)
        if capped:
            items = items[: max(room, 0)]
            reasons.append(
                {
                    "code": "RESULT_LIMIT_REACHED",
                    "limit": self.config.result_limit,
                    "message": f"stopped at the configured limit of {self.config.result_limit}",
                }
            )
        return items, reasons, capped

    # -- archive ---------------------------------------------------------------------------

    def archive(
        self, ids: Sequence[str], evidence: str, principal: Principal, *, operation: str
    ) -> int:
        """Archive ``ids`` if ``evidence`` proves each is in a complete listing that still holds.

        Returns the version that made the change; raises :class:`Rejection` otherwise (and then
        nothing was written).
        """
        targets = list(dict.fromkeys(ids))
        if not targets:
            raise Rejection("no_targets", "name at least one account to archive")
        try:
            claims = self.signer.verify("evidence", evidence)
        except TokenError as exc:
            reason = "expired" if exc.code.endswith("EXPIRED") else "invalid"
            raise Rejection(reason, f"the evidence token is {reason}") from exc
        if claims.get("op") != operation:
            raise Rejection("wrong_operation", "the evidence comes from another operation")
        if (claims.get("principal"), claims.get("grants")) != (
            principal.name,
            principal.grants_digest(),
        ):
            raise Rejection(
                "principal_changed", "the evidence was minted for another credential or grants"
            )
        snapshot = int(claims["snap"])
        query = Query.from_key(claims["q"])
        listed = self.scanner.page(
            query,
            snapshot=snapshot,
            teams=principal.teams,
            after=None,
            limit=None,
            budget_ms=VERIFY_BUDGET_MS,
        )
        if not listed.whole:
            raise Rejection(
                "unverifiable",
                "the listing cannot be re-read right now: " + ", ".join(listed.missing),
            )
        listed_ids = [a.id for a in listed.items]
        if len(listed_ids) != claims["n"] or chain(_EMPTY_CHAIN, listed_ids) != claims["chain"]:
            raise Rejection("listing_changed", "the listing no longer matches the evidence")
        known = set(listed_ids)
        outside = [i for i in targets if i not in known]
        if outside:
            raise Rejection(
                "target_outside_evidence",
                f"{len(outside)} target(s) were not in the evidenced listing",
                outside,
            )

        def unchanged(current: Account | None) -> str | None:
            if current is None or current.status == "archived":
                return "already archived"
            if current.version > snapshot:
                return "changed since the evidenced snapshot"
            return None

        try:
            return self.store.archive(targets, check=unchanged)
        except Conflict as exc:
            raise Rejection("target_changed", str(exc), [exc.account_id]) from exc
