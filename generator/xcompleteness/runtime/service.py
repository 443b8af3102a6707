"""Service-side helpers behind a generated ``server.py``: cursors, snapshots, evidence, errors.

Why here: how a service mints and checks its tokens and how a failure becomes the declared
error response is the same for every spec; the generated ``server.py`` only instantiates these
classes with one operation's declaration (its id, cursor/size parameter names, lifetimes, the
listing an evidence comes from, the voiding warnings). Built on :mod:`.tokens`.

Rules enforced here:

- the declared cursor contract is enforced, not only documented: a cursor binds what
  ``cursor.invalidated-by`` names and a ``frozen`` one its snapshot (see :class:`ListingTokens`);
- a cursor that fails verification is never silently restarted: an expired one raises
  :class:`CursorExpiredError` (410 ``CURSOR_EXPIRED``), anything else :class:`CursorInvalidError`
  (400 ``CURSOR_INVALID``) — tampered, another query, another principal, another operation;
- evidence is minted only from a complete envelope (invariant 9) and is bound to the listing
  operation, its query (filters, not cursor/size), the principal, the snapshot and the id set;
- at mutation time evidence is verified for purpose, operation, principal, snapshot, expiry,
  every target id inside the evidence, and no voiding warning; a failure raises
  :class:`EvidenceRejectedError` (409 ``EVIDENCE_REJECTED`` with a stable ``reason``);
- evidence is single use and revocable when a :class:`~.store.TokenStore` is given (the generated
  ``Service`` always gives one): :meth:`MutationEvidence.spend` claims the token atomically before
  the write (of two replicas racing on one token exactly one wins; the other gets
  ``already_used``), :meth:`MutationEvidence.release` gives it back when nothing was written, and
  :meth:`MutationEvidence.revoke` refuses it from then on (``revoked``) on every replica that
  shares the store.

Every error has ``status`` and :meth:`ServiceError.body` (the wire shape of DESIGN.md §4), so a
web framework maps it in one handler, e.g. FastAPI::

    @app.exception_handler(ServiceError)
    def _(request, exc):
        return JSONResponse(exc.body(), status_code=exc.status)
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .store import REVOKED, USED, TokenStore
from .tokens import (
    EvidenceVoided,
    TokenClaims,
    TokenError,
    TokenExpired,
    TokenMismatch,
    TokenSigner,
)
from .validation import validate

MAX_CURSOR_CHARS = 16_384
"""A cursor longer than this is CURSOR_INVALID before anything else is done with it (evidence
tokens, which carry id sets, have their own cap in :mod:`.tokens`). HTTP servers cap the request
line too (uvicorn/h11: 16 KiB for the whole head), so much longer cursors in a query string are
refused by the server itself before the service sees them."""

__all__ = [
    "BODY_BINDING",
    "INVALIDATORS",
    "MAX_CURSOR_CHARS",
    "CursorExpiredError",
    "CursorInvalidError",
    "EvidenceRejectedError",
    "ListingTokens",
    "MutationEvidence",
    "ServiceError",
    "token_key",
]


class ServiceError(Exception):
    """A failure with a declared HTTP status and the ``{"error": {...}}`` body of DESIGN.md §4."""

    status: int = 500
    code: str = "INTERNAL"

    def __init__(self, message: str, *, reason: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason

    def body(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.reason is not None:
            error["reason"] = self.reason
        return {"error": error}


class CursorExpiredError(ServiceError):
    """HTTP 410: the cursor outlived its lifetime; the caller must restart the listing."""

    status = 410
    code = "CURSOR_EXPIRED"


class CursorInvalidError(ServiceError):
    """HTTP 400: the cursor was tampered with or belongs to another query, principal or listing."""

    status = 400
    code = "CURSOR_INVALID"


class EvidenceRejectedError(ServiceError):
    """HTTP 409: the evidence is missing, forged, expired, voided or does not cover the ids."""

    status = 409
    code = "EVIDENCE_REJECTED"


def _codes(items: Iterable[Any]) -> list[str]:
    out = []
    for item in items or ():
        code = item.get("code") if isinstance(item, Mapping) else getattr(item, "code", item)
        out.append(str(code))
    return out


INVALIDATORS = ("filter", "ordering", "authorization", "page-size")
"""The standard ``cursor.invalidated-by`` values (anything else starts with ``x-``)."""

BODY_BINDING = "$request.body"
"""The key under which a listing paged in its JSON request body binds the body's filter
fields (canonical JSON of the top-level properties but the paging ones) next to the query
parameters, so a body field never collides with a query parameter of the same name."""


@dataclass(frozen=True)
class ListingTokens:
    """Cursor, snapshot and evidence tokens of one listing operation.

    ``paging_params`` (cursor, size, offset, page) are left out of the query binding: they change
    between pages of one listing while the filters must not.

    The declaration's cursor contract is enforced here (the generated ``server.py`` passes it):

    - ``invalidated_by`` (``cursor.invalidated-by``): ``filter`` binds the query parameters but
      the paging ones; ``page-size`` binds the value of ``size_param`` (taken from ``query`` or
      ``invalidators``); ``ordering`` binds the declared ``ordering`` (or
      ``invalidators["ordering"]``, e.g. a sort parameter); ``authorization`` and any ``x-…``
      bind the value the service passes in ``invalidators`` (e.g. a fingerprint of the caller's
      grants) -- minting or reading without it raises ValueError, so a declared invalidator
      cannot be silently ignored. A cursor read with a changed value raises
      :class:`CursorInvalidError` (400, reason ``query_mismatch`` / ``page_size_mismatch`` /
      ``ordering_mismatch`` / ``x_..._mismatch``), or for ``authorization``
      :class:`CursorExpiredError` (410, reason ``authorization_changed``: restart the
      listing). ``None`` (no declaration read) binds the filters only. The principal is
      always bound: a cursor is never valid for another caller.
    - ``snapshot_kind`` (``cursor.snapshot``): ``frozen`` cursors must carry the snapshot every
      page reads at (minting without one raises ValueError; reading one without it is
      CURSOR_INVALID); ``live`` cursors may carry none.

    A listing paged in its JSON request body (``pagination.request: {cursor:
    $request.body#/marker}``, a POST search) names its body paging properties in
    ``body_params``; every method takes the request's parsed JSON ``body`` beside ``query``: its
    other top-level properties are the listing's filters and are bound like query parameters
    (``filter``), the body size property is the one ``page-size`` binds, and
    :meth:`cursor_in` reads the cursor from wherever the declaration puts it.
    """

    signer: TokenSigner
    operation: str
    paging_params: tuple[str, ...] = ()
    cursor_ttl_seconds: float = 900
    evidence_ttl_seconds: float | None = None
    snapshot_ttl_seconds: float = 900
    invalidated_by: tuple[str, ...] | None = None
    size_param: str | None = None
    ordering: str | None = None
    snapshot_kind: str | None = None
    position_schema: Mapping[str, Any] | None = None
    """The shape of the position a cursor carries (the JSON Schema subset of
    :mod:`.validation`); a signed cursor whose position does not match is CURSOR_INVALID, so
    the service never reads a malformed position (``None``: any JSON)."""
    cursor_param: str | None = None
    """The name the caller sends the cursor under (``pagination.request.cursor``)."""
    body_params: tuple[str, ...] = ()
    """Paging names that are top-level properties of the JSON request body, not query
    parameters (``$request.body#/NAME``): left out of the body's binding like
    ``paging_params`` are left out of the query's."""

    def cursor_in(
        self, query: Mapping[str, Any] | None = None, body: Mapping[str, Any] | None = None
    ) -> Any:
        """The cursor a request carries (None on a first page): the query parameter, or the
        JSON body property when the declaration pages in the body. Hand a value that is not
        None to :meth:`read_cursor` (which refuses anything but a valid string)."""
        if not self.cursor_param:
            return None
        source = body if self.cursor_param in self.body_params else query
        value = source.get(self.cursor_param) if isinstance(source, Mapping) else None
        return None if value is None or value == "" else value

    def _bound(
        self, query: Mapping[str, Any] | None, body: Mapping[str, Any] | None
    ) -> Mapping[str, Any] | None:
        """What the filter binding covers: the query parameters and, for a request with a
        JSON body, its top-level properties but the paging ones (under :data:`BODY_BINDING`)."""
        if body is None:
            return query
        filters = {k: v for k, v in body.items() if k not in self.body_params and v is not None}
        text = json.dumps(filters, sort_keys=True, separators=(",", ":"), default=str)
        return {**(query or {}), BODY_BINDING: text}

    @property
    def frozen(self) -> bool:
        """Every page of a listing reads the snapshot its first page took."""
        return self.snapshot_kind == "frozen"

    def _checks_filters(self) -> bool:
        return self.invalidated_by is None or "filter" in self.invalidated_by

    def _binds(
        self,
        query: Mapping[str, Any] | None,
        invalidators: Mapping[str, Any] | None,
        body: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The values of the declared invalidators (besides the filters) for one request."""
        given = dict(invalidators or {})
        out: dict[str, Any] = {}
        for name in self.invalidated_by or ():
            if name == "filter":
                continue
            if name in given:
                out[name] = given[name]
            elif name == "page-size":
                sized = body if self.size_param in self.body_params else query
                out[name] = (sized or {}).get(self.size_param) if self.size_param else None
            elif name == "ordering":
                out[name] = self.ordering
            else:
                raise ValueError(
                    f"{self.operation} declares cursor.invalidated-by {name!r}: pass "
                    f"invalidators={{{name!r}: <its current value>}} when minting and reading"
                )
        return out

    # -- cursors ---------------------------------------------------------------------------

    def mint_cursor(
        self,
        position: Any,
        *,
        query: Mapping[str, Any] | None = None,
        principal: str | None = None,
        snapshot: str | None = None,
        invalidators: Mapping[str, Any] | None = None,
        body: Mapping[str, Any] | None = None,
    ) -> str:
        """An opaque cursor for ``position`` (any JSON), bound to this listing's query (and
        JSON body filters) and to the declared invalidators (see the class docstring)."""
        if self.frozen and snapshot is None:
            raise ValueError(
                f"{self.operation} declares cursor.snapshot frozen: a cursor must carry the "
                "snapshot every page reads at"
            )
        return self.signer.mint_cursor(
            operation=self.operation,
            position=position,
            ttl_seconds=self.cursor_ttl_seconds,
            query=self._bound(query, body),
            query_exclude=self.paging_params,
            principal=principal,
            snapshot=snapshot,
            binds=self._binds(query, invalidators, body),
        )

    def read_cursor(
        self,
        cursor: str,
        *,
        query: Mapping[str, Any] | None = None,
        principal: str | None = None,
        invalidators: Mapping[str, Any] | None = None,
        position_schema: Mapping[str, Any] | None = None,
        body: Mapping[str, Any] | None = None,
    ) -> TokenClaims:
        """The verified claims (``.data`` is the position, ``.snapshot`` the snapshot).

        ``position_schema`` (else the helper's own) is the shape the position must have.

        Raises :class:`CursorExpiredError` or :class:`CursorInvalidError`; never restarts. A
        cursor that is not a string, is longer than :data:`MAX_CURSOR_CHARS`, or whose position
        does not match ``position_schema`` is CURSOR_INVALID (400), checked after the signature.
        """
        if not isinstance(cursor, str) or len(cursor) > MAX_CURSOR_CHARS:
            raise CursorInvalidError("the cursor is not valid for this listing", reason="invalid")
        binds = self._binds(query, invalidators, body)
        try:
            with _typed_token_errors(
                "the cursor has expired; restart the listing",
                "the cursor is not valid for this listing",
            ):
                claims = self.signer.verify_cursor(
                    cursor,
                    operation=self.operation,
                    query=self._bound(query, body),
                    query_exclude=self.paging_params,
                    principal=principal,
                    check_query=self._checks_filters(),
                    binds=binds,
                )
        except CursorInvalidError as exc:
            if exc.reason == "authorization_mismatch":
                raise CursorExpiredError(
                    "the caller's authorization changed since this listing started; restart "
                    "the listing",
                    reason="authorization_changed",
                ) from None
            if exc.reason in {f"{n.replace('-', '_')}_mismatch" for n in binds} | {
                "query_mismatch"
            }:
                changed = "filters" if exc.reason == "query_mismatch" else exc.reason[:-9]
                raise CursorInvalidError(
                    f"the {changed.replace('_', ' ')} changed since this cursor was issued "
                    "(cursor.invalidated-by); restart the listing",
                    reason=exc.reason,
                ) from None
            raise
        if self.frozen and claims.snapshot is None:
            raise CursorInvalidError(
                "a frozen cursor carries no snapshot; restart the listing", reason="invalid"
            )
        shape = position_schema if position_schema is not None else self.position_schema
        if shape is not None and validate(claims.data, shape):
            raise CursorInvalidError(
                "the cursor's position is malformed; restart the listing", reason="invalid"
            )
        return claims

    # -- snapshots -------------------------------------------------------------------------

    def mint_snapshot(
        self,
        snapshot: str,
        *,
        query: Mapping[str, Any] | None = None,
        principal: str | None = None,
        body: Mapping[str, Any] | None = None,
    ) -> str:
        """A signed snapshot token a client can send back to read at the same snapshot."""
        return self.signer.sign(
            "snapshot",
            operation=self.operation,
            ttl_seconds=self.snapshot_ttl_seconds,
            query=self._bound(query, body),
            query_exclude=self.paging_params,
            principal=principal,
            snapshot=snapshot,
        )

    def read_snapshot(
        self,
        token: str,
        *,
        query: Mapping[str, Any] | None = None,
        principal: str | None = None,
        body: Mapping[str, Any] | None = None,
    ) -> str | None:
        """The snapshot inside a snapshot token (raises CursorInvalid/Expired like a cursor)."""
        with _typed_token_errors("the snapshot has expired", "the snapshot token is not valid"):
            claims = self.signer.verify(
                token,
                purpose="snapshot",
                operation=self.operation,
                query=self._bound(query, body),
                query_exclude=self.paging_params,
                principal=principal,
            )
        return claims.snapshot

    # -- evidence --------------------------------------------------------------------------

    def mint_evidence(
        self,
        result: Any,
        *,
        ids: Iterable[Any],
        query: Mapping[str, Any] | None = None,
        principal: str | None = None,
        snapshot: str | None = None,
        body: Mapping[str, Any] | None = None,
    ) -> str:
        """Evidence over ``ids`` (the whole listing's id set) from a complete ``result``.

        Raises ValueError when the listing declares no evidence or ``result`` is not complete.
        The warnings ``result`` carries are bound into the token (a mutation may be voided).
        """
        if self.evidence_ttl_seconds is None:
            raise ValueError(f"{self.operation} does not declare evidence: {{mint: true}}")
        warnings = result.get("warnings") if isinstance(result, Mapping) else None
        if warnings is None:
            warnings = getattr(result, "warnings", ())
        return self.signer.mint_evidence(
            result,
            operation=self.operation,
            ids=ids,
            ttl_seconds=self.evidence_ttl_seconds,
            query=self._bound(query, body),
            query_exclude=self.paging_params,
            principal=principal,
            snapshot=snapshot,
            warnings=_codes(warnings or ()),
        )

    def with_evidence(self, page: Any, **kwargs: Any) -> Any:
        """A copy of a complete envelope ``page`` carrying freshly minted evidence."""
        token = self.mint_evidence(page, **kwargs)
        return page.model_copy(update={"evidence": token})


@dataclass(frozen=True)
class MutationEvidence:
    """Verification of the evidence a destructive mutation demands (``evidence.from``)."""

    signer: TokenSigner
    operation: str
    from_operation: str
    void_on_warnings: tuple[str, ...] = ()
    store: TokenStore | None = None

    def verify(
        self,
        token: Any,
        *,
        ids: Iterable[Any],
        principal: str | None = None,
        snapshot: str | None = None,
        warnings_seen: Sequence[str] = (),
    ) -> TokenClaims:
        """Accept the evidence for acting on ``ids`` or raise :class:`EvidenceRejectedError`.

        ``reason`` is stable: ``missing``, ``invalid``, ``expired``, ``operation_mismatch``,
        ``principal_mismatch``, ``snapshot_mismatch``, ``target_outside_evidence``,
        ``voided_by_warning`` ... The snapshot check is the service's: pass the snapshot the
        ids must still belong to, and re-check membership there.
        """
        if not token:
            raise EvidenceRejectedError(
                f"{self.operation} needs evidence from a complete {self.from_operation} listing",
                reason="missing",
            )
        try:
            claims = self.signer.verify_evidence(
                token,
                operation=self.from_operation,
                principal=principal,
                ids=ids,
                warnings_seen=warnings_seen,
                void_on_warnings=self.void_on_warnings,
                snapshot=snapshot,
            )
        except (TokenMismatch, EvidenceVoided, TokenError) as exc:
            raise EvidenceRejectedError(str(exc), reason=exc.reason) from None
        if self.store is not None:
            key = token_key(token)
            if self.store.get(REVOKED, key) is not None:
                raise EvidenceRejectedError("the evidence was revoked", reason="revoked")
            if self.store.get(USED, key) is not None:
                raise EvidenceRejectedError(
                    "the evidence was already used by another mutation", reason="already_used"
                )
        return claims

    def spend(self, token: str, claims: TokenClaims) -> None:
        """Claim verified evidence for one write, atomically across every replica sharing the
        store; raises :class:`EvidenceRejectedError` (``already_used``) for all but the first."""
        if self.store is None:
            return
        if not self.store.claim(USED, token_key(token), expires_at=claims.expires_at + 1.0):
            raise EvidenceRejectedError(
                "the evidence was already used by another mutation", reason="already_used"
            )

    def release(self, token: str) -> None:
        """Give spent evidence back when the write it was claimed for did not happen."""
        if self.store is not None:
            self.store.release(USED, token_key(token))

    def revoke(self, token: str) -> bool:
        """Refuse this evidence from now on, on every replica sharing the store. False when the
        token is not authentic, not evidence, already expired, or no store is configured."""
        if self.store is None:
            return False
        try:
            claims = self.signer.inspect(token)
        except TokenError:
            return False
        if claims.purpose != "evidence" or claims.expires_at <= self.signer.now():
            return False
        self.store.claim(REVOKED, token_key(token), expires_at=claims.expires_at + 1.0)
        return True


def token_key(token: str) -> str:
    """The store key of a token: a digest (the store never holds a usable token)."""
    return hashlib.sha256(str(token).encode("utf-8")).hexdigest()


@contextlib.contextmanager
def _typed_token_errors(expired: str, invalid: str) -> Iterator[None]:
    """Map token failures to the typed errors a service answers with (410 / 400); never restart."""
    try:
        yield
    except TokenExpired as exc:
        raise CursorExpiredError(expired, reason=exc.reason) from None
    except TokenError as exc:
        raise CursorInvalidError(invalid, reason=exc.reason) from None
