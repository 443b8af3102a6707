"""Indented, key-sorted JSON text of a large document, byte-identical to the standard library's.

``json.dumps(indent=2)`` cannot use the C encoder, so the augmented spec (GitHub: 13 MB) was
written by the pure-Python one. :func:`dumps_indented` asks orjson (a C encoder with the same
layout: two-space indent, ``", "``-free separators, sorted keys, UTF-8 kept as is) when the value
holds nothing the two could write differently, and the standard library otherwise: a non-string
key, an integer orjson does not take, a float whose shortest form is spelled differently
(``1e-05`` vs ``0.00001``) or not finite, any other type (``default=str``), or orjson missing or
raising. Tests compare the two on generated values and the golden trees stay byte-identical.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from xcompleteness.document import plain_tree

__all__ = ["dumps_indented"]


try:  # optional: without it the standard library writes everything
    import orjson
except ImportError:  # pragma: no cover - orjson is a dependency
    orjson = None


def _float_same(item: float) -> bool:
    return math.isfinite(item) and orjson.dumps(item) == repr(item).encode()


def _same_either_way(value: Any) -> bool:
    """True when orjson and ``json.dumps`` write ``value`` alike (see the module doc)."""
    return plain_tree(value, _float_same)


_NOT_ASCII = re.compile("[^\x00-\x7e]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 | (code >> 10):04x}\\u{0xDC00 | (code & 0x3FF):04x}"


def _ascii(text: str) -> str:
    """``json.dumps(ensure_ascii=True)``'s escapes applied to orjson's output."""
    return text if text.isascii() and "\x7f" not in text else _NOT_ASCII.sub(_escape, text)


def dumps_indented(
    value: Any, *, ensure_ascii: bool = False, default: Any = str, end: str = ""
) -> str:
    """``json.dumps(value, indent=2, sort_keys=True, ensure_ascii=..., default=...) + end``.

    ``end`` is joined to orjson's bytes before they are decoded: a 13 MB text with characters
    beyond the Basic Multilingual Plane is a 55 MB string, which ``text + end`` would copy."""
    if orjson is not None and _same_either_way(value):
        try:
            data = orjson.dumps(value, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS)
        except (TypeError, ValueError):  # orjson.JSONEncodeError is a TypeError
            data = None
        if data is not None:
            if ensure_ascii:
                # ensure_ascii escapes everything outside " " to "~" (DEL too); orjson escapes
                # only the controls, so the rest (which can only sit inside strings) is escaped
                return _ascii(data.decode()) + end
            return (data + end.encode()).decode() if end else data.decode()
    text = json.dumps(value, indent=2, sort_keys=True, ensure_ascii=ensure_ascii, default=default)
    return text + end
