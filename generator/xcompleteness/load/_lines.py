"""The JSON line map: JSON pointer -> line of its key, computed on demand from the text.

``json.loads`` is fast on 10 MB documents but gives no positions, so lines are found only when a
diagnostic asks for one (:class:`LazyJsonLines`). YAML documents get their line map from the
builder instead (:mod:`xcompleteness.load._yaml`).

Reuse: the containers indexed for one text are a pure function of that text, and an overlay edit
asks lines of the same spec text for about the same diagnostics again (GitHub: ~300, indexing
``/paths`` and ``/components/schemas`` costs about one more parse of 13 MB). Inside
:func:`line_store` (``generate``'s cache folder: :mod:`xcompleteness.emit._value_cache`) the
index is kept under a SHA-256 of this module's source and the exact text, loaded once on the
first lookup, and saved again when a run indexed containers the entry lacked. A stored entry
only ever gives line numbers (and positions to resume indexing from: a wrong one ends that
lookup as a miss, like text the indexer does not understand); it changes no generated file.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import re
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from xcompleteness.diagnostics import pointer_join
from xcompleteness.document import pointer_tokens, resolve_pointer
from xcompleteness.reuse import StoreSlot, ValueStore, file_sha256, keep, recall

_NO_DATA: Any = object()


def _one_line(text: str) -> bool:
    """True when no line break precedes the last non-blank character of ``text``."""
    first = text.find("\n")
    return first < 0 or not text[first:].strip()


__all__ = ["LazyJsonLines", "line_store"]

_SLOT: StoreSlot[ValueStore] = StoreSlot("xc_line_store")
line_store = _SLOT.using
"""``with line_store(store):`` lets every :class:`LazyJsonLines` made in the block reuse and
save its index through ``store`` (the store may defer writing until the run ends)."""


@cache
def _own_source() -> bytes:
    return file_sha256(Path(__file__))


def _stored_index(value: Any) -> dict[str, dict[str, Any]] | None:
    """A decoded entry, if it has the index's shape: pointer -> key -> [line, position]."""
    if not isinstance(value, dict):
        return None
    for pointer, children in value.items():
        if not isinstance(pointer, str) or not isinstance(children, dict):
            return None
        for pair in children.values():
            if (
                not isinstance(pair, list)
                or len(pair) != 2
                or type(pair[0]) is not int
                or type(pair[1]) is not int
            ):
                return None
    return value


_JSON_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"(\s*:)?|[{}\[\]]|[^\s{}\[\],:"]+')


