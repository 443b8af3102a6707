"""Signed, versioned, expiring tokens for cursors, snapshots and mutation evidence.

A token is ``v1.<payload>.<signature>``: the payload is base64url (no padding) of compact JSON,
the signature is base64url of HMAC-SHA256 over the ASCII text ``v1.<payload>``. Verification
compares the signature *text* in constant time (``hmac.compare_digest``) before anything in the
payload is decoded, so a forged token never reaches the JSON parser or the decompressor, and any
change to any character (including base64's unused trailing bits) is rejected.

The payload binds: the purpose (``cursor`` | ``snapshot`` | ``evidence``), the operation, a
canonical hash of the query parameters, a digest of the principal, an optional snapshot, issued-at
and expiry, optional service data (a cursor position), optional named values (``binds``: what a
cursor's declared ``invalidated-by`` names besides the filters, stored as digests) and, for
evidence, the id set. Tokens are
signed, not encrypted: whoever holds one can read it, so the principal and the query are stored as
digests only.

Evidence id sets are stored as the sorted, de-duplicated ids themselves (newline-joined, zlib
compressed, base64url) plus their SHA-256 digest. The ids are needed because verification must
prove a *subset* (a mutation may act on some of the listed ids) without server-side state; a
digest alone could only prove equality. The holder already received those ids in the listing, so
carrying them leaks nothing; compression keeps a 10k-id token around tens of kilobytes, and the
decompressed size is capped. The digest lets logs and other services compare sets cheaply.

Key rotation: a signer takes a list of secrets; the first signs, all verify.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

__all__ = [
    "PURPOSES",
    "EvidenceVoided",
    "TokenClaims",
    "TokenError",
    "TokenExpired",
    "TokenInvalid",
    "TokenMismatch",
    "TokenSigner",
    "bind_digest",
    "ids_digest",
    "principal_digest",
    "query_hash",
]

VERSION: Final = "v1"
PURPOSES: Final = ("cursor", "snapshot", "evidence")
MAX_TOKEN_CHARS: Final = 4_000_000
MAX_IDS_BYTES: Final = 64_000_000
MIN_SECRET_BYTES: Final = 16


class TokenError(Exception):
    """Base of every token failure. ``reason`` is a stable snake_case code for responses/logs
    (the EVIDENCE_REJECTED ``reason`` of DESIGN.md §4, or why a cursor is CURSOR_INVALID)."""

    reason: str = "invalid"

    def __init__(self, message: str, *, reason: str | None = None) -> None:
        super().__init__(message)
        if reason is not None:
            self.reason = reason


class TokenInvalid(TokenError):
    """Malformed, forged, tampered, unknown version, or signed with a key no longer accepted."""

    reason = "invalid"


class TokenExpired(TokenError):
    """Authentic but past its expiry: a cursor must be answered with CURSOR_EXPIRED (410)."""

    reason = "expired"


class TokenMismatch(TokenError):
    """Authentic but for something else: wrong purpose, operation, query, principal, snapshot,
    a bound value (``binds``: page size, ordering, authorization ...), or (evidence) a target id
    outside the evidence. ``field`` names which."""

    def __init__(self, field: str, message: str | None = None) -> None:
        name = field.replace("-", "_")
        reason = "target_outside_evidence" if field == "ids" else f"{name}_mismatch"
        super().__init__(message or f"the token was issued for a different {field}", reason=reason)
        self.field = field


class EvidenceVoided(TokenError):
    """Authentic evidence voided by a warning the mutation declares (``void-on-warnings``)."""

    reason = "voided_by_warning"


# ------------------------------------------------------------------------------------------
# canonical digests


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def query_hash(params: Mapping[str, Any] | None, *, exclude: Iterable[str] = ()) -> str:
    """A canonical SHA-256 of query parameters: the same query hashes the same however spelled.

    Parameters named in ``exclude`` (the cursor and page-size parameters, which change between
    pages of one listing) and parameters whose value is None are left out. Values are compared
    as their wire text (``50`` and ``"50"`` are one query, ``True`` is ``"true"``); a list keeps
    its order (repeated parameters may be order-sensitive).
    """
    skip = set(exclude)
    canon: list[list[Any]] = []
    for key in sorted((params or {}).keys(), key=str):
        if key in skip:
            continue
        value = (params or {})[key]
        if value is None:
            continue
        values = value if isinstance(value, (list, tuple)) else [value]
        canon.append([str(key), [_scalar(v) for v in values if v is not None]])
    return _sha256(json.dumps(canon, separators=(",", ":"), ensure_ascii=False).encode())


def bind_digest(name: str, value: Any) -> str:
    """A bound value as stored in a token (a digest: tokens are readable by their holder)."""
    values = value if isinstance(value, (list, tuple)) else [value]
    text = json.dumps([_scalar(v) for v in values if v is not None], ensure_ascii=False)
    return _sha256(f"bind\x00{name}\x00{text}".encode())[:32]


def principal_digest(principal: str | None) -> str:
    """The principal as stored in a token (a digest: tokens are readable by their holder)."""
    return _sha256(b"principal\x00" + (principal or "").encode())[:32]


def _canonical_ids(ids: Iterable[Any]) -> list[str]:
    out = sorted({str(i) for i in ids})
    for item in out:
        if "\n" in item:
            raise ValueError("an id may not contain a newline")
    return out


def ids_digest(ids: Iterable[Any]) -> str:
    """SHA-256 of the sorted, de-duplicated id set (ids compared as strings)."""
    return _sha256("\n".join(_canonical_ids(ids)).encode())


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _pack_ids(ids: list[str]) -> str:
    return _b64(zlib.compress("\n".join(ids).encode(), 9))


def _unpack_ids(text: str) -> tuple[str, ...]:
    inflater = zlib.decompressobj()
    raw = inflater.decompress(_unb64(text), MAX_IDS_BYTES)
    if inflater.unconsumed_tail:
        raise TokenInvalid("the evidence id set is too large")
    joined = raw.decode()
    return tuple(joined.split("\n")) if joined else ()


# ------------------------------------------------------------------------------------------
# claims


@dataclass(frozen=True)
class TokenClaims:
    """What a verified token says. ``ids`` is set for evidence tokens only."""

    purpose: str
    operation: str
    query: str
    principal: str
    snapshot: str | None
    issued_at: int
    expires_at: int
    data: Any = None
    ids: tuple[str, ...] | None = None
    ids_digest: str | None = None
    warnings: tuple[str, ...] = ()
    binds: Mapping[str, str] | None = None


# ------------------------------------------------------------------------------------------
# the signer


class TokenSigner:
    """Signs and verifies tokens with HMAC-SHA256 under one or more secrets (first one signs)."""

    def __init__(
        self,
        secret: bytes | Sequence[bytes],
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        secrets = [secret] if isinstance(secret, (bytes, bytearray)) else list(secret)
        if not secrets:
            raise ValueError("at least one secret is needed")
        for s in secrets:
            if not isinstance(s, (bytes, bytearray)):
                raise TypeError("secrets are bytes")
            if len(s) < MIN_SECRET_BYTES:
                raise ValueError(f"a secret needs at least {MIN_SECRET_BYTES} bytes")
        self._secrets = tuple(bytes(s) for s in secrets)
        self._clock = clock

    # -- signing -----------------------------------------------------------------------------

    def _mac(self, secret: bytes, signed: bytes) -> bytes:
        return _b64(hmac.new(secret, signed, hashlib.sha256).digest()).encode("ascii")

    def sign(
        self,
        purpose: str,
        *,
        operation: str,
        ttl_seconds: float,
        query: Mapping[str, Any] | None = None,
        query_exclude: Iterable[str] = (),
        principal: str | None = None,
        snapshot: str | None = None,
        data: Any = None,
        ids: Iterable[Any] | None = None,
        warnings: Iterable[str] = (),
        binds: Mapping[str, Any] | None = None,
    ) -> str:
        """A token for ``purpose`` bound to the operation, query, principal and snapshot.

        ``binds`` adds named values (stored as digests) that :meth:`verify` compares when asked:
        what a cursor's declared ``invalidated-by`` names besides the filters.
        """
        if purpose not in PURPOSES:
            raise ValueError(f"purpose must be one of {PURPOSES}")
        if not ttl_seconds > 0:
            raise ValueError("ttl_seconds must be positive")
        now = int(self._clock())
        payload: dict[str, Any] = {
            "p": purpose,
            "o": operation,
            "q": query_hash(query, exclude=query_exclude),
            "u": principal_digest(principal),
            "s": snapshot,
            "iat": now,
            "exp": now + max(1, int(ttl_seconds)),
        }
        if data is not None:
            payload["d"] = data
        if ids is not None:
            id_list = _canonical_ids(ids)
            payload["ids"] = _pack_ids(id_list)
            payload["idd"] = _sha256("\n".join(id_list).encode())
        codes = sorted(set(warnings))
        if codes:
            payload["w"] = codes
        if binds:
            payload["b"] = {str(k): bind_digest(str(k), v) for k, v in sorted(binds.items())}
        body = _b64(
            json.dumps(payload, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode()
        )
        signed = f"{VERSION}.{body}".encode("ascii")
        return f"{VERSION}.{body}.{self._mac(self._secrets[0], signed).decode('ascii')}"

    # -- verifying ---------------------------------------------------------------------------

    def _open(self, token: Any) -> dict[str, Any]:
        """Authenticate, then decode. Nothing from the payload is read before the MAC matches."""
        if not isinstance(token, str) or len(token) > MAX_TOKEN_CHARS:
            raise TokenInvalid("not a token")
        parts = token.split(".")
        if len(parts) != 3 or parts[0] != VERSION:
            raise TokenInvalid("not a v1 token")
        try:
            given = parts[2].encode("ascii")
            signed = f"{parts[0]}.{parts[1]}".encode("ascii")
        except UnicodeEncodeError:
            raise TokenInvalid("not a token") from None
        ok = False
        for secret in self._secrets:  # every key is tried: no early exit that leaks which
            ok |= hmac.compare_digest(self._mac(secret, signed), given)
        if not ok:
            raise TokenInvalid("bad signature")
        try:
            payload = json.loads(_unb64(parts[1]))
        except (binascii.Error, ValueError, RecursionError) as exc:
            raise TokenInvalid(f"undecodable payload: {type(exc).__name__}") from None
        if not isinstance(payload, dict):
            raise TokenInvalid("payload is not an object")
        return payload

    def now(self) -> float:
        """The signer's clock (tests inject one)."""
        return self._clock()

    def inspect(self, token: Any) -> TokenClaims:
        """The claims of an authentic token without checking any binding or the expiry (for
        revocation and diagnostics; never to authorise). Raises TokenInvalid when forged."""
        return _claims(self._open(token))

    def verify(
        self,
        token: Any,
        *,
        purpose: str,
        operation: str,
        query: Mapping[str, Any] | None = None,
        query_exclude: Iterable[str] = (),
        principal: str | None = None,
        snapshot: str | None = None,
        check_query: bool = True,
        binds: Mapping[str, Any] | None = None,
    ) -> TokenClaims:
        """Verify signature, purpose, operation, query, principal, snapshot (when given), the
        ``binds`` values (each must equal what the token was signed with), expiry.

        Raises TokenInvalid, TokenMismatch (``.field`` says which binding) or TokenExpired, in
        that order: a token for someone else is reported as such even when it also expired.
        """
        p = self._open(token)
        claims = _claims(p)
        if claims.purpose != purpose:
            raise TokenMismatch("purpose")
        if claims.operation != operation:
            raise TokenMismatch("operation")
        if check_query and claims.query != query_hash(query, exclude=query_exclude):
            raise TokenMismatch("query")
        if not hmac.compare_digest(claims.principal, principal_digest(principal)):
            raise TokenMismatch("principal")
        if snapshot is not None and claims.snapshot != snapshot:
            raise TokenMismatch("snapshot")
        stored = claims.binds or {}
        for name, value in sorted((binds or {}).items()):
            if stored.get(name) != bind_digest(name, value):
                raise TokenMismatch(name, f"the token was issued for a different {name}")
        if self._clock() >= claims.expires_at:
            raise TokenExpired("the token has expired")
        return claims

    # -- purpose helpers ---------------------------------------------------------------------

    def mint_cursor(
        self,
        *,
        operation: str,
        position: Any,
        ttl_seconds: float,
        query: Mapping[str, Any] | None = None,
        query_exclude: Iterable[str] = (),
        principal: str | None = None,
        snapshot: str | None = None,
        binds: Mapping[str, Any] | None = None,
    ) -> str:
        """A cursor carrying the service's ``position`` (any JSON), bound to this listing."""
        return self.sign(
            "cursor",
            operation=operation,
            ttl_seconds=ttl_seconds,
            query=query,
            query_exclude=query_exclude,
            principal=principal,
            snapshot=snapshot,
            data=position,
            binds=binds,
        )

    def verify_cursor(
        self,
        token: Any,
        *,
        operation: str,
        query: Mapping[str, Any] | None = None,
        query_exclude: Iterable[str] = (),
        principal: str | None = None,
        check_query: bool = True,
        binds: Mapping[str, Any] | None = None,
    ) -> TokenClaims:
        """The claims of a cursor (position in ``data``, snapshot to keep reading at)."""
        return self.verify(
            token,
            purpose="cursor",
            operation=operation,
            query=query,
            query_exclude=query_exclude,
            principal=principal,
            check_query=check_query,
            binds=binds,
        )

    def mint_snapshot(
        self,
        *,
        operation: str,
        snapshot: str,
        ttl_seconds: float,
        principal: str | None = None,
        query: Mapping[str, Any] | None = None,
        query_exclude: Iterable[str] = (),
    ) -> str:
        """A token naming the read point (``scope.snapshot``) a listing is consistent with."""
        return self.sign(
            "snapshot",
            operation=operation,
            ttl_seconds=ttl_seconds,
            query=query,
            query_exclude=query_exclude,
            principal=principal,
            snapshot=snapshot,
        )

    def verify_snapshot(
        self,
        token: Any,
        *,
        operation: str,
        principal: str | None = None,
        query: Mapping[str, Any] | None = None,
        query_exclude: Iterable[str] = (),
    ) -> TokenClaims:
        """The claims of a snapshot token; the query is compared only when given."""
        return self.verify(
            token,
            purpose="snapshot",
            operation=operation,
            query=query,
            query_exclude=query_exclude,
            principal=principal,
            check_query=query is not None,
        )

    def mint_evidence(
        self,
        result: Any,
        *,
        operation: str,
        ids: Iterable[Any],
        ttl_seconds: float,
        query: Mapping[str, Any] | None = None,
        query_exclude: Iterable[str] = (),
        principal: str | None = None,
        snapshot: str | None = None,
        warnings: Iterable[str] = (),
    ) -> str:
        """Evidence over the exact id set of a complete listing (invariant 9).

        ``result`` is the complete result (an envelope, a collect result or a mapping with
        ``complete``); anything not exactly complete is refused with ValueError. ``warnings``
        are the warning codes the listing carried, so a mutation can be voided by them.
        """
        complete = result.get("complete") if isinstance(result, Mapping) else None
        if complete is None:
            complete = getattr(result, "complete", None)
        if complete is not True:
            raise ValueError("evidence can only be minted from a complete result")
        return self.sign(
            "evidence",
            operation=operation,
            ttl_seconds=ttl_seconds,
            query=query,
            query_exclude=query_exclude,
            principal=principal,
            snapshot=snapshot,
            ids=ids,
            warnings=warnings,
        )

    def verify_evidence(
        self,
        token: Any,
        *,
        operation: str,
        principal: str | None,
        ids: Iterable[Any],
        warnings_seen: Iterable[str] = (),
        void_on_warnings: Iterable[str] = (),
        snapshot: str | None = None,
        query: Mapping[str, Any] | None = None,
        query_exclude: Iterable[str] = (),
    ) -> TokenClaims:
        """Check evidence at mutation time.

        ``operation`` is the listing that minted it (the mutation's ``evidence.from``). Checks,
        in order: signature, purpose, operation, query (only when ``query`` is given), principal,
        snapshot (when given), expiry, every target id inside the evidence, and no voiding
        warning among those the listing carried or ``warnings_seen`` since.
        """
        claims = self.verify(
            token,
            purpose="evidence",
            operation=operation,
            query=query,
            query_exclude=query_exclude,
            principal=principal,
            snapshot=snapshot,
            check_query=query is not None,
        )
        inside = frozenset(claims.ids or ())
        outside = sorted({str(i) for i in ids} - inside)
        if outside:
            shown = ", ".join(outside[:5]) + (" ..." if len(outside) > 5 else "")
            raise TokenMismatch("ids", f"{len(outside)} target id(s) outside the evidence: {shown}")
        voiding = sorted(set(void_on_warnings) & (set(claims.warnings) | set(warnings_seen)))
        if voiding:
            raise EvidenceVoided(f"evidence voided by warning(s) {', '.join(voiding)}")
        return claims


