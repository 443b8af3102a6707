"""What every cache of a run shares: a run-scoped store slot, store calls that never fail a run,
and the parts of a key that say which code and libraries made a fact.

A stage that can reuse a fact (a clean validation verdict, a parse without duplicate keys, a
formatted module) or a value (a line index, the findings of a scan: a :class:`ValueStore`)
names its store through a :class:`StoreSlot`: the caller that owns a cache folder
(``generate``) fills the slot for the length of a block, and the stage reads it with
:meth:`StoreSlot.current`; no slot is filled by default, so a plain ``check`` touches no disk.
A store is other people's disk: :func:`known`, :func:`remember`, :func:`recall` and
:func:`keep` turn any failure of it into a miss, never an error. :func:`library_versions` and
:func:`hash_sources` are the key parts that tie a fact to the code that established it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

__all__ = [
    "FactStore",
    "StoreSlot",
    "ValueStore",
    "file_sha256",
    "hash_sources",
    "known",
    "keep",
    "library_versions",
    "recall",
    "remember",
]

S = TypeVar("S")


class FactStore(Protocol):
    """One fixed fact per key ("this document was valid", "this text parsed clean")."""

    def get(self, key: str) -> bool: ...

    def put(self, key: str) -> None: ...


class ValueStore(Protocol):
    """One JSON value per key (a line index, the findings of a scan); ``get`` gives None for a
    miss. The stage that reads a value checks its shape before it trusts it."""

    def get(self, key: str) -> Any: ...

    def put(self, key: str, value: Any) -> None: ...


class StoreSlot(Generic[S]):
    """A store for the length of a ``with slot.using(store):`` block (a :class:`ContextVar`,
    so threads and tasks of other runs never see it)."""

    def __init__(self, name: str) -> None:
        self._var: ContextVar[S | None] = ContextVar(name, default=None)

    @contextmanager
    def using(self, store: S | None) -> Iterator[None]:
        """Let :meth:`current` return ``store`` while the block runs."""
        token = self._var.set(store)
        try:
            yield
        finally:
            self._var.reset(token)

    def current(self) -> S | None:
        return self._var.get()


def known(store: FactStore, key: str) -> bool:
    """``store`` holds the fact under ``key``; a store that fails says no."""
    try:
        return bool(store.get(key))
    except Exception:  # noqa: BLE001 - a store never fails a run
        return False


def remember(store: FactStore, key: str) -> None:
    """Keep the fact under ``key``; a store that fails keeps nothing."""
    try:
        store.put(key)
    except Exception:  # noqa: BLE001 - a store never fails a run
        return


def recall(store: ValueStore | None, key: str | None) -> Any:
    """The value ``store`` holds under ``key``; None for no store, no key or a failing store."""
    if store is None or key is None:
        return None
    try:
        return store.get(key)
    except Exception:  # noqa: BLE001 - a store never fails a run
        return None


def keep(store: ValueStore | None, key: str | None, value: Any) -> None:
    """Store ``value`` under ``key``; no store, no key or a failing store keeps nothing."""
    if store is None or key is None:
        return
    try:
        store.put(key, value)
    except Exception:  # noqa: BLE001 - a store never fails a run
        return


def library_versions(names: Iterable[str]) -> bytes:
    """``name version`` lines of the installed distributions (``-`` when one is absent)."""
    from importlib import metadata  # about 40 ms to import; only a cache key needs it

    lines = []
    for name in names:
        try:
            version = metadata.version(name)
        except metadata.PackageNotFoundError:
            version = "-"
        lines.append(f"{name} {version}\n")
    return "".join(lines).encode()


def hash_sources(h: Any, folder: Path, names: Iterable[str]) -> None:
    """Feed ``h`` each named file of ``folder``, length-prefixed (name and bytes)."""
    for name in names:
        data = (folder / name).read_bytes()
        h.update(b"%d:%s%d:" % (len(name), name.encode(), len(data)))
        h.update(data)


def file_sha256(path: Path) -> bytes:
    """The SHA-256 digest of one file's bytes."""
    return hashlib.sha256(path.read_bytes()).digest()
