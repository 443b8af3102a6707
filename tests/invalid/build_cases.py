"""Write the rule cases of tests/invalid/ from base.yaml: ``python tests/invalid/build_cases.py``.

Each rule case is base.yaml with one small edit. The *expected* diagnostics below are written by
hand (codes and pointers, never prose) and saved as ``expected.json``; the runner
(tests/invalid/test_invalid.py) compares the real diagnostics against them, so running this
script never "blesses" current output. Bad-input cases (unparseable files, alias bombs ...)
are hand-written files in their own folders and are not touched here.
"""

from __future__ import annotations

import copy
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
LIST = "/paths/~1things/get/x-completeness"
SEARCH = "/paths/~1search/get/x-completeness"
GET = "/paths/~1things~1{id}/get"
ARCHIVE = "/paths/~1things~1archive/post/x-completeness"

Edit = Callable[[dict[str, Any]], None]


def _op(d: dict[str, Any], path: str, method: str = "get") -> dict[str, Any]:
    return d["paths"][path][method]


def _xc(d: dict[str, Any], path: str, method: str = "get") -> dict[str, Any]:
    return _op(d, path, method)["x-completeness"]


def _adapter_cursor(d: dict[str, Any], cursor: dict[str, Any]) -> None:
    """The adapter search, paged by a last-item cursor, with the given cursor contract."""
    _op(d, "/search")["parameters"].append(
        {"name": "after", "in": "query", "schema": {"type": "string"}}
    )
    _xc(d, "/search")["pagination"] = {
        "style": "cursor",
        "request": {"cursor": "after", "size": "per_page"},
        "response": {"next": {"last-item": "/id"}},
        "cursor": cursor,
    }


def _body_search(d: dict[str, Any], size: str) -> None:
    """The search with a JSON request body that has ``q`` and ``per_page``, its page size
    declared at ``size`` (issue 19: paging in the request body)."""
    _op(d, "/search")["requestBody"] = {
        "content": {
            "application/json": {
                "schema": {
                    "type": "object",
                    "properties": {"q": {"type": "string"}, "per_page": {"type": "integer"}},
                }
            }
        }
    }
    _xc(d, "/search")["pagination"]["request"] = {"size": size}


def _capped_search(d: dict[str, Any], mode: str = "adapter", **pagination: Any) -> None:
    """The search as one unpaged answer capped by its size parameter (style none with
    request.size): a full answer is RESULT_LIMIT_REACHED, never complete."""
    xc = _xc(d, "/search")
    xc["mode"] = mode
    xc["pagination"] = {"style": "none", "request": {"size": "per_page"}, **pagination}
    xc["reasons"] = ["RESULT_LIMIT_REACHED"]


def _size_schema(d: dict[str, Any], **bounds: Any) -> None:
    """The search's ``per_page`` query parameter, bounded by ``bounds`` (``maximum: 50``)."""
    _op(d, "/search")["parameters"][1]["schema"].update(bounds)


def _capped_body_search(d: dict[str, Any], maximum: int, cap: int) -> None:
    """The capped search, its size the JSON body property ``per_page`` of schema maximum
    ``maximum``, declared ``max-page-size: cap``."""
    _body_search(d, "$request.body#/per_page")
    body = _op(d, "/search")["requestBody"]["content"]["application/json"]["schema"]
    body["properties"]["per_page"]["maximum"] = maximum
    _capped_search(d, **{"max-page-size": cap})
    _xc(d, "/search")["pagination"]["request"] = {"size": "$request.body#/per_page"}


def _offset_search(d: dict[str, Any], **pagination: Any) -> None:
    """The adapter search paged by offset (Jira's startAt), with extra pagination keys
    (issue 19: the end signals of an offset walk)."""
    _op(d, "/search")["parameters"].append(
        {"name": "startAt", "in": "query", "schema": {"type": "integer"}}
    )
    body = _op(d, "/search")["responses"]["200"]["content"]["application/json"]["schema"]
    body["properties"]["isLast"] = {"type": "boolean"}
    xc = _xc(d, "/search")
    xc["pagination"] = {
        "style": "offset",
        "request": {"offset": "startAt", "size": "per_page"},
        **pagination,
    }
    xc["reasons"][0] = "MORE_PAGES_AVAILABLE"


