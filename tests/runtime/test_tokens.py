"""runtime/tokens.py: signed, versioned, expiring tokens; evidence verification."""

from __future__ import annotations

import base64
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xcompleteness.runtime.envelope import Envelope
from xcompleteness.runtime.tokens import (
    EvidenceVoided,
    TokenError,
    TokenExpired,
    TokenInvalid,
    TokenMismatch,
    TokenSigner,
    ids_digest,
    query_hash,
)

SECRET = b"s" * 32
OTHER = b"o" * 32


class Clock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def signer(clock: Clock | None = None, secret: bytes | list[bytes] = SECRET) -> TokenSigner:
    return TokenSigner(secret, clock=clock or Clock())


def cursor(s: TokenSigner, **kw: object) -> str:
    args: dict[str, object] = {
        "operation": "listAccounts",
        "position": {"after": "svc-100"},
        "ttl_seconds": 900,
        "query": {"owner": "ana", "cursor": "x", "limit": 50},
        "query_exclude": ("cursor", "limit"),
        "principal": "user-1",
        "snapshot": "s-7",
    }
    args.update(kw)
    return s.mint_cursor(**args)  # type: ignore[arg-type]


def test_cursor_round_trip() -> None:
    s = signer()
    token = cursor(s)
    assert token.startswith("v1.") and token.count(".") == 2
    claims = s.verify_cursor(
        token,
        operation="listAccounts",
        query={"owner": "ana", "cursor": token, "limit": "10"},
        query_exclude=("cursor", "limit"),
        principal="user-1",
    )
    assert claims.data == {"after": "svc-100"}
    assert claims.snapshot == "s-7"
    assert claims.expires_at - claims.issued_at == 900


@pytest.mark.parametrize(
    ("kw", "field"),
    [
        ({"operation": "listOther"}, "operation"),
        ({"query": {"owner": "bob"}}, "query"),
        ({"principal": "user-2"}, "principal"),
    ],
)
def test_cursor_bound_to_operation_query_principal(kw: dict[str, object], field: str) -> None:
    s = signer()
    token = cursor(s)
    args: dict[str, object] = {
        "operation": "listAccounts",
        "query": {"owner": "ana"},
        "principal": "user-1",
    }
    args.update(kw)
    with pytest.raises(TokenMismatch) as info:
        s.verify_cursor(token, **args)  # type: ignore[arg-type]
    assert info.value.field == field
    assert info.value.reason == f"{field}_mismatch"


def test_purpose_is_bound() -> None:
    s = signer()
    token = cursor(s)
    with pytest.raises(TokenMismatch) as info:
        s.verify(
            token,
            purpose="snapshot",
            operation="listAccounts",
            query={"owner": "ana"},
            principal="user-1",
        )
    assert info.value.field == "purpose"


def test_expiry_uses_the_injected_clock() -> None:
    clock = Clock()
    s = signer(clock)
    token = cursor(s, ttl_seconds=60)
    ok = {"operation": "listAccounts", "query": {"owner": "ana"}, "principal": "user-1"}
    clock.now += 59
    s.verify_cursor(token, **ok)  # type: ignore[arg-type]
    clock.now += 1
    with pytest.raises(TokenExpired) as info:
        s.verify_cursor(token, **ok)  # type: ignore[arg-type]
    assert info.value.reason == "expired"


def test_key_rotation() -> None:
    old = signer(secret=OTHER)
    token = cursor(old)
    ok = {"operation": "listAccounts", "query": {"owner": "ana"}, "principal": "user-1"}
    rotated = signer(secret=[SECRET, OTHER])
    rotated.verify_cursor(token, **ok)  # type: ignore[arg-type]
    # new tokens are signed with the first secret only
    fresh = cursor(rotated)
    signer(secret=SECRET).verify_cursor(fresh, **ok)  # type: ignore[arg-type]
    with pytest.raises(TokenInvalid):
        signer(secret=OTHER).verify_cursor(fresh, **ok)  # type: ignore[arg-type]
    with pytest.raises(TokenInvalid):
        signer(secret=SECRET).verify_cursor(token, **ok)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "bad",
    [None, 3, "", "v1", "v1..", "v2.e30.abc", "v1.e30", "v1.e30.x.y", "v1.é.x", "x" * 5_000_000],
)
def test_garbage_is_invalid(bad: object) -> None:
    with pytest.raises(TokenInvalid):
        signer().verify_cursor(bad, operation="listAccounts")


