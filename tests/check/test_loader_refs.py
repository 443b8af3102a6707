"""check reuses the ``$ref`` list of the loader's one walk (``SourceDoc.refs``) instead of walking
a large document again; that list must be exactly what a fresh walk finds, with or without
overlays, and the OpenAPI verdict must not depend on which of the two the keyword walk reads."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xcompleteness.check._validate import validate_openapi
from xcompleteness.document import iter_refs
from xcompleteness.load import load_document, load_spec

ROOT = Path(__file__).resolve().parents[2]
CASES = [
    ("examples/service_accounts/base.yaml", ()),
    ("examples/service_accounts/base.yaml", ("examples/service_accounts/overlay.yaml",)),
    ("examples/link_header_search/base.yaml", ("examples/link_header_search/overlay.yaml",)),
    ("examples/github/excerpt.yaml", ("examples/github/overlay.yaml",)),
]


@pytest.mark.parametrize(("spec", "overlays"), CASES)
def test_the_loader_lists_every_ref_a_fresh_walk_finds(spec: str, overlays: tuple[str, ...]):
    doc = load_document(ROOT / spec, [ROOT / o for o in overlays])
    assert doc.refs is not None
    assert sorted(doc.refs) == sorted(iter_refs(doc.data))
    assert doc.refs  # the cases do use refs: an empty list would prove nothing


def test_the_verdict_is_the_same_with_and_without_the_loaders_list(tmp_path: Path) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text(
        '{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/a": {"get": '
        '{"parameters": [{"$ref": "#/components/parameters/P"}, {"$ref": '
        '"#/components/parameters/P"}], "responses": {"200": {"description": "ok"}}}}}, '
        '"components": {"parameters": {"P": {"name": "p", "in": "query", "schema": '
        '{"type": "string"}}}}}',
        encoding="utf-8",
    )
    doc = load_spec(spec)
    assert doc.refs
    with_list = validate_openapi(doc)
    without = validate_openapi(type(doc)(doc.path, doc.data, doc.lines, doc.origin))
    assert [d.code for d in with_list] == ["XC030"]  # the duplicate parameter
    assert with_list == without


def _cycles_by_following_every_ref(refs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The cycle search before it skipped refs whose target is no ref: every ref of the spec a
    start, in pointer order (the oracle of the test below)."""
    from xcompleteness.document import ref_pointer

    edges = {pointer: ref_pointer(ref) or "" for pointer, ref in refs}
    out, done = [], set()
    for start in sorted(edges):
        if start in done:
            continue
        chain, node = [], start
        while node in edges and node not in chain and node not in done:
            chain.append(node)
            node = edges[node]
        if node in chain:
            cycle = chain[chain.index(node) :] + [node]
            out.append((cycle[0] + "/$ref", " -> ".join(cycle)))
        done.update(chain)
    return out


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    targets=st.lists(st.one_of(st.none(), st.integers(0, 7)), min_size=1, max_size=8),
    extra=st.lists(st.integers(0, 7), max_size=6),
)
def test_ref_cycles_are_the_ones_every_ref_followed_finds(targets, extra, tmp_path_factory) -> None:
    """Schemas S0..Sn, each a schema or a ref to another; plus refs to them from a response."""
    import json

    from xcompleteness.diagnostics import InputError

    n = len(targets)
    schemas = {
        f"S{i}": {"type": "string"} if t is None else {"$ref": f"#/components/schemas/S{t % n}"}
        for i, t in enumerate(targets)
    }
    responses = {
        str(200 + k): {
            "description": "ok",
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/S{e % n}"}}},
        }
        for k, e in enumerate(extra)
    }
    data = {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {"/a": {"get": {"responses": responses or {"200": {"description": "ok"}}}}},
        "components": {"schemas": schemas},
    }
    spec = tmp_path_factory.mktemp("cycles") / "spec.json"
    spec.write_text(json.dumps(data), encoding="utf-8")
    expected = _cycles_by_following_every_ref(sorted(iter_refs(data)))
    try:
        load_spec(spec)
        found: list[tuple[str, str]] = []
    except InputError as exc:
        found = [(d.pointer, d.message.split(": ", 1)[1]) for d in exc.diagnostics]
        assert {d.code for d in exc.diagnostics} == {"XC010"}
    assert found == expected


