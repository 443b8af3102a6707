"""The list-likeness scan shares its work between operations and stops early where only reasons
are read, and the typed views read media types and parameter schemas on first use (issue 21:
``check``'s cost must grow no faster than Redocly's with operation count). None of that may
change a verdict: the memoised scan gives the findings of the reference scan (``memo=False``,
every operation worked out on its own, its real path), check's XC100 reasons (``listing_reasons``)
are the full findings' reasons, and a lazily read view holds what an eager one did.

Here on the bundled examples and the hand-written audit specs; on GitHub, Stripe, Microsoft Graph
and a sample of real specs in tests/corpus/test_scan_parity_corpus.py.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from support.paths import EXAMPLE_IDS, EXAMPLE_SPECS, ROOT
from xcompleteness.detect._listlike import (
    Excluded,
    Finding,
    listing_reasons,
    scan_all,
    undeclared_listings,
)
from xcompleteness.detect._operation_facts import OperationRef
from xcompleteness.detect._schema_walk import SchemaWalker
from xcompleteness.detect._shape import body_shape
from xcompleteness.document import views
from xcompleteness.load import load_document

AUDIT_SPECS = sorted((ROOT / "tests" / "audit" / "specs").glob("*.yaml"))
SPECS: list[tuple[Path, tuple[Path, ...]]] = [
    *EXAMPLE_SPECS,
    *((p, ()) for p in AUDIT_SPECS if not p.name.endswith(".expected.yaml")),
]
IDS = [*EXAMPLE_IDS, *(p.stem for p, _ in SPECS[len(EXAMPLE_SPECS) :])]


def reference_reasons(document: Any) -> dict[str, str]:
    """XC100's reasons from the reference scan: the full findings, nothing shared."""
    found, _ = scan_all(document, memo=False)
    return {f.pointer: "; ".join(f.why) for f in found if not f.declared}


@pytest.mark.parametrize(("spec", "overlays"), SPECS, ids=IDS)
def test_memoised_scan_and_xc100_reasons_equal_the_reference(
    spec: Path, overlays: tuple[Path, ...]
) -> None:
    doc = load_document(spec, list(overlays))
    memoised = scan_all(doc)
    assert memoised == scan_all(doc, memo=False)
    reasons = undeclared_listings(doc)
    assert list(reasons.items()) == list(reference_reasons(doc).items())
    assert memoised[0] or spec.name == "not_lists.yaml", "the others have list-like operations"


def _doc(paths: dict[str, Any], schemas: dict[str, Any]) -> dict[str, Any]:
    return {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": paths,
        "components": {"schemas": schemas},
    }


def _get(schema: str, summary: str = "") -> dict[str, Any]:
    ref = {"$ref": f"#/components/schemas/{schema}"}
    op: dict[str, Any] = {
        "responses": {
            "200": {"description": "ok", "content": {"application/json": {"schema": ref}}}
        }
    }
    if summary:
        op["summary"] = summary
    return {"get": op}


# One schema answered under paths whose last words decide differently: "Gets a list of brands"
# on /brands takes the array named after the path; on /cars the same body is no listing.
SHARED = _doc(
    {
        "/brands": _get("Envelope", "Gets a list of brands"),
        "/cars": _get("Envelope", "Gets a list of cars"),
        "/v2/brands": _get("Envelope", "Gets a list of brands"),
        "/things/{id}": _get("Thing"),
        "/things": _get("Thing"),
    },
    {
        "Envelope": {
            "type": "object",
            "properties": {
                "brands": {"type": "array", "items": {"$ref": "#/components/schemas/Brand"}},
                "label": {"type": "string"},
                "owner": {"type": "string"},
            },
        },
        "Brand": {"type": "object", "properties": {"id": {"type": "string"}}},
        "Thing": {
            "type": "object",
            "properties": {
                "id": {"type": "string"},
                "results": {"type": "array", "items": {"$ref": "#/components/schemas/Brand"}},
            },
        },
    },
)


def test_a_shared_schema_keeps_the_verdicts_its_paths_give() -> None:
    """What a shape reads of the path (its last literal segment, a parameter at its end) is in
    the memo's key: the same schema gives each path its own verdict."""
    reference = reference_reasons(SHARED)
    assert set(reference) == {
        "/paths/~1brands/get",
        "/paths/~1v2~1brands/get",
        "/paths/~1things/get",
    }  # /cars: no array named after it; /things/{id}: one thing holding an array
    assert undeclared_listings(SHARED) == reference
    assert scan_all(SHARED) == scan_all(SHARED, memo=False)


