"""The format cache: ruff's output for one generated module, reused when its input is unchanged.

The whole-run cache (:mod:`xcompleteness.emit._cache`) misses on any edit of the spec or an
overlay, yet an overlay edit of reasons, scope or pagination changes only a few of the hundreds
of modules a large API generates. Formatting (writing every module to a temporary folder, three
ruff runs, the long-string splitting, removing the folder) is the largest stage left once the
item models are reused (:mod:`xcompleteness.emit._model_cache`). This store keeps the formatted
text of each module keyed by :func:`xcompleteness.emit._format.format_key`: a SHA-256 over the
module's unformatted text, its base name (ruff treats ``__init__.py`` apart), the ruff version,
the pinned ruff settings, the Python version and the formatter's own source. Formatting is a pure
function of exactly those (each module is formatted alone: :func:`~xcompleteness.emit._format.
format_many`), so a hit gives the bytes a fresh run would.

Same folder and the same rules as the other caches: ``$XDG_CACHE_HOME/xcompleteness/generate/``
(or ``XC_CACHE_DIR``; :func:`~xcompleteness.emit._cache.trusted_dir`: the one ownership guard of
:mod:`xcompleteness.safety`), one file per module (``KEY.xcfmt``) written atomically 0600, read
only when ours, a regular file (never through a symbolic link: ``O_NOFOLLOW``, and the opened file
must be the one checked) and writable by nobody else. An entry is data: a JSON header naming this
kind and format, exactly the expected key, the length and SHA-256 of the zlib payload; then the
payload, which must inflate to UTF-8 text within :data:`MAX_ENTRY_BYTES`. Anything else (a
truncated, corrupted, foreign or symlinked entry) is ignored: the module is formatted afresh and
the entry rewritten. The newest :data:`MAX_ENTRIES` entries are kept (pruned once per run).
Failing to read or write never fails ``generate``; ``--no-cache`` / ``XC_NO_CACHE=1`` use none.
"""

from __future__ import annotations

import hashlib
import json
import os
import zlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from xcompleteness.emit._cache import prune, trusted_dir, write_entry
from xcompleteness.safety import Untrusted, read_private

__all__ = [
    "CacheFolder",
    "FORMAT",
    "FormatCache",
    "MAX_ENTRIES",
    "MAX_ENTRY_BYTES",
    "SUFFIX",
    "entry_header",
    "inflated_payload",
]

FORMAT = 1
SUFFIX = ".xcfmt"
MAX_ENTRIES = 4096
"""How many formatted modules are kept (GitHub with every listing declared: ~480; most are a
few KB compressed, so the folder stays in the tens of MB)."""
MAX_ENTRY_BYTES = 16 * 1024 * 1024
"""An entry larger than this (on disk or inflated) is ignored, never decompressed further."""
_HEX = frozenset("0123456789abcdef")
_KIND = "formatted-module"


def _entry_path(folder: Path, key: str) -> Path:
    if len(key) != 64 or not set(key) <= _HEX:
        raise ValueError("not a format key")
    return folder / f"{key}{SUFFIX}"


def _read_regular(path: Path) -> bytes:
    """The bytes of ``path`` if it is a private regular file of ours, never via a symlink."""
    return read_private(path, MAX_ENTRY_BYTES)


def inflated_payload(key: str, blob: bytes, kind: str, fmt: int, limit: int) -> bytes:
    """The payload of an entry (a JSON header line, then zlib), checked: the header names
    ``kind``, ``fmt`` and exactly ``key`` and the payload has the recorded length and SHA-256 and
    inflates completely within ``limit`` bytes (raises ValueError otherwise)."""
    head, sep, body = blob.partition(b"\n")
    if not sep:
        raise ValueError("no header")
    header = json.loads(head)
    if not isinstance(header, dict) or header.get("generator") != "xcompleteness":
        raise ValueError("not an x-completeness cache entry")
    if header.get("kind") != kind or header.get("format") != fmt:
        raise ValueError("another kind or format")
    if header.get("key") != key:
        raise ValueError("another key")
    if header.get("size") != len(body) or header.get("sha256") != hashlib.sha256(body).hexdigest():
        raise ValueError("truncated or corrupted")
    inflater = zlib.decompressobj()
    raw = inflater.decompress(body, limit)
    if inflater.unconsumed_tail or not inflater.eof or inflater.unused_data:
        raise ValueError("payload too large or incomplete")
    return raw


def entry_header(kind: str, fmt: int, key: str, body: bytes) -> dict[str, Any]:
    """The header line of an entry holding ``body`` under ``key``."""
    return {
        "generator": "xcompleteness",
        "kind": kind,
        "format": fmt,
        "key": key,
        "size": len(body),
        "sha256": hashlib.sha256(body).hexdigest(),
    }


def _decode(key: str, blob: bytes) -> str:
    return inflated_payload(key, blob, _KIND, FORMAT, MAX_ENTRY_BYTES).decode("utf-8")


class CacheFolder:
    """The generate cache folder, looked up once per store (:func:`trusted_dir`), and the
    checked read of one entry in it."""

    def __init__(self) -> None:
        self._folder: Path | None = None
        self._looked = False

    def _dir(self, create: bool) -> Path | None:
        if self._folder is None and (create or not self._looked):
            self._looked = True
            self._folder = trusted_dir([], create=create)  # the whole-run cache reports problems
        return self._folder

    def _read(self, path: Path, decode: Callable[[bytes], Any]) -> Any:
        """``decode`` of the entry at ``path`` (a private regular file, never through a link),
        or None when it cannot be read or decoded; a used entry is marked most recently used."""
        try:
            value = decode(_read_regular(path))
        except (Untrusted, OSError, ValueError, UnicodeDecodeError, zlib.error, RecursionError):
            return None
        try:
            os.utime(path, follow_symlinks=False)  # most recently used: pruned last
        except (OSError, NotImplementedError):
            pass
        return value


class FormatCache(CacheFolder):
    """The :class:`xcompleteness.emit._format.FormatStore` of ``generate`` (see the module doc)."""

    def get(self, key: str) -> str | None:
        folder = self._dir(create=False)
        if folder is None:
            return None
        try:
            path = _entry_path(folder, key)
        except ValueError:
            return None
        text: str | None = self._read(path, lambda blob: _decode(key, blob))
        return text

    def put_many(self, items: Mapping[str, str]) -> None:
        """Store each formatted text under its key (atomically), then prune once."""
        if not items:
            return
        folder = self._dir(create=True)
        if folder is None:
            return
        try:
            for key, text in items.items():
                body = zlib.compress(text.encode("utf-8"), 1)
                write_entry(_entry_path(folder, key), entry_header(_KIND, FORMAT, key, body), body)
            prune(folder, MAX_ENTRIES, SUFFIX)
        except (OSError, ValueError):
            return
