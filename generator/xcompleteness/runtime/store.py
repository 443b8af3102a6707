"""Where spent evidence, revocations and kept API tokens live, so replicas agree on them.

Why a module of its own: single use and revocation are only as strong as the set they are
checked against. One process can keep that set in memory; two service replicas behind a load
balancer, or two MCP servers, must share it, and a restart must not forget it (a forgotten spent
token could authorise a second destructive call). :class:`TokenStore` is the one small interface
(:meth:`~TokenStore.claim`, :meth:`~TokenStore.get`, :meth:`~TokenStore.release`) that
``service.py`` and ``evidence.py`` use; three implementations:

- :class:`SqliteStore` (the default): one SQLite file in WAL mode, shared by every process on
  the machine (or on a filesystem with working locks). A claim is one ``INSERT`` against a
  primary key inside an ``IMMEDIATE`` transaction: of two replicas racing on one token exactly
  one inserts the row; the other sees the conflict.
- :class:`RedisStore` for replicas on many machines: ``SET key value NX PX ttl`` (atomic on the
  server). The ``redis`` client is imported only when a ``redis://`` URL is opened, so a package
  that never uses Redis does not need it.
- :class:`MemoryStore`: one process, forgotten on restart (tests, or tokens signed with a
  per-process secret that die with the process anyway).

Entries expire with the token they record (``expires_at``, epoch seconds): past that the token
itself is refused as expired, so the entry is no longer needed and is pruned.

Namespaces keep the kinds apart: ``used`` (single-use claims), ``revoked`` (revocations),
``api`` (the API's own evidence kept by an MCP server). Keys are digests or random ids, never
secrets.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable
from urllib.parse import unquote, urlsplit

__all__ = [
    "MemoryStore",
    "RedisStore",
    "SqliteStore",
    "StoreError",
    "TokenStore",
    "open_store",
]

USED = "used"
REVOKED = "revoked"
API = "api"


class StoreError(Exception):
    """The store cannot be opened or reached (a bad URL, a missing client, a refused connection)."""


@runtime_checkable
class TokenStore(Protocol):
    """What single use and revocation need; every method is safe across threads and processes."""

    def claim(self, namespace: str, key: str, *, expires_at: float, value: str = "") -> bool:
        """Record ``key`` unless a live entry exists; True for exactly one of racing callers."""
        ...

    def get(self, namespace: str, key: str) -> str | None:
        """The value of a live entry, or None (absent or expired)."""
        ...

    def release(self, namespace: str, key: str) -> None:
        """Forget ``key`` (a claim whose action then failed; an API token once spent)."""
        ...

    def close(self) -> None: ...


class MemoryStore:
    """One process's store: a dict under a lock (nothing survives the process)."""

    def __init__(self, *, clock: Callable[[], float] = time.time, limit: int = 100_000) -> None:
        self._clock = clock
        self._limit = limit
        self._data: dict[tuple[str, str], tuple[str, float]] = {}
        self._lock = threading.Lock()

    def claim(self, namespace: str, key: str, *, expires_at: float, value: str = "") -> bool:
        now = self._clock()
        with self._lock:
            held = self._data.get((namespace, key))
            if held is not None and held[1] > now:
                return False
            if len(self._data) >= self._limit:
                self._data = {k: v for k, v in self._data.items() if v[1] > now}
                if len(self._data) >= self._limit:
                    raise StoreError("the memory store is full; use a SQLite or Redis store")
            self._data[(namespace, key)] = (value, expires_at)
            return True

    def get(self, namespace: str, key: str) -> str | None:
        with self._lock:
            held = self._data.get((namespace, key))
        return held[0] if held is not None and held[1] > self._clock() else None

    def release(self, namespace: str, key: str) -> None:
        with self._lock:
            self._data.pop((namespace, key), None)

    def close(self) -> None:
        pass


_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS xc_tokens ("
    " ns TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, expires_at REAL NOT NULL,"
    " PRIMARY KEY (ns, key)) WITHOUT ROWID"
)


def _until_unlocked(step: Callable[[], Any], timeout_s: float) -> Any:
    """Run ``step``, retrying while SQLite says the file is locked, for up to ``timeout_s``.

    The busy timeout does not cover every case: when several processes open a new file at once,
    switching it to WAL can fail with "database is locked" at once, without waiting, because
    SQLite refuses to wait where two connections would each hold a lock the other needs.
    Retrying after a short pause resolves it; the last error is raised after ``timeout_s``.
    """
    deadline = time.monotonic() + timeout_s
    pause = 0.005
    while True:
        try:
            return step()
        except sqlite3.OperationalError as exc:
            text = str(exc).lower()
            if ("locked" not in text and "busy" not in text) or time.monotonic() >= deadline:
                raise
            time.sleep(pause)
            pause = min(pause * 2, 0.1)