def _page_search(d: dict[str, Any], minimum: int | None, **pagination: Any) -> None:
    """The adapter search paged by page number, its page parameter's schema ``minimum`` given,
    with extra pagination keys (issue 19: pages numbered from 0, ``first-page``)."""
    schema: dict[str, Any] = {"type": "integer"}
    if minimum is not None:
        schema["minimum"] = minimum
    _op(d, "/search")["parameters"].append({"name": "page", "in": "query", "schema": schema})
    xc = _xc(d, "/search")
    xc["pagination"] = {
        "style": "page",
        "request": {"page": "page", "size": "per_page"},
        "response": {"total": "$response.body#/total_count"},
        **pagination,
    }
    xc["reasons"][0] = "MORE_PAGES_AVAILABLE"


def _add_widgets(d: dict[str, Any]) -> None:
    d["paths"]["/widgets"] = {
        "get": {
            "operationId": "listWidgets",
            "responses": {
                "200": {
                    "description": "ok",
                    "content": {
                        "application/json": {
                            "schema": {"type": "array", "items": {"type": "string"}}
                        }
                    },
                }
            },
        }
    }


def _no_link_header(d: dict[str, Any]) -> None:
    del _op(d, "/search")["responses"]["200"]["headers"]


def _recheck_listing(d: dict[str, Any]) -> None:
    decl = _xc(d, "/things/archive", "post")
    del decl["evidence"]
    decl["recheck"] = {"each-target": "listThings"}


def _next_url(pointer: str) -> dict[str, Any]:
    return {
        "style": "next-url",
        "request": {"size": "per_page"},
        "response": {"next": "$response.body#" + pointer},
    }


def _next_url_search(d: dict[str, Any], **response: str) -> None:
    """The adapter search paged by a body ``nextLink`` (the schema has it), with more
    ``pagination.response`` keys (a total beside the next URL: issue papercuts)."""
    schema = _op(d, "/search")["responses"]["200"]["content"]["application/json"]["schema"]
    schema["properties"]["nextLink"] = {"type": "string"}
    xc = _xc(d, "/search")
    xc["pagination"] = _next_url("/nextLink")
    xc["pagination"]["response"].update(response)
    xc["reasons"][0] = {
        "code": "MORE_PAGES_AVAILABLE",
        "when": {"present": "$response.body#/nextLink"},
    }


def _recursive_schema(d: dict[str, Any]) -> None:
    d["components"]["schemas"]["Thing"]["properties"]["children"] = {
        "type": "array",
        "items": {"$ref": "#/components/schemas/Thing"},
    }


