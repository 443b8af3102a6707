"""The fault plan of ``xcompleteness mock``: loading, schema validation and semantic checks.

A plan (YAML or JSON, ``spec_ext/mock-plan.schema.json``, documented in docs/testing.md) says how
many items each listing serves and which **faults** (declared incompleteness: a cap, a time
budget, a source down, ...) or **bugs** (deliberate contract violations, for testing checkers
such as ``xcompleteness verify``) hit which page of a walk. A bad plan is reported with stable
codes, a JSON pointer into the plan and its line, never a traceback:

- ``XC701`` the plan does not match its schema;
- ``XC702`` a fault or bug names an operation that is not a declared listing;
- ``XC703`` a fault would make the mock answer with a reason code the operation does not declare
  (use a ``bugs`` entry of kind ``undeclared-code`` to serve one on purpose);
- ``XC704`` a fault cannot be expressed in an adapter operation's native shape (no ``when``
  condition the mock can make hold).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from xcompleteness.diagnostics import Diagnostic, InputError, Severity, pointer_join
from xcompleteness.load import Limits, load_data
from xcompleteness.runtime.contract import Contract

__all__ = [
    "Bug",
    "DEFAULT_DETAILS",
    "FAULT_CODES",
    "Fault",
    "LATER_PAGE_BUGS",
    "LATER_PAGE_FAULTS",
    "Plan",
    "check_plan",
    "fault_code",
    "load_plan",
]

# fault kind -> the reason code it makes a page carry (None: an HTTP-level fault)
FAULT_CODES: dict[str, str | None] = {
    "cap": "RESULT_LIMIT_REACHED",
    "time-budget": "TIME_BUDGET_EXCEEDED",
    "source-down": "SOURCE_UNAVAILABLE",
    "visibility": "VISIBILITY_RESTRICTED",
    "empty-page": "MORE_PAGES_AVAILABLE",
    "rate-limit": None,
    "expired-cursor": None,
    "snapshot-change": None,
    "insert": None,
    "delete": None,
    "reason": None,  # the fault's own `code`
}
LATER_PAGE_FAULTS = frozenset({"expired-cursor", "snapshot-change"})
LATER_PAGE_BUGS = frozenset(
    {"repeat-cursor", "off-origin-next", "short-page-end", "snapshot-drift", "duplicate-items"}
)
DEFAULT_DETAILS: dict[str, dict[str, Any]] = {
    "RESULT_LIMIT_REACHED": {"limit": 1000},
    "TIME_BUDGET_EXCEEDED": {"budget_ms": 2000, "elapsed_ms": 2004},
    "SOURCE_UNAVAILABLE": {"source": "shard-2"},
    "VISIBILITY_RESTRICTED": {"excluded": "items this credential cannot read"},
    "RATE_LIMITED": {"retry_after_s": 30},
}


@dataclass(frozen=True)
class Fault:
    operation: str  # an operationId or "*"
    kind: str
    page: int
    empty: bool = False
    code: str | None = None
    details: Mapping[str, Any] = field(default_factory=dict)
    count: int = 1
    limit: int | None = None
    retry_after: int = 30
    times: int | None = None
    pointer: str = ""

    def applies(self, operation: str, page: int) -> bool:
        return self.operation in ("*", operation) and self.page == page


@dataclass(frozen=True)
class Bug:
    operation: str
    kind: str
    page: int
    pointer: str = ""

    def applies(self, operation: str, page: int) -> bool:
        return self.operation in ("*", operation) and self.page == page


@dataclass(frozen=True)
class Plan:
    seed: int = 0
    items: int = 25
    page_size: int = 10
    operations: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    faults: tuple[Fault, ...] = ()
    bugs: tuple[Bug, ...] = ()

    def item_count(self, operation: str) -> int:
        return int((self.operations.get(operation) or {}).get("items", self.items))

    def default_size(self, operation: str) -> int:
        return int((self.operations.get(operation) or {}).get("page-size", self.page_size))


def load_plan(path: str | Path | None) -> tuple[Plan, Any, str]:
    """Parse and schema-check a plan file; returns (plan, source doc data, origin).

    Raises :class:`InputError` (exit 2) for an unreadable or schema-invalid plan.
    """
    if path is None:
        return Plan(), {}, ""
    origin = str(path)
    data, lines, _ = load_data(Path(path), origin, Limits.from_env())
    diags = _schema_diagnostics(data, lines, origin)
    if diags:
        raise InputError(diags)
    return _build(data), data, origin


def _schema_diagnostics(data: Any, lines: Mapping[str, int], origin: str) -> list[Diagnostic]:
    import jsonschema

    from xcompleteness.resources import load_json

    validator = jsonschema.Draft202012Validator(load_json("mock-plan.schema.json"))
    out = []
    for err in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        pointer = pointer_join("", *err.absolute_path)
        out.append(
            Diagnostic(
                file=origin,
                pointer=pointer,
                code="XC701",
                severity=Severity.ERROR,
                message=f"the fault plan does not match its schema: {err.message}",
                hint="see docs/testing.md (the fault plan) and spec_ext/mock-plan.schema.json",
                line=_line(lines, pointer),
            )
        )
    return out


def _line(lines: Mapping[str, int], pointer: str) -> int | None:
    try:
        return lines[pointer]
    except (KeyError, IndexError, ValueError):
        return None


def _build(data: Mapping[str, Any]) -> Plan:
    faults = []
    for i, raw in enumerate(data.get("faults") or []):
        kind = str(raw["kind"])
        faults.append(
            Fault(
                operation=str(raw.get("operation", "*")),
                kind=kind,
                page=int(raw.get("page", 2 if kind in LATER_PAGE_FAULTS else 1)),
                empty=bool(raw.get("empty", kind == "empty-page")),
                code=raw.get("code"),
                details=dict(raw.get("details") or {}),
                count=int(raw.get("count", 1)),
                limit=raw.get("limit"),
                retry_after=int(raw.get("retry-after", 30)),
                times=raw.get("times"),
                pointer=f"/faults/{i}",
            )
        )
    bugs = [
        Bug(
            operation=str(raw.get("operation", "*")),
            kind=str(raw["kind"]),
            page=int(raw.get("page", 2 if raw["kind"] in LATER_PAGE_BUGS else 1)),
            pointer=f"/bugs/{i}",
        )
        for i, raw in enumerate(data.get("bugs") or [])
    ]
    return Plan(
        seed=int(data.get("seed", 0)),
        items=int(data.get("items", 25)),
        page_size=int(data.get("page-size", 10)),
        operations={str(k): dict(v) for k, v in (data.get("operations") or {}).items()},
        faults=tuple(faults),
        bugs=tuple(bugs),
    )


def fault_code(fault: Fault) -> str | None:
    return fault.code if fault.kind == "reason" else FAULT_CODES.get(fault.kind)


def check_plan(
    plan: Plan,
    contracts: Mapping[str, Contract],
    *,
    origin: str,
    lines: Mapping[str, int] | None = None,
    representable: Any = None,
) -> list[Diagnostic]:
    """Semantic checks of a schema-valid plan against the spec's listings (XC702-XC704).

    ``representable(contract, code) -> bool`` says whether an adapter operation can show a code.
    """
    lines = lines or {}
    listings = {k: c for k, c in contracts.items() if c.is_listing}
    out: list[Diagnostic] = []

    def diag(pointer: str, code: str, message: str, hint: str) -> None:
        out.append(
            Diagnostic(origin, pointer, code, Severity.ERROR, message, hint, _line(lines, pointer))
        )

    entries: Sequence[Fault | Bug] = (*plan.faults, *plan.bugs)
    for entry in entries:
        if entry.operation != "*" and entry.operation not in listings:
            diag(
                pointer_join(entry.pointer, "operation"),
                "XC702",
                f"{entry.operation!r} is not a declared listing of this spec",
                "name the operationId of a collection, search or aggregate, or '*'",
            )
    for fault in plan.faults:
        code = fault_code(fault)
        if fault.kind == "reason" and not code:
            diag(fault.pointer, "XC701", "a fault of kind 'reason' needs a 'code'", "add code:")
            continue
        if code is None:
            continue
        targets = listings if fault.operation == "*" else {}
        if fault.operation in listings:
            targets = {fault.operation: listings[fault.operation]}
        for op_id, contract in targets.items():
            if code not in contract.declared_codes:
                if fault.operation == "*":
                    continue  # '*' hits only the listings that declare the code
                diag(
                    fault.pointer,
                    "XC703",
                    f"{op_id} does not declare {code}: the mock would break its contract",
                    "declare the code in the operation's reasons, or list it under 'bugs' "
                    "(kind: undeclared-code) to serve a violation on purpose",
                )
            elif (
                contract.is_adapter
                and representable is not None
                and not representable(contract, code)
            ):
                diag(
                    fault.pointer,
                    "XC704",
                    f"{op_id} is an adapter: {code} has no 'when' condition the mock can make "
                    "hold in the native response",
                    "give the reason a 'when' over the status, a header, the body or a link",
                )
    return out
