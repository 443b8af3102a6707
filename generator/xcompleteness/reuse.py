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
    "installed_version",
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
    """``name version`` lines of the installed distributions (``-`` when one is absent).

    The version is ``importlib.metadata.version``'s (the ``Version`` header of the first
    distribution on ``sys.path`` with that name), read by :func:`installed_version` without
    importing ``importlib.metadata`` and its email parser (about 70 ms an edit never needs)."""
    lines = []
    for name in names:
        lines.append(f"{name} {installed_version(name) or '-'}\n")
    return "".join(lines).encode()


def installed_version(name: str) -> str | None:
    """``importlib.metadata.version(name)``, or None when it is not installed.

    Answered from a listing of each ``sys.path`` folder, made once per process, the way
    ``importlib.metadata`` looks (the same name normalization, the first match in ``sys.path``
    order), and the ``Version`` header of that ``*.dist-info/METADATA``. Anything else asks
    ``importlib.metadata`` itself: a path entry that is not a plain folder (a zip), another
    finder of distributions on ``sys.meta_path``, an ``.egg-info``, an unreadable or unusual
    header. A test compares both for every installed distribution."""
    found = _metadata_folders()
    if found is not None:
        folders = found.get(_normalized(name))
        if not folders:
            return None
        version = _metadata_version(folders[0])
        if version is not None:
            return version
    from importlib import metadata  # about 40 ms to import

    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def _normalized(name: str) -> str:
    """``importlib.metadata``'s ``Prepared.normalize``."""
    import re

    return re.sub(r"[-_.]+", "-", name).lower().replace("-", "_")


_LISTED: dict[str, list[str]] | None = None
_LISTED_FOR: tuple[Any, ...] | None = None


def _metadata_folders() -> dict[str, list[str]] | None:
    """Normalized name -> metadata folders (``.dist-info`` / ``.egg-info``) in ``sys.path``
    order, or None when the standard path finder is not the only finder of distributions or a
    path entry cannot be listed as a folder. Kept while ``sys.path`` is the same."""
    import os
    import sys

    global _LISTED, _LISTED_FOR
    state = (tuple(sys.path), tuple(map(id, sys.meta_path)))
    if _LISTED_FOR == state:
        return _LISTED
    listed: dict[str, list[str]] | None = {}
    for finder in sys.meta_path:
        if hasattr(finder, "find_distributions") and getattr(finder, "__name__", "") != (
            "PathFinder"
        ):
            listed = None
    for root in sys.path if listed is not None else ():
        try:
            children = os.listdir(root or ".")
        except FileNotFoundError:
            continue  # importlib.metadata finds nothing there either
        except OSError:
            if os.path.exists(root or "."):  # a zip, or a folder it could read otherwise
                listed = None
                break
            continue
        if os.path.basename(root).lower().endswith(".egg"):
            listed = None  # an egg's own metadata layout: importlib.metadata knows it
            break
        for child in children:
            low = child.lower()
            if low.endswith((".dist-info", ".egg-info")):
                key = _normalized(low.rpartition(".")[0].partition("-")[0])
                assert listed is not None
                listed.setdefault(key, []).append(os.path.join(root, child))
    _LISTED, _LISTED_FOR = listed, state
    return listed


def _metadata_version(folder: str) -> str | None:
    """The ``Version`` header of ``folder/METADATA`` as ``email`` reads it, or None when the
    folder is not a plain ``.dist-info`` with one such header line."""
    if not folder.lower().endswith(".dist-info"):
        return None
    try:
        with open(Path(folder) / "METADATA", encoding="utf-8") as fh:
            head = fh.read(1 << 16)
    except (OSError, UnicodeDecodeError):
        return None
    lines = head.split("\n")
    for index, line in enumerate(lines):
        line = line.rstrip("\r")
        if not line or index == len(lines) - 1:
            return None  # the headers ended (or the read did) before a Version header
        if line[:1] in (" ", "\t"):
            continue  # the rest of a folded header
        name, colon, value = line.partition(":")
        if not colon or not name or not all("!" <= c <= "~" for c in name):
            return None  # not a header line: email would end the headers here
        if name.lower() == "version":
            following = lines[index + 1] if index + 1 < len(lines) else ""
            if following[:1] in (" ", "\t"):  # a folded header: leave it to email
                return None
            value = value.lstrip(" \t")
            return value or None
    return None


def hash_sources(h: Any, folder: Path, names: Iterable[str]) -> None:
    """Feed ``h`` each named file of ``folder``, length-prefixed (name and bytes)."""
    for name in names:
        data = (folder / name).read_bytes()
        h.update(b"%d:%s%d:" % (len(name), name.encode(), len(data)))
        h.update(data)


def file_sha256(path: Path) -> bytes:
    """The SHA-256 digest of one file's bytes."""
    return hashlib.sha256(path.read_bytes()).digest()