def test_forged_payload_with_valid_looking_signature_is_rejected() -> None:
    s = signer()
    token = cursor(s)
    _, body, sig = token.split(".")
    payload = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    payload["d"] = {"after": "svc-999"}
    forged = base64.urlsafe_b64encode(json.dumps(payload).encode()).rstrip(b"=").decode()
    with pytest.raises(TokenInvalid):
        s.verify_cursor(f"v1.{forged}.{sig}", operation="listAccounts")


_TOKEN = cursor(signer())
_CHARS = st.sampled_from(
    sorted(set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.=é\x00"))
)


@given(index=st.integers(0, len(_TOKEN) - 1), char=_CHARS)
@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
def test_any_single_character_tamper_is_rejected(index: int, char: str) -> None:
    if _TOKEN[index] == char:
        return
    tampered = _TOKEN[:index] + char + _TOKEN[index + 1 :]
    with pytest.raises(TokenError):
        signer().verify_cursor(
            tampered,
            operation="listAccounts",
            query={"owner": "ana"},
            principal="user-1",
        )


@given(index=st.integers(0, len(_TOKEN) - 1))
@settings(max_examples=100)
def test_truncation_and_deletion_are_rejected(index: int) -> None:
    with pytest.raises(TokenInvalid):
        signer().verify_cursor(_TOKEN[:index], operation="listAccounts")
    with pytest.raises(TokenInvalid):
        signer().verify_cursor(_TOKEN[:index] + _TOKEN[index + 1 :], operation="listAccounts")


def test_query_hash_is_canonical() -> None:
    assert query_hash({"a": 1, "b": "x"}) == query_hash({"b": "x", "a": "1"})
    assert query_hash({"a": True}) == query_hash({"a": "true"})
    assert query_hash({"a": None, "b": 2}) == query_hash({"b": 2})
    assert query_hash({"a": [1, 2]}) != query_hash({"a": [2, 1]})
    assert query_hash({"a": 1}) != query_hash({"a": 2})
    assert query_hash({"a": 1, "cursor": "x"}, exclude=["cursor"]) == query_hash({"a": 1})


def test_principal_is_not_readable_in_the_token() -> None:
    token = cursor(signer(), principal="alice@example.com")
    body = token.split(".")[1]
    text = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)).decode()
    assert "alice" not in text


# ------------------------------------------------------------------ evidence


def evidence(s: TokenSigner, ids: list[str], **kw: object) -> str:
    args: dict[str, object] = {
        "operation": "listAccounts",
        "ids": ids,
        "ttl_seconds": 600,
        "query": {"owner": None},
        "principal": "user-1",
        "snapshot": "s-7",
    }
    args.update(kw)
    result = args.pop("result", {"complete": True})
    return s.mint_evidence(result, **args)  # type: ignore[arg-type]


def test_evidence_only_from_complete_results() -> None:
    s = signer()
    partial = Envelope.partial_page(["a"], reasons=["TIME_BUDGET_EXCEEDED"])
    with pytest.raises(ValueError, match="complete"):
        evidence(s, ["a"], result=partial)
    with pytest.raises(ValueError):
        evidence(s, ["a"], result={"complete": "true"})
    done = Envelope.complete_page(["a"])
    assert evidence(s, ["a"], result=done).startswith("v1.")


