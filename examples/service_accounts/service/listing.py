"""The service's listing and archive rules, on the generated ``server.py`` token helpers.

A listing is a walk over one snapshot. Its cursor (minted by the generated ``ListingTokens``, so
bound to the operation, the filters and the principal) carries the position, how many items were
returned so far (the result cap), whether an earlier page was already incomplete (``taint``: such
a walk can never mint evidence) and a running digest of every id returned; the helper binds the
declared invalidators into it (filters, ordering, and the caller's grants for ``authorization``:
a change is reported, not ignored). On the last page of an untainted walk the service re-reads
the whole listing at the snapshot, checks it is exactly what the pages returned, and mints
evidence over that id set.

The archive verifies the evidence with the generated ``MutationEvidence`` (signature, listing,
principal and grants, expiry, every target inside the id set, voiding warnings, not spent or
revoked on any replica sharing the token store), spends it, then re-checks
each target under the writer lock: still there, not archived, unchanged since the evidenced
snapshot, still visible to the caller. Any failure is a typed refusal and nothing is written.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .config import Principal, ServiceConfig
from .scan import PageScan, Scanner
from .store import Account, Conflict, Query, Store

ORDERING = "id ascending"
_EMPTY_CHAIN = "0" * 64
_INT64 = {"type": "integer", "minimum": -(2**63), "maximum": 2**63 - 1}
POSITION = {
    "type": "object",
    "required": ["after", "returned", "taint", "chain"],
    "properties": {
        "after": {
            "anyOf": [
                {"type": "null"},
                {
                    "type": "array",
                    "minItems": 2,
                    "maxItems": 2,
                    "prefixItems": [_INT64, {"type": "string", "maxLength": 1024}],
                },
            ]
        },
        "returned": {"type": "integer", "minimum": 0, "maximum": 2**53},
        "taint": {"type": "boolean"},
        "chain": {"type": "string", "maxLength": 128},
        "warned": {"type": "array", "maxItems": 256, "items": {"type": "string"}},
    },
}
"""The position a cursor carries; the generated ``ListingTokens.read_cursor`` checks it after
the signature, so a malformed one is CURSOR_INVALID (400), never a 500."""


class ListingError(Exception):
    """A request the listing rules refuse; ``status`` and ``body()`` are the wire answer."""

    def __init__(self, status: int, code: str, message: str, reason: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.reason = reason

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message, "reason": self.reason}}


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


def scan_budget_ms(budget_ms: int) -> int:
    """The part of a request's budget the shards get; the rest is kept for answering.

    A caller that allows 600 ms must get its answer (saying which shard was late) within 600 ms,
    not a timeout: so the fan-out stops early by half the budget, at most 500 ms.
    """
    return max(1, budget_ms - min(budget_ms // 2, 500))


def chain(digest: str, ids: Sequence[str]) -> str:
    """Extend the running id digest; the same ids in the same order give the same digest."""
    value = bytes.fromhex(digest)
    for account_id in ids:
        value = hashlib.sha256(value + account_id.encode("utf-8")).digest()
    return value.hex()


def snapshot_name(version: int) -> str:
    return f"v{version}"


def evidence_principal(principal: Principal) -> str:
    """Evidence is bound to the caller *and* its grants: losing a team voids it."""
    return f"{principal.name}#{principal.grants_digest()}"


class Listings:
    """Listing pages and archives for one store, signing with a generated ``server.Service``."""

    def __init__(self, config: ServiceConfig, store: Store, scanner: Scanner, service: Any):
        self.config = config
        self.store = store
        self.scanner = scanner
        self.service = service
        self._helpers = {
            helper.operation: helper
            for helper in vars(service).values()
            if hasattr(helper, "operation") and hasattr(helper, "signer")
        }

    # -- listing ---------------------------------------------------------------------------

    def page(
        self,
        operation: str,
        query: Query,
        principal: Principal,
        *,
        filters: Mapping[str, Any],
        limit: int | None,
        budget_ms: int | None,
        cursor: str | None,
        mint_evidence: bool,
        frozen: bool = True,
    ) -> Page:
        """One page. ``filters`` are the query parameters as sent (bound into the cursor).

        ``frozen``: every page reads at the snapshot the first page took (a ``frozen`` cursor);
        otherwise each page reads the newest version (a ``live`` cursor, search). Raises the
        generated ``CursorExpiredError`` / ``CursorInvalidError`` or :class:`ListingError`.
        """
        tokens = self._helpers[operation]
        size = min(limit or self.config.default_page_size, self.config.max_page_size)
        budget = min(budget_ms or self.config.default_budget_ms, self.config.max_budget_ms)
        state, snapshot = self._start(tokens, filters, principal, cursor)
        if not frozen:
            snapshot = self.store.current_version()
        after = state["after"]
        scan = self.scanner.page(
            query,
            snapshot=snapshot,
            teams=principal.teams,
            after=None if after is None else (int(after[0]), str(after[1])),
            limit=size,
            budget_ms=scan_budget_ms(budget),
        )
        items, reasons, capped = self._reasons(scan, state, budget)
        warnings = [
            {"code": "STALE_INDEX", "source": s, "message": f"{s} reports a lagging index"}
            for s in scan.stale
        ]
        digest = chain(state["chain"], [a.id for a in items])
        returned = int(state["returned"]) + len(items)
        taint = bool(state["taint"]) or bool(reasons)
        # Warnings never make a page incomplete (invariant 5); they are carried to the evidence,
        # where a mutation declaring them in void-on-warnings refuses it.
        warned = sorted(set(state.get("warned") or ()) | {w["code"] for w in warnings})
        next_cursor = evidence = None
        if scan.more and not capped:
            reasons.append({"code": "MORE_PAGES_AVAILABLE", "message": "more pages follow"})
            position = dict(
                state,
                after=list(items[-1].key()),
                returned=returned,
                taint=taint,
                chain=digest,
                warned=warned,
            )
            next_cursor = tokens.mint_cursor(
                position,
                query=filters,
                principal=principal.name,
                snapshot=snapshot_name(snapshot),
                invalidators=self._invalidators(tokens, principal),
            )
        elif mint_evidence and not taint:
            evidence = self._evidence(
                tokens, query, principal, filters, snapshot, digest, budget, warned
            )
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

    @staticmethod
    def _invalidators(tokens: Any, principal: Principal) -> dict[str, Any]:
        """Values of the declared ``cursor.invalidated-by`` the generated helper cannot know.

        ``authorization``: the caller's grants. The generated ``ListingTokens`` binds them into
        the cursor and answers a changed one with CURSOR_EXPIRED (410, reason
        ``authorization_changed``); filters, page size and ordering it binds by itself.
        """
        declared = tokens.invalidated_by or ()
        return {"authorization": principal.grants_digest()} if "authorization" in declared else {}

    def _start(
        self, tokens: Any, filters: Mapping[str, Any], principal: Principal, cursor: str | None
    ) -> tuple[dict[str, Any], int]:
        if cursor is None:
            state = {"after": None, "returned": 0, "taint": False, "chain": _EMPTY_CHAIN}
            return state, self.store.current_version()
        claims = tokens.read_cursor(
            cursor,
            query=filters,
            principal=principal.name,
            invalidators=self._invalidators(tokens, principal),
            position_schema=POSITION,
        )
        state = claims.data if isinstance(claims.data, dict) else {}
        snapshot = str(claims.snapshot or "")
        if not snapshot.startswith("v") or not snapshot[1:].isdigit():
            raise ListingError(400, "CURSOR_INVALID", "the cursor has no snapshot", "invalid")
        return state, int(snapshot[1:])

    def _evidence(
        self,
        tokens: Any,
        query: Query,
        principal: Principal,
        filters: Mapping[str, Any],
        snapshot: int,
        digest: str,
        budget_ms: int,
        warned: Sequence[str],
    ) -> str | None:
        """Evidence over the listing's whole id set, re-read at the snapshot and cross-checked.

        None when the re-read cannot be done whole in the budget or does not match what the pages
        returned (then the page is still complete, but nothing destructive can rest on it).
        """
        whole = self.scanner.page(
            query,
            snapshot=snapshot,
            teams=principal.teams,
            after=None,
            limit=None,
            budget_ms=scan_budget_ms(budget_ms),
        )
        ids = [a.id for a in whole.items]
        if not whole.whole or whole.hidden or chain(_EMPTY_CHAIN, ids) != digest:
            return None
        return tokens.mint_evidence(
            {"complete": True, "warnings": [{"code": code} for code in warned]},
            ids=ids,
            query=filters,
            principal=evidence_principal(principal),
            snapshot=snapshot_name(snapshot),
        )

    def _reasons(
        self, scan: PageScan, state: dict[str, Any], budget: int
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

    def revoke(self, mutation: str, evidence: str) -> bool:
        """Revoke ``evidence`` for ``mutation`` on every replica sharing the token store."""
        return bool(self._helpers[mutation].revoke(evidence))

    def archive(
        self, mutation: str, ids: Sequence[str], evidence: Any, principal: Principal
    ) -> int:
        """Archive ``ids`` if ``evidence`` proves each is in a complete listing that still holds.

        Returns the version that made the change; raises the generated
        ``EvidenceRejectedError`` or :class:`ListingError` (409 EVIDENCE_REJECTED) otherwise, and
        then nothing was written.
        """
        targets = list(dict.fromkeys(ids))
        helper = self._helpers[mutation]
        claims = helper.verify(evidence, ids=targets, principal=evidence_principal(principal))
        snapshot = str(claims.snapshot or "")
        if not snapshot.startswith("v") or not snapshot[1:].isdigit():
            raise ListingError(409, "EVIDENCE_REJECTED", "the evidence has no snapshot", "invalid")
        version = int(snapshot[1:])

        def still_holds(current: Account | None) -> str | None:
            if current is None or current.team not in principal.teams:
                return "no longer visible"
            if current.status == "archived":
                return "already archived"
            if current.version > version:
                return "changed since the evidenced snapshot"
            return None

        # Single use, across replicas: claim the evidence first (exactly one racing archive wins);
        # give it back if nothing was written.
        helper.spend(evidence, claims)
        try:
            return self.store.archive(targets, check=still_holds)
        except BaseException as exc:
            helper.release(evidence)
            if not isinstance(exc, Conflict):
                raise
            raise ListingError(
                409, "EVIDENCE_REJECTED", f"{exc.account_id} {exc.why}", "target_changed"
            ) from exc
