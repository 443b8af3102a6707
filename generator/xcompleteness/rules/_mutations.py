"""Mutation and evidence rules: evidence ``from`` a declared listing that mints evidence (XC116,
XC117), void-on-warnings codes (XC111), ids/token request locations (XC122) and recheck
each-target (XC118), a listing's ``evidence.accept`` that can have no effect (XC145).
"""

from __future__ import annotations

from collections.abc import Iterator

from xcompleteness.diagnostics import Diagnostic, pointer_join
from xcompleteness.document import Operation
from xcompleteness.rules._context import RuleContext
from xcompleteness.runtime.contract import Contract

__all__ = ["MutationRules"]


class MutationRules(RuleContext):
    def _evidence_accept(self, c: Contract, at: str) -> Iterator[Diagnostic]:
        """``evidence.accept`` opts a listing's evidence into a doubt the walk reports; naming a
        doubt this listing can never report (or on a listing that mints nothing) is a mistake
        worth a warning: the declaration says something the walk will not do."""
        ev = c.evidence
        if ev is None or not ev.accept:
            return
        where = pointer_join(at, "evidence", "accept")
        sources = {m.evidence_from for m in self.contracts.values() if m.evidence_from}
        if not ev.mint and c.operation_id not in sources:
            yield self.d(
                where,
                "XC145",
                "evidence.accept on a listing that mints no evidence has no effect",
                "declare mint: true, or remove accept",
            )
            return
        pg = c.pagination
        cursor = pg.cursor if pg is not None else None
        frozen = cursor is not None and cursor.snapshot == "frozen"
        cannot = {
            "END_INFERRED": None
            if pg is not None and pg.end
            else "the walk infers an end only under pagination.end",
            "ITEMS_SEEN_TWICE": "a listing without an id cannot see an id twice"
            if not c.id
            else (
                "under a frozen cursor a repeated id is DUPLICATE_ITEMS (not complete), "
                "never ITEMS_SEEN_TWICE"
                if frozen
                else None
            ),
            "DUPLICATE_CHECK_STOPPED": "a listing without an id tracks no ids"
            if not c.id
            else (
                "under a frozen cursor a stopped duplicate check is DUPLICATES_UNCHECKED (not "
                "complete), never DUPLICATE_CHECK_STOPPED"
                if frozen
                else None
            ),
        }
        for i, code in enumerate(ev.accept):
            why = cannot.get(code)
            if why:
                yield self.d(
                    pointer_join(where, i),
                    "XC145",
                    f"evidence.accept names {code}, which this listing never reports: {why}",
                    f"remove {code} from accept",
                )

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
            elif target is None and self._kind_none(source):
                yield self.d(
                    pointer_join(ev, "from"),
                    "XC117",
                    f"{source} is declared kind: none (not a listing), so it mints no evidence",
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
