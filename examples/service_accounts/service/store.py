"""Versioned service accounts in several SQLite files (shards) plus a catalog holding the clock.

Why versioned rows: a listing is promised to be consistent with one snapshot (the spec declares
``snapshot: token`` and frozen cursors), while writes go on. Every write takes the next version
from the catalog clock, closes the rows it replaces (``valid_to = v``) and inserts the new ones
(``valid_from = v``). A read at snapshot ``s`` sees exactly the rows with
``valid_from <= s < valid_to``. The clock only moves after every shard touched by a write has
committed, so a multi-shard write (an archive of ten accounts on four shards) becomes visible to
readers all at once, and a reader never sees half of it.

Writers serialise on the catalog (``BEGIN IMMEDIATE``), which works across processes too; readers
never take that lock (WAL mode). A crash between a shard commit and the clock update leaves rows
from the future; :meth:`Store.open` rolls them back.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from .config import ServiceConfig, ShardConfig

_SCHEMA = """
CREATE TABLE IF NOT EXISTS account_versions (
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    description TEXT,
    team TEXT NOT NULL,
    owner TEXT,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_used_at TEXT,
    valid_from INTEGER NOT NULL,
    valid_to INTEGER,
    PRIMARY KEY (id, valid_from)
);
CREATE INDEX IF NOT EXISTS account_versions_open ON account_versions (valid_to, id);
"""

_COLUMNS = (
    "id, name, description, team, owner, status, created_at, last_used_at, valid_from, valid_to"
)
_EMAIL_DOMAIN = "example.com"

_SNAPSHOT = "valid_from <= :snap AND (valid_to IS NULL OR valid_to > :snap)"


@dataclass(frozen=True)
class Account:
    """One service account as stored (``version`` is the version that wrote this row).

    ``team`` decides visibility and never leaves the service; ``owner`` is a user id (the API
    shows it as ``{"id", "email"}``). ``rank`` is the search relevance of the row that produced
    it (0 outside search).
    """

    id: str
    name: str
    team: str
    owner: str | None
    status: str = "active"
    description: str | None = None
    created_at: str = "2026-01-01T00:00:00Z"
    last_used_at: str | None = None
    version: int = 0
    rank: int = 0

    def public(self) -> dict[str, object]:
        """The item as the API shows it (no storage bookkeeping, no team)."""
        owner = None
        if self.owner is not None:
            owner = {"id": self.owner, "email": f"{self.owner}@{_EMAIL_DOMAIN}"}
        data: dict[str, object] = {
            "id": self.id,
            "name": self.name,
            "status": self.status,
            "owner": owner,
            "created_at": self.created_at,
            "last_used_at": self.last_used_at,
        }
        if self.description is not None:
            data["description"] = self.description
        return data

    def key(self) -> tuple[int, str]:
        """Position in a listing: relevance descending (search only), then id ascending."""
        return (-self.rank, self.id)


@dataclass(frozen=True)
class Query:
    """What a listing asks for. ``key()`` is the canonical text bound into cursors and evidence.

    ``text`` makes it a ranked search (name, description, owner email); without it the listing is
    in id order.
    """

    status: str | None = None
    owner: str | None = None
    text: str | None = None

    def key(self) -> str:
        return json.dumps(asdict(self), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_key(cls, key: str) -> Query:
        data = json.loads(key)
        return cls(status=data.get("status"), owner=data.get("owner"), text=data.get("text"))

    @property
    def ranked(self) -> bool:
        return bool(self.text)

    def rank_sql(self) -> str:
        if not self.ranked:
            return "0"
        return (
            "(CASE WHEN lower(name) = :text THEN 3 WHEN instr(lower(name), :text) = 1 THEN 2"
            " WHEN instr(lower(name), :text) > 0 THEN 1 ELSE 0 END)"
        )

    def where(self) -> tuple[str, dict[str, object]]:
        """SQL conditions and parameters; values are always bound, never spliced."""
        parts: list[str] = []
        params: dict[str, object] = {}
        if self.status is not None:
            parts.append("status = :status")
            params["status"] = self.status
        if self.owner is not None:
            parts.append("owner = :owner")
            params["owner"] = self.owner
        if self.text:
            parts.append(
                "(instr(lower(name), :text) > 0"
                " OR instr(lower(coalesce(description, '')), :text) > 0"
                f" OR instr(lower(coalesce(owner || '@{_EMAIL_DOMAIN}', '')), :text) > 0)"
            )
            params["text"] = self.text.lower()
        return (" AND ".join(parts) or "1"), params


class ShardUnavailable(Exception):
    """A shard could not be read (configured down, file missing, I/O error)."""


class ShardRebalancing(Exception):
    """A shard's search index is moving; ranked reads skip it until the move ends."""


class ShardTimeout(Exception):
    """A shard did not answer within the request's time budget."""


class Conflict(Exception):
    """A write's precondition failed (a target changed, vanished or was never there)."""

    def __init__(self, account_id: str, why: str) -> None:
        super().__init__(f"{account_id}: {why}")
        self.account_id = account_id
        self.why = why


