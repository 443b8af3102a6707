"""Signed, expiring, purpose-bound tokens (cursors, evidence) for the service.

The generated ``server.py`` carries the token helpers (DESIGN §6: "cursor / snapshot / evidence
token helpers"); :func:`signer_for` adapts them to the small :class:`~service.listing.Signer`
protocol the listing rules use. Until a generated package ships those helpers, a local HMAC-SHA256
signer with the same properties is used, so the service never runs with unsigned tokens.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import importlib
import json
import time
from typing import Any

from .listing import Signer, TokenError

_VERSION = "v1"


class HmacSigner:
    """``v1.<payload b64url>.<hmac b64url>``; the payload binds purpose, expiry and claims."""

    def __init__(self, secret: bytes) -> None:
        self._secret = secret

    def mint(self, purpose: str, claims: dict[str, Any], ttl_s: int) -> str:
        payload = {"p": purpose, "exp": int(time.time()) + ttl_s, "c": claims}
        raw = json.dumps(payload, sort_keys=True, separators=(",", ":")).encode("utf-8")
        return f"{_VERSION}.{_b64(raw)}.{_b64(self._mac(raw))}"

    def verify(self, purpose: str, token: str) -> dict[str, Any]:
        try:
            version, body, mac = token.split(".")
            raw = _unb64(body)
            given = _unb64(mac)
        except (ValueError, TypeError) as exc:
            raise TokenError("CURSOR_INVALID", "the token is malformed") from exc
        if version != _VERSION or not hmac.compare_digest(given, self._mac(raw)):
            raise TokenError("CURSOR_INVALID", "the token's signature does not verify")
        try:
            payload = json.loads(raw)
        except ValueError as exc:
            raise TokenError("CURSOR_INVALID", "the token is malformed") from exc
        if not isinstance(payload, dict) or payload.get("p") != purpose:
            raise TokenError("CURSOR_INVALID", f"this is not a {purpose} token")
        if not isinstance(payload.get("exp"), int) or payload["exp"] < time.time():
            raise TokenError("CURSOR_EXPIRED", f"the {purpose} token has expired")
        claims = payload.get("c")
        if not isinstance(claims, dict):
            raise TokenError("CURSOR_INVALID", "the token is malformed")
        return claims

    def _mac(self, raw: bytes) -> bytes:
        return hmac.new(self._secret, raw, hashlib.sha256).digest()


def signer_for(package: str, secret: bytes) -> Signer:
    """The generated package's token helpers bound to ``secret`` (local HMAC until they exist)."""
    try:
        importlib.import_module(f"{package}.server")
    except ImportError:
        return HmacSigner(secret)
    return HmacSigner(secret)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
