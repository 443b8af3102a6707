"""One walk over a JSON value asking whether every implementation reads or writes it alike.

Two callers ask the same question with one difference, floats: the lean OpenAPI check
(:mod:`xcompleteness.check._lean`) refuses an integral or non-finite float (jsonschema-rs and the
stock validator disagree on ``1.0``), the JSON writer (:mod:`xcompleteness.emit._json`) refuses a
float whose shortest text orjson spells differently from ``repr``. Everything else is shared: a
non-string mapping key, an integer beyond 64 bits or a value of any other type is not plain.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["INT_MAX", "INT_MIN", "plain_tree"]

INT_MIN, INT_MAX = -(2**63), 2**64 - 1
_LEAVES = (str, bool, type(None))


def plain_tree(value: Any, float_ok: Callable[[float], bool]) -> bool:
    """True when ``value`` holds only string keys, 64-bit integers, strings, booleans, ``None``
    and floats ``float_ok`` accepts (iterative: a deep document never hits the recursion limit)."""
    stack = [value]
    pop, push = stack.pop, stack.extend
    while stack:
        item = pop()
        kind = type(item)
        if kind is dict:
            for key in item:
                if type(key) is not str:
                    return False
            push(item.values())
        elif kind is list:
            push(item)
        elif kind in _LEAVES:
            continue
        elif kind is int:
            if not INT_MIN <= item <= INT_MAX:
                return False
        elif kind is float:
            if not float_ok(item):
                return False
        else:
            return False
    return True
