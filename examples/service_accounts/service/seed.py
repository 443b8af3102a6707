"""A deterministic set of service accounts for the demo, tests and benchmarks.

Deterministic (no randomness, no clock) so the demo prints the same story every run and tests can
name the accounts they expect.
"""

from __future__ import annotations

from .store import Account, Store

TEAMS = ("payments", "search", "infra", "data")
PEOPLE = ("ana", "bo", "chen", "dara", "eli", "fay")


def status_of(n: int) -> str:
    """One in five accounts is active, three disabled, one archived."""
    return ("archived", "disabled", "active", "disabled", "disabled")[n % 5]


def demo_accounts(count: int = 200, *, orphan_every: int = 7) -> list[Account]:
    """``count`` accounts ``svc-0001``...; every ``orphan_every``-th one has no owner."""
    accounts = []
    for n in range(1, count + 1):
        team = TEAMS[n % len(TEAMS)]
        owner = None if n % orphan_every == 0 else PEOPLE[n % len(PEOPLE)]
        accounts.append(
            Account(
                id=f"svc-{n:04d}",
                name=f"{team}-worker-{n}",
                team=team,
                owner=owner,
                status=status_of(n),
                description=f"{team} batch worker" if n % 3 else None,
                created_at=f"2026-{1 + n % 12:02d}-{1 + n % 28:02d}T00:00:00Z",
                last_used_at=None if n % 4 == 0 else f"2026-11-{1 + n % 28:02d}T12:00:00Z",
            )
        )
    return accounts


def seed(store: Store, count: int = 200, *, orphan_every: int = 7) -> int:
    """Fill an empty store in one version; returns that version (a no-op if already filled)."""
    if store.current_version() > 0:
        return store.current_version()
    return store.put(demo_accounts(count, orphan_every=orphan_every))
