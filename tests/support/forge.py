"""Re-sign a token's payload with the service secret: what an attacker with a leaked key, an old
key's payload or a service bug produces -- authentic tokens whose claims are malformed."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from typing import Any


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def payload_of(token: str) -> dict[str, Any]:
    body = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))


def sign(secret: bytes, payload: Any) -> str:
    """A v1 token over ``payload`` (any JSON), with a correct HMAC-SHA256."""
    body = _b64(json.dumps(payload, separators=(",", ":")).encode())
    signed = f"v1.{body}".encode("ascii")
    mac = _b64(hmac.new(secret, signed, hashlib.sha256).digest())
    return f"v1.{body}.{mac}"


def malformed_variants(payload: dict[str, Any]) -> list[tuple[str, Any]]:
    """(label, payload) pairs: a well-signed token whose claims or position are malformed."""
    out: list[tuple[str, Any]] = [
        ("not an object", [1, 2]),
        ("no purpose", {k: v for k, v in payload.items() if k != "p"}),
        ("binds a list", {**payload, "b": ["x"]}),
        ("warnings a number", {**payload, "w": 7}),
        ("expiry infinite", {**payload, "exp": 1e400}),
        ("expiry huge", {**payload, "exp": 10**40}),
        ("expiry a string", {**payload, "exp": "soon"}),
        ("snapshot a number", {**payload, "s": 12}),
    ]
    position = payload.get("d")
    if isinstance(position, dict):
        out += [
            ("position a string", {**payload, "d": "x"}),
            ("position missing keys", {**payload, "d": {}}),
            ("position after huge", {**payload, "d": {**position, "after": [10**30, "x"]}}),
            ("position after short", {**payload, "d": {**position, "after": [1]}}),
            ("position after wrong", {**payload, "d": {**position, "after": ["a", "b"]}}),
            ("position returned text", {**payload, "d": {**position, "returned": "many"}}),
        ]
    return out
