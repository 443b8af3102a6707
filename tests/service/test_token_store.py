"""The spent/revoked token store (runtime/store.py) on a real SQLite file and a real redis-server.

The property that matters: of several processes racing to claim one evidence token, exactly one
wins, whichever store backs them; a store reopened after a restart still knows every claim.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from support.paths import ROOT
from support.redis_server import redis_server
from xcompleteness.runtime.evidence import EvidenceKeeper, Refused
from xcompleteness.runtime.service import EvidenceRejectedError, MutationEvidence
from xcompleteness.runtime.store import (
    MemoryStore,
    RedisStore,
    SqliteStore,
    StoreError,
    open_store,
)
from xcompleteness.runtime.tokens import TokenSigner

FAR = time.time() + 3600


def _race_in_processes(url: str, n: int, tmp_path: Path) -> list[bool]:
    """``n`` separate Python processes claim one key at the same instant; their answers."""
    go = tmp_path / "go"
    code = (
        "import os, sys, time, json\n"
        "from xcompleteness.runtime.store import open_store\n"
        "store = open_store(sys.argv[1])\n"
        "while not os.path.exists(sys.argv[2]): time.sleep(0.001)\n"
        "print(json.dumps(store.claim('used', 'the-token', expires_at=time.time() + 60)))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "generator")}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, url, str(go)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for _ in range(n)
    ]
    time.sleep(1.0)  # every process is up and waiting
    go.write_text("go")
    results = []
    for proc in procs:
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
        results.append(json.loads(out))
    return results


def test_sqlite_exactly_one_of_racing_processes_claims_a_token(tmp_path):
    url = f"sqlite:///{tmp_path / 'tokens.sqlite3'}"
    results = _race_in_processes(url, 6, tmp_path)
    assert sorted(results) == [False] * 5 + [True]


def test_sqlite_exactly_one_of_racing_threads_with_their_own_connections_wins(tmp_path):
    path = tmp_path / "t.sqlite3"
    stores = [SqliteStore(path) for _ in range(8)]
    barrier = threading.Barrier(8)
    results: list[bool] = []

    def run(store):
        barrier.wait()
        results.append(store.claim("used", "k", expires_at=FAR))

    threads = [threading.Thread(target=run, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [False] * 7 + [True]


def test_sqlite_claims_survive_a_restart_and_expire_with_their_token(tmp_path):
    path = tmp_path / "t.sqlite3"
    now = [1000.0]
    first = SqliteStore(path, clock=lambda: now[0])
    assert first.claim("used", "a", expires_at=1010.0, value="x")
    first.close()
    again = SqliteStore(path, clock=lambda: now[0])  # a restarted process
    assert again.get("used", "a") == "x"
    assert not again.claim("used", "a", expires_at=1010.0)
    assert again.get("revoked", "a") is None  # namespaces are separate
    now[0] = 1011.0  # past the token's expiry: the entry is gone, a new claim is possible
    assert again.get("used", "a") is None
    assert again.claim("used", "a", expires_at=1020.0)
    again.release("used", "a")
    assert again.get("used", "a") is None


def test_sqlite_file_is_in_wal_mode(tmp_path):
    import sqlite3

    path = tmp_path / "t.sqlite3"
    SqliteStore(path).claim("used", "a", expires_at=FAR)
    mode = sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_memory_store_claims_once_and_forgets_expired():
    now = [0.0]
    store = MemoryStore(clock=lambda: now[0])
    assert store.claim("used", "a", expires_at=5)
    assert not store.claim("used", "a", expires_at=5)
    now[0] = 6
    assert store.claim("used", "a", expires_at=10)


@pytest.mark.parametrize(
    "url",
    ["ftp://x/y", "sqlite:", "sqlite://otherhost/x.db", "mysql://db/tokens"],
)
def test_bad_store_urls_are_refused_with_a_store_error(url):
    with pytest.raises(StoreError):
        open_store(url)


def test_an_unwritable_sqlite_path_is_a_store_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(StoreError):
        open_store(f"sqlite:///{blocker / 'sub' / 'tokens.sqlite3'}")


def test_store_urls_open_the_right_kind(tmp_path):
    assert isinstance(open_store(None), MemoryStore)
    assert isinstance(open_store("memory:"), MemoryStore)
    assert isinstance(open_store(str(tmp_path / "a.sqlite3")), SqliteStore)
    assert isinstance(open_store(f"sqlite:///{tmp_path / 'b.sqlite3'}"), SqliteStore)


# -- redis ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    with redis_server(tmp_path_factory.mktemp("redis")) as url:
        yield url


def test_redis_exactly_one_of_racing_processes_claims_a_token(redis_url, tmp_path):
    store = open_store(redis_url)
    assert isinstance(store, RedisStore)
    store.release("used", "the-token")
    results = _race_in_processes(redis_url, 6, tmp_path)
    assert sorted(results) == [False] * 5 + [True]
    store.release("used", "the-token")


def test_redis_entries_expire_with_their_token_and_hold_values(redis_url):
    store = open_store(redis_url)
    assert store.claim("api", "j1", expires_at=time.time() + 60, value="api-token")
    assert store.get("api", "j1") == "api-token"
    assert store.claim("used", "short", expires_at=time.time() + 0.3)
    assert not store.claim("used", "short", expires_at=time.time() + 0.3)
    time.sleep(0.5)
    assert store.get("used", "short") is None
    assert store.claim("used", "short", expires_at=time.time() + 60)


def test_an_unreachable_redis_is_a_store_error_not_a_hang():
    from support.redis_server import free_port

    store = open_store(f"redis://127.0.0.1:{free_port()}/0")
    started = time.monotonic()
    with pytest.raises(StoreError):
        store.claim("used", "x", expires_at=time.time() + 60)
    assert time.monotonic() - started < 10


# -- the two users of the store ------------------------------------------------------------


def _mcp_keepers(url: str) -> tuple[EvidenceKeeper, EvidenceKeeper]:
    secret = b"s" * 32
    return (
        EvidenceKeeper(secret, "p", store=open_store(url)),
        EvidenceKeeper(secret, "p", store=open_store(url)),
    )


def _complete() -> dict:
    return {"status": "complete", "completeness": {"complete": True, "reasons": []}}


@pytest.mark.parametrize("backend", ["sqlite", "redis"])
def test_evidence_spent_on_one_mcp_keeper_is_refused_on_another(backend, tmp_path, request):
    url = (
        f"sqlite:///{tmp_path / 'm.sqlite3'}"
        if backend == "sqlite"
        else request.getfixturevalue("redis_url")
    )
    one, two = _mcp_keepers(url)
    token = one.mint(
        operation="listItems",
        query={},
        envelope=_complete(),
        ids=["a", "b"],
        ttl_s=60,
        api_token="api-evidence",
    )
    grant = two.verify(token, operation="listItems", targets=["a"], needs_api_token=True)
    assert grant.api_token == "api-evidence"  # kept by one, read by the other
    stale = one.verify(token, operation="listItems", targets=["b"])  # verified before the spend
    assert two.claim(grant)
    assert not one.claim(stale)  # the atomic step refuses the loser of the race
    two.consume(grant)
    with pytest.raises(Refused) as exc:
        one.verify(token, operation="listItems", targets=["b"])
    assert exc.value.codes == ("EVIDENCE_ALREADY_USED",)
    # a revocation on one keeper refuses a fresh token on the other
    fresh = one.mint(operation="listItems", query={}, envelope=_complete(), ids=["a"], ttl_s=60)
    assert two.revoke(fresh)
    with pytest.raises(Refused) as exc:
        one.verify(fresh, operation="listItems", targets=["a"])
    assert exc.value.codes == ("EVIDENCE_REVOKED",)
    assert not two.revoke("v1.forged.token")


def test_a_released_claim_can_be_used_again(tmp_path):
    one, _ = _mcp_keepers(f"sqlite:///{tmp_path / 'm.sqlite3'}")
    token = one.mint(operation="l", query={}, envelope=_complete(), ids=["a"], ttl_s=60)
    grant = one.verify(token, operation="l", targets=["a"])
    assert one.claim(grant)
    one.release(grant)  # the API call failed: the token is not spent
    assert one.claim(one.verify(token, operation="l", targets=["a"]))


def test_service_mutation_evidence_is_single_use_and_revocable_across_replicas(tmp_path):
    url = f"sqlite:///{tmp_path / 's.sqlite3'}"
    signer = TokenSigner(b"k" * 32)
    replicas = [
        MutationEvidence(signer, "archive", "list", store=open_store(url)) for _ in range(2)
    ]
    token = signer.mint_evidence(
        {"complete": True}, operation="list", ids=["a", "b"], ttl_seconds=60, principal="u"
    )
    claims = replicas[0].verify(token, ids=["a"], principal="u")
    replicas[0].spend(token, claims)
    with pytest.raises(EvidenceRejectedError) as exc:
        replicas[1].verify(token, ids=["b"], principal="u")
    assert exc.value.reason == "already_used"
    with pytest.raises(EvidenceRejectedError) as exc:
        replicas[1].spend(token, claims)  # the atomic step, even past a stale verify
    assert exc.value.reason == "already_used"
    replicas[0].release(token)
    assert replicas[1].verify(token, ids=["b"], principal="u")
    assert replicas[1].revoke(token)
    with pytest.raises(EvidenceRejectedError) as exc:
        replicas[0].verify(token, ids=["b"], principal="u")
    assert exc.value.reason == "revoked"


def test_sqlite_store_opens_while_another_writer_holds_the_file_without_waiting_for_it(tmp_path):
    """SQLite fails the switch to WAL at once (no busy wait) while another connection holds a
    write lock; the store retries until the lock is gone instead of refusing to open."""
    path = tmp_path / "t.sqlite3"
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("CREATE TABLE unrelated (x)")
    other.execute("BEGIN")
    other.execute("INSERT INTO unrelated VALUES (1)")  # a RESERVED lock, rollback journal
    released = threading.Event()

    def release_later():
        time.sleep(0.3)
        other.execute("COMMIT")
        other.close()
        released.set()

    threading.Thread(target=release_later).start()
    store = SqliteStore(path, timeout_s=10)
    assert released.is_set()  # it opened only after the other writer let go
    assert store.claim("used", "k", expires_at=FAR)
    assert not store.claim("used", "k", expires_at=FAR)