class LazyJsonLines(Mapping[str, int]):
    """JSON pointer -> line of a key, found on demand by walking the text along the pointer.

    ``json.loads`` gives no positions. Instead of tokenizing the whole document up front, a
    lookup indexes only the containers on the pointer's path: each key of such a container is
    recorded with its line and the position of its value, and sibling values are skipped by
    the C JSON scanner. Indexed containers are cached, so a few hundred diagnostics cost about
    one extra parse of the document, and a clean check pays nothing. Iterating the mapping
    (rare) falls back to a full tokenizer pass. Given the parsed ``data`` of a document written
    on one line, a lookup only checks that the pointer resolves (every line is 1).
    """

    def __init__(self, text: str, data: Any = _NO_DATA):
        self._text = text
        self._children: dict[str, dict[str, tuple[int, int]]] = {}
        self._newlines: list[int] | None = None
        self._full: dict[str, int] | None = None
        self._data = data if data is not _NO_DATA and _one_line(text) else _NO_DATA
        self._store = _SLOT.current() if self._data is _NO_DATA else None
        self._key: str | None = None
        self._saving = False

    def __getitem__(self, pointer: str) -> int:
        tokens = pointer_tokens(pointer)
        if not tokens:
            raise KeyError(pointer)
        if self._data is not _NO_DATA:
            # One line of JSON (minified, as Microsoft Graph's 20 MB description): every key is
            # on line 1, so only the pointer's existence is asked, of the parsed ``data``.
            if not resolve_pointer(self._data, pointer)[0]:
                raise KeyError(pointer)
            return 1
        current, pos, line = "", _skip_ws(self._text, 0), 0
        for token in tokens:
            children = self._index(current, pos)
            if token not in children:
                raise KeyError(pointer)
            line, pos = children[token]
            current = pointer_join(current, token)
        return line

    def _line_at(self, pos: int) -> int:
        if self._newlines is None:
            self._newlines = [m.start() for m in re.finditer("\n", self._text)]
        return bisect.bisect_left(self._newlines, pos) + 1

    def _index(self, pointer: str, pos: int) -> dict[str, tuple[int, int]]:
        """Keys (or indexes) of the container at ``pos`` -> (line, position of the value)."""
        cached = self._children.get(pointer)
        if cached is not None:
            return cached
        if self._store is not None and self._key is None:
            self._key = self._index_key()
            stored = _stored_index(recall(self._store, self._key))
            if stored:  # lists [line, pos] read like the tuples computed below
                self._children.update(stored)  # type: ignore[arg-type]
                cached = self._children.get(pointer)
                if cached is not None:
                    return cached
        text = self._text
        out: dict[str, tuple[int, int]] = {}
        opener = text[pos : pos + 1]
        if opener in ("{", "["):
            try:
                self._fill(out, text, pos, opener == "[")
            except (ValueError, IndexError, StopIteration):
                pass  # the text parsed once already; stay silent rather than guess
        self._children[pointer] = out
        if self._store is not None and not self._saving:
            self._saving = True  # the store keeps this live index; it grows until it is saved
            keep(self._store, self._key, self._children)
        return out

    def _index_key(self) -> str:
        h = hashlib.sha256(b"xc-lines 1\n")
        h.update(_own_source())
        h.update(self._text.encode("utf-8", "surrogatepass"))
        return h.hexdigest()

    def _fill(self, out: dict[str, tuple[int, int]], text: str, pos: int, is_list: bool) -> None:
        close = "]" if is_list else "}"
        pos = _skip_ws(text, pos + 1)
        index = 0
        while text[pos] != close:
            if is_list:
                key, key_pos = str(index), pos
                index += 1
            else:
                m = _JSON_STRING.match(text, pos)
                if m is None:
                    return
                raw = m.group()[1:-1]
                key = json.loads(m.group()) if "\\" in raw else raw
                key_pos = pos
                pos = _skip_ws(text, m.end())
                pos = _skip_ws(text, pos + 1)  # the colon
            out[key] = (self._line_at(key_pos), pos)
            _, end = _SCAN(text, pos)
            pos = _skip_ws(text, end)
            if text[pos] == ",":
                pos = _skip_ws(text, pos + 1)

    def _all(self) -> dict[str, int]:
        if self._full is None:
            self._full = _scan_json_lines(self._text)
        return self._full

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_WS = re.compile(r"[ \t\n\r]*")
_SCAN = json.JSONDecoder().scan_once


def _skip_ws(text: str, pos: int) -> int:
    return _WS.match(text, pos).end()  # type: ignore[union-attr]


def _scan_json_lines(text: str) -> dict[str, int]:
    out: dict[str, int] = {}
    # stack entries: [pointer, is_list, next_index]
    stack: list[list[Any]] = []
    line, seen = 1, 0  # line of position ``seen``; advanced with str.count (fast, in C)
    pending: str | None = None  # pointer of the value about to start
    for m in _JSON_TOKEN.finditer(text):
        tok = m.group()
        ch = tok[0]
        if ch == '"' and m.group(1) is not None and stack and not stack[-1][1]:
            pos = m.start()
            line += text.count("\n", seen, pos)
            seen = pos
            raw = tok[1 : tok.rfind('"')]
            key = json.loads(f'"{raw}"') if "\\" in raw else raw
            if "~" in key or "/" in key:
                key = key.replace("~", "~0").replace("/", "~1")
            pending = stack[-1][0] + "/" + key
            out[pending] = line
            continue
        if ch in "]}":
            if stack:
                stack.pop()
            continue
        pointer = pending
        if pointer is None and stack and stack[-1][1]:  # a list item starts here
            pos = m.start()
            line += text.count("\n", seen, pos)
            seen = pos
            frame = stack[-1]
            pointer = f"{frame[0]}/{frame[2]}"
            frame[2] += 1
            out[pointer] = line
        pending = None
        if ch in "{[":
            stack.append([pointer if pointer is not None else "", ch == "[", 0])
    return out
