"""The item-model cache: datamodel-code-generator's output, reused when the item schemas are.

The whole-run cache (:mod:`xcompleteness.emit._cache`) misses on any edit of the spec or an
overlay. Most overlay edits (reasons, scope, pagination) change no item schema, and the item
models are the largest single cost of ``generate`` (GitHub: about a third). This store keeps the
result of the one library call keyed by :func:`xcompleteness.ir.models_key` (the sub-document of
item schemas, the library version and the pinned options), so such an edit regenerates without
running the library.

Same folder and the same rules as the whole-run cache: ``$XDG_CACHE_HOME/xcompleteness/generate/``
(:func:`~xcompleteness.emit._cache.trusted_dir`: the one ownership guard of
:mod:`xcompleteness.safety`), created 0700, symlinks never followed, entries read only when ours
and writable by nobody else, files
written atomically 0600, the newest :data:`MAX_ENTRIES` kept. An entry is data, never code to
run: a header naming this format and exactly the expected key, then a zlib payload whose length
and SHA-256 the header records. Only then is it decoded, and :mod:`xcompleteness.ir` uses it only
if it names exactly the schemas asked about, with class names that are Python identifiers and
holders under ``#/components/schemas/``. Anything else is ignored (the library runs); failing to
write never fails ``generate``. ``--no-cache`` uses neither cache.
"""

from __future__ import annotations

import hashlib
import json
import os
import zlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from xcompleteness.emit._cache import prune, trusted_dir, write_entry
from xcompleteness.safety import Untrusted, read_private

__all__ = ["FORMAT", "MAX_ENTRIES", "MAX_ENTRY_BYTES", "ModelCache", "SUFFIX"]


FORMAT = 1
SUFFIX = ".xcmodels"
MAX_ENTRIES = 16
MAX_ENTRY_BYTES = 256 * 1024 * 1024
_HEX = frozenset("0123456789abcdef")


def _entry_path(folder: Path, key: str) -> Path:
    if len(key) != 64 or not set(key) <= _HEX:
        raise ValueError("not a models key")
    return folder / f"{key}{SUFFIX}"


def _folder(create: bool) -> Path | None:
    """The cache folder when the one ownership guard trusts it (:func:`trusted_dir`: ours, a
    real folder, writable by nobody else); the whole-run cache reports what it found."""
    return trusted_dir([], create=create)


class ModelCache:
    """The :class:`xcompleteness.ir.ModelStore` of ``generate`` (see the module doc)."""

    def get(self, key: str) -> Mapping[str, Any] | None:
        folder = _folder(create=False)
        if folder is None:
            return None
        try:
            path = _entry_path(folder, key)
            value = _decode(key, read_private(path, MAX_ENTRY_BYTES))  # ours, never via a link
        except (Untrusted, OSError, ValueError, UnicodeDecodeError, zlib.error, RecursionError):
            return None
        try:
            os.utime(path, follow_symlinks=False)  # most recently used: pruned last
        except (OSError, NotImplementedError):
            pass
        return value

    @staticmethod
    def holds_any() -> bool:
        """Whether the folder holds any entry (else a run surely runs the library: ``generate``
        then prepares it on another core early, :func:`xcompleteness.ir.models_ahead`)."""
        folder = _folder(create=False)
        if folder is None:
            return False
        try:
            with os.scandir(folder) as entries:
                return any(e.name.endswith(SUFFIX) for e in entries)
        except OSError:
            return True  # unknown: assume a hit is possible

    def put(self, key: str, value: Mapping[str, Any]) -> None:
        folder = _folder(create=True)
        if folder is None:
            return
        body = zlib.compress(json.dumps(value, ensure_ascii=False).encode("utf-8"), 1)
        header = {
            "generator": "xcompleteness",
            "kind": "item-models",
            "format": FORMAT,
            "key": key,
            "size": len(body),
            "sha256": hashlib.sha256(body).hexdigest(),
        }
        try:
            write_entry(_entry_path(folder, key), header, body)
            prune(folder, MAX_ENTRIES, SUFFIX)
        except (OSError, ValueError):
            return


def _decode(key: str, blob: bytes) -> dict[str, Any]:
    head, sep, body = blob.partition(b"\n")
    if not sep:
        raise ValueError("no header")
    header = json.loads(head)
    if not isinstance(header, dict) or header.get("generator") != "xcompleteness":
        raise ValueError("not an x-completeness cache entry")
    if header.get("kind") != "item-models" or header.get("format") != FORMAT:
        raise ValueError("another kind or format")
    if header.get("key") != key:
        raise ValueError("another key")
    if header.get("size") != len(body) or header.get("sha256") != hashlib.sha256(body).hexdigest():
        raise ValueError("truncated or corrupted")
    inflater = zlib.decompressobj()
    raw = inflater.decompress(body, MAX_ENTRY_BYTES)
    if inflater.unconsumed_tail or not inflater.eof:
        raise ValueError("payload too large or incomplete")
    value = json.loads(raw.decode("utf-8"))
    if not isinstance(value, dict):
        raise ValueError("bad payload")
    return value
