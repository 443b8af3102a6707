"""Document-wide rules: operationIds (XC101, XC102), undeclared listings (XC100) and the
review-by dates of custom codes (XC119)."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterator

from xcompleteness.declare import not_a_listing
from xcompleteness.detect import undeclared_listings
from xcompleteness.diagnostics import Diagnostic, pointer_join
from xcompleteness.document import pointer_tokens
from xcompleteness.load import SourceDoc
from xcompleteness.rules._catalog import RULES
from xcompleteness.rules._context import RuleContext
from xcompleteness.runtime.contract import Registry

__all__ = ["DocumentRules", "review_dates"]


class DocumentRules(RuleContext):
    # ---------------------------------------------------------------- document-wide rules

    def operation_ids(self) -> Iterator[Diagnostic]:
        seen: dict[str, str] = {}
        for op in self.doc.views.operations:
            op_id, pointer = op.operation_id, op.pointer
            declared = op.declaration is not None and not not_a_listing(op.declaration)
            if op_id is not None and op_id in seen and declared:
                yield self.d(
                    pointer_join(pointer, "operationId"),
                    "XC102",
                    f"operationId {op_id!r} is also used at {seen[op_id]}",
                    "give every operation a unique operationId",
                )
            elif declared and op_id is None:
                yield self.d(
                    pointer,
                    "XC101",
                    "this operation has an x-completeness declaration but no operationId",
                    "add an operationId: generated names and evidence 'from' use it",
                )
            if op_id is not None:
                seen.setdefault(op_id, pointer)

    def undeclared_listings(self) -> Iterator[Diagnostic]:
        # The one list-likeness heuristic, shared with ``audit`` (listlike.py), so that check on a
        # spec plus audit's draft overlay reports exactly the draft's TODOs and nothing else.
        # The loaded document: its typed views are parsed once and shared with the other rules.
        for pointer, why in sorted(undeclared_listings(self.doc).items()):
            parts = pointer_tokens(pointer) or ()
            method = parts[2].upper() if len(parts) > 2 else "GET"
            path = parts[1] if len(parts) > 1 else "?"
            yield self.d(
                pointer,
                "XC100",
                f"{method} {path} looks like a listing ({why}) but declares no x-completeness",
                "declare kind, scope, pagination and reasons (xcompleteness audit "
                "drafts an overlay); if it is not a listing, say so with "
                "{kind: none, why: ...} (audit and check then leave it alone)",
            )


def review_dates(doc: SourceDoc, registry: Registry, today: _dt.date) -> Iterator[Diagnostic]:
    for info in registry.custom_codes:
        review_by = info.review_by
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
