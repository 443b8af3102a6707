"""Rules on the codes a contract declares: reason and warning codes known (XC110, XC111), each
once (XC124), not client-only (XC125), each reason's continuation kind fitting it (XC112), and
no listing reason that always holds (XC144: ``complete: true`` would be unreachable).
"""

from __future__ import annotations

from collections.abc import Iterator

from xcompleteness.diagnostics import Diagnostic, pointer_join
from xcompleteness.rules._context import RuleContext
from xcompleteness.runtime.contract import Contract

__all__ = ["CodeRules"]


class CodeRules(RuleContext):
    def _codes(self, c: Contract, at: str) -> Iterator[Diagnostic]:
        seen: set[str] = set()
        for i, reason in enumerate(c.reasons):
            code = reason.code
            here = pointer_join(at, "reasons", i)
            info = self.registry.reason(code)
            if code in seen:
                yield self.d(here, "XC124", f"reason {code} is declared twice")
            seen.add(code)
            if info is None:
                hint = "use a standard code or register it under x-completeness-registry.reasons"
                if self.registry.warning(code) is not None:
                    hint = f"{code} is a warning code: list it under warnings"
                yield self.d(here, "XC110", f"unknown reason code {code!r}", hint)
                continue
            if reason.when_raw == "always" and c.is_listing:
                yield self.d(
                    pointer_join(here, "when"),
                    "XC144",
                    f"{code} when: always makes every result partial: complete: true is "
                    "unreachable, so no answer can ever prove absence",
                    "say what the credential may see in scope.visibility (complete is relative "
                    "to it); map the code with a when on the API's own signal that it applies",
                )
            if info.origin == "client":
                yield self.d(
                    here,
                    "XC125",
                    f"{code} is a client code; clients add it themselves",
                    "remove it from the server's reasons",
                )
            kind = reason.continuation
            continuations = tuple(self.registry.continuations)
            if kind not in continuations:
                yield self.d(
                    here,
                    "XC112",
                    f"unknown continuation kind {kind!r} for {code}",
                    f"use one of {', '.join(continuations)}",
                )
            elif info.standard and info.continuation and kind != info.continuation:
                yield self.d(
                    here,
                    "XC112",
                    f"{code} continues with {info.continuation!r}, not {kind!r}",
                    "drop the continuation override; standard codes fix their kind",
                )
            elif (
                kind == "next_cursor"
                and (c.pagination is None or not c.pagination.paged)
                and code != "MORE_PAGES_AVAILABLE"  # XC113 says it better
            ):
                yield self.d(
                    here,
                    "XC112",
                    f"{code} continues with next_cursor but the operation has no pagination",
                    "declare pagination or choose another continuation",
                )
        warned: set[str] = set()
        for i, code in enumerate(c.warnings):
            here = pointer_join(at, "warnings", i)
            if code in warned:
                yield self.d(here, "XC124", f"warning {code} is declared twice")
            warned.add(code)
            if self.registry.warning(code) is None:
                hint = "use a standard code or register it under x-completeness-registry.warnings"
                if self.registry.reason(code) is not None:
                    hint = f"{code} is a reason code: list it under reasons"
                yield self.d(here, "XC111", f"unknown warning code {code!r}", hint)
            elif self.registry.warning(code).origin == "client":
                yield self.d(
                    here,
                    "XC125",
                    f"{code} is a client warning; clients add it themselves",
                    "remove it from the server's warnings",
                )
