"""Semantic rules over canonical contracts: codes ``XC100``-``XC125``, ``XC130``-``XC140``.

The JSON Schema in ``spec_ext/`` says whether a declaration is well formed; these rules say
whether it is *true of this spec*: the locations it names exist, the codes it uses are known,
the pieces that must go together do. Every rule is listed (code, severity, meaning) in
``RULES`` (``rules_catalog.py``) and documented in docs/cli.md; tests/invalid/ holds one
failing spec per rule.

Rules run only on declarations whose contract validated (``check.py`` builds ``contracts``),
so they can rely on the canonical shape, and never raise on odd input: a question they cannot
answer (an open schema, an external ``$ref``) is no finding.

``run_rules`` is the one entry point. The rules live in one module per family, each a mixin of
``_Context``: ``rules_document`` (operationIds, undeclared listings, review-by dates),
``rules_codes`` (reason/warning codes, continuations), ``rules_fields`` (items, id, when,
deadline), ``rules_pagination`` (pagination, cursor contracts), ``rules_mutations`` (evidence,
recheck), over ``rules_context`` (shared lookups and expression parsing).
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterator, Mapping

from xcompleteness.diagnostics import Diagnostic, pointer_join
from xcompleteness.load import SourceDoc
from xcompleteness.rules._catalog import ENVELOPE_FIELDS, RULES
from xcompleteness.rules._codes import CodeRules
from xcompleteness.rules._document import DocumentRules, review_dates
from xcompleteness.rules._fields import FieldRules
from xcompleteness.rules._mutations import MutationRules
from xcompleteness.rules._pagination import PaginationRules
from xcompleteness.runtime.contract import Contract, Registry
from xcompleteness.runtime.expressions import Expression

__all__ = ["ENVELOPE_FIELDS", "RULES", "run_rules"]


def run_rules(
    doc: SourceDoc,
    contracts: Mapping[str, Contract],
    registry: Registry,
    *,
    today: _dt.date | None = None,
) -> list[Diagnostic]:
    """Run every rule; ``contracts`` maps operationId to canonical contract (validated ones)."""
    ctx = _Context(doc, contracts, registry)
    out: list[Diagnostic] = []
    out.extend(ctx.operation_ids())
    out.extend(ctx.undeclared_listings())
    for contract in contracts.values():
        out.extend(ctx.contract(contract))
    out.extend(review_dates(doc, registry, today or _dt.date.today()))
    return out


class _Context(DocumentRules, CodeRules, FieldRules, PaginationRules, MutationRules):
    """Every rule family over one document (the families are mixins of ``RuleContext``)."""

    # ---------------------------------------------------------------- per-contract rules

    def contract(self, c: Contract) -> Iterator[Diagnostic]:
        op_id = c.operation_id
        operation = self.ops.get(op_id) if isinstance(op_id, str) else None
        if operation is None:
            return
        at = str(c.pointer)
        native = not c.is_adapter
        yield from self._codes(c, at)
        yield from self._items_and_id(c, operation, at, native)
        yield from self._pagination(c, operation, at, native)
        yield from self._when(c, operation, at)
        yield from self._deadline(c, operation, at)
        yield from self._mutation(c, operation, at)
        yield from self._evidence_accept(c, at)
        if c.omitted_fields:
            expr = self._expr(c.omitted_fields, pointer_join(at, "omitted-fields"), "response")
            if isinstance(expr, Expression) and expr.source == "response.body":
                yield from self._body_location(
                    operation,
                    expr,
                    pointer_join(at, "omitted-fields"),
                    "XC123",
                    native=False,
                    what="omitted-fields",
                )
            elif isinstance(expr, Diagnostic):
                yield expr