def test_a_schema_is_shaped_once_per_path_key_and_handed_out_as_copies() -> None:
    walker = SchemaWalker(SHARED)
    ops = {op.path: OperationRef(op) for op in views(SHARED).operations}
    body = ({"$ref": "#/components/schemas/Envelope"}, "/paths/~1brands/get/responses/200")
    first = body_shape(body, walker, ops["/brands"].path, False, listy=True)
    assert first.items == "$response.body#/brands"
    kept = len(walker._memo)
    again = body_shape(body, walker, ops["/v2/brands"].path, False, listy=True)
    assert len(walker._memo) == kept, "the same schema under the same last word: shared"
    assert again == first and again is not first and again.signals is not first.signals
    first.items, first.signals[:] = None, []  # a caller's change reaches no other operation
    third = body_shape(body, walker, "/v3/brands", False, listy=True)
    assert third.items == "$response.body#/brands"
    other = body_shape(body, walker, ops["/cars"].path, False, listy=True)
    assert other.items is None and len(walker._memo) > kept


def test_a_remembered_answer_is_tied_to_the_node_it_names() -> None:
    """A key naming a node by ``id`` answers only for that very node (an id can be reused)."""
    walker = SchemaWalker({})
    a, b = {"type": "object"}, {"type": "object"}
    assert walker.remembered(("k", 1), a, lambda: "a") == "a"
    assert walker.remembered(("k", 1), a, lambda: pytest.fail("computed twice")) == "a"
    assert walker.remembered(("k", 1), b, lambda: "b") == "b"
    off = SchemaWalker({}, memo=False)
    assert off.remembered(("k",), a, lambda: 1) == 1
    assert off.remembered(("k",), a, lambda: 2) == 2


def test_listing_reasons_stop_at_the_reasons_of_the_full_finding() -> None:
    from xcompleteness.detect._listlike import scan_operation

    kinds = set()
    for spec, overlays in SPECS:
        doc = load_document(spec, list(overlays))
        walker = SchemaWalker(doc.data)
        for op in doc.views.operations:
            full = scan_operation(OperationRef(op), walker)
            short = listing_reasons(OperationRef(op), walker)
            assert short == _short(full), op.pointer
            kinds.add(type(full).__name__)
    assert kinds == {"Finding", "Excluded", "NoneType"}


def _short(full: Finding | Excluded | None) -> tuple[str, ...] | Excluded | None:
    """What ``listing_reasons`` answers for an operation whose full scan answers ``full``: the
    finding's reasons, a ``kind: none`` declaration, else None (a stream is no finding)."""
    if isinstance(full, Finding):
        return full.why
    return full if isinstance(full, Excluded) and full.source == "declared" else None


def test_views_read_media_types_and_parameter_schemas_on_first_use() -> None:
    doc = _doc(
        {
            "/a": {
                "parameters": [{"name": "q", "in": "query", "schema": {"type": "string"}}],
                "post": {
                    "requestBody": {
                        "content": {"application/json": {"schema": {"type": "object"}}}
                    },
                    "responses": {"default": {"$ref": "#/components/responses/Error"}},
                },
            }
        },
        {"Error": {"type": "object"}},
    )
    doc["components"]["responses"] = {
        "Error": {
            "description": "e",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
        }
    }
    (op,) = views(doc).operations
    (param,), (response,), body = op.parameters, op.responses, op.request_body
    assert body is not None
    for view, name in ((param, "schema"), (response, "content"), (body, "content")):
        assert name not in view.__dict__, f"{name} is read on first use"
    (media,) = response.content
    assert media.pointer == "/paths/~1a/post/responses/default/content/application~1json"
    assert media.schema is not None and media.schema.schema == {"type": "object"}
    assert media.schema.component == "Error"
    assert param.schema is not None and param.schema.pointer == "/paths/~1a/parameters/0/schema"
    assert response.content is response.content  # read once, kept
    assert body.json_schema() is not None and body.json_schema().raw == {"type": "object"}
    assert dataclasses.replace(body) == body and body.content == dataclasses.replace(body).content


@pytest.mark.parametrize(("spec", "overlays"), SPECS[:3], ids=IDS[:3])
def test_views_made_without_init_equal_the_views_init_makes(
    spec: Path, overlays: tuple[Path, ...]
) -> None:
    """Views are made without the frozen ``__init__`` (speed): each holds every field, and the
    view ``__init__`` makes from those fields is equal to it."""
    doc = load_document(spec, list(overlays))
    made: list[Any] = []
    for op in doc.views.operations:
        made += [op, *op.parameters, *op.responses]
        made += [m for r in op.responses for m in r.content]
        made += [p.schema for p in op.parameters if p.schema is not None]
        made += [m.schema for r in op.responses for m in r.content if m.schema is not None]
        if op.request_body is not None:
            made += [op.request_body, *op.request_body.content]
    kinds = set()
    for view in made:
        assert dataclasses.replace(view) == view
        kinds.add(type(view).__name__)
    assert kinds >= {"Operation", "Parameter", "Response", "MediaType", "SchemaRef"}


