"""Spec text in tool definitions is flattened to one printable line (``tool_schemas.neutral``):
every character of Unicode categories C (controls, format: bidi overrides, zero-width) and Z
(separators) becomes a space, runs of spaces collapse, and the text is cut to the limit. ASCII
text takes a translation table instead of a per-character lookup; observed here to give the
per-character answer for any text."""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st
from xcompleteness.emit.emitters.tool_schemas import neutral


def _per_character(text: str, limit: int) -> str:
    chars = [" " if unicodedata.category(ch)[0] in "CZ" else ch for ch in text]
    flat = " ".join("".join(chars).split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


@settings(max_examples=500)
@given(
    text=st.text(alphabet=st.characters(max_codepoint=127), max_size=60) | st.text(max_size=60),
    limit=st.integers(min_value=1, max_value=80),
)
def test_neutral_is_the_per_character_flattening(text: str, limit: int) -> None:
    assert neutral(text, limit) == _per_character(text, limit)


def test_controls_and_separators_become_single_spaces() -> None:
    assert neutral("a\x00b\x1b[2J\tc\x7f\r\nd  e") == "a b [2J c d e"
    assert neutral("x\u202ey\u200bz\u2028w") == "x y z w"
    assert neutral(None) == "" and neutral("abcdef", 4) == "abc…"
