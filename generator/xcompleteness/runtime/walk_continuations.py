"""Client continuations: the ``xc1.`` tokens a walk hands out to resume from where it stopped.

Offset and page positions (and guarded adapter cursors) are carried as a client token holding the
operation, the position, the items read before it, the declared total and a digest of the
invalidating parameters; :func:`encode_continuation` writes one, :func:`decode_continuation`
reads one back (None for a plain cursor, URL or number). Re-exported by :mod:`.walk`.

Standard library only: copied verbatim into generated packages.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Mapping
from typing import Any


def _position_number(value: Any, name: str) -> int:
    """An offset or page number to start from (a resumed continuation carries it as text)."""
    try:
        number = int(str(value))
    except ValueError:
        raise ValueError(f"{name} must be a whole number to resume from, got {value!r}") from None
    if number < 0:
        raise ValueError(f"{name} must not be negative, got {number}")
    return number


_TOKEN_PREFIX = "xc1."
_MAX_TOKEN_CHARS = 16_384


class ContinuationMismatch(ValueError):
    """A continuation that cannot resume this walk: damaged, issued for another operation, or
    for other values of a parameter the declaration's ``cursor.invalidated-by`` names."""


def _params_digest(params: Mapping[str, Any]) -> str:
    """A short canonical digest of query parameters (values compared as their wire text)."""
    canon = sorted(
        [str(k), [str(x).lower() if isinstance(x, bool) else str(x) for x in v]]
        if isinstance(v, (list, tuple))
        else [str(k), str(v).lower() if isinstance(v, bool) else str(v)]
        for k, v in params.items()
        if v is not None
    )
    raw = json.dumps(canon, separators=(",", ":"), ensure_ascii=False).encode()
    return hashlib.sha256(raw).hexdigest()[:24]


def _seal(body: bytes) -> str:
    return hashlib.sha256(b"xcompleteness-continuation\x00" + body).hexdigest()[:16]


def encode_continuation(state: Mapping[str, Any]) -> str:
    """The text of a client continuation: ``xc1.<base64url JSON>.<check>``.

    It carries what the walk needs to resume and to know where the listing ends: the operation,
    the position (cursor, next URL, offset or page number; a numeric cursor sent in the JSON
    request body as a JSON integer, so it goes back as the number), how many items were read
    before it, the declared total seen so far and a digest of the invalidating parameters; a
    walk that stopped inside a page (a tool answer's bound) also carries ``j``, how many items
    of the page at that position were read already (the position is null for the first page of
    a listing). The check digest catches a damaged or hand-edited continuation; it is not a
    signature (the client has no secret), so the walk also bounds itself on whatever it is
    handed (see docs/client.md).
    """
    body = json.dumps(dict(state), separators=(",", ":"), sort_keys=True).encode()
    text = base64.urlsafe_b64encode(body).rstrip(b"=").decode("ascii")
    return f"{_TOKEN_PREFIX}{text}.{_seal(body)}"


def decode_continuation(text: str) -> dict[str, Any] | None:
    """The state inside a client continuation, None for a plain cursor/URL/number (raises
    :class:`ContinuationMismatch` for a damaged one)."""
    if not text.startswith(_TOKEN_PREFIX):
        return None
    parts = text[len(_TOKEN_PREFIX) :].split(".")
    try:
        if len(text) > _MAX_TOKEN_CHARS or len(parts) != 2:
            raise ValueError("shape")
        body = base64.urlsafe_b64decode(parts[0] + "=" * (-len(parts[0]) % 4))
        if _seal(body) != parts[1]:
            raise ValueError("check digest")
        state = json.loads(body)
    except (ValueError, binascii.Error):
        raise ContinuationMismatch(
            "the continuation is damaged (its check digest does not match); restart the listing"
        ) from None
    before = state.get("n") if isinstance(state, dict) else None
    position = state.get("c") if isinstance(state, dict) else None
    skip = state.get("j", 0) if isinstance(state, dict) else 0
    if (
        not isinstance(state, dict)
        or isinstance(skip, bool)
        or not isinstance(skip, int)
        or skip < 0
        or isinstance(position, bool)
        or not (isinstance(position, (str, int)) or (position is None and skip > 0))
        or isinstance(before, bool)
        or not isinstance(before, int)
        or before < 0
    ):
        raise ContinuationMismatch("the continuation is malformed; restart the listing")
    return state