# check's reasons read some facts only where they can change the verdict (a Link header said in
# prose, whether the path names a search, the path's words): each operation here turns on one.
_LINK_PROSE = "Use the Link header to get the next page."


def _op(method: str, schema: dict[str, Any], **extra: Any) -> dict[str, Any]:
    op: dict[str, Any] = {
        "responses": {
            "200": {"description": "ok", "content": {"application/json": {"schema": schema}}}
        },
        **extra,
    }
    return {method: op}


_WIDGET = {"$ref": "#/components/schemas/Widget"}
DEFERRED = _doc(
    {
        # no items, no other reason: a Link header in prose is no reason alone
        "/widgets/{id}": _op("get", _WIDGET, description=_LINK_PROSE),
        # a reason without items (aggregation fields); the Link header in prose makes it paged,
        # so the single-object verb ``validate`` does not drop it
        "/widgets/validate": _op(
            "get",
            {"type": "object", "properties": {"aggregations": {"type": "object"}}},
            operationId="validateWidgets",
            description=_LINK_PROSE,
        ),
        # items: the Link header in prose is one of the reasons
        "/widgets": _op("get", {"type": "array", "items": _WIDGET}, description=_LINK_PROSE),
        # a POST with items is a listing only because its path names a search (no query text)
        "/widgets/search": _op(
            "post",
            {"type": "object", "properties": {"results": {"type": "array", "items": _WIDGET}}},
        ),
        # a required query text and a search path: matches nested one object down
        "/search/widgets": _op(
            "get",
            {
                "type": "object",
                "properties": {
                    "took": {"type": "integer"},
                    "matches": {
                        "type": "object",
                        "properties": {
                            "best": {"type": "array", "items": _WIDGET},
                            "other": {"type": "array", "items": _WIDGET},
                        },
                    },
                },
            },
            parameters=[
                {
                    "name": "q",
                    "in": "query",
                    "required": True,
                    "description": "Search text",
                    "schema": {"type": "string"},
                }
            ],
        ),
        # an aggregate named by its path: the path's words are read once it is a listing
        "/widgets/statistics": _op("get", {"type": "array", "items": _WIDGET}),
    },
    {"Widget": {"type": "object", "properties": {"id": {"type": "string"}}}},
)


def test_check_reads_a_fact_only_where_it_can_change_the_verdict() -> None:
    """Each operation of DEFERRED turns on a fact check's reasons read late or only beside
    another (listing_reasons): its verdict and reasons are the full finding's."""
    from xcompleteness.detect._listlike import scan_operation

    reference = reference_reasons(DEFERRED)
    assert undeclared_listings(DEFERRED) == reference
    assert "/paths/~1widgets~1{id}/get" not in reference
    assert reference["/paths/~1widgets~1validate/get"] == "aggregation fields"
    assert reference["/paths/~1widgets/get"] == "array response; signal Link"
    assert reference["/paths/~1widgets~1search/post"] == "object wrapping an array at /results"
    assert reference["/paths/~1search~1widgets/get"].startswith("search with a required query")
    walker = SchemaWalker(DEFERRED)
    for op in views(DEFERRED).operations:
        full = scan_operation(OperationRef(op), walker)
        short = listing_reasons(OperationRef(op), walker)
        assert short == _short(full), op.pointer
    found = {f.path: f for f in scan_all(DEFERRED, memo=False)[0]}
    assert found["/widgets/validate"].style_doubt is not None  # the Link header, to confirm
    assert found["/widgets/statistics"].kind == "aggregate"
    assert found["/widgets/search"].kind == "search"


