"""Document-wide rules: operationIds (XC101, XC102), undeclared listings (XC100) and the
review-by dates of custom codes (XC119)."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterator
from typing import Any

from xcompleteness.declare import iter_operations
from xcompleteness.detect import undeclared_listings
from xcompleteness.diagnostics import Diagnostic, pointer_join
from xcompleteness.load import SourceDoc
from xcompleteness.rules._catalog import RULES
from xcompleteness.rules._context import _RuleContext, _split


class _DocumentRules(_RuleContext):
    # ---------------------------------------------------------------- document-wide rules

    def operation_ids(self) -> Iterator[Diagnostic]:
        seen: dict[str, str] = {}
        for _path, _method, operation, pointer in iter_operations(self.data):
            op_id = operation.get("operationId")
            decl = operation.get("x-completeness")
            declared = decl is not None and not (
                isinstance(decl, dict) and decl.get("kind") == "none"
            )
            if isinstance(op_id, str) and op_id in seen and declared:
                yield self.d(
                    pointer_join(pointer, "operationId"),
                    "XC102",
                    f"operationId {op_id!r} is also used at {seen[op_id]}",
                    "give every operation a unique operationId",
                )
            elif declared and not isinstance(op_id, str):
                yield self.d(
                    pointer,
                    "XC101",
                    "this operation has an x-completeness declaration but no operationId",
                    "add an operationId: generated names and evidence 'from' use it",
                )
            if isinstance(op_id, str):
                seen.setdefault(op_id, pointer)

    def undeclared_listings(self) -> Iterator[Diagnostic]:
        # The one list-likeness heuristic, shared with ``audit`` (listlike.py), so that check on a
        # spec plus audit's draft overlay reports exactly the draft's TODOs and nothing else.
        for pointer, why in sorted(undeclared_listings(self.data).items()):
            parts = _split(pointer) or ()
            method = parts[2].upper() if len(parts) > 2 else "GET"
            path = parts[1] if len(parts) > 1 else "?"
            yield self.d(
                pointer,
                "XC100",
                f"{method} {path} looks like a listing ({why}) but declares no x-completeness",
                "declare kind, scope, pagination and reasons (xcompleteness audit "
                "drafts an overlay), or kind: resource if it is a single read",
            )


def _review_dates(doc: SourceDoc, registry: Any, today: _dt.date) -> Iterator[Diagnostic]:
    for info in getattr(registry, "custom_codes", ()):
        review_by = getattr(info, "review_by", None)
        if review_by is None or review_by >= today:
            continue
        section = "reasons" if registry.reason(info.code) is info else "warnings"
        pointer = pointer_join("", "x-completeness-registry", section, info.code, "review-by")
        yield doc.diag(
            pointer,
            "XC119",
            f"custom code {info.code} was due for review on {review_by.isoformat()}",
            hint="review it with its owner"
            + (f" ({info.owner})" if info.owner else "")
            + ", then move review-by forward or retire the code",
            severity=RULES["XC119"][0],
        )
