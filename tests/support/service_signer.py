"""A minimal HMAC signer for testing the example service's listing rules on their own.

The running service signs with the generated ``server.py`` helpers; this stand-in exists only so
``tests/service/test_listing.py`` can exercise the rules without generating code first.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from typing import Any


class HmacSigner:
    def __init__(self, secret: bytes = b"test-secret") -> None:
        self.secret = secret
        self.now = time.time

    def mint(self, purpose: str, claims: dict[str, Any], ttl_s: int) -> str:
        body = json.dumps({"p": purpose, "exp": self.now() + ttl_s, "c": claims}, sort_keys=True)
        raw = body.encode()
        mac = hmac.new(self.secret, raw, hashlib.sha256).hexdigest()
        return base64.urlsafe_b64encode(raw).decode() + "." + mac

    def verify(self, purpose: str, token: str) -> dict[str, Any]:
        from service.listing import TokenError

        try:
            b64, mac = token.split(".")
            raw = base64.urlsafe_b64decode(b64)
        except ValueError as exc:
            raise TokenError("CURSOR_INVALID", "malformed") from exc
        good = hmac.new(self.secret, raw, hashlib.sha256).hexdigest()
        if not hmac.compare_digest(good, mac):
            raise TokenError("CURSOR_INVALID", "bad signature")
        body = json.loads(raw)
        if body["p"] != purpose:
            raise TokenError("CURSOR_INVALID", "wrong purpose")
        if body["exp"] < self.now():
            raise TokenError("CURSOR_EXPIRED", "expired")
        return body["c"]