_PAGE = {"name": "page", "in": "query", "schema": {"type": "integer"}}
_WIDGETS = {"type": "array", "items": _WIDGET}
_STREAM = {
    "parameters": [_PAGE],
    "responses": {
        "200": {
            "description": "ok",
            "content": {"text/event-stream": {"schema": {"type": "object"}}},
        }
    },
}
_VALUE = {"type": "object", "properties": {"value": _WIDGETS}}
_CURSORED = {
    "type": "object",
    "properties": {"widgets": _WIDGETS, "cursor": {"type": "string"}},
}
# Non-GET operations with reasons: a listing only through what _never_a_listing reads first
# (a pagination extension, a search word, a listing name, a report read, a request body cursor
# fed by the response), else no finding whatever the reasons (a page parameter, an array).
NON_GET = _doc(
    {
        "/widgets/search": _op("post", _WIDGETS),
        "/widgets/list": _op("patch", _WIDGETS),
        "/reports/widgets": _op("post", {"type": "object", "properties": {"rows": _WIDGETS}}),
        "/widgets/batch": _op("put", _VALUE, **{"x-ms-pageable": {"nextLinkName": None}}),
        "/widgets/retrieve": {
            "post": {
                **_op("post", _CURSORED)["post"],
                "requestBody": {
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "properties": {"cursor": {"type": "string"}},
                            }
                        }
                    }
                },
            }
        },
        "/widgets": {
            **_op("post", _WIDGETS, parameters=[_PAGE]),
            **_op("put", _CURSORED, parameters=[_PAGE]),
        },
        "/widgets/{id}": _op("delete", _WIDGETS, parameters=[_PAGE]),
        "/widgets/events": {method: _STREAM for method in ("get", "post")},
    },
    {"Widget": {"type": "object", "properties": {"id": {"type": "string"}}}},
)


def test_check_drops_a_non_get_operation_before_reading_it_only_when_it_can_be_no_finding() -> None:
    """Each listing of NON_GET turns on one fact ``_never_a_listing`` reads; the others have
    reasons (a page parameter, an array) and are still no finding: check's reasons are the
    full findings', and a stream is None to check (an exclusion to the full scan)."""
    from xcompleteness.detect._listlike import scan_operation

    reference = reference_reasons(NON_GET)
    assert undeclared_listings(NON_GET) == reference
    assert set(reference) == {
        "/paths/~1widgets~1search/post",
        "/paths/~1widgets~1list/patch",
        "/paths/~1reports~1widgets/post",
        "/paths/~1widgets~1batch/put",
        "/paths/~1widgets~1retrieve/post",
    }
    assert reference["/paths/~1widgets~1retrieve/post"].endswith(
        "request body cursor cursor fed by $response.body#/cursor"
    )
    walker = SchemaWalker(NON_GET)
    shorts = {}
    for op in views(NON_GET).operations:
        full = scan_operation(OperationRef(op), walker)
        shorts[op.pointer] = short = listing_reasons(OperationRef(op), walker)
        assert short == _short(full), op.pointer
        if op.path == "/widgets/events":  # GET and POST
            assert isinstance(full, Excluded) and full.source == "stream" and short is None
    assert {p for p, s in shorts.items() if s is not None} == set(reference)


def test_array_properties_are_the_properties_that_may_be_arrays() -> None:
    doc = _doc(
        {},
        {
            "Mixed": {
                "allOf": [
                    {"$ref": "#/components/schemas/Base"},
                    {
                        "properties": {
                            "tags": {"type": ["array", "null"], "items": {"type": "string"}},
                            "name": {"type": "string"},
                            "rows": {"items": {"type": "string"}},
                        }
                    },
                ]
            },
            "Base": {"properties": {"links": {"type": "array"}, "id": {"type": "string"}}},
        },
    )
    walker = SchemaWalker(doc)
    ref = ({"$ref": "#/components/schemas/Mixed"}, "/x")
    names = walker.array_properties(*ref)
    props = walker.properties(*ref)
    assert names == tuple(n for n, at in props.items() if walker.is_array(*at))
    assert names == ("links", "tags", "rows")  # merged in allOf order
    assert walker.array_properties(*ref) is names  # kept per schema
    assert walker.array_properties({"$ref": "#/nowhere"}, "/y") == ()


@pytest.mark.parametrize(("spec", "overlays"), SPECS[:6], ids=IDS[:6])
def test_a_scan_makes_no_garbage_cycles_and_leaves_the_collector_as_it_was(
    spec: Path, overlays: tuple[Path, ...]
) -> None:
    """The scan pauses the cyclic collector (speed): sound only while nothing it makes is a
    reference cycle, so a collection right after a scan (views read and memo built during it)
    finds nothing to free."""
    import gc

    doc = load_document(spec, list(overlays))
    was = gc.isenabled()
    try:
        for enabled in (True, False):
            (gc.enable if enabled else gc.disable)()
            gc.collect()
            undeclared_listings(doc)
            scan_all(doc)
            assert gc.isenabled() is enabled
            assert gc.collect() == 0, (
                "the scan made reference cycles: pausing the collector for it is unsound"
            )
    finally:
        (gc.enable if was else gc.disable)()
