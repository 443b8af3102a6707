"""Every semantic rule code with its severity and one-line meaning (docs/cli.md lists the same).

Also the envelope fields a native service returns and the listing kinds the rules treat as
listings. Imported by the rule modules and re-exported by :mod:`xcompleteness.rules._run`.
"""

from __future__ import annotations

from xcompleteness.diagnostics import Severity

__all__ = ["ENVELOPE_FIELDS", "RULES", "TODO_KEY"]

TODO_KEY = "x-todo"
"""A declaration's list of what a draft could not infer (XC900 reports each entry)."""

E, W = Severity.ERROR, Severity.WARNING

RULES: dict[str, tuple[Severity, str]] = {
    "XC100": (W, "a GET operation looks like a list or search but has no x-completeness"),
    "XC101": (E, "a declared operation has no operationId"),
    "XC102": (E, "a declared operation's operationId is not unique"),
    "XC103": (E, "the items location does not exist in the success response"),
    "XC104": (E, "the id pointer does not exist in the item schema"),
    "XC105": (
        E,
        "a pagination response location (next, last-item, total, pages, last) does not exist",
    ),
    "XC106": (E, "a location used in a 'when' condition does not exist in any response"),
    "XC107": (W, "$response.link.* is used but no response declares a Link header"),
    "XC108": (E, "a runtime expression or condition does not parse"),
    "XC109": (E, "an expression reads the wrong side (request vs response) for where it is used"),
    "XC110": (E, "a reason code is neither standard nor registered"),
    "XC111": (E, "a warning code is neither standard nor registered"),
    "XC112": (E, "a continuation kind does not fit its reason"),
    "XC113": (E, "MORE_PAGES_AVAILABLE is declared but there is no way to the next page"),
    "XC114": (W, "the listing is paginated but cannot report MORE_PAGES_AVAILABLE"),
    "XC115": (E, "cursor on-expiry: error needs CURSOR_EXPIRED among the reasons"),
    "XC116": (E, "mutation evidence 'from' names no declared operation"),
    "XC117": (E, "mutation evidence 'from' names an operation that does not mint evidence"),
    "XC118": (E, "recheck each-target names no operation declared with kind: resource"),
    "XC119": (W, "a custom code is past its review-by date"),
    "XC120": (E, "the deadline parameter is not a query parameter of the operation"),
    "XC121": (E, "a pagination request parameter is not a parameter of the operation"),
    "XC122": (E, "a request location (mutation ids/token) does not exist in the request"),
    "XC123": (E, "the omitted-fields location does not exist in the success response"),
    "XC124": (E, "a reason or warning code is declared twice on one operation"),
    "XC125": (
        W,
        "a declared code that is client-only (origin: client) appears among server reasons or "
        "warnings",
    ),
    "XC140": (E, "a next-url pagination location is not a string in the response schema"),
    "XC141": (E, "an adapter offset or page walk has no end signal (total, pages, last or end)"),
    "XC142": (E, "end: short-page without request.size and max-page-size"),
    "XC143": (E, "response.last is not a boolean in the response schema"),
    "XC144": (W, "a listing reason declared when: always: complete: true is unreachable"),
    "XC145": (W, "evidence.accept names a doubt the listing never reports, or it mints nothing"),
    "XC146": (
        E,
        "a pagination request role in the body names no property of the JSON request body",
    ),
    "XC147": (E, "first-page is below the page parameter's minimum (the first request is refused)"),
    "XC148": (E, "style none with request.size but no max-page-size: the walk cannot know its cap"),
    "XC149": (E, "style none with request.size but RESULT_LIMIT_REACHED is not a declared reason"),
    "XC153": (
        W,
        "an adapter RESULT_LIMIT_REACHED without when: never reported, so a capped answer "
        "reads complete",
    ),
    "XC154": (
        E,
        "response.total or response.pages is not a number in the response schema",
    ),
    "XC151": (
        W,
        "an adapter listing's success response declares no JSON body schema (items and id "
        "cannot be checked; the items are untyped)",
    ),
    "XC152": (
        E,
        "max-page-size is above the size parameter's schema maximum where the walk sends the "
        "size (capped unpaged, end: short-page): a silently clamped answer reads complete",
    ),
    "XC130": (
        W,
        "an adapter cursor is invalidated by authorization or an x- value: documentation only "
        "(the client cannot check it; the API must)",
    ),
    "XC131": (
        W,
        "an adapter cursor's frozen snapshot or ttl is documentation only (the client cannot "
        "verify a foreign API's snapshot or cursor lifetime)",
    ),
}
"""Every rule code with its severity and one-line meaning (docs/cli.md lists the same)."""

ENVELOPE_FIELDS = frozenset(
    {
        "items",
        "complete",
        "incomplete_reasons",
        "next_cursor",
        "scope",
        "page",
        "work",
        "warnings",
        "evidence",
    }
)
"""Top-level envelope fields a native service returns (written in by the generator)."""
