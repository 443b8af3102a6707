"""The loader: JSON-shaped data, line numbers, limits, and never a traceback."""

from __future__ import annotations

import json
import string
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xcompleteness.diagnostics import InputError
from xcompleteness.load import Limits, load_data, load_spec
from xcompleteness.load._lines import LazyJsonLines

LIMITS = Limits()

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53), max_value=2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5)
    ),
    max_leaves=30,
)


@settings(max_examples=80, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=json_values)
def test_yaml_and_json_round_trip(tmp_path: Path, value: object) -> None:
    """The loader reads what PyYAML and json write exactly as their own safe loaders do."""
    y = tmp_path / "v.yaml"
    text = yaml.safe_dump(value, allow_unicode=True)
    y.write_text(text, encoding="utf-8")
    j = tmp_path / "v.json"
    j.write_text(json.dumps(value), encoding="utf-8")
    assert load_data(y, "v.yaml", LIMITS)[0] == yaml.safe_load(text)
    assert load_data(j, "v.json", LIMITS)[0] == value


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(alphabet=string.printable + "&*!|>{}[]-:'\"\u00e9", max_size=200))
def test_arbitrary_text_never_raises_anything_but_input_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "spec.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        load_spec(path)
    except InputError as exc:
        assert exc.diagnostics and all(d.code.startswith("XC0") for d in exc.diagnostics)


YAML_DOC = """\
openapi: 3.1.0
info:
  title: t
  version: "1"
paths:
  /a/{id}:
    get:
      responses:
        200:
          description: ok
x-list:
  - one
  - {two: 2}
x-date: 2027-06-30
"""


def test_yaml_lines_and_json_shapes(tmp_path: Path) -> None:
    path = tmp_path / "spec.yaml"
    path.write_text(YAML_DOC, encoding="utf-8")
    doc = load_spec(path)
    assert doc.lines["/openapi"] == 1
    assert doc.lines["/paths/~1a~1{id}/get"] == 7
    assert doc.lines["/paths/~1a~1{id}/get/responses/200/description"] == 10
    assert doc.lines["/x-list/1"] == 13 and doc.lines["/x-list/1/two"] == 13
    # integer keys become strings, dates stay strings: the data is JSON-shaped
    assert "200" in doc.data["paths"]["/a/{id}"]["get"]["responses"]
    assert doc.data["x-date"] == "2027-06-30"
    assert doc.locate("/paths/~1a~1{id}/get/nothing/here") == (str(path), 7)


def test_json_lines_match_yaml_lines(tmp_path: Path) -> None:
    """The lazy JSON line map agrees with the YAML builder on the same layout."""
    data = yaml.safe_load(YAML_DOC)
    data["paths"]["/a/{id}"]["get"]["responses"] = {"200": {"description": "ok"}}
    text = json.dumps(data, indent=1, default=str)
    lines = LazyJsonLines(text)
    for pointer, line in lines.items():
        token = pointer.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~")
        source_line = text.splitlines()[line - 1]
        assert token in source_line or token.isdigit(), (pointer, source_line)
    assert lines["/x-list/1/two"] > lines["/x-list/0"]


@settings(max_examples=150, deadline=None)
@given(value=json_values, indent=st.sampled_from([None, 0, 1, 2]), seed=st.integers(0, 9))
def test_lines_found_on_demand_equal_the_full_text_walk(value: object, indent, seed) -> None:
    """Containers are indexed only as far as lookups need (resumed for later keys): in any
    lookup order, every pointer gets the line the full tokenizer pass gives, and a pointer
    that is not there is a KeyError."""
    import random

    doc = {"k": value, "z": [value, {"q": value}]}
    text = json.dumps(doc, indent=indent)
    full = dict(LazyJsonLines(text).items())  # iterating is the full tokenizer pass
    pointers = list(full)
    random.Random(seed).shuffle(pointers)
    for unique in (True, False):
        lazy = LazyJsonLines(text, unique_keys=unique)
        for pointer in pointers:
            assert lazy[pointer] == full[pointer], (pointer, unique)
        assert lazy.get("/k/not-there~1x") is None and lazy.get("/z/7") is None


_path_items = st.dictionaries(
    st.sampled_from(["get", "post", "parameters", "x-a"]), json_values, max_size=3
)


