"""What verify checks on a native page's envelope, invariant by invariant (XC710, XC711).

The walk core stops a walk at the first broken invariant and says which; verify reports every
one a page breaks, so an API team sees them all in one run.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from xcompleteness.runtime.contract import Contract

__all__ = ["Finding", "envelope_findings"]

MORE = "MORE_PAGES_AVAILABLE"
Finding = tuple[str, str, str]
"""``(code, message, hint)``."""


def envelope_findings(contract: Contract, body: Any, where: str) -> Iterator[Finding]:
    """``(code, message, hint)`` for each envelope invariant a native page breaks."""
    if not isinstance(body, Mapping):
        yield ("XC710", f"{where} is not a JSON object envelope", "")
        return
    complete = body.get("complete")
    reasons = body.get("incomplete_reasons") or []
    warnings = body.get("warnings") or []
    if not isinstance(reasons, list) or not isinstance(warnings, list):
        yield ("XC710", f"{where}: incomplete_reasons and warnings are lists", "")
        reasons = reasons if isinstance(reasons, list) else []
        warnings = warnings if isinstance(warnings, list) else []
    codes = [r.get("code") for r in reasons if isinstance(r, Mapping)]
    nxt = body.get("next_cursor")
    if not isinstance(complete, bool):
        yield ("XC710", f"{where} has no boolean 'complete'", "")
    elif complete == bool(codes):
        state = "true with reasons" if complete else "false without a reason"
        yield ("XC710", f"{where}: complete is {state} {codes}", "")
    if (MORE in codes) != (nxt not in (None, "")):
        yield (
            "XC710",
            f"{where}: MORE_PAGES_AVAILABLE and next_cursor must come together "
            f"(reasons {codes}, next_cursor {'set' if nxt else 'absent'})",
            "",
        )
    if body.get("evidence") not in (None, "") and complete is not True:
        yield ("XC710", f"{where} carries evidence but is not complete", "")
    declared = contract.declared_codes
    for code in codes:
        if code not in declared:
            yield (
                "XC711",
                f"{where} carries the undeclared reason {code!r}",
                "declare it in the operation's reasons (and the registry when custom)",
            )
    declared_w = contract.declared_warnings
    for w in warnings:
        code = w.get("code") if isinstance(w, Mapping) else None
        if code not in declared_w:
            yield ("XC711", f"{where} carries the undeclared warning {code!r}", "")
