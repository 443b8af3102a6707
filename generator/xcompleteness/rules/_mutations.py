"""Mutation and evidence rules: evidence ``from`` a declared listing that mints evidence (XC116,
XC117), void-on-warnings codes (XC111), ids/token request locations (XC122) and recheck
each-target (XC118).
"""

from __future__ import annotations

from collections.abc import Iterator

from xcompleteness.diagnostics import Diagnostic, pointer_join
from xcompleteness.document import Operation
from xcompleteness.rules._context import _RuleContext
from xcompleteness.runtime.contract import Contract


class _MutationRules(_RuleContext):
    def _mutation(self, c: Contract, operation: Operation, at: str) -> Iterator[Diagnostic]:
        m = c.mutation
        if m is None:
            return
        ev = pointer_join(at, "evidence")
        source = m.from_
        if source:
            target = self.contracts.get(source)
            if target is None and not self._declared(source):
                exists = source in self.ops
                yield self.d(
                    pointer_join(ev, "from"),
                    "XC116",
                    f"evidence from {source!r}: "
                    + (
                        "that operation declares no x-completeness"
                        if exists
                        else "no operation has that operationId"
                    ),
                    "name the listing whose complete result authorises this mutation",
                )
            elif target is None:
                pass  # its declaration is invalid: the vocabulary stage already said so
            elif not target.is_listing or not target.mints_evidence:
                yield self.d(
                    pointer_join(ev, "from"),
                    "XC117",
                    f"{source} does not mint evidence",
                    f"declare evidence: {{mint: true}} on {source}",
                )
        for i, code in enumerate(m.void_on_warnings):
            if self.registry.warning(code) is None:
                yield self.d(
                    pointer_join(ev, "void-on-warnings", i),
                    "XC111",
                    f"unknown warning code {code!r}",
                )
        for key, raw in (("ids", m.ids), ("token", m.token)):
            if not raw:
                continue
            where = pointer_join(ev, key)
            expr = self._expr(raw, where, "request")
            if isinstance(expr, Diagnostic):
                yield expr
                continue
            yield from self._request_location(operation, expr, where)
        each = m.recheck_each_target
        if each:
            target = self.contracts.get(each)
            if (target is None and not self._declared(each)) or (
                target is not None and target.kind != "resource"
            ):
                yield self.d(
                    pointer_join(at, "recheck", "each-target"),
                    "XC118",
                    f"recheck each-target {each!r} is not an operation declared with "
                    "kind: resource",
                    "name the single-read operation of one target",
                )