@settings(max_examples=150, deadline=None)
@given(
    paths=st.dictionaries(st.text(max_size=6), _path_items | json_values, max_size=4),
    rest=st.dictionaries(st.text(max_size=6), json_values, max_size=3),
    indent=st.sampled_from([None, 0, 2]),
)
def test_parse_json_reads_like_json_loads_and_places_operation_keys(paths, rest, indent) -> None:
    """Same data, key order and duplicate-hook calls as ``json.loads``; the positions it notes
    give the lines the full text walk gives, for the root, ``paths`` and the path items."""
    from xcompleteness.load._lines import parse_json

    text = json.dumps({**rest, "paths": paths}, indent=indent)
    calls_stock: list = []
    calls_ours: list = []
    stock = json.loads(text, object_pairs_hook=lambda p: calls_stock.append(p) or dict(p))
    full = dict(LazyJsonLines(text).items())
    if indent is None:  # one line: every key on line 1, answered from the data by json.loads
        assert parse_json(text, lambda p: calls_ours.append(p) or dict(p)) == (None, {})
        assert calls_ours == [] and set(full.values()) <= {1}
        from_data = LazyJsonLines(text, stock, unique_keys=True)
        assert all(from_data[pointer] == line for pointer, line in full.items())
        return
    data, known = parse_json(text, lambda p: calls_ours.append(p) or dict(p))
    assert data == stock and json.dumps(data) == json.dumps(stock) and calls_ours == calls_stock
    assert "" in known and "/paths" in known
    seeded = LazyJsonLines(text, unique_keys=True, known=known)
    for pointer, line in full.items():
        assert seeded[pointer] == line, pointer


def test_parse_json_leaves_what_it_does_not_read_plainly_to_json_loads() -> None:
    from xcompleteness.load._lines import parse_json

    for text in ("[1, 2]", '{"a": 1} x', '{"a": 1,}', '{"a" 1}', '{"paths": {"/a": {"b": }}}', ""):
        assert parse_json(text) == (None, {}), text
    # a repeated key: the later value wins, as in json.loads, and its line is the later one
    text = '{"paths": {"/a": {"get": 1,\n "get": 2}},\n "paths": {"/b": {}}}'
    data, known = parse_json(text)
    assert data == json.loads(text) == {"paths": {"/b": {}}}
    assert LazyJsonLines(text, known=known)["/paths"] == LazyJsonLines(text)["/paths"] == 3
    assert LazyJsonLines(text, known=known).get("/paths/~1a/get") is None


def test_a_repeated_key_gets_the_line_of_the_last_one() -> None:
    text = '{\n "a": 1,\n "b": {"c": 2},\n "a": 3\n}'
    assert LazyJsonLines(text, unique_keys=False)["/a"] == 4  # the later value wins
    assert LazyJsonLines(text, unique_keys=False)["/b/c"] == 3


def test_the_loader_says_whether_keys_repeat(tmp_path: Path) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text('{"openapi": "3.0.3",\n"x-a": 1,\n"x-a": 2,\n"info": {}}', encoding="utf-8")
    _, lines, notes = load_data(spec, str(spec), LIMITS)
    assert lines["/x-a"] == 3 and [n.code for n in notes] == ["XC013"]


def test_one_line_json_answers_from_the_data_like_the_text_walk() -> None:
    """Minified JSON (Graph's 20 MB description): every key is on line 1; the lookup checks the
    pointer against the parsed data instead of re-scanning containers, same answers."""
    data = yaml.safe_load(YAML_DOC)
    data["paths"]["/a/{id}"]["get"]["responses"] = {"200": {"description": "ok"}}
    text = json.dumps(data, default=str) + "\n"
    by_data, by_text = LazyJsonLines(text, json.loads(text)), LazyJsonLines(text)
    probes = list(by_text) + ["/nope", "/paths/~1a~1{id}/nope", "/x-list/9", "/x-list/0/x"]
    for pointer in probes:
        assert by_data.get(pointer) == by_text.get(pointer), pointer
    assert by_data["/paths/~1a~1{id}/get"] == 1
    pretty = json.dumps(data, indent=1, default=str)  # not one line: the text walk answers
    assert LazyJsonLines(pretty, json.loads(pretty))["/x-list/1/two"] > 1


def test_yaml_merge_keys_are_honoured(tmp_path: Path) -> None:
    path = tmp_path / "spec.yaml"
    path.write_text(
        "openapi: 3.1.0\nbase: &b {a: 1, b: 2}\nthing:\n  <<: *b\n  b: 3\n", encoding="utf-8"
    )
    assert load_spec(path).data["thing"] == {"a": 1, "b": 3}


def test_aliases_are_copies_not_shared(tmp_path: Path) -> None:
    path = tmp_path / "spec.yaml"
    path.write_text("openapi: 3.1.0\na: &x {k: [1]}\nb: *x\n", encoding="utf-8")
    data = load_spec(path).data
    assert data["a"] == data["b"] and data["a"] is not data["b"]


