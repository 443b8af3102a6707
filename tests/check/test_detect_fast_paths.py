"""The list-likeness scan's text and schema helpers answer with string methods and plain-dict
tests where they can (issue 21: check's XC100 scan is most of check's growth with operation
count), and each answer is the one its regular expression or walk gives: the reference is
written here as the code read before.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from xcompleteness.detect import _evidence as evidence
from xcompleteness.detect import _prose as prose
from xcompleteness.detect import _words as sig
from xcompleteness.detect._schema_walk import SchemaWalker

# every character the patterns treat specially: sentence marks and openers, markdown links and
# code marks, ASCII and Unicode white space (information separators, no-break and em spaces),
# fold's punctuation, and letters that case-fold across scripts (dotted I, Kelvin, long s)
_CHARS = list(".!?[]()`*_-@$ \t\n\r\x0b\x0c\x1c\x1f\u00a0\u2003\u3000aAzZ9\u0130\u212a\u017f\u00e9")
_WORDS = ["link", "Link", "header", "headers", "next", "page", "deprecated", "DEPRECATED",
          "no longer", "used", "cursor", "token", "Marker", "pagination", "continuation", "set",
          "of", "results", "the", "Use", "A", "x"]  # fmt: skip
# sentence ends before each opener, and links
_ENDS = [". ", "! ", "? ", ".\n", ". (", ". `", ". [", ". *", ". _", ".\u00a0", "[a](b)", "]("]
_TEXT = st.lists(st.sampled_from(_CHARS + _WORDS + _ENDS), max_size=30).map("".join)

_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\[*_(])")


def _plain_reference(text: str) -> str:
    return re.sub(r"\s+", " ", _LINK.sub(r"\1", text).replace("`", "")).strip()


def _sentences_reference(text: str) -> tuple[str, ...]:
    parts = _SENTENCE.split(_plain_reference(text))
    return tuple(p.strip() for p in parts if p.strip())


@settings(max_examples=600, deadline=None)
@given(_TEXT | st.text(max_size=60))
def test_plain_text_and_sentences_are_the_patterns(text: str) -> None:
    assert prose._plain.__wrapped__(text) == _plain_reference(text)
    assert prose._sentences.__wrapped__(text) == _sentences_reference(text)


@settings(max_examples=600, deadline=None)
@given(_TEXT | st.text(max_size=60))
def test_prefiltered_searches_answer_as_the_searches(text: str) -> None:
    link = next(
        (
            s
            for s in _sentences_reference(text)
            if prose._LINK_HEADER.search(s) and prose._PAGING.search(s)
        ),
        None,
    )
    assert prose._link_header_in.__wrapped__(text) == link
    cursor = bool(prose._CURSOR_WORDS.search(_plain_reference(text)))
    assert prose._describes_cursor.__wrapped__(text) is cursor
    assert evidence._says_deprecated(text) is bool(evidence._DEPRECATED.search(text))


@settings(max_examples=600, deadline=None)
@given(_TEXT | st.text(max_size=30))
def test_fold_is_the_pattern(name: str) -> None:
    assert sig.fold.__wrapped__(name) == sig._FOLD.sub("", name).lower()


_TYPES = st.sampled_from(["array", "object", "string", "null", "integer"])
_SCHEMA = st.recursive(
    st.fixed_dictionaries(
        {},
        optional={
            "type": _TYPES | st.lists(_TYPES, max_size=3) | st.integers(),
            "items": st.just({}),
            "properties": st.just({"a": {}}),
            "$ref": st.sampled_from(["#/components/schemas/A", "#/nowhere", 7]),
        },
    ),
    lambda inner: st.fixed_dictionaries(
        {},
        optional={
            "type": _TYPES,
            "allOf": st.lists(inner, max_size=2),
            "anyOf": st.lists(inner, max_size=2),
            "oneOf": st.lists(inner, max_size=2),
            "$ref": st.just("#/components/schemas/A"),
        },
    ),
    max_leaves=6,
)


@settings(max_examples=600, deadline=None)
@given(_SCHEMA, _SCHEMA, st.integers(min_value=0, max_value=10))
def test_one_type_schemas_are_told_as_the_walk_tells_them(
    schema: dict, target: dict, depth: int
) -> None:
    document = {"components": {"schemas": {"A": target}}}
    walker = SchemaWalker(document)
    walked = set(walker._kept_types(schema, "/s", depth))
    assert walker.types(schema, "/s", depth) == walked
    assert walker.is_array(schema, "/s") is ("array" in walker._kept_types(schema, "/s", 0))
