"""The JSON line map: JSON pointer -> line of its key, computed on demand from the text.

``json.loads`` is fast on 10 MB documents but gives no positions, so lines are found only when a
diagnostic asks for one (:class:`LazyJsonLines`). YAML documents get their line map from the
builder instead (:mod:`xcompleteness.load._yaml`).
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

from xcompleteness.diagnostics import pointer_join
from xcompleteness.document import pointer_tokens

_JSON_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"(\s*:)?|[{}\[\]]|[^\s{}\[\],:"]+')


class LazyJsonLines(Mapping[str, int]):
    """JSON pointer -> line of a key, found on demand by walking the text along the pointer.

    ``json.loads`` gives no positions. Instead of tokenizing the whole document up front, a
    lookup indexes only the containers on the pointer's path: each key of such a container is
    recorded with its line and the position of its value, and sibling values are skipped by
    the C JSON scanner. Indexed containers are cached, so a few hundred diagnostics cost about
    one extra parse of the document, and a clean check pays nothing. Iterating the mapping
    (rare) falls back to a full tokenizer pass.
    """

    def __init__(self, text: str):
        self._text = text
        self._children: dict[str, dict[str, tuple[int, int]]] = {}
        self._newlines: list[int] | None = None
        self._full: dict[str, int] | None = None

    def __getitem__(self, pointer: str) -> int:
        tokens = pointer_tokens(pointer)
        if not tokens:
            raise KeyError(pointer)
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
        text = self._text
        out: dict[str, tuple[int, int]] = {}
        opener = text[pos : pos + 1]
        if opener in ("{", "["):
            try:
                self._fill(out, text, pos, opener == "[")
            except (ValueError, IndexError, StopIteration):
                pass  # the text parsed once already; stay silent rather than guess
        self._children[pointer] = out
        return out

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
