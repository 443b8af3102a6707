"""The tool result envelope of DESIGN.md §4, built from a collect result or an API failure.

Why here and not in the server template: the envelope is what the model reads, so the rules that
keep it honest are ordinary, directly tested code. ``status`` is never "success": it is
``complete`` only when the result is complete, and a result that claims completeness while
carrying reasons is reported as partial with a ``CONTRACT_VIOLATION`` (invariant 2 re-checked at
the outermost layer). Standard library plus httpx (to name transport failures).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import httpx

from .plain import get, plain
from .recheck import OMISSION_REASONS, field_gaps

__all__ = ["api_error", "error_result", "single_result", "tool_result"]

_RESERVED_REASON_KEYS = {"code", "origin", "message", "details"}


def _reason(entry: Any, default_origin: str) -> dict[str, Any]:
    data = plain(entry)
    if isinstance(data, str):
        return {"code": data, "origin": default_origin, "details": {}, "message": None}
    if not isinstance(data, Mapping):
        return {
            "code": "CONTRACT_VIOLATION",
            "origin": "client",
            "details": {"what": "reason"},
            "message": None,
        }
    details = dict(data.get("details") or {}) if isinstance(data.get("details"), Mapping) else {}
    details.update(
        {k: v for k, v in data.items() if k not in _RESERVED_REASON_KEYS and v is not None}
    )
    message = data.get("message")
    return {
        "code": str(data.get("code")),
        "origin": data.get("origin")
        if data.get("origin") in ("client", "server")
        else default_origin,
        "details": details,
        "message": message if isinstance(message, str) else None,
    }


def _warning(entry: Any) -> dict[str, Any]:
    data = plain(entry)
    if isinstance(data, str):
        return {"code": data, "message": None, "details": {}}
    data = data if isinstance(data, Mapping) else {}
    details = dict(data.get("details") or {}) if isinstance(data.get("details"), Mapping) else {}
    details.update(
        {k: v for k, v in data.items() if k not in ("code", "message", "details") and v is not None}
    )
    message = data.get("message")
    return {
        "code": str(data.get("code")),
        "message": message if isinstance(message, str) else None,
        "details": details,
    }


def _continuation(obj: Any) -> dict[str, Any] | None:
    data = plain(obj)
    if not isinstance(data, Mapping) or not isinstance(data.get("kind"), str):
        return None
    out: dict[str, Any] = {"kind": data["kind"]}
    for key in ("cursor", "seconds", "minimum_seconds"):
        value = data.get(key)
        if key == "cursor" and value is not None:
            out[key] = str(value)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            out[key] = value
    return out


def tool_result(
    result: Any,
    *,
    resource_key: str,
    scope: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The tool envelope (DESIGN.md §4) of a collect result (attribute or mapping access).

    A result that claims completeness while carrying reasons is reported as partial with a
    ``CONTRACT_VIOLATION`` reason (invariant 2 is re-checked here, at the outermost layer).
    """
    items = [plain(i) for i in (get(result, "items") or [])]
    reasons = [_reason(r, "server") for r in (get(result, "reasons") or [])]
    complete = get(result, "complete") is True
    if complete and reasons:
        reasons.append(
            {
                "code": "CONTRACT_VIOLATION",
                "origin": "client",
                "message": None,
                "details": {"what": "a complete result carried incomplete reasons"},
            }
        )
        complete = False
    if not complete and not reasons:
        reasons.append(
            {
                "code": "CONTRACT_VIOLATION",
                "origin": "client",
                "message": None,
                "details": {"what": "an incomplete result carried no reason"},
            }
        )
    continuation = None if complete else _continuation(get(result, "continuation"))
    result_scope = plain(get(result, "scope"))
    merged_scope = dict(scope or {})
    if isinstance(result_scope, Mapping):
        merged_scope.update({k: v for k, v in result_scope.items() if v is not None})
    snapshot = plain(get(result, "snapshot"))
    if snapshot is not None:
        merged_scope["snapshot"] = snapshot
    return {
        "status": "complete" if complete else "partial",
        "data": {resource_key: items},
        "completeness": {
            "complete": complete,
            "reasons": reasons,
            "scope": merged_scope or None,
            "continuation": continuation,
        },
        "warnings": [_warning(w) for w in (get(result, "warnings") or [])],
        "evidence": None,
    }


