"""Rules that the fields a contract names exist: the items location (XC103) and the id pointer
(XC104) of a listing (an adapter listing with no response body schema to check them in: XC151),
the locations its 'when' conditions read (XC106) and the deadline parameter (XC120). (The
omitted-fields location, XC123, is checked by ``rules._Context``.)
"""

from __future__ import annotations

from collections.abc import Iterator

from xcompleteness.diagnostics import Diagnostic, pointer_join
from xcompleteness.document import Operation, overlay_target
from xcompleteness.rules._catalog import TODO_KEY
from xcompleteness.rules._context import RuleContext
from xcompleteness.runtime.contract import Contract
from xcompleteness.runtime.expressions import ExpressionError, parse_condition

__all__ = ["FieldRules"]


def _asks(operation: Operation, topics: tuple[str, ...]) -> bool:
    """The declaration's ``x-todo`` already asks about one of ``topics`` (an entry written
    ``TOPIC: ...``, as audit drafts them): a placeholder under a TODO is a question, not a
    claim, and XC900 reports it; a rule on the same topic would ask it twice."""
    decl = operation.declaration
    todo = decl.get(TODO_KEY) if isinstance(decl, dict) else None
    entries = todo if isinstance(todo, list) else [todo]
    return any(isinstance(e, str) and e.split(":", 1)[0].strip() in topics for e in entries)


class FieldRules(RuleContext):
    def _items_and_id(
        self, c: Contract, operation: Operation, at: str, native: bool
    ) -> Iterator[Diagnostic]:
        if not c.is_listing or not c.items:
            return
        where = pointer_join(at, "items")
        expr = self._expr(c.items, where, "response")
        if isinstance(expr, Diagnostic):
            yield expr
            return
        if expr.source != "response.body":
            yield self.d(where, "XC109", f"items must be read from $response.body, not {expr}")
            return
        if not native and not operation.response_schemas(success_only=True):
            if not _asks(operation, ("items", "kind")):
                yield self._no_body_schema(operation, where)
            return  # nothing to check items or id against: said once, here (or by the TODO)
        yield from self._body_location(operation, expr, where, "XC103", native=native, what="items")
        id_ptr = c.id
        if isinstance(id_ptr, str):
            yield from self._item_pointer(
                operation, expr, id_ptr, pointer_join(at, "id"), "XC104", "id"
            )

    def _no_body_schema(self, operation: Operation, where: str) -> Diagnostic:
        """XC151: an adapter listing whose success responses describe no JSON body (DLx's
        answers declare only headers). ``check`` could verify neither ``items`` nor ``id`` and
        said nothing, while ``generate`` warned that the items are untyped (XC603)."""
        success = [r for r in operation.responses if r.success]
        target = overlay_target(success[0].target, self.data) if success else None
        place = (
            f"target {target} with update: {{content: {{application/json: {{schema: ...}}}}}}"
            if target
            else "add a 2xx response with a JSON schema"
        )
        return self.d(
            where,
            "XC151",
            "the success response declares no JSON body schema: items and id cannot be checked, "
            "and the generated items are untyped",
            "describe the body the API answers (an array of items, or an object holding one); "
            f"in a spec you do not edit, an overlay does it: {place} (`xcompleteness audit SPEC "
            "--overlay ... --emit-overlay patch.yaml` drafts it from the declaration)",
        )

    def _when(self, c: Contract, operation: Operation, at: str) -> Iterator[Diagnostic]:
        for i, reason in enumerate(c.reasons):
            when = reason.when_raw
            if when is None:
                continue
            where = pointer_join(at, "reasons", i, "when")
            try:
                condition = parse_condition(when)
            except ExpressionError as exc:
                yield self.d(
                    where + exc.pointer,
                    "XC108",
                    f"invalid condition: {exc.message}",
                    "see the condition language in docs/vocabulary.md",
                )
                continue
            for path, expr in condition.expressions():
                here = pointer_join(where, *path)
                if not expr.reads_response:
                    continue
                yield from self._response_location(
                    operation, expr, here, "XC106", native=False, success=False
                )

    def _deadline(self, c: Contract, operation: Operation, at: str) -> Iterator[Diagnostic]:
        if c.deadline is None or not c.deadline.param:
            return
        name = c.deadline.param
        if operation.parameter("query", name) is None:
            yield self.d(
                pointer_join(at, "deadline", "param"),
                "XC120",
                f"deadline param {name!r} is not a query parameter of this operation",
                "declare the query parameter that carries the time budget",
            )
