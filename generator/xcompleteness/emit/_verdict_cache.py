"""The verdict and parse caches: facts about a document, reused across ``x-completeness`` edits.

An overlay edit of declarations (reasons, scope, pagination) leaves everything the OpenAPI
validator judges unchanged (:mod:`xcompleteness.check._verdict` says why, and computes the key:
the document without ``x-completeness*`` keys at the root and in operations, the validator
libraries' versions and source). This store keeps one fact per key: "this document was valid".
Error verdicts are never stored, so a hit means exactly "no diagnostic" and the run skips the
validator (and its import) altogether. :class:`ParseCache` keeps the other fact an edit repeats:
"this spec text has no duplicate keys and fits the depth cap" (:func:`xcompleteness.load._parse.
parse_key`: the exact bytes read), so the spec is parsed by plain ``json.loads`` and walked once.

Same folder and the same rules as the other caches: ``$XDG_CACHE_HOME/xcompleteness/generate/``
(or ``XC_CACHE_DIR``; :func:`~xcompleteness.emit._cache.trusted_dir`: the one ownership guard of
:mod:`xcompleteness.safety`), one file per key (``KEY.xcvalid``, ``KEY.xcparse``) written
atomically 0600, read only when ours, a regular file (``O_NOFOLLOW``, and the opened file must
be the one checked) and writable by nobody else. An entry counts only when its header names its
kind and format and exactly the expected key, and its payload has the recorded length and
SHA-256 and is exactly :data:`PAYLOAD` (:data:`PARSE_PAYLOAD`). Anything else (a truncated,
corrupted, foreign or symlinked entry) is ignored: the document is validated (parsed) again and
the entry rewritten. The newest :data:`MAX_ENTRIES` of each kind are kept.
Failing to read or write never fails ``generate``; ``--no-cache`` / ``XC_NO_CACHE=1`` use none.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from xcompleteness.emit._cache import prune, trusted_dir, write_entry
from xcompleteness.emit._format_cache import _read_regular
from xcompleteness.safety import Untrusted

__all__ = [
    "FORMAT",
    "FactCache",
    "MAX_ENTRIES",
    "PAYLOAD",
    "PARSE_PAYLOAD",
    "PARSE_SUFFIX",
    "PATTERN_PAYLOAD",
    "PATTERN_SUFFIX",
    "ParseCache",
    "PatternCache",
    "SUFFIX",
    "VerdictCache",
]

FORMAT = 1
SUFFIX = ".xcvalid"
PARSE_SUFFIX = ".xcparse"
MAX_ENTRIES = 64
PAYLOAD = b"valid: no OpenAPI validation diagnostic\n"
PARSE_PAYLOAD = b"parsed: no duplicate key, within the depth cap\n"
PATTERN_SUFFIX = ".xcpattern"
PATTERN_PAYLOAD = b"compiles: pydantic's regex engine accepts this pattern\n"
_HEX = frozenset("0123456789abcdef")


class FactCache:
    """One fixed fact per key (a :class:`~xcompleteness.check._verdict.VerdictStore` or a
    :class:`~xcompleteness.load._parse.ParseStore`): an entry holds exactly :attr:`payload`."""

    kind = ""
    suffix = ""
    payload = b""

    def _entry_path(self, folder: Path, key: str) -> Path:
        if len(key) != 64 or not set(key) <= _HEX:
            raise ValueError("not a key")
        return folder / f"{key}{self.suffix}"

    def _decode(self, key: str, blob: bytes) -> bool:
        head, sep, body = blob.partition(b"\n")
        if not sep:
            return False
        header = json.loads(head)
        return (
            isinstance(header, dict)
            and header.get("generator") == "xcompleteness"
            and header.get("kind") == self.kind
            and header.get("format") == FORMAT
            and header.get("key") == key
            and header.get("size") == len(body)
            and header.get("sha256") == hashlib.sha256(body).hexdigest()
            and body == self.payload
        )

    def get(self, key: str) -> bool:
        folder = trusted_dir([], create=False)  # the whole-run cache reports what it found
        if folder is None:
            return False
        try:
            path = self._entry_path(folder, key)
            ok = self._decode(key, _read_regular(path))
        except (Untrusted, OSError, ValueError, UnicodeDecodeError, RecursionError):
            return False
        if ok:
            try:
                os.utime(path, follow_symlinks=False)  # most recently used: pruned last
            except (OSError, NotImplementedError):
                pass
        return ok

    def put(self, key: str) -> None:
        folder = trusted_dir([], create=True)
        if folder is None:
            return
        header = {
            "generator": "xcompleteness",
            "kind": self.kind,
            "format": FORMAT,
            "key": key,
            "size": len(self.payload),
            "sha256": hashlib.sha256(self.payload).hexdigest(),
        }
        try:
            write_entry(self._entry_path(folder, key), header, self.payload)
            prune(folder, MAX_ENTRIES, self.suffix)
        except (OSError, ValueError):
            return


class VerdictCache(FactCache):
    """A clean OpenAPI validation verdict (:mod:`xcompleteness.check._verdict`)."""

    kind = "openapi-verdict"
    suffix = SUFFIX
    payload = PAYLOAD


class ParseCache(FactCache):
    """A spec text free of duplicate keys, within the depth cap (:mod:`~xcompleteness.load`)."""

    kind = "parsed-text"
    suffix = PARSE_SUFFIX
    payload = PARSE_PAYLOAD


class PatternCache(FactCache):
    """A ``pattern`` pydantic compiles (:func:`xcompleteness.ir._schemas.pattern_supported`)."""

    kind = "pattern-compiles"
    suffix = PATTERN_SUFFIX
    payload = PATTERN_PAYLOAD