def single_result(key: str, response: Any, *, omitted_fields: str | None = None) -> dict[str, Any]:
    """The envelope of one answered request (a single read or a mutation's response).

    Nothing was paged, so there is no coverage to lose -- except fields the answer itself says
    it left out. ``omitted_fields`` is the read's declared omission map (``$response.body#/...``):
    a FORBIDDEN or SOURCE_FAILED field makes the read partial (invariant: status is never
    "complete" for partial data); NOT_REQUESTED and NOT_PRESENT keep it complete. The answer is
    under ``data[key]`` (a scalar answer as ``{"value": ...}``, so ``data`` stays an object).
    """
    data = plain(response)
    reasons = _omission_reasons(field_gaps(data, omitted_fields))
    complete = not reasons
    return {
        "status": "complete" if complete else "partial",
        "data": {key: data if isinstance(data, (dict, list)) else {"value": data}},
        "completeness": {
            "complete": complete,
            "reasons": reasons,
            "scope": None,
            "continuation": None if complete else _omission_continuation(reasons),
        },
        "warnings": [],
        "evidence": None,
    }


_OMISSION_TEXT = {
    "FORBIDDEN": "the credential may not read field(s): ",
    "SOURCE_FAILED": "the source holding field(s) did not answer: ",
}


def _omission_reasons(gaps: Mapping[str, str] | None) -> list[dict[str, Any]]:
    """One reason per omission kind, naming its fields (VISIBILITY_RESTRICTED/SOURCE_UNAVAILABLE).

    An unreadable omission map is a CONTRACT_VIOLATION: fail closed, never complete.
    """
    if gaps is None:
        what = "the field-omission map is unreadable"
        return [
            {
                "code": "CONTRACT_VIOLATION",
                "origin": "client",
                "details": {"what": what},
                "message": None,
            }
        ]
    out = []
    for omission, code in OMISSION_REASONS.items():
        fields = ", ".join(sorted(f for f, why in gaps.items() if why == omission))[:300]
        if fields:
            key = "excluded" if code == "VISIBILITY_RESTRICTED" else "source"
            out.append(
                {
                    "code": code,
                    "origin": "server",
                    "details": {key: f"fields: {fields}"},
                    "message": _OMISSION_TEXT[omission] + fields,
                }
            )
    return out


def _omission_continuation(reasons: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Retrying may fill a field whose source failed; a forbidden field stays hidden."""
    codes = {r["code"] for r in reasons}
    return {"kind": "retry_after" if "SOURCE_UNAVAILABLE" in codes else "none"}


def error_result(
    code: str, message: str, *, reasons: Sequence[dict[str, Any]] = ()
) -> dict[str, Any]:
    """An ``error`` envelope: no data, not complete, with a machine-readable error object."""
    return {
        "status": "error",
        "data": None,
        "completeness": {
            "complete": False,
            "reasons": list(reasons),
            "scope": None,
            "continuation": None,
        },
        "warnings": [],
        "evidence": None,
        "error": {
            "code": code,
            "reasons": [r["code"] for r in reasons],
            "message": message,
            "decision": None,
        },
    }


def api_error(exc: BaseException) -> dict[str, Any]:
    """The error envelope of a failed API call: the API's own error code when it sent one."""
    status = getattr(exc, "status", None)
    if isinstance(status, int):
        body = getattr(exc, "body", None)
        err = body.get("error") if isinstance(body, Mapping) else None
        code = err.get("code") if isinstance(err, Mapping) else None
        detail = err.get("reason") or err.get("message") if isinstance(err, Mapping) else None
        text = f"HTTP {status}" + (f": {str(detail)[:300]}" if detail else "")
        return error_result(code if isinstance(code, str) else f"HTTP_{status}", text)
    # No data at all. No reason code is invented for it (invariant 4 limits reasons to the
    # declared codes); error.code says what happened.
    text = f"{type(exc).__name__}: {str(exc)[:300]}"
    if isinstance(exc, httpx.TransportError):
        return error_result("API_UNAVAILABLE", text)
    if isinstance(exc, (ValueError, TypeError)):  # e.g. a continuation leaving the API's origin
        return error_result("INVALID_ARGUMENTS", text)
    return error_result("CALL_FAILED", text)
