"""Duplicate keys in a JSON text read without the duplicate hook (``load._parse``).

A text ``json.loads`` reads whole (one line, like Microsoft Graph's 20 MB) is parsed by the C
decoder without the Python hook, and its strings are counted instead: as many strings written
as the data holds proves no object repeats a key; otherwise it is read again with the hook.
These tests hold the count to a reference tokenizer, and the loader's answer (data, notes,
refs) to the hook's, on texts with repeated keys, quotes, backslashes, colons and spaces in
strings, and odd spacing between tokens.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.hooked import hooked_reading
from xcompleteness.load import Limits, load_data
from xcompleteness.load._parse import _strings_written, _walk

LIMITS = Limits()

# strings made of what makes counting quotes hard: quotes, backslash runs, colons, spaces
_hard_text = st.text(alphabet=st.sampled_from(list('a"\\: {}[],\u00e9\n')), max_size=8)

# an object as its written members: a key may repeat (the later value wins)
_members = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | _hard_text | st.sampled_from(["$ref"]),
    lambda children: (
        st.builds(lambda items: ("array", items), st.lists(children, max_size=4))
        | st.builds(
            lambda pairs: ("object", pairs),
            st.lists(
                st.tuples(st.one_of(_hard_text, st.sampled_from(["$ref", "a", "enum"])), children),
                max_size=4,
            ),
        )
    ),
    max_leaves=25,
)
_spacing = st.sampled_from(["", " ", "\t", "\n", "\r\n", "  "])


def _write(value: Any, space: str, ascii_only: bool = True) -> str:
    """``value`` (from ``_members``) as JSON text, ``space`` around every token; non-ASCII
    written as ``\\u`` escapes or as itself."""
    if isinstance(value, tuple) and value[0] == "array":
        inner = ("," + space).join(_write(v, space, ascii_only) for v in value[1])
        return "[" + space + inner + space + "]"
    if isinstance(value, tuple) and value[0] == "object":
        inner = ("," + space).join(
            json.dumps(k, ensure_ascii=ascii_only)
            + space
            + ":"
            + space
            + _write(v, space, ascii_only)
            for k, v in value[1]
        )
        return "{" + space + inner + space + "}"
    return json.dumps(value, ensure_ascii=ascii_only)


def _strings_by_tokens(value: Any) -> int:
    """Every string written: each member's key, text values, in every object and array."""
    if isinstance(value, tuple) and value[0] == "array":
        return sum(_strings_by_tokens(v) for v in value[1])
    if isinstance(value, tuple) and value[0] == "object":
        return sum(1 + _strings_by_tokens(v) for _, v in value[1])
    return 1 if isinstance(value, str) else 0


def _repeats(value: Any) -> bool:
    if isinstance(value, tuple) and value[0] == "array":
        return any(_repeats(v) for v in value[1])
    if isinstance(value, tuple) and value[0] == "object":
        keys = [k for k, _ in value[1]]
        return len(set(keys)) != len(keys) or any(_repeats(v) for _, v in value[1])
    return False


@settings(max_examples=600, deadline=None)
@given(value=_members, space=_spacing, ascii_only=st.booleans())
def test_strings_written_are_the_strings_in_the_text(
    value: Any, space: str, ascii_only: bool
) -> None:
    """Half the unescaped quotes is the number of strings written, whatever the strings hold
    (escaped quotes after odd and even backslash runs, ``\\u`` escapes with ``ensure_ascii``);
    the walk's count of what the data holds equals it exactly when no object repeats a key."""
    text = _write(value, space, ascii_only)
    written = _strings_written(text)
    assert written == _strings_by_tokens(value)
    held: list[int] = []
    _walk(json.loads(text), "t", LIMITS, strings_out=held)
    if isinstance(value, str):
        assert held == [0]  # the walk counts what containers hold; a text root is read again
    else:
        assert (held[0] == written) is (not _repeats(value))


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(value=_members, space=_spacing)
def test_loader_reads_as_the_duplicate_hook_reads(tmp_path: Path, value: Any, space: str) -> None:
    """Data, ``XC013`` notes (pointers and order), mixed-enum notes and ``$ref``s are the ones
    reading with the duplicate hook and walking gives, repeated keys or not."""
    text = _write(("object", [("root", value)]), space).replace("\n", " ").replace("\r", " ")
    path = tmp_path / "one.json"  # one line: read by json.loads, not key by key
    path.write_text(text, encoding="utf-8")
    refs: list[tuple[str, str]] = []
    data, lines, notes = load_data(path, "one.json", LIMITS, refs_out=refs)

    want, _, want_notes, want_refs, repeated = hooked_reading(text, "one.json", LIMITS)

    assert data == want
    assert json.dumps(data) == json.dumps(want)  # key order too
    assert notes == want_notes
    assert refs == want_refs
    assert repeated is _repeats(value)


def test_a_repeated_key_in_one_line_is_reported() -> None:
    """The hook's reading is taken when a key repeats, and only then (a spaced colon too)."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "d.json"
        path.write_text('{"a": {"b" :1, "c": "\\"x\\\\", "b" : 2}}', encoding="utf-8")
        data, _, notes = load_data(path, "d.json", LIMITS, refs_out=[])
        assert data == {"a": {"b": 2, "c": '"x\\'}}
        assert [(n.code, n.pointer) for n in notes] == [("XC013", "/a/b")]
        path.write_text('{"a": {"b" :1, "c": "\\"x\\\\", "d" : 2}}', encoding="utf-8")
        assert load_data(path, "d.json", LIMITS, refs_out=[])[2] == []
