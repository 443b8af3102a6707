"""``generate --tests``: a pytest suite (``OUT/tests/``) running the package against the mock.

For every declared reason code of every listing, on a non-empty and on an empty page, the suite
asserts that the reason survives ``collect``, the item stream (``iter_items(...).result``) and the
MCP tool result (``tools.mcp_server.build_host``), that no evidence comes out of the partial
listing, and that every destructive mutation whose evidence comes from that listing is then
refused before it reaches the API (the mock records every mutation call). The policy is in each
test's name: ``test_list_service_accounts_time_budget_exceeded_empty_partial_page_refuses_archive_
service_accounts``. Control tests show that every listing, without faults, reads every item and
says complete, that a complete listing does authorise the mutation, and that an empty first page
with more pages is not the end.

The cases are data (``tests/xc_cases.json``), the spec the mock serves is data
(``tests/xc_spec.json``, the document after overlays); the only code built from the spec is test
function names, made by :func:`xcompleteness.ir._naming.snake` from operation ids and reason codes.
Not a package emitter: :func:`xcompleteness.emit._generate.generate_from_check` calls it when asked.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import PurePosixPath
from typing import Any

from xcompleteness.emit._json import dumps_indented
from xcompleteness.emit._render import Renderer
from xcompleteness.ir import OperationIR, SpecIR, argument_name, snake

__all__ = ["HTTP_FAULTS", "ITEMS", "MORE", "PAGE_SIZE", "cases", "emit_tests"]

MORE = "MORE_PAGES_AVAILABLE"
HTTP_FAULTS = {
    "CURSOR_EXPIRED": {"kind": "expired-cursor", "page": 2},
    "RATE_LIMITED": {"kind": "rate-limit", "retry-after": 3600},
}
ITEMS = 6
PAGE_SIZE = 3


def _dump(obj: Any) -> str:
    return dumps_indented(obj, default=None) + "\n"


def _param_value(schema: Mapping[str, Any]) -> Any:
    for key in ("example", "default"):
        if key in schema:
            return schema[key]
    if isinstance(schema.get("examples"), list) and schema["examples"]:
        return schema["examples"][0]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "array":  # an array parameter (filter[app]=a,b) takes a list of its items
        items = schema.get("items")
        return [_param_value(items if isinstance(items, Mapping) else {})]
    return 1 if kind == "integer" else True if kind == "boolean" else "x"


def _required_body(op: OperationIR) -> list[Any]:
    """The required JSON body fields of a listing that sends a body (a POST search), but the
    ones its walk writes itself (``$request.body#/NAME``)."""
    paging = op.contract.pagination
    owned = paging.request.body_names if paging is not None else frozenset()
    return [f for f in op.body_fields if f.required and f.name not in owned]


def _params(op: OperationIR, document: Mapping[str, Any]) -> dict[str, Any]:
    """Required parameters and body fields by the tool's argument names (the client's keyword
    without the trailing ``_`` only Python needs: ``jobId`` is ``job_id``, as agents.md's naming
    rule says; the spec's name is refused by the tool's closed input schema). Only what the tool
    offers (``tool_parameters``, the one place that decides it): a required credential header
    such as Listen Notes' ``X-ListenAPI-Key`` or the walk's own parameters are the host's and
    the walk's, and the tool refuses them as unknown arguments."""
    from xcompleteness.emit.emitters.tool_schemas import tool_body_fields, tool_parameters

    offered = {p.name for p in tool_parameters(op, document)}
    body = {f.name for f in tool_body_fields(op)}
    fields = [
        *(p for p in op.parameters if p.required and p.name in offered),
        *(f for f in _required_body(op) if f.name in body),
    ]
    return {argument_name(f.py_name): _param_value(f.schema) for f in fields}


def _kwargs(op: OperationIR) -> dict[str, Any]:
    """The same values by their Python names (the client's keyword arguments), credentials
    included (the client sends what it is given), but not the parameters the walk sets: a
    required position (Postmark's ``offset``) passed to ``collect`` is where a resumed walk
    starts, so ``offset=1`` read 5 of 6 items, and a required page size of type ``number``
    (``Count``) got ``"x"``."""
    paging = op.contract.pagination
    owned = {n for n in (paging.request.to_dict() if paging is not None else {}).values() if n}
    fields = [
        *(p for p in op.parameters if p.required and p.name not in owned),
        *_required_body(op),
    ]
    return {f.py_name: _param_value(f.schema) for f in fields}


def _mutations(spec: SpecIR, op: OperationIR) -> list[dict[str, Any]]:
    """The mutations whose evidence comes from ``op``: their targets are a body field (a list
    of ids: ``ids_field``) or one path or query parameter (one id per call, by the tool's
    argument name: ``ids_param``; Velo's and Data2CRM's ``DELETE .../{id}``, which the suite
    never exercised), with the mutation's other required arguments."""
    out = []
    for m in spec.operations:
        mutation = m.contract.mutation
        if not m.is_mutation or mutation is None or mutation.from_ != op.operation_id:
            continue
        ids = mutation.ids
        entry = {"tool": m.tool_name, "operation": m.operation_id}
        if isinstance(ids, str) and ids.startswith(("$request.path.", "$request.query.")):
            name = ids.split(".", 2)[2]
            param = next((p for p in m.parameters if p.name == name), None)
            if param is None or param.location not in ("path", "query"):
                continue
            entry["ids_param"] = argument_name(param.py_name)
            entry["params"] = _params(m, spec.document)
            out.append(entry)
            continue
        field = ids.split("#/", 1)[1] if isinstance(ids, str) and "#/" in ids else None
        if field is None or "/" in field:
            continue
        out.append({**entry, "ids_field": field})
    return out


def _fault(op: OperationIR, code: str) -> dict[str, Any] | None:
    from xcompleteness.testkit import representable

    if code in HTTP_FAULTS:
        return dict(HTTP_FAULTS[code])
    if op.mode == "adapter" and not representable(op.contract, code):
        return None
    return {"kind": "reason", "code": code, "page": 1}


def cases(spec: SpecIR) -> list[dict[str, Any]]:
    """Every case of the suite, in a stable order, with unique test names."""
    out: list[dict[str, Any]] = []
    taken: set[str] = set()

    def add(name: str, case: dict[str, Any]) -> None:
        base, n = name[:180], 2
        while name in taken:
            name, n = f"{base}_{n}", n + 1
        taken.add(name)
        out.append({"name": name, **case})

    for op in spec.listings:
        mutations = _mutations(spec, op)
        policy = (
            "refuses_" + "_and_".join(snake(m["operation"]) for m in mutations)
            if mutations
            else "stays_partial"
        )
        common = {
            "operation": op.operation_id,
            "attr": op.py_name,
            "tool": op.tool_name,
            "params": _params(op, spec.document),
            "kwargs": _kwargs(op),
            "mutations": mutations,
            "id": op.contract.id,
        }
        reasons = op.contract.reasons
        always = any(r.when_raw == "always" for r in reasons)
        prefix = f"test_{snake(op.operation_id)}"
        cap = _cap(op)
        # an unpaged listing capped by its size parameter: the controls hold fewer items than
        # the walk asks for (a full answer is RESULT_LIMIT_REACHED, never complete)
        items = ITEMS if cap is None else min(ITEMS, cap - 1)
        if cap is not None and not always:
            sized = _sized(op, common, min(PAGE_SIZE, cap))
            add(
                f"{prefix}_full_answer_is_result_limit_reached_{policy}",
                {
                    **sized,
                    "kind": "partial",
                    "code": "RESULT_LIMIT_REACHED",
                    "empty": False,
                    "plan": _plan([], items=ITEMS),
                },
            )
            add(
                f"{prefix}_short_answer_says_complete",
                {
                    **sized,
                    "kind": "walk_on",
                    "code": None,
                    "empty": False,
                    "plan": _plan([], items=min(PAGE_SIZE, cap) - 1),
                },
            )
        for reason in reasons:
            code = reason.code
            if code == MORE:
                continue
            fault = _fault(op, code)
            if fault is None:
                continue
            variants = (
                [("", False)] if code in HTTP_FAULTS else [("nonempty", False), ("empty", True)]
            )
            for label, empty in variants:
                plan_fault = {"operation": op.operation_id, **fault}
                if empty:
                    plan_fault["empty"] = True
                words = [prefix, snake(code)] + ([label, "partial_page"] if label else [])
                add(
                    "_".join([*words, policy]),
                    {
                        **common,
                        "kind": "partial",
                        "code": code,
                        "empty": empty,
                        "plan": _plan([plan_fault]),
                    },
                )
        if not always:
            # the control every listing gets: without faults the walk reads every item and says
            # complete (a suite is never empty, and a walk that stops early fails it)
            add(
                f"{prefix}_reads_every_item_and_says_complete",
                {
                    **common,
                    "kind": "walk_on",
                    "code": None,
                    "empty": False,
                    "plan": _plan([], items=items),
                },
            )
        if not always and mutations:
            names = "_and_".join(snake(m["operation"]) for m in mutations)
            add(
                f"{prefix}_complete_listing_allows_{names}",
                {
                    **common,
                    "kind": "complete",
                    "code": None,
                    "empty": False,
                    "plan": _plan([], items=items),
                },
            )
        if not always and MORE in op.contract.declared_codes and _hands_out_next(op):
            if op.mode == "native" or op.contract.pagination.end is None:
                fault = {"operation": op.operation_id, "kind": "empty-page"}
                add(
                    f"{prefix}_empty_first_page_with_more_pages_is_not_the_end",
                    {
                        **common,
                        "kind": "walk_on",
                        "code": None,
                        "empty": True,
                        "plan": _plan([fault]),
                    },
                )
            # What the walk itself must detect, whatever the server says: a page of another
            # snapshot is never merged in (native envelopes carry scope.snapshot), and a cursor
            # that comes back again would loop forever.
            if op.mode == "native":
                fault = {"operation": op.operation_id, "kind": "snapshot-change", "page": 2}
                add(
                    f"{prefix}_snapshot_change_between_pages_is_not_merged_{policy}",
                    {
                        **common,
                        "kind": "partial",
                        "code": "SNAPSHOT_CHANGED",
                        "empty": False,
                        "plan": _plan([fault]),
                    },
                )
            if _counts_total(op):
                # A next cursor, link or URL and a total: the API ending the walk short of its
                # own total (the mock's short-page-end: a short page, no next position) is
                # partial, not complete.
                bug = {"operation": op.operation_id, "kind": "short-page-end", "page": 2}
                add(
                    f"{prefix}_end_short_of_the_declared_total_is_partial_{policy}",
                    {
                        **common,
                        "kind": "partial",
                        "code": "CONTRACT_VIOLATION",
                        "what": "the declared total is",
                        "empty": False,
                        "plan": _plan([], [bug]),
                    },
                )
            bug = {"operation": op.operation_id, "kind": "repeat-cursor", "page": 2}
            add(
                f"{prefix}_repeated_cursor_stops_the_walk_{policy}",
                {
                    **common,
                    "kind": "partial",
                    "code": "CONTRACT_VIOLATION",
                    "what": "repeated cursor",  # not a later symptom (a duplicate item)
                    "empty": False,
                    "plan": _plan([], [bug]),
                },
            )
    return out


def _hands_out_next(op: OperationIR) -> bool:
    """Whether the server hands out where the next page is (a native ``next_cursor``, an adapter
    cursor token, a ``Link`` or a next URL): only then can a page say "more follow" while it is
    empty, and only then can a cursor come back again. An adapter offset or page walk computes its
    own position (an empty page while more follow is a contract violation there), a cursor read
    from the last item has no item to read on an empty page, and a declared ``end`` makes the
    empty or short page the end: cases asserting otherwise would fail on a correct package."""
    if op.mode == "native":
        return True
    pagination = op.contract.pagination
    if pagination is None:
        return False
    if pagination.style == "cursor":
        return pagination.response.next is not None
    return pagination.style in ("link-header", "next-url")


def _counts_total(op: OperationIR) -> bool:
    """An adapter cursor, link-header or next-url listing with a declared total (the walk
    compares the items it read with it when the API ends the walk), without a declared cap: a
    walk the mock ends within a page of a cap (``RESULT_LIMIT_REACHED`` with ``limit``) is that
    declared reason, not the violation the case expects, so capped listings get no such case
    (tests/client/test_cursor_total.py covers them against a real server)."""
    pagination = op.contract.pagination
    decl = op.contract.reason("RESULT_LIMIT_REACHED")
    limit = decl.details.get("limit") if decl is not None else None
    return (
        op.mode == "adapter"
        and pagination is not None
        and pagination.style in ("cursor", "link-header", "next-url")
        and pagination.response.total is not None
        and not (isinstance(limit, int) and not isinstance(limit, bool))
    )


def _cap(op: OperationIR) -> int | None:
    """The max-page-size of an unpaged listing capped by its size parameter, else None."""
    pagination = op.contract.pagination
    if pagination is None or not pagination.capped:
        return None
    return pagination.max_page_size


def _sized(op: OperationIR, common: dict[str, Any], size: int) -> dict[str, Any]:
    """``common`` with the size parameter (or body field) of a capped listing set to ``size``,
    as a client keyword and as a tool argument."""
    pagination = op.contract.pagination
    name = pagination.request.size if pagination is not None else None
    fields = [*op.parameters, *op.body_fields]
    field = next((f for f in fields if f.name == name), None)
    if field is None:
        return common
    kwargs = {**common["kwargs"], field.py_name: size}
    return {
        **common,
        "kwargs": kwargs,
        "params": {**common["params"], argument_name(field.py_name): size},
    }


def _plan(
    faults: list[dict[str, Any]],
    bugs: list[dict[str, Any]] | None = None,
    *,
    items: int = ITEMS,
) -> dict[str, Any]:
    plan = {"seed": 1, "items": items, "page-size": PAGE_SIZE, "faults": faults}
    if bugs:
        plan["bugs"] = bugs
    return plan


def emit_tests(spec: SpecIR, renderer: Renderer) -> dict[PurePosixPath, str]:
    """``tests/`` files, relative to OUT."""
    all_cases = cases(spec)
    document = dict(spec.document)
    return {
        PurePosixPath("tests/conftest.py"): renderer.render("tests/conftest.py.jinja", spec=spec),
        PurePosixPath("tests/test_completeness_contract.py"): renderer.render(
            "tests/test_completeness_contract.py.jinja", spec=spec, cases=all_cases
        ),
        PurePosixPath("tests/xc_cases.json"): _dump({"cases": all_cases}),
        PurePosixPath("tests/xc_spec.json"): _dump(document),
    }