class SqliteStore:
    """A SQLite file shared by every process that opens the same path (WAL, busy timeout).

    One connection per thread (sqlite3 connections are not shared between threads); every
    write is an ``IMMEDIATE`` transaction, so a claim is atomic across processes.
    """

    PRUNE_EVERY = 256

    def __init__(
        self, path: str | Path, *, clock: Callable[[], float] = time.time, timeout_s: float = 10.0
    ) -> None:
        self.path = Path(path)
        self._clock = clock
        self._timeout = timeout_s
        self._local = threading.local()
        self._writes = 0
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = self._conn()
            _until_unlocked(lambda: conn.execute(_SCHEMA), self._timeout)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open the token store {self.path}: {exc}") from None

    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=self._timeout, isolation_level=None)
            _until_unlocked(lambda: conn.execute("PRAGMA journal_mode=WAL"), self._timeout)
            conn.execute("PRAGMA synchronous=NORMAL")
            self._local.conn = conn
        return conn

    def claim(self, namespace: str, key: str, *, expires_at: float, value: str = "") -> bool:
        now = self._clock()
        conn = self._conn()
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.execute(
                    "DELETE FROM xc_tokens WHERE ns = ? AND key = ? AND expires_at <= ?",
                    (namespace, key, now),
                )
                cur = conn.execute(
                    "INSERT INTO xc_tokens (ns, key, value, expires_at) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (ns, key) DO NOTHING",
                    (namespace, key, value, float(expires_at)),
                )
                won = cur.rowcount == 1
                self._writes += 1
                if self._writes % self.PRUNE_EVERY == 0:
                    conn.execute("DELETE FROM xc_tokens WHERE expires_at <= ?", (now,))
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise StoreError(f"token store {self.path}: {exc}") from None
        return won

    def get(self, namespace: str, key: str) -> str | None:
        try:
            row = (
                self._conn()
                .execute(
                    "SELECT value FROM xc_tokens WHERE ns = ? AND key = ? AND expires_at > ?",
                    (namespace, key, self._clock()),
                )
                .fetchone()
            )
        except sqlite3.Error as exc:
            raise StoreError(f"token store {self.path}: {exc}") from None
        return None if row is None else str(row[0])

    def release(self, namespace: str, key: str) -> None:
        try:
            self._conn().execute("DELETE FROM xc_tokens WHERE ns = ? AND key = ?", (namespace, key))
        except sqlite3.Error as exc:
            raise StoreError(f"token store {self.path}: {exc}") from None

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None


class RedisStore:
    """Redis (one server or a proxy in front of a cluster): ``SET NX PX`` claims, ``GET``, ``DEL``.

    ``client`` is anything with redis-py's ``set``/``get``/``delete``; :func:`open_store` builds
    one from a ``redis://`` URL (the ``redis`` package is needed only then).
    """

    def __init__(
        self, client: Any, *, prefix: str = "xc:", clock: Callable[[], float] = time.time
    ) -> None:
        self._client = client
        self._prefix = prefix
        self._clock = clock

    def _key(self, namespace: str, key: str) -> str:
        return f"{self._prefix}{namespace}:{key}"

    def _call(self, method: str, *args: Any, **kwargs: Any) -> Any:
        try:
            return getattr(self._client, method)(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 -- redis errors become one typed failure
            raise StoreError(f"redis {method} failed: {type(exc).__name__}: {exc}") from None

    def claim(self, namespace: str, key: str, *, expires_at: float, value: str = "") -> bool:
        ttl_ms = int((expires_at - self._clock()) * 1000)
        if ttl_ms <= 0:
            return True  # already past its expiry: nothing to remember, the token is refused
        return bool(self._call("set", self._key(namespace, key), value, nx=True, px=ttl_ms))

    def get(self, namespace: str, key: str) -> str | None:
        raw = self._call("get", self._key(namespace, key))
        if raw is None:
            return None
        return raw.decode("utf-8") if isinstance(raw, bytes) else str(raw)

    def release(self, namespace: str, key: str) -> None:
        self._call("delete", self._key(namespace, key))

    def close(self) -> None:
        close = getattr(self._client, "close", None)
        if close is not None:
            close()


def open_store(url: str | Path | None) -> TokenStore:
    """A store from a URL: ``sqlite:///abs/path``, ``sqlite:rel/path``, a bare file path,
    ``redis://[:password@]host:port/db`` (or ``rediss://``), or ``memory:``.

    Raises :class:`StoreError` for an unknown scheme, an unopenable file, or a Redis URL
    without the ``redis`` package installed.
    """
    if url is None or str(url) in ("", "memory:"):
        return MemoryStore()
    text = str(url)
    if text.startswith(("redis://", "rediss://", "unix://")):
        try:
            import redis  # optional: only a Redis URL needs it
        except ImportError:
            raise StoreError(
                "a redis:// token store needs the redis package (pip install redis)"
            ) from None
        try:
            client = redis.Redis.from_url(text, socket_timeout=5, socket_connect_timeout=5)
        except ValueError as exc:
            raise StoreError(f"bad redis URL: {exc}") from None
        return RedisStore(client)
    if text.startswith("sqlite:"):
        rest = text[len("sqlite:") :]
        if rest.startswith("//"):
            parts = urlsplit(text)
            if parts.netloc not in ("", "localhost"):
                raise StoreError("a sqlite: URL names a local file (sqlite:///path)")
            rest = unquote(parts.path)
        if not rest:
            raise StoreError("a sqlite: URL needs a file path (sqlite:///path/to/tokens.sqlite3)")
        return SqliteStore(rest)
    if "://" in text:
        raise StoreError(f"unknown token store URL {text!r} (sqlite:, redis://, memory:)")
    return SqliteStore(text)
