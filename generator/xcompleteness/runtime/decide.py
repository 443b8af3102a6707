"""The agent-facing decision policy: what may an agent do next with this result?

DESIGN.md §5 invariant 10: an empty set proves absence only when the result is complete; partial
data may drive read-only follow-ups and bounded reviews, never a destructive action over the
unreturned part. ``decide`` turns that sentence into a total, tested table (docs/agents.md) so the
surrounding software -- not the model's reading of prose -- picks the branch.

The function accepts any of the three result shapes a package hands around: the tool result
envelope of DESIGN.md §4 (a dict with ``status`` and ``completeness``), a native page envelope (a
dict with ``complete`` and ``incomplete_reasons``) and a collect result object (attributes
``items``, ``complete``, ``reasons``, ``continuation``, ``warnings``). Anything it cannot read is
treated as an error result, never as a complete one.

Standard library only (plus the sibling ``contract`` table and ``plain`` id reader): this module
is copied verbatim into every generated package.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .codes import STANDARD_CONTINUATIONS
from .plain import get, item_id

__all__ = [
    "COMPLETING_CONTINUATIONS",
    "STANDARD_CONTINUATIONS",
    "Action",
    "Decision",
    "Intent",
    "ResultView",
    "decide",
    "view_result",
]


class Action(str, enum.Enum):
    """The three decisions of DESIGN.md §3.4 (the values are the wire spelling)."""

    CONTINUE_SEARCH = "continue_search"
    PROCEED = "proceed"
    REFUSE_OR_REQUEST_REVIEW = "refuse_or_request_review"


class Intent(str, enum.Enum):
    """What the agent wants to do with the result."""

    READ_ONLY_SUMMARY = "read_only_summary"
    """Report, summarise or pick candidates for a read-only follow-up."""
    ABSENCE_CLAIM = "absence_claim"
    """Conclude that nothing (else) in the scope matches."""
    DESTRUCTIVE_ON_LISTED_IDS = "destructive_on_listed_ids"
    """Mutate exactly some ids the listing returned."""
    DESTRUCTIVE_ON_UNLISTED_COMPLEMENT = "destructive_on_unlisted_complement"
    """Mutate everything the listing did *not* return (the cleanup of the essay)."""


COMPLETING_CONTINUATIONS = frozenset(
    {"next_cursor", "retry_with_deadline", "retry_after", "restart"}
)
"""Continuation kinds that can complete *the same* question. ``narrow_query`` changes the
question and ``none`` offers no path, so reasons resolved by them make a result uncompletable."""


@dataclass(frozen=True)
class ResultView:
    """The few facts ``decide`` reads, extracted from whatever result shape it was given."""

    status: str  # complete | partial | error
    items: tuple[Any, ...]
    reason_codes: tuple[str, ...]
    continuation_kind: str | None
    warning_codes: tuple[str, ...]

    @property
    def complete(self) -> bool:
        return self.status == "complete"


@dataclass(frozen=True)
class Decision:
    """The outcome: an ``action``, the table ``rule`` that chose it and what the agent must say.

    ``disclose`` lists the reason codes the agent must state before acting or asking for approval
    (the essay's rule: explain incomplete_reasons first); ``outside`` lists target ids the listing
    did not return.
    """

    action: Action
    intent: Intent
    rule: str
    explanation: str
    disclose: tuple[str, ...] = ()
    outside: tuple[str, ...] = ()
    continuation_kind: str | None = None
    voiding_warnings: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action.value,
            "intent": self.intent.value,
            "rule": self.rule,
            "explanation": self.explanation,
            "disclose": list(self.disclose),
            "outside": list(self.outside),
            "continuation_kind": self.continuation_kind,
            "voiding_warnings": list(self.voiding_warnings),
        }


def decide(
    result: Any,
    intent: Intent | str,
    *,
    targets: Iterable[str] | None = None,
    id_pointer: str = "/id",
    void_on_warnings: Iterable[str] = (),
    continuations: Mapping[str, str] | None = None,
) -> Decision:
    """Decide what an agent may do next with ``result`` for ``intent`` (table in docs/agents.md).

    ``targets`` are the ids a destructive-on-listed-ids action would touch (required for that
    intent; ``None`` there is refused). ``void_on_warnings`` are the warning codes the mutation
    declares as voiding its evidence. ``continuations`` maps custom reason codes to the
    continuation kind their registry entry declares; unknown codes count as uncompletable.
    """
    intent = Intent(intent)
    view = view_result(result)
    kinds = {**STANDARD_CONTINUATIONS, **(continuations or {})}
    codes = view.reason_codes
    completable = _completable(view, kinds)

    if intent is Intent.READ_ONLY_SUMMARY:
        return _read_only(view, completable)
    if intent is Intent.ABSENCE_CLAIM:
        return _absence(view, completable)
    voiding = tuple(sorted(set(view.warning_codes) & set(void_on_warnings)))
    if not view.complete:
        return Decision(
            Action.REFUSE_OR_REQUEST_REVIEW,
            intent,
            "destructive.incomplete",
            "the listing is not complete: a destructive action needs a complete result; ask a "
            "reviewer (retry with a longer deadline, act only on the returned ids, or abandon)",
            disclose=codes or ("ERROR",),
            continuation_kind=view.continuation_kind,
        )
    if voiding:
        return Decision(
            Action.REFUSE_OR_REQUEST_REVIEW,
            intent,
            "destructive.voided_by_warning",
            "the listing is complete but carries a warning the mutation declares as voiding",
            voiding_warnings=voiding,
        )
    if intent is Intent.DESTRUCTIVE_ON_UNLISTED_COMPLEMENT:
        return Decision(
            Action.PROCEED,
            intent,
            "destructive.complement.complete",
            "the listing covered its whole declared scope; the complement is well defined",
        )
    if targets is None:
        return Decision(
            Action.REFUSE_OR_REQUEST_REVIEW,
            intent,
            "destructive.listed.no_targets",
            "no target ids were named; a destructive action must name its targets",
        )
    listed = {item_id(item, id_pointer) for item in view.items}
    outside = tuple(sorted(str(t) for t in targets if str(t) not in listed))
    if outside:
        return Decision(
            Action.REFUSE_OR_REQUEST_REVIEW,
            intent,
            "destructive.listed.outside",
            "some target ids were not returned by the listing",
            outside=outside,
        )
    return Decision(
        Action.PROCEED,
        intent,
        "destructive.listed.complete",
        "every target id was returned by a complete listing",
    )


def _read_only(view: ResultView, completable: bool) -> Decision:
    intent = Intent.READ_ONLY_SUMMARY
    if view.status == "complete":
        return Decision(Action.PROCEED, intent, "read_only.complete", "the result is complete")
    if view.status == "partial":
        return Decision(
            Action.PROCEED,
            intent,
            "read_only.partial",
            "partial data may drive a read-only summary that states it is partial and why",
            disclose=view.reason_codes,
            continuation_kind=view.continuation_kind,
        )
    if completable:
        return Decision(
            Action.CONTINUE_SEARCH,
            intent,
            "read_only.error.completable",
            "the call failed but offers a continuation that can still answer it",
            disclose=view.reason_codes,
            continuation_kind=view.continuation_kind,
        )
    return Decision(
        Action.REFUSE_OR_REQUEST_REVIEW,
        intent,
        "read_only.error",
        "the call failed without a way to continue; report the error",
        disclose=view.reason_codes or ("ERROR",),
    )


def _absence(view: ResultView, completable: bool) -> Decision:
    intent = Intent.ABSENCE_CLAIM
    if view.status == "complete":
        rule = "absence.complete.empty" if not view.items else "absence.complete.found"
        text = (
            "a complete empty result proves absence within the declared scope"
            if not view.items
            else "a complete result: what it returned is all there is within the declared scope"
        )
        return Decision(Action.PROCEED, intent, rule, text)
    if view.status == "partial" and view.items:
        return Decision(
            Action.PROCEED,
            intent,
            "absence.partial.found",
            "returned items are positive evidence that the set is not empty; they prove nothing "
            "about what was not returned",
            disclose=view.reason_codes,
            continuation_kind=view.continuation_kind,
        )
    if completable:
        return Decision(
            Action.CONTINUE_SEARCH,
            intent,
            f"absence.{view.status}.completable",
            "nothing found so far, but a continuation can complete the answer: follow it",
            disclose=view.reason_codes,
            continuation_kind=view.continuation_kind,
        )
    return Decision(
        Action.REFUSE_OR_REQUEST_REVIEW,
        intent,
        f"absence.{view.status}.uncompletable",
        "nothing found, but the result cannot be completed as asked: absence is not proven",
        disclose=view.reason_codes or ("ERROR",),
        continuation_kind=view.continuation_kind,
    )


def _completable(view: ResultView, kinds: Mapping[str, str]) -> bool:
    """True when a continuation exists and every reason is resolvable by following one."""
    if view.complete or view.continuation_kind not in COMPLETING_CONTINUATIONS:
        return False
    return bool(view.reason_codes) and all(
        kinds.get(code) in COMPLETING_CONTINUATIONS for code in view.reason_codes
    )


# --- reading the three result shapes ----------------------------------------------------------


def view_result(result: Any) -> ResultView:
    """Extract a :class:`ResultView`; unreadable input becomes an ``error`` view (fail closed)."""
    if isinstance(result, ResultView):
        return result
    if isinstance(result, Mapping):
        if "completeness" in result or "status" in result:
            return _view_tool(result)
        if "complete" in result:
            return _view_native(result)
        return _error_view()
    if hasattr(result, "complete"):
        return _view_object(result)
    return _error_view()


def _error_view() -> ResultView:
    return ResultView("error", (), (), None, ())


def _view_tool(env: Mapping[str, Any]) -> ResultView:
    comp = env.get("completeness")
    comp = comp if isinstance(comp, Mapping) else {}
    status = env.get("status")
    complete = comp.get("complete") is True
    reasons = _codes(comp.get("reasons"))
    if status not in ("complete", "partial", "error"):
        status = "error"
    if status == "complete" and (not complete or reasons):
        status = "partial"  # a "complete" status that the completeness block denies is not trusted
    data = env.get("data")
    items = _items_of_data(data)
    return ResultView(
        status, items, reasons, _kind(comp.get("continuation")), _codes(env.get("warnings"))
    )


def _view_native(env: Mapping[str, Any]) -> ResultView:
    reasons = _codes(env.get("incomplete_reasons"))
    complete = env.get("complete") is True and not reasons
    items = env.get("items")
    items_t = tuple(items) if isinstance(items, list) else ()
    kind = "next_cursor" if env.get("next_cursor") else _kind(env.get("continuation"))
    if kind is None and reasons:
        kind = STANDARD_CONTINUATIONS.get(reasons[0])
    return ResultView(
        "complete" if complete else "partial", items_t, reasons, kind, _codes(env.get("warnings"))
    )


def _view_object(obj: Any) -> ResultView:
    reasons = _codes(getattr(obj, "reasons", None))
    complete = getattr(obj, "complete", False) is True and not reasons
    items = getattr(obj, "items", ())
    try:
        items_t = tuple(items) if items is not None else ()
    except TypeError:
        items_t = ()
    return ResultView(
        "complete" if complete else "partial",
        items_t,
        reasons,
        _kind(getattr(obj, "continuation", None)),
        _codes(getattr(obj, "warnings", None)),
    )


def _items_of_data(data: Any) -> tuple[Any, ...]:
    if isinstance(data, list):
        return tuple(data)
    if isinstance(data, Mapping):
        for value in data.values():
            if isinstance(value, list):
                return tuple(value)
    return ()


def _codes(entries: Any) -> tuple[str, ...]:
    """Codes of reasons/warnings given as strings, dicts with ``code`` or objects with ``.code``."""
    if not isinstance(entries, (list, tuple)):
        return ()
    out: list[str] = []
    for entry in entries:
        code = entry if isinstance(entry, str) else get(entry, "code")
        if hasattr(code, "value"):
            code = code.value
        if isinstance(code, str):
            out.append(code)
    return tuple(out)


def _kind(continuation: Any) -> str | None:
    if continuation is None:
        return None
    kind = continuation if isinstance(continuation, str) else get(continuation, "kind")
    if hasattr(kind, "value"):
        kind = kind.value
    return kind if isinstance(kind, str) else None