def test_alias_budget_is_configurable(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "spec.yaml"
    path.write_text("openapi: 3.1.0\na: &x [1, 2, 3]\nb: [*x, *x, *x]\n", encoding="utf-8")
    assert load_spec(path).data["b"] == [[1, 2, 3]] * 3
    monkeypatch.setenv("XC_MAX_ALIAS_NODES", "5")
    try:
        load_spec(path)
    except InputError as exc:
        assert exc.diagnostics[0].code == "XC004"
    else:
        raise AssertionError("the alias budget was not applied")


def test_a_document_for_the_process_is_frozen_once_loaded_and_only_then(tmp_path: Path) -> None:
    """The command line loads its one document with the collector paused and freezes it; a
    library caller's documents stay collectable, and a refused document freezes nothing."""
    import gc

    from xcompleteness.load import documents_live_with_the_process, load_document

    spec = tmp_path / "spec.json"
    spec.write_text(
        json.dumps({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}}),
        encoding="utf-8",
    )
    bad = tmp_path / "bad.json"
    bad.write_text('{"swagger": "2.0"}', encoding="utf-8")
    gc.unfreeze()
    try:
        load_document(spec)
        assert gc.get_freeze_count() == 0 and gc.isenabled()
        with documents_live_with_the_process():
            with pytest.raises(InputError):
                load_document(bad)
            assert gc.get_freeze_count() == 0 and gc.isenabled()
            doc = load_document(spec)
            assert gc.get_freeze_count() > 0 and gc.isenabled()
        assert doc.data["openapi"] == "3.0.3"
    finally:
        gc.unfreeze()
        gc.collect()  # what was frozen goes now, not under another test's loop


def test_check_on_the_command_line_puts_off_full_collections_and_only_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``check`` on the command line reads its one document after loading it: full collections
    (which traverse everything the run builds, again and again) are put off while it runs and
    the collector's schedule is restored after it; library callers and the block without
    ``pause_collector`` keep the usual schedule. Young collections still run."""
    import gc

    from xcompleteness import cli
    from xcompleteness.check import _pipeline
    from xcompleteness.collector import FULL_COLLECTION_PUT_OFF
    from xcompleteness.load import documents_live_with_the_process

    spec = tmp_path / "spec.json"
    spec.write_text(
        json.dumps({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}}),
        encoding="utf-8",
    )
    usual = gc.get_threshold()
    seen: list[tuple[int, int, int]] = []
    real_validated = _pipeline.validated

    def validated(doc: Any) -> Any:  # the real stage, its collector schedule noted
        seen.append(gc.get_threshold())
        return real_validated(doc)

    monkeypatch.setattr(_pipeline, "validated", validated)
    gc.unfreeze()
    try:
        assert cli.main(["check", "-q", str(spec)]) == 0
        young, middle, full = usual
        assert seen == [(young, middle, full * FULL_COLLECTION_PUT_OFF)]
        assert gc.get_threshold() == usual and gc.isenabled()
        from xcompleteness import api

        api.check(spec)  # a library caller
        with documents_live_with_the_process():
            api.check(spec)
        assert seen[1:] == [usual, usual]
        with pytest.raises(RuntimeError), documents_live_with_the_process(pause_collector=True):
            raise RuntimeError("restored on the way out too")
        assert gc.get_threshold() == usual
    finally:
        gc.unfreeze()
        gc.collect()  # what was frozen goes now, not under another test's loop


_TOKENS = st.one_of(
    st.text(alphabet=st.sampled_from(list("ab~/0 1\u00e9")), max_size=6),
    st.integers(min_value=0, max_value=30),
    st.booleans(),  # a YAML key that is no text: True is not the index 1
)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.lists(_TOKENS, max_size=8), min_size=1, max_size=6))
def test_ref_pointers_are_spelled_as_pointer_join_spells_them(paths: list[list[Any]]) -> None:
    """The loader spells each ``$ref``'s pointer from its walk entry's parent links with the
    text tokens escaped once per walk: the same text as ``pointer_join`` of the tokens, for any
    keys (``~`` and ``/`` escaped, list indices, ``True`` beside ``1``), in any order of
    meeting."""
    from xcompleteness.diagnostics import pointer_join
    from xcompleteness.load._parse import _spell

    escaped: dict[str, str] = {}
    for tokens in paths:
        entry: Any = ({}, 1, None, None)  # the root's entry: (node, depth, parent, token)
        for depth, token in enumerate(tokens, 2):
            entry = ({}, depth, entry, token)
        assert _spell(entry, escaped) == pointer_join("", *tokens)