_INT_RANGE = (0, 2**53)
"""Timestamps are seconds since the epoch: any JSON integer outside this range is malformed."""


def _claims(p: Mapping[str, Any]) -> TokenClaims:
    """Typed claims from an authenticated payload, checked by shape before anything reads them
    (old keys, bugs, or a payload signed with a leaked key): every deviation is TokenInvalid,
    never a KeyError, TypeError, AttributeError or OverflowError further on."""
    problem = _claims_problem(p)
    if problem:
        raise TokenInvalid(f"malformed claims: {problem}")
    try:
        ids = _unpack_ids(p["ids"]) if p.get("ids") is not None else None
    except (TypeError, ValueError, zlib.error, binascii.Error) as exc:
        raise TokenInvalid(f"malformed claims: {type(exc).__name__}") from None
    claims = TokenClaims(
        purpose=p["p"],
        operation=p["o"],
        query=p["q"],
        principal=p["u"],
        snapshot=p.get("s"),
        issued_at=p["iat"],
        expires_at=p["exp"],
        data=p.get("d"),
        ids=ids,
        ids_digest=p.get("idd"),
        warnings=tuple(p.get("w") or ()),
        binds=dict(p.get("b") or {}),
    )
    if ids is not None and claims.ids_digest != _sha256("\n".join(ids).encode()):
        raise TokenInvalid("the id set does not match its digest")
    return claims


def _claims_problem(p: Mapping[str, Any]) -> str | None:
    """What is wrong with the shape of a payload (None when it is a well-formed claims object)."""
    for key in ("p", "o", "q", "u"):
        if not isinstance(p.get(key), str):
            return f"{key!r} is not a string"
    for key in ("iat", "exp"):
        value = p.get(key)
        if type(value) is not int or not _INT_RANGE[0] <= value <= _INT_RANGE[1]:
            return f"{key!r} is not a timestamp"
    for key in ("s", "ids", "idd"):
        if p.get(key) is not None and not isinstance(p[key], str):
            return f"{key!r} is not a string"
    warnings = p.get("w")
    if warnings is not None and not (
        isinstance(warnings, list) and all(isinstance(w, str) for w in warnings)
    ):
        return "'w' is not a list of strings"
    binds = p.get("b")
    if binds is not None and not (
        isinstance(binds, dict) and all(isinstance(v, str) for v in binds.values())
    ):
        return "'b' is not an object of strings"
    return None
