"""What every rule family reads: the document, the contracts, the registry, and the helpers.

:class:`RuleContext` indexes the operations by operationId and builds located diagnostics
(:meth:`RuleContext.d`, severity from ``RULES``); its helpers parse a declared expression
(XC108/XC109), and ask whether a location exists in a response or request (XC107, XC122 and
the code a rule passes in). The rule families (``rules_document``, ``rules_codes``,
``rules_fields``, ``rules_pagination``, ``rules_mutations``) are mixins over it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from xcompleteness.declare import Registry
from xcompleteness.detect import patch_action
from xcompleteness.diagnostics import Diagnostic
from xcompleteness.document import Operation, pointer_tokens
from xcompleteness.load import SourceDoc
from xcompleteness.rules._catalog import ENVELOPE_FIELDS, RULES
from xcompleteness.rules._locations import Found, schema_lookup
from xcompleteness.runtime.contract import Contract
from xcompleteness.runtime.expressions import Expression, ExpressionError, parse_expression

__all__ = ["RuleContext"]


class RuleContext:
    def __init__(self, doc: SourceDoc, contracts: Mapping[str, Contract], registry: Registry):
        self.doc = doc
        self.data = doc.data
        self.contracts = contracts
        self.registry = registry
        self.ops: Mapping[str, Operation] = doc.views.by_id
        """operationId -> its first operation (a later duplicate is XC102's)."""

    def d(self, pointer: str, code: str, message: str, hint: str = "") -> Diagnostic:
        return self.doc.diag(pointer, code, message, hint=hint, severity=RULES[code][0])

    def _item_pointer(
        self,
        operation: Operation,
        items: Expression,
        pointer: str,
        where: str,
        code: str,
        what: str,
    ) -> Iterator[Diagnostic]:
        tokens = pointer_tokens(pointer)
        if tokens is None:
            yield self.d(
                where,
                "XC108",
                f"{what} {pointer!r} is not a JSON pointer",
                "write a JSON pointer inside one item, e.g. /id",
            )
            return
        if self._lookup_body(operation, items.pointer, success=True) is not Found.FOUND:
            return  # the items are not described (e.g. native envelope): nothing to check
        verdict = self._lookup_body(operation, (*items.pointer, "0", *tokens), success=True)
        if verdict is Found.MISSING:
            yield self.d(
                where,
                code,
                f"{what} {pointer!r} does not exist in the item schema",
                "point at a property every item has",
            )

    # ---------------------------------------------------------------- helpers

    def _declared(self, op_id: str) -> bool:
        """The operation exists and carries a declaration (perhaps an invalid one)."""
        op = self.ops.get(op_id)
        return op is not None and op.declared

    def _kind_none(self, op_id: str) -> bool:
        """The operation's declaration says ``kind: none`` (it is not a listing)."""
        op = self.ops.get(op_id)
        decl = op.declaration if op is not None else None
        return isinstance(decl, dict) and decl.get("kind") == "none"

    def _expr(self, raw: str, where: str, side: str) -> Expression | Diagnostic:
        try:
            expr = parse_expression(raw)
        except ExpressionError as exc:
            return self.d(
                where,
                "XC108",
                f"invalid runtime expression: {exc.message}",
                "see the runtime expressions in docs/vocabulary.md",
            )
        if side == "response" and not expr.reads_response:
            return self.d(
                where, "XC109", f"{expr} reads the request; this place needs a $response expression"
            )
        if side == "request" and expr.reads_response:
            return self.d(
                where, "XC109", f"{expr} reads the response; this place needs a $request expression"
            )
        return expr

    def _lookup_body(
        self, operation: Operation, tokens: tuple[str, ...], *, success: bool
    ) -> Found:
        verdicts = [
            schema_lookup(self.data, schema.raw, tokens)
            for schema in operation.response_schemas(success_only=success)
        ]
        if not verdicts or Found.FOUND in verdicts:
            return Found.FOUND if verdicts else Found.UNKNOWN
        return Found.UNKNOWN if Found.UNKNOWN in verdicts else Found.MISSING

    def _body_location(
        self,
        operation: Operation,
        expr: Expression,
        where: str,
        code: str,
        *,
        native: bool,
        what: str,
        success: bool = True,
    ) -> Iterator[Diagnostic]:
        tokens = expr.pointer
        if native and tokens and tokens[0] in ENVELOPE_FIELDS:
            head = self._lookup_body(operation, tokens[:1], success=success)
            if head is Found.MISSING:
                return  # an envelope field the spec leaves to the generator
        verdict = self._lookup_body(operation, tokens, success=success)
        if verdict is Found.MISSING:
            yield self.d(
                where,
                code,
                f"{what} location {expr} does not exist in the "
                f"{'success ' if success else ''}response schema",
                _patch_hint(self.data, operation, where, str(expr), code),
            )

    def _response_location(
        self,
        operation: Operation,
        expr: Expression,
        where: str,
        code: str,
        *,
        native: bool,
        success: bool,
    ) -> Iterator[Diagnostic]:
        if expr.source == "response.body":
            yield from self._body_location(
                operation, expr, where, code, native=native, what="the", success=success
            )
        elif expr.source == "response.header":
            names = operation.response_headers(success_only=success)
            if str(expr.name).lower() not in names:
                yield self.d(
                    where,
                    code,
                    f"{expr}: no response declares the header {expr.name!r}",
                    "declare the header under the response's headers",
                )
        elif expr.source == "response.link":
            if "link" not in operation.response_headers(success_only=success):
                yield self.d(
                    where,
                    "XC107",
                    f"{expr}: no response declares a Link header",
                    "declare Link under the success response's headers",
                )

    def _request_location(
        self, operation: Operation, expr: Expression, where: str
    ) -> Iterator[Diagnostic]:
        if expr.source == "request.body":
            verdicts = [
                schema_lookup(self.data, s.raw, expr.pointer) for s in operation.request_schemas()
            ]
            if not verdicts:
                yield self.d(
                    where,
                    "XC122",
                    f"{expr}: the operation has no JSON request body",
                    "declare requestBody with an application/json schema",
                )
            elif Found.FOUND not in verdicts and Found.UNKNOWN not in verdicts:
                yield self.d(
                    where,
                    "XC122",
                    f"{expr} does not exist in the request body schema",
                    "fix the JSON pointer or describe the field in the request body",
                )
        elif expr.source in ("request.query", "request.path"):
            where_in = expr.source.split(".")[1]
            if operation.parameter(where_in, str(expr.name)) is None:
                yield self.d(where, "XC122", f"{expr}: no such {where_in} parameter")


def _bare(node: Any) -> Any:
    """A drafted schema without its review notes (the hint shows only the shape)."""
    if isinstance(node, dict):
        return {k: _bare(v) for k, v in node.items() if k not in ("description", "x-drafted-from")}
    return node


def _patch_hint(data: Any, operation: Operation, where: str, expr: str, code: str) -> str:
    """The hint of a missing body location: the overlay action that would add the property
    (``audit --emit-overlay`` drafts it), or the plain advice when no patch can be drafted."""
    plain = "fix the JSON pointer or describe the field in the response schema"
    del code
    role = "value"
    if where.endswith("/items"):
        role = "items"
    elif where.endswith(("/total", "/pages")):
        role = "total"
    elif where.endswith("/next"):
        role = "next"
    action = patch_action(data, operation, expr, role, where)
    if action is None:
        return plain
    update = json.dumps(_bare(action["update"]["properties"]), sort_keys=True)
    return (
        f'{plain}; the overlay action {{target: "{action["target"]}", update: '
        f"{{properties: {update}}}}} adds it (`xcompleteness audit --emit-overlay` drafts it)"
    )