CASES: dict[str, tuple[Edit, dict[str, Any]]] = {
    "rule_XC100_undeclared_listing": (
        _add_widgets,
        {"exit": 0, "diagnostics": [["XC100", "/paths/~1widgets/get"]]},
    ),
    "rule_XC100_strict": (
        _add_widgets,
        {"exit": 1, "strict": True, "diagnostics": [["XC100", "/paths/~1widgets/get"]]},
    ),
    "rule_XC101_missing_operation_id": (
        lambda d: _op(d, "/things/{id}").pop("operationId"),
        {"exit": 1, "diagnostics": [["XC101", GET]]},
    ),
    "rule_XC102_duplicate_operation_id": (
        lambda d: _op(d, "/search").__setitem__("operationId", "listThings"),
        {
            "exit": 1,
            "diagnostics": [
                ["XC030", "/paths/~1search/get"],
                ["XC102", "/paths/~1search/get/operationId"],
            ],
        },
    ),
    "rule_XC103_items_missing": (
        lambda d: _xc(d, "/things").__setitem__("items", "$response.body#/results"),
        {"exit": 1, "diagnostics": [["XC103", LIST + "/items"]]},
    ),
    "rule_XC104_id_missing": (
        lambda d: _xc(d, "/things").__setitem__("id", "/uuid"),
        {"exit": 1, "diagnostics": [["XC104", LIST + "/id"]]},
    ),
    "rule_XC105_next_missing": (
        lambda d: _xc(d, "/things")["pagination"].__setitem__(
            "response", {"next": "$response.body#/cursor_next"}
        ),
        {"exit": 1, "diagnostics": [["XC105", LIST + "/pagination/response/next"]]},
    ),
    "rule_XC106_when_location_missing": (
        lambda d: _xc(d, "/search")["reasons"][1]["when"].__setitem__(
            "gt", ["$response.body#/total", 1000]
        ),
        {"exit": 1, "diagnostics": [["XC106", SEARCH + "/reasons/1/when/gt/0"]]},
    ),
    "rule_XC107_no_link_header": (
        _no_link_header,
        {
            "exit": 0,
            "diagnostics": [
                ["XC107", SEARCH + "/pagination/response/next"],
                ["XC107", SEARCH + "/reasons/0/when/present"],
            ],
        },
    ),
    "rule_XC108_expression_unparsable": (
        # well formed for the schema, but past the expression parser's length cap
        lambda d: _xc(d, "/things/archive", "post")["evidence"].__setitem__(
            "token", "$request.body#/" + "t" * 5000
        ),
        {"exit": 1, "diagnostics": [["XC108", ARCHIVE + "/evidence/token"]]},
    ),
    "rule_XC110_unknown_reason": (
        lambda d: _xc(d, "/things")["reasons"].append("NO_SUCH_REASON"),
        {"exit": 1, "diagnostics": [["XC110", LIST + "/reasons/3"]]},
    ),
    "rule_XC111_unknown_warning": (
        lambda d: _xc(d, "/things").__setitem__("warnings", ["NO_SUCH_WARNING"]),
        {"exit": 1, "diagnostics": [["XC111", LIST + "/warnings/0"]]},
    ),
    "rule_XC112_continuation_misfit": (
        lambda d: _xc(d, "/things")["reasons"].__setitem__(
            1, {"code": "CURSOR_EXPIRED", "continuation": "next_cursor"}
        ),
        {"exit": 1, "diagnostics": [["XC112", LIST + "/reasons/1"]]},
    ),
    "rule_XC113_more_pages_without_next": (
        lambda d: _xc(d, "/things").pop("pagination"),
        {"exit": 1, "diagnostics": [["XC113", LIST + "/reasons/0"]]},
    ),
    "rule_XC114_paginated_without_more_pages": (
        lambda d: _xc(d, "/search")["reasons"].pop(0),
        {"exit": 0, "diagnostics": [["XC114", SEARCH + "/pagination"]]},
    ),
    "rule_XC115_expiry_without_cursor_expired": (
        lambda d: _xc(d, "/things")["reasons"].remove("CURSOR_EXPIRED"),
        {"exit": 1, "diagnostics": [["XC115", LIST + "/pagination/cursor/on-expiry"]]},
    ),
    "rule_XC116_evidence_from_unknown": (
        lambda d: _xc(d, "/things/archive", "post")["evidence"].__setitem__("from", "listNope"),
        {"exit": 1, "diagnostics": [["XC116", ARCHIVE + "/evidence/from"]]},
    ),
    "rule_XC117_evidence_from_non_minting": (
        lambda d: _xc(d, "/things").pop("evidence"),
        {"exit": 1, "diagnostics": [["XC117", ARCHIVE + "/evidence/from"]]},
    ),
    "rule_XC118_recheck_not_a_resource": (
        _recheck_listing,
        {"exit": 1, "diagnostics": [["XC118", ARCHIVE + "/recheck/each-target"]]},
    ),
    "rule_XC119_review_by_passed": (
        lambda d: d["x-completeness-registry"]["reasons"]["SHARD_MOVING"].__setitem__(
            "review-by", "2020-01-01"
        ),
        {
            "exit": 0,
            "diagnostics": [["XC119", "/x-completeness-registry/reasons/SHARD_MOVING/review-by"]],
        },
    ),
    "rule_XC120_deadline_param_missing": (
        lambda d: _xc(d, "/things")["deadline"].__setitem__("param", "time_budget"),
        {"exit": 1, "diagnostics": [["XC120", LIST + "/deadline/param"]]},
    ),
    "rule_XC121_page_param_missing": (
        lambda d: _xc(d, "/things")["pagination"]["request"].__setitem__("cursor", "after"),
        {"exit": 1, "diagnostics": [["XC121", LIST + "/pagination/request/cursor"]]},
    ),
    "rule_XC122_request_location_missing": (
        lambda d: _xc(d, "/things/archive", "post")["evidence"].__setitem__(
            "ids", "$request.body#/targets"
        ),
        {"exit": 1, "diagnostics": [["XC122", ARCHIVE + "/evidence/ids"]]},
    ),
    "rule_XC123_omitted_fields_missing": (
        lambda d: _xc(d, "/things/{id}").__setitem__(
            "omitted-fields", "$response.body#/omitted_fields"
        ),
        {"exit": 1, "diagnostics": [["XC123", GET + "/x-completeness/omitted-fields"]]},
    ),
    "rule_XC124_duplicate_reason": (
        # distinct items (so the schema's uniqueItems holds) naming the same code
        lambda d: _xc(d, "/things")["reasons"].append({"code": "TIME_BUDGET_EXCEEDED"}),
        {"exit": 1, "diagnostics": [["XC124", LIST + "/reasons/3"]]},
    ),
    "rule_XC125_client_code_on_server": (
        lambda d: _xc(d, "/things")["reasons"].append("CLIENT_PAGE_LIMIT"),
        {"exit": 0, "diagnostics": [["XC125", LIST + "/reasons/3"]]},
    ),
    "rule_XC140_next_url_not_a_string": (
        lambda d: _xc(d, "/search").__setitem__("pagination", _next_url("/total_count")),
        {"exit": 1, "diagnostics": [["XC140", SEARCH + "/pagination/response/next"]]},
    ),
    "rule_XC105_next_url_missing": (
        lambda d: _xc(d, "/search").__setitem__("pagination", _next_url("/nextLink")),
        {"exit": 1, "diagnostics": [["XC105", SEARCH + "/pagination/response/next"]]},
    ),
    "vocab_next_url_reads_a_header": (
        lambda d: _xc(d, "/search").__setitem__(
            "pagination", {"style": "next-url", "response": {"next": "$response.link.next"}}
        ),
        {"exit": 1, "diagnostics": [["XC049", SEARCH + "/pagination/response/next"]]},
    ),
    "vocab_next_url_with_pages": (
        lambda d: _next_url_search(d, pages="$response.body#/total_count"),
        {"exit": 1, "diagnostics": [["XC049", SEARCH + "/pagination/response/pages"]]},
    ),
    # totals2: a link-header or cursor walk compares the items it read with a declared total
    # (GitHub search's total_count beside its Link header); a page count stays page-only
    "ok_link_header_with_total": (
        lambda d: _xc(d, "/search")["pagination"]["response"].__setitem__(
            "total", "$response.body#/total_count"
        ),
        {"exit": 0, "diagnostics": []},
    ),
    "ok_cursor_with_total": (
        lambda d: (
            _adapter_cursor(d, {}),
            _xc(d, "/search")["pagination"]["response"].__setitem__(
                "total", "$response.body#/total_count"
            ),
        ),
        {"exit": 0, "diagnostics": []},
    ),
    "vocab_cursor_with_pages": (
        lambda d: (
            _adapter_cursor(d, {}),
            _xc(d, "/search")["pagination"]["response"].__setitem__(
                "pages", "$response.body#/total_count"
            ),
        ),
        {"exit": 1, "diagnostics": [["XC049", SEARCH + "/pagination/response/pages"]]},
    ),
    "vocab_link_header_with_pages": (
        lambda d: _xc(d, "/search")["pagination"]["response"].__setitem__(
            "pages", "$response.body#/total_count"
        ),
        {"exit": 1, "diagnostics": [["XC049", SEARCH + "/pagination/response/pages"]]},
    ),
    # a total (or page count) location that is no number in the response schema
    "rule_XC154_total_is_an_array": (
        lambda d: _xc(d, "/search")["pagination"]["response"].__setitem__(
            "total", "$response.body#/items"
        ),
        {"exit": 1, "diagnostics": [["XC154", SEARCH + "/pagination/response/total"]]},
    ),
    "rule_XC154_offset_total_is_text": (
        lambda d: (
            _op(d, "/search")["responses"]["200"]["content"]["application/json"]["schema"][
                "properties"
            ].__setitem__("total", {"type": "string"}),
            _offset_search(d, response={"total": "$response.body#/total"}),
        ),
        {"exit": 1, "diagnostics": [["XC154", SEARCH + "/pagination/response/total"]]},
    ),
    "rule_XC154_next_url_total_is_an_object": (
        lambda d: (
            _op(d, "/search")["responses"]["200"]["content"]["application/json"]["schema"][
                "properties"
            ].__setitem__("meta", {"type": "object", "properties": {"total": {"type": "integer"}}}),
            _next_url_search(d, total="$response.body#/meta"),
        ),
        {"exit": 1, "diagnostics": [["XC154", SEARCH + "/pagination/response/total"]]},
    ),
    "ok_offset_total_in_a_header": (
        lambda d: (
            _op(d, "/search")["responses"]["200"]["headers"].__setitem__(
                "X-Total-Count", {"schema": {"type": "string"}}
            ),
            _offset_search(d, response={"total": "$response.header.X-Total-Count"}),
        ),
        {"exit": 0, "diagnostics": []},
    ),
    # a cap the walk reports: a link-header walk with a total and a declared limit (no when)
    "ok_link_header_cap_beside_a_total": (
        lambda d: _xc(d, "/search").update(
            pagination={
                "style": "link-header",
                "request": {"size": "per_page"},
                "response": {"next": "$response.link.next", "total": "$response.body#/total_count"},
            },
            reasons=[
                {"code": "MORE_PAGES_AVAILABLE", "when": {"present": "$response.link.next"}},
                {"code": "RESULT_LIMIT_REACHED", "limit": 1000},
            ],
        ),
        {"exit": 0, "diagnostics": []},
    ),
    "rule_XC105_next_url_total_missing": (
        lambda d: _next_url_search(d, total="$response.body#/meta/total"),
        {"exit": 1, "diagnostics": [["XC105", SEARCH + "/pagination/response/total"]]},
    ),
    "rule_XC125_client_warning_on_server": (
        lambda d: _xc(d, "/things")["warnings"].append("ITEM_SCHEMA_MISMATCH"),
        {"exit": 0, "diagnostics": [["XC125", LIST + "/warnings/1"]]},
    ),
    "rule_XC130_adapter_cursor_authorization": (
        lambda d: _adapter_cursor(d, {"invalidated-by": ["filter", "authorization", "x-tenant"]}),
        {
            "exit": 0,
            "diagnostics": [
                ["XC130", SEARCH + "/pagination/cursor/invalidated-by/1"],
                ["XC130", SEARCH + "/pagination/cursor/invalidated-by/2"],
            ],
        },
    ),
    "rule_XC131_adapter_cursor_snapshot_ttl": (
        lambda d: _adapter_cursor(d, {"snapshot": "frozen", "ttl": "PT5M"}),
        {
            "exit": 0,
            "diagnostics": [
                ["XC131", SEARCH + "/pagination/cursor/snapshot"],
                ["XC131", SEARCH + "/pagination/cursor/ttl"],
            ],
        },
    ),
    "rule_XC141_offset_without_end_signal": (
        lambda d: _offset_search(d),
        {"exit": 1, "diagnostics": [["XC141", SEARCH + "/pagination"]]},
    ),
    "rule_XC142_short_page_without_size": (
        lambda d: _offset_search(d, end="short-page"),
        {"exit": 1, "diagnostics": [["XC142", SEARCH + "/pagination/end"]]},
    ),
    "rule_XC143_last_not_a_boolean": (
        lambda d: _offset_search(d, response={"last": "$response.body#/total_count"}),
        {"exit": 1, "diagnostics": [["XC143", SEARCH + "/pagination/response/last"]]},
    ),
    "rule_XC105_last_missing": (
        lambda d: _offset_search(d, response={"last": "$response.body#/is_last"}),
        {"exit": 1, "diagnostics": [["XC105", SEARCH + "/pagination/response/last"]]},
    ),
    "ok_offset_is_last_bound_to_filter": (
        lambda d: _offset_search(
            d,
            response={"last": "$response.body#/isLast"},
            cursor={"invalidated-by": ["filter", "ordering", "page-size"]},
        ),
        {"exit": 0, "diagnostics": []},
    ),
    "rule_XC144_reason_when_always": (
        lambda d: _xc(d, "/search")["reasons"].append(
            {"code": "VISIBILITY_RESTRICTED", "when": "always"}
        ),
        {"exit": 0, "diagnostics": [["XC144", SEARCH + "/reasons/3/when"]]},
    ),
    "ok_offset_empty_page_end": (
        lambda d: _offset_search(d, end="empty-page"),
        {"exit": 0, "diagnostics": []},
    ),
    # issue 19: evidence.accept opts a listing's evidence into a doubt it can report; listThings
    # is frozen (a repeated id is DUPLICATE_ITEMS there) and has no end rule
    "rule_XC145_accept_a_doubt_never_reported": (
        lambda d: _xc(d, "/things")["evidence"].__setitem__(
            "accept", ["ITEMS_SEEN_TWICE", "END_INFERRED", "DUPLICATE_CHECK_STOPPED"]
        ),
        {
            "exit": 0,
            "diagnostics": [
                ["XC145", LIST + "/evidence/accept/0"],
                ["XC145", LIST + "/evidence/accept/1"],
                # frozen: a stopped duplicate check is the reason DUPLICATES_UNCHECKED
                ["XC145", LIST + "/evidence/accept/2"],
            ],
        },
    ),
    "vocab_evidence_accept_unknown_doubt": (
        lambda d: _xc(d, "/things")["evidence"].__setitem__("accept", ["STALE_INDEX"]),
        {"exit": 1, "diagnostics": [["XC043", LIST + "/evidence/accept/0"]]},
    ),
    # issue 19: a POST search paged in its JSON body ($request.body#/NAME)
    "rule_XC146_body_size_without_a_body": (
        lambda d: _xc(d, "/search")["pagination"].__setitem__(
            "request", {"size": "$request.body#/per_page"}
        ),
        {"exit": 1, "diagnostics": [["XC146", SEARCH + "/pagination/request/size"]]},
    ),
    "rule_XC146_body_size_not_in_the_body_schema": (
        lambda d: _body_search(d, "$request.body#/limit"),
        {"exit": 1, "diagnostics": [["XC146", SEARCH + "/pagination/request/size"]]},
    ),
    "vocab_body_location_not_top_level": (
        lambda d: _body_search(d, "$request.body#/page/size"),
        {"exit": 1, "diagnostics": [["XC045", SEARCH + "/pagination/request/size"]]},
    ),
    "ok_body_size": (
        lambda d: _body_search(d, "$request.body#/per_page"),
        {"exit": 0, "diagnostics": []},
    ),
    # issue 19: pages numbered from 0 (pagination.first-page)
    "ok_page_first_page_zero": (
        lambda d: _page_search(d, 0, **{"first-page": 0}),
        {"exit": 0, "diagnostics": []},
    ),
    "rule_XC147_first_page_below_the_parameter_minimum": (
        lambda d: _page_search(d, 1, **{"first-page": 0}),
        {"exit": 1, "diagnostics": [["XC147", SEARCH + "/pagination/first-page"]]},
    ),
    "rule_XC147_default_first_page_below_the_parameter_minimum": (
        lambda d: _page_search(d, 2),  # first-page is not written: the finding is at the minimum
        {"exit": 1, "diagnostics": [["XC147", "/paths/~1search/get/parameters/2/schema/minimum"]]},
    ),
    # an adapter listing whose answer declares no body (DLx: only headers): said, not silent
    "rule_XC151_adapter_listing_without_a_body_schema": (
        lambda d: _op(d, "/search")["responses"]["200"].pop("content"),
        {"exit": 0, "diagnostics": [["XC151", SEARCH + "/items"]]},
    ),
    "rule_XC151_strict": (
        lambda d: _op(d, "/search")["responses"]["200"].pop("content"),
        {"exit": 1, "strict": True, "diagnostics": [["XC151", SEARCH + "/items"]]},
    ),
    # a draft that already asks about the items (or kind) of a body-less answer: the TODO is
    # the one question (XC900); XC151 would ask it twice (the corpus round trip: spec + draft
    # reports exactly the TODOs)
    "ok_XC151_asked_by_the_drafts_items_todo": (
        lambda d: (
            _op(d, "/search")["responses"]["200"].pop("content"),
            _xc(d, "/search").__setitem__(
                "x-todo", ["items: TODO no single array found in the response; point items at it"]
            ),
        ),
        {"exit": 0, "diagnostics": [["XC900", SEARCH + "/x-todo/0"]]},
    ),
    "vocab_first_page_on_a_cursor_style": (
        lambda d: _xc(d, "/search")["pagination"].__setitem__("first-page", 0),
        {"exit": 1, "diagnostics": [["XC049", SEARCH + "/pagination/first-page"]]},
    ),
    "vocab_first_page_out_of_range": (
        lambda d: _page_search(d, None, **{"first-page": 2}),
        {"exit": 1, "diagnostics": [["XC052", SEARCH + "/pagination/first-page"]]},
    ),
    # an unpaged listing capped by its size parameter (style none with request.size)
    "ok_capped_unpaged": (
        lambda d: _capped_search(d, **{"max-page-size": 100}),
        {"exit": 0, "diagnostics": []},
    ),
    "rule_XC148_capped_without_max_page_size": (
        lambda d: _capped_search(d),
        {"exit": 1, "diagnostics": [["XC148", SEARCH + "/pagination"]]},
    ),
    "rule_XC149_capped_without_result_limit_reached": (
        lambda d: (
            _capped_search(d, **{"max-page-size": 100}),
            _xc(d, "/search").__setitem__("reasons", []),
        ),
        {"exit": 1, "diagnostics": [["XC149", SEARCH + "/pagination/request/size"]]},
    ),
    "rule_XC121_capped_size_not_a_parameter": (
        lambda d: (
            _capped_search(d, **{"max-page-size": 100}),
            _xc(d, "/search")["pagination"]["request"].__setitem__("size", "limit"),
        ),
        {"exit": 1, "diagnostics": [["XC121", SEARCH + "/pagination/request/size"]]},
    ),
    "rule_XC153_adapter_cap_without_when": (
        lambda d: _xc(d, "/search").update(
            pagination={"style": "none"}, reasons=[{"code": "RESULT_LIMIT_REACHED", "limit": 50}]
        ),
        {"exit": 0, "diagnostics": [["XC153", SEARCH + "/reasons/0"]]},
    ),
    # a paged walk stops at a numeric limit and reports it there, and its total shows an API
    # that ends the listing at the cap: nothing to warn
    "ok_paged_cap_without_when_beside_a_total": (
        lambda d: _xc(d, "/search").update(
            reasons=[
                {"code": "MORE_PAGES_AVAILABLE", "when": {"present": "$response.link.next"}},
                {"code": "RESULT_LIMIT_REACHED", "limit": 1000},
            ],
            pagination={
                **_xc(d, "/search")["pagination"],
                "response": {
                    "next": "$response.link.next",
                    "total": "$response.body#/total_count",
                },
            },
        ),
        {"exit": 0, "diagnostics": []},
    ),
    # without a total, an API that ends its listing at the cap (no next link after item
    # 1,000) reads complete: still warned
    "rule_XC153_paged_cap_with_a_limit_but_no_total": (
        lambda d: _xc(d, "/search").__setitem__(
            "reasons",
            [
                {"code": "MORE_PAGES_AVAILABLE", "when": {"present": "$response.link.next"}},
                {"code": "RESULT_LIMIT_REACHED", "limit": 1000},
            ],
        ),
        {"exit": 0, "diagnostics": [["XC153", SEARCH + "/reasons/1"]]},
    ),
    # ... but without a limit it has nothing to stop at: never reported
    "rule_XC153_paged_cap_without_when_or_limit": (
        lambda d: _xc(d, "/search").__setitem__(
            "reasons",
            [
                {"code": "MORE_PAGES_AVAILABLE", "when": {"present": "$response.link.next"}},
                "RESULT_LIMIT_REACHED",
            ],
        ),
        {"exit": 0, "diagnostics": [["XC153", SEARCH + "/reasons/1"]]},
    ),
    # a max-page-size above what the size parameter's schema admits, where the walk sends it
    "rule_XC152_capped_above_the_parameter_maximum": (
        lambda d: (_size_schema(d, maximum=50), _capped_search(d, **{"max-page-size": 100})),
        {"exit": 1, "diagnostics": [["XC152", SEARCH + "/pagination/max-page-size"]]},
    ),
    "ok_capped_at_the_parameter_maximum": (
        lambda d: (_size_schema(d, maximum=100), _capped_search(d, **{"max-page-size": 100})),
        {"exit": 0, "diagnostics": []},
    ),
    "rule_XC152_capped_at_an_exclusive_maximum": (
        lambda d: (
            _size_schema(d, exclusiveMaximum=100),
            _capped_search(d, **{"max-page-size": 100}),
        ),
        {"exit": 1, "diagnostics": [["XC152", SEARCH + "/pagination/max-page-size"]]},
    ),
    "rule_XC152_short_page_above_the_parameter_maximum": (
        lambda d: (
            _size_schema(d, maximum=50),
            _offset_search(d, end="short-page", **{"max-page-size": 100}),
        ),
        {"exit": 1, "diagnostics": [["XC152", SEARCH + "/pagination/max-page-size"]]},
    ),
    "rule_XC152_capped_body_size_above_its_maximum": (
        lambda d: _capped_body_search(d, maximum=20, cap=100),
        {"exit": 1, "diagnostics": [["XC152", SEARCH + "/pagination/max-page-size"]]},
    ),
    "ok_capped_body_size_within_its_maximum": (
        lambda d: _capped_body_search(d, maximum=100, cap=100),
        {"exit": 0, "diagnostics": []},
    ),
    # the walk never sends max-page-size on a link-header walk without an end rule: no XC152
    "ok_paged_max_page_size_above_the_maximum_unsent": (
        lambda d: (
            _size_schema(d, maximum=50),
            _xc(d, "/search")["pagination"].__setitem__("max-page-size", 100),
        ),
        {"exit": 0, "diagnostics": []},
    ),
    "vocab_capped_with_a_cursor": (
        lambda d: (
            _capped_search(d, **{"max-page-size": 100}),
            _xc(d, "/search")["pagination"]["request"].__setitem__("cursor", "q"),
        ),
        {"exit": 1, "diagnostics": [["XC049", SEARCH + "/pagination/request/cursor"]]},
    ),
    "vocab_capped_in_native_mode": (
        lambda d: _capped_search(d, "native", **{"max-page-size": 100}),
        {"exit": 1, "diagnostics": [["XC058", SEARCH + "/pagination/request"]]},
    ),
    "vocab_unknown_key": (
        lambda d: _xc(d, "/things").__setitem__("colour", "blue"),
        {"exit": 1, "diagnostics": [["XC041", LIST + "/colour"]]},
    ),
    "openapi_invalid": (
        lambda d: d.pop("info"),
        {"exit": 1, "diagnostics": [["XC030", ""]]},
    ),
    "ok_recursive_schema": (_recursive_schema, {"exit": 0, "diagnostics": []}),
}


def main() -> None:
    base = yaml.safe_load((HERE / "base.yaml").read_text(encoding="utf-8"))
    for name, (edit, expected) in CASES.items():
        data = copy.deepcopy(base)
        edit(data)
        folder = HERE / name
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir()
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
        (folder / "spec.yaml").write_text(text, encoding="utf-8")
        (folder / "expected.json").write_text(
            json.dumps(expected, indent=2, sort_keys=True) + "\n", encoding="utf-8"
        )


if __name__ == "__main__":
    main()
