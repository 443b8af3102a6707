"""The augmented spec is built without a deep copy of the input and written by a C encoder when
that gives the very bytes ``json.dumps(indent=2, sort_keys=True)`` would (issue 21)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from xcompleteness.check._pipeline import check_spec
from xcompleteness.emit._json import _same_either_way, dumps_indented
from xcompleteness.emit.emitters import augmented
from xcompleteness.ir._build import build_ir

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats()
    | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=25,
)


@settings(max_examples=300)
@given(value=json_values)
def test_dumps_indented_is_the_standard_library_text(value: object) -> None:
    expected = json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False, default=str)
    assert dumps_indented(value) == expected
    ascii_only = json.dumps(value, indent=2, sort_keys=True, default=str)
    assert dumps_indented(value, ensure_ascii=True) == ascii_only
    # ``end`` joined before decoding (the augmented spec's final newline): the same text
    assert dumps_indented(value, end="\n") == expected + "\n"
    assert dumps_indented(value, ensure_ascii=True, end="\n") == ascii_only + "\n"


def test_values_orjson_would_spell_differently_take_the_standard_library() -> None:
    for value in (1e-05, float("nan"), 2**65, {1: "x"}, (1, 2), {"a": [3.5e-07]}):
        assert not _same_either_way(value)
    assert _same_either_way({"a": [1.5, 1e16, -0.0, 2**63, "é\n", None, True]})


def test_augment_leaves_the_input_alone_and_matches_a_deep_copy(monkeypatch) -> None:
    ir = build_ir(check_spec(EXAMPLES / "service_accounts" / "openapi.yaml"), "svc")
    assert ir.operations
    before = copy.deepcopy(ir.document)
    cheap = augmented.augment(ir)
    assert ir.document == before  # nothing written into the spec's own objects
    # the reference: the same edits on a full deep copy of the document
    with monkeypatch.context() as m:
        m.setattr(augmented, "_copy_for_edit", lambda doc, ops: copy.deepcopy(dict(doc)))
        reference = augmented.augment(ir)
    assert dumps_indented(cheap) == dumps_indented(reference)
    assert cheap["paths"] is not ir.document["paths"]
    untouched = set(ir.document["paths"]) - {op.path for op in ir.operations}
    for path in untouched:
        assert cheap["paths"][path] is ir.document["paths"][path]


def test_ascii_escapes_match_the_standard_library_through_orjson() -> None:
    # the tool definitions are written with ensure_ascii: orjson writes them, escaped afterwards
    value = {"é😀\x7f": ["\u2028\ufeff\U0010ffff", "plain", "tab\t\x00"], "k": {"\xe9": 1.5}}
    assert _same_either_way(value)
    expected = json.dumps(value, indent=2, sort_keys=True, default=None)
    assert dumps_indented(value, ensure_ascii=True, default=None) == expected