# The load's walk spells a ``$ref`` object's pointer from its parent's, kept while the walk pops
# that parent's children one after the other (siblings in ``properties``, ``allOf``, a list):
# the pointers and their order must be exactly those of a walk that spells every pointer whole.
_KEYS = st.sampled_from(["$ref", "a", "b", "a/b", "~0", "properties", "allOf", "1", ""])
_REF_OBJECT = st.builds(lambda r: {"$ref": r}, st.sampled_from(["#/a", "#/b/0", "x.json"]))
_TREES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=3) | _REF_OBJECT,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(_KEYS, children, max_size=5),
    max_leaves=40,
)


@settings(max_examples=400, deadline=None)
@given(tree=_TREES)
def test_the_walk_spells_each_ref_pointer_as_a_whole_walk_does(tree) -> None:
    from xcompleteness.load._limits import Limits
    from xcompleteness.load._parse import walk_document

    data = {"openapi": "3.1.0", "paths": {"/p": tree}, "x": [tree, {"$ref": "#/root"}]}
    assert walk_document(data, "spec.json", Limits()) == list(iter_refs(data))
    # a ref object at the root, whose pointer is ""
    assert walk_document({"$ref": "#/x", "x": tree}, "s", Limits()) == list(
        iter_refs({"$ref": "#/x", "x": tree})
    )


@pytest.mark.parametrize("indent", [None, 2])
def test_the_loader_lists_refs_in_walk_order(tmp_path: Path, indent: int | None) -> None:
    import json

    schemas = {
        f"S{i}": {
            "type": "object",
            "properties": {f"p{j}": {"$ref": f"#/components/schemas/S{j}"} for j in range(i)},
            "allOf": [{"$ref": "#/components/schemas/S0"}, {"type": "object"}],
        }
        for i in range(4)
    }
    spec = tmp_path / "spec.json"
    spec.write_text(
        json.dumps(
            {
                "openapi": "3.1.0",
                "info": {"title": "t", "version": "1"},
                "paths": {},
                "components": {"schemas": schemas},
            },
            indent=indent,
        ),
        encoding="utf-8",
    )
    doc = load_spec(spec)
    assert doc.refs == tuple(iter_refs(doc.data)) and len(doc.refs) == 10


# The policy decides a document whose refs are all local and resolvable (nearly every one) on
# edges keyed by pointer alone (load._ref_policy._all_local); any other takes the loop that keys
# them by file and pointer. Both must find the same cycles, with the same messages, in the same
# order; a dangling, external or URL ref is never taken by the first.
@settings(max_examples=300, deadline=None)
@given(
    targets=st.lists(
        st.one_of(
            st.none(),
            st.integers(0, 9),
            st.sampled_from(["#/nowhere", "other.json#/a", "https://x.test/a", "#"]),
        ),
        min_size=1,
        max_size=10,
    ),
    nested=st.booleans(),
)
def test_the_all_local_path_finds_what_the_general_one_does(targets, nested) -> None:
    from xcompleteness.document import ref_pointer
    from xcompleteness.load._ref_policy import _all_local, _local_cycles, _ref_cycles
    from xcompleteness.load._source import SourceDoc

    n = len(targets)

    def schema(t: object) -> dict[str, object]:
        if t is None:
            return {"type": "string"}
        ref = t if isinstance(t, str) else f"#/components/schemas/S{t % n}"
        # a ref under allOf, or a ref object whose sibling holds another ref
        return {"allOf": [{"$ref": ref}]} if nested else {"$ref": ref}

    data = {
        "openapi": "3.0.3",
        "paths": {},
        "components": {"schemas": {f"S{i}": schema(t) for i, t in enumerate(targets)}},
    }
    doc = SourceDoc(path=Path("spec.json"), data=data, lines={}, origin="spec.json")
    refs = list(iter_refs(data))
    local = _all_local(data, refs)
    plain = all(isinstance(t, int) or t in (None, "#") for t in targets)
    assert (local is not None) == plain
    if local is None:
        return
    spec = doc.path.resolve()
    edges = {(spec, p): (spec, ref_pointer(r) or "") for p, r in refs}
    assert _local_cycles(doc, local) == _ref_cycles(doc, spec, edges)
