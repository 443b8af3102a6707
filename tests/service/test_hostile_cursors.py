"""Issue 18 item 13 over HTTP: correctly signed cursors with malformed claims or positions, and
oversized cursors, are a typed 400 CURSOR_INVALID from the example service (never a 500 or a
reset connection). The runtime-level twin is tests/security/test_servers.py."""

from __future__ import annotations

import httpx
from support.forge import malformed_variants, payload_of, sign

AUDITOR = {"Authorization": "Bearer auditor-token"}


def test_malformed_signed_cursors_are_cursor_invalid(service, config) -> None:
    with httpx.Client(base_url=service.base_url, headers=AUDITOR, timeout=30) as http:
        first = http.get("/service-accounts", params={"limit": 5}).json()
        payload = payload_of(first["next_cursor"])
        variants = malformed_variants(payload)
        assert len(variants) >= 12
        for label, forged in variants:
            resp = http.get(
                "/service-accounts", params={"limit": 5, "cursor": sign(config.secret, forged)}
            )
            assert resp.status_code == 400, (label, resp.status_code, resp.text[:200])
            assert resp.json()["error"]["code"] == "CURSOR_INVALID", label


def test_an_oversized_cursor_is_cursor_invalid(service) -> None:
    with httpx.Client(base_url=service.base_url, headers=AUDITOR, timeout=30) as http:
        resp = http.get("/service-accounts", params={"limit": 5, "cursor": "v1." + "A" * 15_000})
        assert resp.status_code == 400 and resp.json()["error"]["code"] == "CURSOR_INVALID"
