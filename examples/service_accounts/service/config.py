"""Configuration of the example service: shards, their faults, credentials, budgets, caps.

Everything a scenario wants to break is a field here, because the point of the example is to show
what the contract says when a shard is slow or down, when a credential cannot see everything, or
when a listing hits its cap. The objects are mutable on purpose: tests and the admin hook change
them while the service runs (a shard "dies" mid-scan, a credential loses a team), and every
request reads them afresh.
"""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class ShardConfig:
    """One shard: a separate SQLite file, plus the faults a scenario can inject into it."""

    name: str
    latency_ms: int = 0  # added to every read of this shard (a slow disk, a busy replica)
    down: bool = False  # every read fails (the shard is unreachable)
    stale: bool = False  # reads succeed but the shard reports a lagging index (STALE_INDEX)
    rebalancing: bool = False  # its search index is moving: searches skip it (SHARD_REBALANCING)


@dataclass(frozen=True)
class Principal:
    """Who a bearer token speaks for, and which teams' accounts it may read."""

    name: str
    teams: frozenset[str]

    def grants_digest(self) -> str:
        """A stable summary of the grants, bound into cursors so a change is detected."""
        return f"{self.name}:{','.join(sorted(self.teams))}"


@dataclass
class ServiceConfig:
    """The whole service configuration (one instance per running service)."""

    data_dir: Path
    shards: list[ShardConfig] = field(
        default_factory=lambda: [ShardConfig(f"shard-{i}") for i in range(4)]
    )
    tokens: dict[str, Principal] = field(default_factory=dict)
    result_limit: int = 1000  # a listing stops here with RESULT_LIMIT_REACHED
    default_budget_ms: int = 2000  # time budget per request when the caller names none
    max_budget_ms: int = 30000
    max_page_size: int = 200
    default_page_size: int = 50  # the spec's default for limit
    cursor_ttl_s: int = 900
    evidence_ttl_s: int = 600
    secret: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    admin_token: str | None = None  # enables the /_admin hook when set
    bare_routes: bool = False  # adds /_bare/service-accounts (the benchmark's no-contract peer)
    # Where spent and revoked evidence is kept (a TokenStore URL); None: a SQLite file in
    # data_dir, shared by every replica serving the same data_dir. redis://HOST:PORT/DB for
    # replicas on several machines.
    token_store: str | None = None

    def token_store_url(self) -> str:
        return self.token_store or f"sqlite:///{(self.data_dir / 'tokens.sqlite3').resolve()}"

    def shard(self, name: str) -> ShardConfig:
        for shard in self.shards:
            if shard.name == name:
                return shard
        raise KeyError(name)

    def principal(self, token: str) -> Principal | None:
        return self.tokens.get(token)


def demo_tokens() -> dict[str, Principal]:
    """The credentials of the bundled scenario: an org-wide auditor and two team tokens."""
    return {
        "auditor-token": Principal("auditor", frozenset({"payments", "search", "infra", "data"})),
        "payments-token": Principal("payments-bot", frozenset({"payments"})),
        "infra-token": Principal("infra-bot", frozenset({"infra", "data"})),
    }


def from_env(environ: dict[str, str] | None = None) -> ServiceConfig:
    """Build a configuration from ``XC_SERVICE_*`` variables (used when run as a process).

    ``XC_SERVICE_DATA`` data folder (required); ``XC_SERVICE_SHARDS`` shard count;
    ``XC_SERVICE_SLOW`` ``shard-2=800,shard-3=50`` latencies in ms; ``XC_SERVICE_DOWN``
    ``shard-1,...``; ``XC_SERVICE_STALE`` and ``XC_SERVICE_REBALANCING`` likewise;
    ``XC_SERVICE_RESULT_LIMIT``;
    ``XC_SERVICE_BUDGET_MS`` default budget; ``XC_SERVICE_SECRET`` hex signing key;
    ``XC_SERVICE_ADMIN_TOKEN``; ``XC_SERVICE_TOKENS`` JSON ``{token: {name, teams}}``
    (default: the demo tokens); ``XC_SERVICE_TOKEN_STORE`` where spent evidence is kept
    (``sqlite:///PATH`` or ``redis://HOST:PORT/DB``; default a SQLite file in the data folder).
    """
    env = dict(os.environ if environ is None else environ)
    count = int(env.get("XC_SERVICE_SHARDS", "4"))
    shards = [ShardConfig(f"shard-{i}") for i in range(count)]
    by_name = {s.name: s for s in shards}
    for item in _split(env.get("XC_SERVICE_SLOW", "")):
        name, _, ms = item.partition("=")
        by_name[name].latency_ms = int(ms)
    for name in _split(env.get("XC_SERVICE_DOWN", "")):
        by_name[name].down = True
    for name in _split(env.get("XC_SERVICE_STALE", "")):
        by_name[name].stale = True
    for name in _split(env.get("XC_SERVICE_REBALANCING", "")):
        by_name[name].rebalancing = True
    tokens = demo_tokens()
    if "XC_SERVICE_TOKENS" in env:
        raw = json.loads(env["XC_SERVICE_TOKENS"])
        tokens = {t: Principal(p["name"], frozenset(p["teams"])) for t, p in raw.items()}
    config = ServiceConfig(
        data_dir=Path(env["XC_SERVICE_DATA"]),
        shards=shards,
        tokens=tokens,
        result_limit=int(env.get("XC_SERVICE_RESULT_LIMIT", "1000")),
        default_budget_ms=int(env.get("XC_SERVICE_BUDGET_MS", "2000")),
        admin_token=env.get("XC_SERVICE_ADMIN_TOKEN") or None,
        token_store=env.get("XC_SERVICE_TOKEN_STORE") or None,
    )
    if "XC_SERVICE_SECRET" in env:
        config.secret = bytes.fromhex(env["XC_SERVICE_SECRET"])
    return config


def _split(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]
