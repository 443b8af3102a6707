"""The JSON line map: JSON pointer -> line of its key.

``json.loads`` is fast on 10 MB documents but gives no positions. :func:`parse_json` parses like
it (same data, same duplicate-key hook calls, and any text it does not take plainly goes to
``json.loads`` itself) while noting where the keys of the root, of ``paths`` and of each path
item are: the containers operation diagnostics point into, so their lines cost no second pass.
Every other line is found when a diagnostic asks for it (:class:`LazyJsonLines`). YAML documents
get their line map from the builder instead (:mod:`xcompleteness.load._yaml`).
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
    return first < 0 or _NON_BLANK.search(text, first) is None


_NON_BLANK = re.compile(r"\S")


__all__ = ["LazyJsonLines", "LineMemo", "line_key", "line_store", "parse_json"]

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

    def __init__(
        self,
        text: str,
        data: Any = _NO_DATA,
        *,
        unique_keys: bool = False,
        known: Mapping[str, dict[str, tuple[int, int]]] | None = None,
    ):
        self._text = text
        self._children: dict[str, _Index] = {
            pointer: _Index.complete(keys) for pointer, keys in (known or {}).items()
        }
        self._marks: list[tuple[int, int]] = [(0, 1)]  # (position, its line), sorted
        self._full: dict[str, int] | None = None
        self._data = data if data is not _NO_DATA and _one_line(text) else _NO_DATA
        self._unique = unique_keys
        self._recalled: dict[str, int] = {}
        self._found: dict[str, int] | None = None  # what lookups found, while a memo watches

    @property
    def one_line(self) -> bool:
        """The text is on one line and its data was given: every key it has is on line 1."""
        return self._data is not _NO_DATA

    def __getitem__(self, pointer: str) -> int:
        line = self._recalled.get(pointer)
        if line is not None:
            return line
        tokens = pointer_tokens(pointer)
        if not tokens:
            raise KeyError(pointer)
        if self._data is not _NO_DATA:
            # One line of JSON (minified, as Microsoft Graph's 20 MB description): every key is
            # on line 1, so only the pointer's existence is asked, of the parsed ``data``.
            if not resolve_pointer(self._data, pointer)[0]:
                raise KeyError(pointer)
            return 1
        current, pos, key_pos = "", _skip_ws(self._text, 0), 0
        for token in tokens:
            found = self._child(current, pos, token)
            if found is None:
                raise KeyError(pointer)
            key_pos, pos = found
            current = pointer_join(current, token)
        line = self._line_at(key_pos)
        if self._found is not None:
            self._found[pointer] = line
        return line

    def remembered(self, value: Any, data: Any) -> None:
        """Answer from ``value`` (an earlier run's lines of this very text, :class:`LineMemo`)
        and note what lookups find from now on. Only ``{pointer: line >= 1}`` entries whose
        pointer resolves in ``data`` (this text's parsed value) are taken: a value from
        elsewhere can at worst move a line number, never make a missing key look present."""
        self._found = {}
        if not isinstance(value, dict):
            return
        for pointer, line in value.items():
            if (
                isinstance(pointer, str)
                and type(line) is int
                and line >= 1
                and pointer_tokens(pointer)
                and resolve_pointer(data, pointer)[0]
            ):
                self._recalled[pointer] = line

    def news(self) -> dict[str, int] | None:
        """Every line known now (recalled and found) when lookups found any new one, else None."""
        if not self._found:
            return None
        return {**self._recalled, **self._found}

    def _line_at(self, pos: int) -> int:
        """The line of ``pos``: newlines counted from the nearest position already placed."""
        marks = self._marks
        i = bisect.bisect_right(marks, (pos, 1 << 62)) - 1
        start, line = marks[i]
        if start != pos:
            line += self._text.count("\n", start, pos)
            marks.insert(i + 1, (pos, line))
        return line

    def _child(self, pointer: str, pos: int, token: str) -> tuple[int, int] | None:
        """(position of the key, position of the value) of ``token`` in the container at ``pos``.

        A container's keys are indexed in text order, as far as the lookups need: with unique
        keys (the loader saw no duplicate) a key found ends the scan until a later lookup asks
        for one further on; otherwise the whole container is read (the last duplicate wins)."""
        index = self._children.get(pointer)
        if index is None:
            index = self._children[pointer] = _Index(self._text, pos)
        while token not in index.keys or not (self._unique or index.done):
            if index.done:
                return None
            self._step(index)
        return index.keys[token]

    def _step(self, index: _Index) -> None:
        """Index the next key of a container (or mark it done)."""
        text, pos = self._text, index.pos
        try:
            if index.close is None:  # first step: the opener
                opener = text[pos : pos + 1]
                if opener not in ("{", "["):
                    index.done = True
                    return
                index.is_list = opener == "["
                index.close = "]" if index.is_list else "}"
                pos = _skip_ws(text, pos + 1)
            if text[pos] == index.close:
                index.done = True
                return
            if index.is_list:
                key, key_pos = str(index.count), pos
                index.count += 1
            else:
                m = _JSON_STRING.match(text, pos)
                if m is None:
                    index.done = True
                    return
                raw = m.group()[1:-1]
                key = json.loads(m.group()) if "\\" in raw else raw
                key_pos = pos
                pos = _skip_ws(text, m.end())
                pos = _skip_ws(text, pos + 1)  # the colon
            index.keys[key] = (key_pos, pos)
            _, end = _SCAN(text, pos)
            pos = _skip_ws(text, end)
            if text[pos] == ",":
                pos = _skip_ws(text, pos + 1)
            index.pos = pos
        except (ValueError, IndexError, StopIteration):
            index.done = True  # the text parsed once already; stay silent rather than guess

    def _all(self) -> dict[str, int]:
        if self._full is None:
            self._full = _scan_json_lines(self._text)
        return self._full

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


class _Index:
    """The keys of one container indexed so far, and where the scan resumes."""

    __slots__ = ("close", "count", "done", "is_list", "keys", "pos")

    def __init__(self, text: str, pos: int) -> None:
        self.keys: dict[str, tuple[int, int]] = {}  # key -> (its position, its value's)
        self.pos = pos
        self.close: str | None = None
        self.is_list = False
        self.count = 0
        self.done = False

    @classmethod
    def complete(cls, keys: dict[str, tuple[int, int]]) -> _Index:
        index = cls("", 0)
        index.keys, index.done = keys, True
        return index


_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_WS = re.compile(r"[ \t\n\r]*")
_SCAN = json.JSONDecoder().scan_once
_STRING = json.decoder.scanstring


def _skip_ws(text: str, pos: int) -> int:
    return _WS.match(text, pos).end()  # type: ignore[union-attr]


class _NotPlain(Exception):
    """The text is not read by :func:`parse_json`'s own steps; ``json.loads`` reads it."""


Positions = dict[str, dict[str, tuple[int, int]]]
"""Container pointer -> {key: (position of the key, position of its value)}."""


def parse_json(text: str, pairs_hook: Any = None) -> tuple[Any, Positions]:
    """``json.loads(text, object_pairs_hook=pairs_hook)``, and the positions of the keys of the
    root object, of ``/paths`` and of each path item (empty for a text read by ``json.loads``).

    The root, ``paths`` and the path items are read here key by key (keys with the C string
    scanner, values with the C scanner of a decoder holding the same hook), in the order and
    with the hook calls ``json.loads`` makes, so the data is the same. Any text that is not an
    object, or is not read plainly (a syntax error, extra data), is left to ``json.loads``
    alone, which gives its own result or error; ``pairs_hook`` must tolerate being called again
    for the same objects then (the loader's hook collects into a list it resets: see
    ``load._parse``). So is a text on one line (Microsoft Graph's 20 MB of minified JSON): every
    key is on line 1, which :class:`LazyJsonLines` answers from the data, so positions would buy
    nothing for the time reading 7,000 path items key by key takes.
    """
    if _one_line(text):
        return None, {}
    scan = json.JSONDecoder(object_pairs_hook=pairs_hook).scan_once
    positions: Positions = {}
    try:
        start = _skip_ws(text, 0)
        if text[start : start + 1] != "{":
            raise _NotPlain
        data, end = _object(text, start, "", scan, pairs_hook, positions)
        if _skip_ws(text, end) != len(text):
            raise _NotPlain
    except (_NotPlain, ValueError, IndexError, StopIteration, RecursionError):
        return None, {}
    return data, positions


def _object(
    text: str, pos: int, pointer: str, scan: Any, pairs_hook: Any, positions: Positions
) -> tuple[Any, int]:
    """The object at ``pos`` (its ``{``) and the position after it; keys noted in ``positions``."""
    pairs: list[tuple[str, Any]] = []
    keys: dict[str, tuple[int, int]] = {}
    pos = _skip_ws(text, pos + 1)
    if text[pos] == "}":
        pos += 1
    else:
        while True:
            if text[pos] != '"':
                raise _NotPlain
            key, after = _STRING(text, pos + 1, True)
            key_pos = pos
            pos = _skip_ws(text, after)
            if text[pos] != ":":
                raise _NotPlain
            pos = _skip_ws(text, pos + 1)
            value_pos = pos
            if text[pos] == "{" and (pointer == "/paths" or (pointer == "" and key == "paths")):
                value, pos = _object(
                    text, pos, pointer_join(pointer, key), scan, pairs_hook, positions
                )
            else:
                value, pos = scan(text, pos)
            pairs.append((key, value))
            keys[key] = (key_pos, value_pos)
            pos = _skip_ws(text, pos)
            if text[pos] == "}":
                pos += 1
                break
            if text[pos] != ",":
                raise _NotPlain
            pos = _skip_ws(text, pos + 1)
    positions[pointer] = keys
    return (pairs_hook(pairs) if pairs_hook is not None else dict(pairs)), pos


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


@cache
def _own_source() -> bytes:
    return file_sha256(Path(__file__))


def line_key(text_key: str) -> str:
    """The key of a text's line numbers: SHA-256 over this module's source and the key of the
    exact text (``load._parse.parse_key``: its bytes); a line is a function of those alone."""
    h = hashlib.sha256(b"xc-lines 1\n")
    h.update(_own_source())
    h.update(text_key.encode())
    return h.hexdigest()


class LineMemo:
    """The lines a run looked up in a JSON text, kept for the next run of the same text.

    A diagnostic's line is found by indexing the containers on its pointer's path (about a
    second parse of what lies before it: 0.12 s for the first one under GitHub's
    ``/components/schemas``); an overlay edit asks for the same lines again. ``store`` (a
    :class:`xcompleteness.reuse.ValueStore`: ``generate``'s cache folder) holds
    ``{pointer: line}`` per :func:`line_key`; :meth:`save` writes what a run added.
    """

    def __init__(self, store: ValueStore) -> None:
        self.store = store
        self._watched: list[tuple[str, LazyJsonLines]] = []

    def attach(self, key: str, lines: LazyJsonLines, data: Any) -> None:
        lines.remembered(recall(self.store, key), data)
        self._watched.append((key, lines))

    def save(self) -> None:
        for key, lines in self._watched:
            news = lines.news()
            if news is not None:
                keep(self.store, key, news)
        self._watched = []


_SLOT: StoreSlot[LineMemo] = StoreSlot("xc_line_memo")
line_store = _SLOT.using
"""``with line_store(memo):`` lets the loader attach a JSON spec's line map to ``memo``."""
current_memo = _SLOT.current
