"""The value caches: one JSON value per key, for the stages an overlay edit repeats unchanged.

An overlay edit of declarations (reasons, scope, pagination) misses the whole-run cache, yet most
of what the front pipeline computes does not depend on declarations at all, or depends only on
one declaration's own text. Each stage that can reuse such a value computes its own content key
and says in its module doc why the key determines the value (every key below ends in the stage's
own source, so a changed algorithm is a new key); this module only keeps the values:

* ``KEY.xcscan``: what the list-likeness scan found per operation (:mod:`xcompleteness.detect.
  _listlike`);
* ``KEY.xcdecl``: the declarations the vocabulary schema found nothing wrong with
  (:mod:`xcompleteness.declare._vocabulary`);
* ``KEY.xcsplit``: the statements of the item-model module (:mod:`xcompleteness.ir._datamodels`);
* ``KEY.xclines``: the lines diagnostics asked of a JSON spec text (:mod:`xcompleteness.load.
  _lines`, ``LineMemo``);
* ``KEY.xcwalk``: what the walk of a JSON spec text found, its refs and mixed enums
  (:mod:`xcompleteness.load._parse`, ``walk_since``).

Same folder and rules as the other caches: ``$XDG_CACHE_HOME/xcompleteness/generate/`` (or
``XC_CACHE_DIR``; :func:`~xcompleteness.emit._cache.trusted_dir`: the one ownership guard of
:mod:`xcompleteness.safety`), one file per key written atomically 0600, read only when ours, a
regular file (``O_NOFOLLOW``, and the opened file must be the one checked) and writable by
nobody else. An entry is data, never code: a JSON header naming its kind and format, exactly the
expected key, the length and SHA-256 of a zlib payload that must inflate to JSON within
:data:`MAX_ENTRY_BYTES`. Anything else (a truncated, corrupted, foreign or symlinked entry) is a
miss: the stage computes the value afresh and the entry is rewritten. The stage checks the shape
of a decoded value before it uses it. The newest entries of each kind are kept. Failing to read
or write never fails ``generate``; ``--no-cache`` / ``XC_NO_CACHE=1`` use none.
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path
from typing import Any

from xcompleteness.emit._cache import prune, write_entry
from xcompleteness.emit._format_cache import CacheFolder, entry_header, inflated_payload

__all__ = [
    "DeclarationCache",
    "FORMAT",
    "LineCache",
    "MAX_ENTRY_BYTES",
    "ScanCache",
    "SplitCache",
    "ValueCache",
    "WalkCache",
]

FORMAT = 1
MAX_ENTRY_BYTES = 64 * 1024 * 1024
"""An inflated payload larger than this is ignored (the formatted-module reader caps the file)."""
_HEX = frozenset("0123456789abcdef")


class ValueCache(CacheFolder):
    """A :class:`xcompleteness.reuse.ValueStore` in the generate cache folder (module doc)."""

    kind = ""
    suffix = ""
    max_entries = 16

    def __init__(self) -> None:
        super().__init__()
        self._pruned = False

    def _entry_path(self, folder: Path, key: str) -> Path:
        if len(key) != 64 or not set(key) <= _HEX:
            raise ValueError("not a key")
        return folder / f"{key}{self.suffix}"

    def _decode(self, key: str, blob: bytes) -> Any:
        raw = inflated_payload(key, blob, self.kind, FORMAT, MAX_ENTRY_BYTES)
        return json.loads(raw.decode("utf-8"))

    def get(self, key: str) -> Any:
        folder = self._dir(create=False)
        if folder is None:
            return None
        try:
            path = self._entry_path(folder, key)
        except ValueError:
            return None
        return self._read(path, lambda blob: self._decode(key, blob))

    def put(self, key: str, value: Any) -> None:
        folder = self._dir(create=True)
        if folder is None:
            return
        try:
            raw = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
            body = zlib.compress(raw.encode("utf-8"), 1)
            header = entry_header(self.kind, FORMAT, key, body)
            write_entry(self._entry_path(folder, key), header, body)
            if not self._pruned:
                self._pruned = True
                prune(folder, self.max_entries, self.suffix)
        except (OSError, ValueError, TypeError, RecursionError):
            return


class ScanCache(ValueCache):
    """The list-likeness findings per operation (:mod:`xcompleteness.detect._listlike`)."""

    kind = "listing-scan"
    suffix = ".xcscan"


class DeclarationCache(ValueCache):
    """Declarations the vocabulary schema accepts (:mod:`xcompleteness.declare._vocabulary`)."""

    kind = "clean-declarations"
    suffix = ".xcdecl"


class SplitCache(ValueCache):
    """The statements of the item-model module (:mod:`xcompleteness.ir._datamodels`)."""

    kind = "item-statements"
    suffix = ".xcsplit"


class WalkCache(ValueCache):
    """What the walk of a JSON spec text found (:func:`xcompleteness.load.walk_store`)."""

    kind = "text-walk"
    suffix = ".xcwalk"


class LineCache(ValueCache):
    """The lines looked up in a JSON spec text (:class:`xcompleteness.load.LineMemo`)."""

    kind = "line-numbers"
    suffix = ".xclines"
