"""The MCP server's own evidence tokens: minted from complete listings, verified before mutations.

Why a module of its own: this is the gate that keeps an agent from a destructive action over the
unreturned part of a partial answer (DESIGN.md §5 invariants 9-10). :class:`EvidenceKeeper` mints
a token (its own secret, through :mod:`.tokens`) over the exact id set of a complete listing and
verifies it before a mutation calls the API: forged, expired, another operation, another
principal, already used, voided by a declared warning, or targets outside the listed ids are all
refused with stable codes (:class:`Refused`). A token cannot be minted from an incomplete
listing: :meth:`EvidenceKeeper.mint` refuses one, and nothing else signs.

The API's own evidence token (if the listing returned one) stays on the server, keyed by the
token id; the mutation fills the body field declared by ``evidence.token`` with it, so the model
never supplies it.

Spent token ids, revocations and the kept API tokens live in a :class:`~.store.TokenStore`
(memory by default; a SQLite file or Redis shared by several MCP servers, so evidence spent on one
is refused on every other and a restart forgets nothing). A mutation *claims* its token before it
calls the API (of two servers racing on one token exactly one wins) and releases the claim if the
call fails. Standard library only (plus the siblings ``tokens`` and ``store``).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .store import API, REVOKED, USED, MemoryStore, TokenStore
from .tokens import TokenError, TokenExpired, TokenMismatch, TokenSigner

__all__ = [
    "MAX_EVIDENCE_IDS",
    "EvidenceGrant",
    "EvidenceKeeper",
    "Refused",
    "principal_of",
]

MAX_EVIDENCE_IDS = 10_000
"""Above this many ids no token is minted (the token carries the ids; say so, never truncate)."""


class Refused(Exception):
    """Evidence verification failed; ``codes`` are stable reason codes (tests assert on them)."""

    def __init__(self, codes: Sequence[str], *, outside: Sequence[str] = ()) -> None:
        self.codes = tuple(codes)
        self.outside = tuple(outside)
        super().__init__(", ".join(self.codes))


@dataclass(frozen=True)
class EvidenceGrant:
    """A verified token: what it authorises and the API evidence that goes with it."""

    jti: str
    operation: str
    ids: frozenset[str]
    warnings: tuple[str, ...]
    api_token: str | None
    expires_at: float = 0.0


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _canon(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def principal_of(
    base_url: str, headers: Mapping[str, str], params: Mapping[str, str] | None = None
) -> str:
    """A stable digest naming the credential the server acts as (never the secret itself): the
    base URL, the headers and the query parameters the host sends on every call (a query
    credential such as Google's ``key`` counts exactly as a header one)."""
    material: dict[str, Any] = {
        "base_url": base_url.rstrip("/"),
        "headers": sorted((k.lower(), v) for k, v in headers.items()),
    }
    if params:
        material["params"] = sorted((str(k), str(v)) for k, v in params.items())
    return hashlib.sha256(_canon(material)).hexdigest()[:32]


class EvidenceKeeper:
    """Mints and verifies the MCP server's evidence tokens through :mod:`.tokens`.

    The token (``TokenSigner``, purpose ``evidence``, the MCP server's own secret) binds the
    operation, a digest of the query, the principal, the sorted id set, the listing's warning
    codes, issue and expiry times, and a random token id (in the token's data). Spent token
    ids, revocations and the API's own evidence are kept in ``store`` (default: this process's
    memory, forgotten on restart, which refuses, never authorises; share a SQLite file or Redis
    between replicas, together with the secret).
    """

    def __init__(
        self,
        secret: bytes,
        principal: str,
        *,
        clock: Callable[[], float] = time.time,
        store: TokenStore | None = None,
    ) -> None:
        self._signer = TokenSigner(secret, clock=clock)
        self._clock = clock
        self.principal = principal
        self.store: TokenStore = store if store is not None else MemoryStore(clock=clock)

    def mint(
        self,
        *,
        operation: str,
        query: Mapping[str, Any],
        envelope: Mapping[str, Any],
        ids: Iterable[str],
        ttl_s: float,
        api_token: str | None = None,
    ) -> str:
        """Sign evidence over ``ids``; raises ``ValueError`` unless ``envelope`` is complete."""
        comp = envelope.get("completeness") or {}
        complete = (
            envelope.get("status") == "complete"
            and comp.get("complete") is True
            and not comp.get("reasons")
        )
        if not complete:
            raise ValueError("evidence can only be minted from a complete result")
        id_list = sorted(set(ids))
        if len(id_list) > MAX_EVIDENCE_IDS:
            raise ValueError(f"more than {MAX_EVIDENCE_IDS} ids; no evidence minted")
        jti = _b64(os.urandom(12))
        token = self._signer.sign(
            "evidence",
            operation=operation,
            ttl_seconds=ttl_s,
            query=query,
            principal=self.principal,
            data={"jti": jti},
            ids=id_list,
            warnings=sorted({str(w.get("code")) for w in envelope.get("warnings") or []}),
        )
        if api_token is not None:
            expires = self._clock() + max(1.0, float(ttl_s)) + 1.0
            self.store.claim(API, jti, expires_at=expires, value=api_token)
        return token

    def verify(
        self,
        token: Any,
        *,
        operation: str,
        targets: Sequence[str] | None,
        void_on_warnings: Iterable[str] = (),
        needs_api_token: bool = False,
    ) -> EvidenceGrant:
        """Check ``token`` for a mutation; raises :class:`Refused` with the applicable codes.

        Authenticity and bindings are checked first (the first failure is reported: a token for
        someone else is refused as such); for an authentic, bound token every further problem
        (used, voiding warning, missing or outside targets) is reported together.
        """
        if token is None or token == "":
            raise Refused(["EVIDENCE_MISSING"] + ([] if targets else ["TARGETS_MISSING"]))
        try:
            claims = self._signer.verify(
                token,
                purpose="evidence",
                operation=operation,
                principal=self.principal,
                check_query=False,
            )
        except TokenMismatch as exc:
            code = {
                "operation": "EVIDENCE_WRONG_OPERATION",
                "principal": "EVIDENCE_WRONG_PRINCIPAL",
            }
            raise Refused([code.get(exc.field, "EVIDENCE_INVALID")]) from None
        except TokenExpired:
            raise Refused(["EVIDENCE_EXPIRED"]) from None
        except TokenError:
            raise Refused(["EVIDENCE_INVALID"]) from None
        data = claims.data if isinstance(claims.data, Mapping) else {}
        jti = data.get("jti")
        if claims.ids is None or not isinstance(jti, str):
            raise Refused(["EVIDENCE_INVALID"])
        codes: list[str] = []
        if self.store.get(REVOKED, jti) is not None:
            codes.append("EVIDENCE_REVOKED")
        if self.store.get(USED, jti) is not None:
            codes.append("EVIDENCE_ALREADY_USED")
        api_token = self.store.get(API, jti)
        if set(claims.warnings) & set(void_on_warnings):
            codes.append("EVIDENCE_VOIDED_BY_WARNING")
        if needs_api_token and api_token is None and not codes:
            # The listing's API gave no evidence of its own (or this process forgot it); other
            # findings explain more, so this is reported only alone. A spent token's is gone.
            codes.append("EVIDENCE_UNKNOWN")
        ids = frozenset(claims.ids)
        outside: list[str] = []
        if not targets:
            codes.append("TARGETS_MISSING")
        else:
            outside = sorted({str(t) for t in targets} - ids)
            if outside:
                codes.append("TARGETS_OUTSIDE_EVIDENCE")
        if codes:
            raise Refused(codes, outside=outside)
        return EvidenceGrant(
            jti, claims.operation, ids, claims.warnings, api_token, float(claims.expires_at)
        )

    def _expiry(self, grant: EvidenceGrant) -> float:
        return grant.expires_at + 1.0 if grant.expires_at else self._clock() + 86_400.0

    def claim(self, grant: EvidenceGrant) -> bool:
        """Spend a verified token before its mutation runs; False when another call (on any
        server sharing the store) already did: exactly one of racing callers gets True."""
        return self.store.claim(USED, grant.jti, expires_at=self._expiry(grant))

    def release(self, grant: EvidenceGrant) -> None:
        """Undo :meth:`claim` when the mutation failed (the API refused or was unreachable)."""
        self.store.release(USED, grant.jti)

    def consume(self, grant: EvidenceGrant) -> None:
        """Mark a token used and drop its API evidence (a second use is refused)."""
        self.claim(grant)
        self.store.release(API, grant.jti)

    def revoke(self, token: str) -> bool:
        """Revoke an authentic evidence token everywhere the store is shared; False when it is
        not an evidence token of this server (forged, malformed) or already past its expiry."""
        try:
            claims = self._signer.inspect(token)
        except TokenError:
            return False
        data = claims.data if isinstance(claims.data, Mapping) else {}
        jti = data.get("jti")
        if claims.purpose != "evidence" or not isinstance(jti, str):
            return False
        if claims.expires_at <= self._clock():
            return False
        self.store.claim(REVOKED, jti, expires_at=claims.expires_at + 1.0)
        return True