@dataclass(frozen=True)
class ShardRead:
    rows: list[Account]
    hidden: bool  # rows matching the query exist that the caller may not see


def shard_for(account_id: str, shard_names: Sequence[str]) -> str:
    """Stable placement: crc32 of the id (the same on every platform and every run)."""
    return shard_names[zlib.crc32(account_id.encode("utf-8")) % len(shard_names)]


class Store:
    """The catalog clock plus the shard files of one service."""

    def __init__(self, config: ServiceConfig) -> None:
        self.config = config
        self.dir = Path(config.data_dir)
        self._write_lock = threading.Lock()

    # -- files -----------------------------------------------------------------------------

    @property
    def catalog_path(self) -> Path:
        return self.dir / "catalog.sqlite"

    def shard_path(self, name: str) -> Path:
        return self.dir / f"{name}.sqlite"

    @property
    def shard_names(self) -> list[str]:
        return [s.name for s in self.config.shards]

    def open(self) -> Store:
        """Create missing files, switch to WAL, and roll back writes the clock never published."""
        self.dir.mkdir(parents=True, exist_ok=True)
        with _db(self.catalog_path) as cat:
            cat.execute("PRAGMA journal_mode=WAL")
            cat.execute("CREATE TABLE IF NOT EXISTS clock (version INTEGER NOT NULL)")
            if cat.execute("SELECT count(*) FROM clock").fetchone()[0] == 0:
                cat.execute("INSERT INTO clock VALUES (0)")
        for name in self.shard_names:
            with _db(self.shard_path(name)) as db:
                db.execute("PRAGMA journal_mode=WAL")  # persistent: readers never block writers
                db.executescript(_SCHEMA)
        with self._writing() as (version, _):
            for name in self.shard_names:
                with _db(self.shard_path(name)) as db:
                    db.execute("DELETE FROM account_versions WHERE valid_from > ?", (version,))
                    db.execute(
                        "UPDATE account_versions SET valid_to = NULL WHERE valid_to > ?",
                        (version,),
                    )
            raise _NoPublish
        return self

    def current_version(self) -> int:
        """The newest published version: the snapshot a new listing reads at."""
        db = sqlite3.connect(f"{self.catalog_path.as_uri()}?mode=ro", uri=True, timeout=10.0)
        try:
            return int(db.execute("SELECT version FROM clock").fetchone()[0])
        finally:
            db.close()

    # -- writes ----------------------------------------------------------------------------

    @contextmanager
    def _writing(self) -> Iterator[tuple[int, int]]:
        """Hold the writer lock; yields (published version, next version); publishes on exit."""
        with self._write_lock:
            cat = _connect(self.catalog_path)
            try:
                cat.execute("BEGIN IMMEDIATE")
                version = int(cat.execute("SELECT version FROM clock").fetchone()[0])
                try:
                    yield version, version + 1
                except _NoPublish:
                    cat.rollback()
                    return
                cat.execute("UPDATE clock SET version = ?", (version + 1,))
                cat.commit()
            except BaseException:
                cat.rollback()
                raise
            finally:
                cat.close()

    def put(self, accounts: Iterable[Account]) -> int:
        """Create or replace accounts in one new version; returns that version."""
        rows = list(accounts)
        with self._writing() as (_, new):
            self._write_rows(rows, new)
        return new

    def update(self, account_id: str, **changes: object) -> int:
        """Change fields of one current account (a new version of it)."""
        with self._writing() as (published, new):
            current = self._current(account_id)
            if current is None:
                raise Conflict(account_id, "no such account")
            self._write_rows([replace(current, **changes)], new)  # type: ignore[arg-type]
        return new

    def archive(
        self,
        ids: Sequence[str],
        *,
        check: Callable[[Account | None], str | None] | None = None,
    ) -> int:
        """Archive accounts in one version, all or none.

        ``check`` sees each target's current row *under the writer lock* and returns why it must
        not be archived (or None); the first refusal raises :class:`Conflict` and nothing is
        written. Re-checking inside the lock is what makes "the evidence still holds" true at the
        moment of the write rather than a moment before it.
        """
        with self._writing() as (_, new):
            targets: list[Account] = []
            for account_id in ids:
                current = self._current(account_id)
                why = check(current) if check else None
                if why is None and (current is None or current.status == "archived"):
                    why = "no such account, or already archived"
                if why is not None:
                    raise Conflict(account_id, why)
                assert current is not None
                targets.append(replace(current, status="archived"))
            self._write_rows(targets, new)
        return new

    def _current(self, account_id: str) -> Account | None:
        path = self.shard_path(shard_for(account_id, self.shard_names))
        with _db(path) as db:
            row = db.execute(
                "SELECT * FROM account_versions WHERE id = ? AND valid_to IS NULL", (account_id,)
            ).fetchone()
        return _account(row) if row else None

    def _write_rows(self, rows: list[Account], version: int) -> None:
        by_shard: dict[str, list[Account]] = {}
        for account in rows:
            by_shard.setdefault(shard_for(account.id, self.shard_names), []).append(account)
        for name, group in sorted(by_shard.items()):
            with _db(self.shard_path(name)) as db:
                for a in group:
                    db.execute(
                        "UPDATE account_versions SET valid_to = ?"
                        " WHERE id = ? AND valid_to IS NULL",
                        (version, a.id),
                    )
                    db.execute(
                        f"INSERT INTO account_versions ({_COLUMNS})"
                        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)",
                        (
                            a.id,
                            a.name,
                            a.description,
                            a.team,
                            a.owner,
                            a.status,
                            a.created_at,
                            a.last_used_at,
                            version,
                        ),
                    )

    # -- reads -----------------------------------------------------------------------------

    def read_shard(
        self,
        shard: ShardConfig,
        query: Query,
        *,
        snapshot: int,
        teams: frozenset[str],
        after: tuple[int, str] | None,
        limit: int | None,
        deadline: float,
    ) -> ShardRead:
        """Rows of one shard at one snapshot, visible to ``teams``, positioned after ``after``.

        ``after`` is the :meth:`Account.key` of the last row already returned.

        Honours the shard's injected faults and the request deadline: an injected latency that
        does not fit the remaining budget, or a query still running at the deadline (SQLite's
        progress handler interrupts it), raises :class:`ShardTimeout`.
        """
        if shard.down:
            raise ShardUnavailable(f"{shard.name} is down")
        if shard.rebalancing and query.ranked:
            raise ShardRebalancing(shard.name)
        if shard.latency_ms:
            remaining = deadline - time.monotonic()
            if shard.latency_ms / 1000 > remaining:
                time.sleep(max(0.0, remaining))
                raise ShardTimeout(shard.name)
            time.sleep(shard.latency_ms / 1000)
        cond, params = query.where()
        params["snap"] = snapshot
        team_list = sorted(teams)
        marks = ", ".join(f":t{i}" for i in range(len(team_list))) or "NULL"
        params.update({f"t{i}": t for i, t in enumerate(team_list)})
        page_sql = (
            f"SELECT * FROM (SELECT *, {query.rank_sql()} AS rank FROM account_versions"
            f" WHERE {_SNAPSHOT} AND {cond} AND team IN ({marks}))"
        )
        if after is not None:
            page_sql += " WHERE rank < :arank OR (rank = :arank AND id > :aid)"
            params["arank"], params["aid"] = -after[0], after[1]
        page_sql += " ORDER BY rank DESC, id"
        if limit is not None:
            page_sql += " LIMIT :limit"
            params["limit"] = limit
        hidden_sql = (
            f"SELECT EXISTS (SELECT 1 FROM account_versions WHERE {_SNAPSHOT} AND {cond}"
            f" AND team NOT IN ({marks}))"
        )
        try:
            db = sqlite3.connect(f"{self.shard_path(shard.name).as_uri()}?mode=ro", uri=True)
        except sqlite3.Error as exc:
            raise ShardUnavailable(f"{shard.name}: {exc}") from exc
        try:
            db.row_factory = sqlite3.Row
            db.set_progress_handler(lambda: time.monotonic() > deadline, 200)
            rows = [_account(r) for r in db.execute(page_sql, params)]
            hidden_params = {k: v for k, v in params.items() if k not in ("arank", "aid", "limit")}
            hidden = bool(db.execute(hidden_sql, hidden_params).fetchone()[0])
        except sqlite3.OperationalError as exc:
            if time.monotonic() > deadline or "interrupted" in str(exc):
                raise ShardTimeout(shard.name) from exc
            raise ShardUnavailable(f"{shard.name}: {exc}") from exc
        except sqlite3.Error as exc:
            raise ShardUnavailable(f"{shard.name}: {exc}") from exc
        finally:
            db.close()
        return ShardRead(rows, hidden)

    def get(self, account_id: str, *, snapshot: int | None = None) -> Account | None:
        """One account at a snapshot (default: now), whatever its team."""
        if snapshot is None:
            return self._current(account_id)
        path = self.shard_path(shard_for(account_id, self.shard_names))
        with _db(path) as db:
            row = db.execute(
                f"SELECT * FROM account_versions WHERE id = :id AND {_SNAPSHOT}",
                {"id": account_id, "snap": snapshot},
            ).fetchone()
        return _account(row) if row else None


class _NoPublish(Exception):
    """Raised inside :meth:`Store._writing` to leave the clock where it is."""


@contextmanager
def _db(path: Path) -> Iterator[sqlite3.Connection]:
    """A connection that commits on success, rolls back on error, and is always closed."""
    db = _connect(path)
    try:
        yield db
        db.commit()
    except BaseException:
        db.rollback()
        raise
    finally:
        db.close()


def _connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, timeout=10.0, isolation_level="DEFERRED")
    db.row_factory = sqlite3.Row
    db.execute("PRAGMA synchronous=NORMAL")
    return db


def _account(row: sqlite3.Row) -> Account:
    return Account(
        id=row["id"],
        name=row["name"],
        team=row["team"],
        owner=row["owner"],
        status=row["status"],
        description=row["description"],
        created_at=row["created_at"],
        last_used_at=row["last_used_at"],
        version=row["valid_from"],
        rank=row["rank"] if "rank" in row.keys() else 0,
    )