def test_evidence_subset_and_digest() -> None:
    clock = Clock()
    s = signer(clock)
    ids = [f"svc-{i}" for i in range(10_000)]
    token = evidence(s, ids)
    assert len(token) < 60_000  # compressed
    check = {"operation": "listAccounts", "principal": "user-1"}
    claims = s.verify_evidence(token, ids=["svc-5", "svc-9999"], **check)  # type: ignore[arg-type]
    assert claims.ids_digest == ids_digest(ids)
    assert len(claims.ids or ()) == 10_000
    with pytest.raises(TokenMismatch) as info:
        s.verify_evidence(token, ids=["svc-5", "svc-10000"], **check)  # type: ignore[arg-type]
    assert info.value.reason == "target_outside_evidence"
    with pytest.raises(TokenMismatch):
        s.verify_evidence(token, ids=["svc-5"], operation="listOther", principal="user-1")
    with pytest.raises(TokenMismatch):
        s.verify_evidence(token, ids=["svc-5"], operation="listAccounts", principal="user-2")
    with pytest.raises(TokenMismatch) as info:
        s.verify_evidence(token, ids=[], snapshot="s-8", **check)  # type: ignore[arg-type]
    assert info.value.field == "snapshot"
    clock.now += 600
    with pytest.raises(TokenExpired):
        s.verify_evidence(token, ids=["svc-5"], **check)  # type: ignore[arg-type]


def test_evidence_voided_by_warnings() -> None:
    s = signer()
    check = {"operation": "listAccounts", "principal": "user-1", "ids": ["a"]}
    stale = evidence(s, ["a", "b"], warnings=["STALE_INDEX"])
    with pytest.raises(EvidenceVoided) as info:
        s.verify_evidence(stale, void_on_warnings=["STALE_INDEX"], **check)  # type: ignore[arg-type]
    assert info.value.reason == "voided_by_warning"
    s.verify_evidence(stale, void_on_warnings=["OTHER"], **check)  # type: ignore[arg-type]
    clean = evidence(s, ["a", "b"])
    s.verify_evidence(clean, void_on_warnings=["STALE_INDEX"], **check)  # type: ignore[arg-type]
    with pytest.raises(EvidenceVoided):
        s.verify_evidence(
            clean,
            void_on_warnings=["STALE_INDEX"],
            warnings_seen=["STALE_INDEX"],
            **check,  # type: ignore[arg-type]
        )


def test_a_cursor_is_not_evidence() -> None:
    s = signer()
    with pytest.raises(TokenMismatch) as info:
        s.verify_evidence(cursor(s), operation="listAccounts", principal="user-1", ids=[])
    assert info.value.field == "purpose"


def test_bad_construction() -> None:
    with pytest.raises(ValueError):
        TokenSigner(b"short")
    with pytest.raises(ValueError):
        TokenSigner([])
    with pytest.raises(TypeError):
        TokenSigner(["a" * 32])  # type: ignore[list-item]
    with pytest.raises(ValueError):
        signer().sign("session", operation="x", ttl_seconds=5)
    with pytest.raises(ValueError):
        signer().sign("cursor", operation="x", ttl_seconds=0)


def test_every_position_tampered_is_rejected() -> None:
    """Exhaustive over positions (the property test above samples the replacement chars)."""
    s = signer()
    for index, original in enumerate(_TOKEN):
        for char in ("A", "B", "-"):
            if char == original:
                continue
            with pytest.raises(TokenError):
                s.verify_cursor(
                    _TOKEN[:index] + char + _TOKEN[index + 1 :],
                    operation="listAccounts",
                    query={"owner": "ana"},
                    principal="user-1",
                )


def test_snapshot_tokens() -> None:
    clock = Clock()
    s = signer(clock)
    token = s.mint_snapshot(operation="listAccounts", snapshot="s-7", ttl_seconds=30, principal="u")
    claims = s.verify_snapshot(token, operation="listAccounts", principal="u")
    assert claims.snapshot == "s-7" and claims.purpose == "snapshot"
    with pytest.raises(TokenMismatch):
        s.verify_snapshot(token, operation="listAccounts", principal="v")
    with pytest.raises(TokenMismatch):  # a snapshot token is not a cursor
        s.verify_cursor(token, operation="listAccounts", principal="u")
    clock.now += 30
    with pytest.raises(TokenExpired):
        s.verify_snapshot(token, operation="listAccounts", principal="u")
