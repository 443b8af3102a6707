"""Refusals of mutations: stable reason codes, their explanations and the approval prompt.

Why a module of its own: a refused destructive call must hand the model (and a human reviewer)
the same structured answer wherever the refusal came from (evidence or a per-target recheck):
the action, the target scope, why the evidence is insufficient, and the recovery options (retry
with a longer deadline, act only on the returned ids, abandon). The decision itself comes from
:func:`.decide.decide`, so the prompt and the policy cannot disagree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .decide import Action, Intent, decide
from .tool_result import error_result

__all__ = ["PROMPT_TARGET_LIMIT", "WHY", "refusal"]

PROMPT_TARGET_LIMIT = 50

WHY = {
    "EVIDENCE_MISSING": "no evidence token was supplied; the action needs a complete listing first",
    "EVIDENCE_INVALID": "the evidence token is malformed or its signature does not verify",
    "EVIDENCE_EXPIRED": "the evidence token has expired; the listing may be out of date",
    "EVIDENCE_WRONG_OPERATION": "the evidence comes from a different listing than the one this "
    "action declares",
    "EVIDENCE_WRONG_PRINCIPAL": "the evidence was minted for a different credential",
    "EVIDENCE_ALREADY_USED": "the evidence was already used by a completed mutation",
    "EVIDENCE_REVOKED": "the evidence was revoked by an operator",
    "EVIDENCE_UNKNOWN": "this server no longer holds the API evidence that belongs to the token",
    "EVIDENCE_VOIDED_BY_WARNING": "the listing carried a warning this action declares as voiding",
    "EVIDENCE_UNSUPPORTED": "this action declares no listing its evidence may come from",
    "TARGETS_MISSING": "no target ids were named",
    "TARGETS_OUTSIDE_EVIDENCE": "some target ids were not returned by the complete listing",
    "TARGETS_TOO_MANY": "too many targets to re-read one by one before the action",
    "TARGET_NOT_FOUND": "the re-read found no such target (it does not exist or is not visible)",
    "TARGET_INCOMPLETE": "the re-read of a target was incomplete (a field was FORBIDDEN or "
    "SOURCE_FAILED), so the action cannot be judged on the whole object",
    "TARGET_READ_FAILED": "the re-read of a target failed; its current state is unknown",
}


def refusal(
    *,
    tool: str,
    destructive: bool,
    codes: Sequence[str],
    targets: Sequence[str] | None,
    outside: Sequence[str] = (),
    listing_tool: str | None,
    listing_scope: Mapping[str, Any] | None,
    recheck_tool: str | None = None,
    failures: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """The structured refusal of a mutation: reason codes plus the approval prompt.

    For a ``recheck`` mutation, ``recheck_tool`` names the single-read tool and ``failures`` the
    targets that did not pass (``{id, code, detail}``); they are listed in the target scope.
    """
    listed = list(targets or [])
    decision = decide({"status": "error"}, Intent.DESTRUCTIVE_ON_LISTED_IDS, targets=listed)
    assert decision.action is Action.REFUSE_OR_REQUEST_REVIEW
    listing = listing_tool or "the declared listing tool"
    inside = [t for t in listed if t not in set(outside)]
    env = error_result("EVIDENCE_REJECTED", "; ".join(WHY.get(c, c) for c in codes))
    env["error"]["reasons"] = list(codes)
    env["error"]["decision"] = decision.action.value
    env["approval"] = {
        "action": f"{'destructive ' if destructive else ''}call of {tool}",
        "target_scope": {
            "targets": listed[:PROMPT_TARGET_LIMIT],
            "target_count": len(listed),
            "outside_evidence": list(outside)[:PROMPT_TARGET_LIMIT],
            "listing_tool": listing_tool,
            "listing_scope": dict(listing_scope or {}),
            **(_recheck_scope(recheck_tool, failures) if recheck_tool else {}),
        },
        "why": [WHY.get(c, c) for c in codes],
        "options": _recheck_options(recheck_tool, listed, failures)
        if recheck_tool
        else [
            {
                "option": "retry_with_longer_deadline",
                "description": f"call {listing} again with a larger deadline_s/max_pages until its "
                "status is 'complete', then retry with the new evidence",
            },
            {
                "option": "act_only_on_returned_ids",
                "description": "a human reviewer may approve acting only on ids a complete "
                f"listing returned ({len(inside)} of the {len(listed)} named targets were inside "
                "the evidence checked); nothing about unreturned ids may be concluded",
            },
            _ABANDON,
        ],
    }
    return env


_ABANDON = {"option": "abandon", "description": "do not perform the action"}


def _recheck_scope(tool: str, failures: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    return {
        "recheck_tool": tool,
        "failed_targets": [dict(f) for f in failures[:PROMPT_TARGET_LIMIT]],
        "failed_count": len(failures),
    }


def _recheck_options(
    tool: str, listed: Sequence[str], failures: Sequence[Mapping[str, Any]]
) -> list[dict[str, str]]:
    failed = {str(f.get("id")) for f in failures}
    passed = len([t for t in listed if t not in failed])
    return [
        {
            "option": "retry_with_longer_deadline",
            "description": f"read the failed targets with {tool} later (a source may recover) and "
            "retry once every target reads complete",
        },
        {
            "option": "act_only_on_returned_ids",
            "description": "a human reviewer may approve acting only on the targets whose re-read "
            f"passed ({passed} of the {len(listed)} named targets); nothing may be concluded "
            "about the others",
        },
        _ABANDON,
    ]
