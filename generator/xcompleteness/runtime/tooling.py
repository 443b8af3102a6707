"""The MCP-side logic of a generated package: tool results, evidence and refusals.

Why this lives in the runtime and not in the server template: every rule that keeps an agent from
acting on a partial answer must be ordinary, directly tested code. ``tools/mcp_server.py`` only
wires :class:`ToolHost` to the MCP SDK; everything it answers is built here:

- :func:`tool_result` turns a collect result into the tool envelope of DESIGN.md §4 (status is
  never "success"; it is ``complete`` only when the result is complete);
- :class:`EvidenceKeeper` mints the MCP server's *own* evidence token (its own secret) over the
  exact id set of a complete listing, and verifies it before a mutation calls the API: forged,
  expired, another operation, another principal, already used, voided by a declared warning, or
  targets outside the listed ids are all refused. A token cannot be minted from an incomplete
  listing: :meth:`EvidenceKeeper.mint` refuses one, and nothing else signs;
- :func:`refusal` builds the structured error with reason codes and the approval prompt (action,
  target scope, why the evidence is insufficient, recovery options).

The API's own evidence token (if the listing returned one) stays on the server, keyed by the
token id; the mutation fills the body field declared by ``evidence.token`` with it, so the model
never supplies it. Standard library only (plus the sibling ``decide``).
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
import math
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import httpx

from .decide import Action, Intent, decide
from .envelope import ToolResult
from .tokens import TokenError, TokenExpired, TokenMismatch, TokenSigner

__all__ = [
    "EvidenceGrant",
    "EvidenceKeeper",
    "Refused",
    "ToolHost",
    "api_error",
    "error_result",
    "item_id",
    "principal_of",
    "refusal",
    "tool_result",
    "validate",
]

MAX_EVIDENCE_IDS = 10_000
"""Above this many ids no token is minted (the token carries the ids; say so, never truncate)."""
PROMPT_TARGET_LIMIT = 50

WHY = {
    "EVIDENCE_MISSING": "no evidence token was supplied; the action needs a complete listing first",
    "EVIDENCE_INVALID": "the evidence token is malformed or its signature does not verify",
    "EVIDENCE_EXPIRED": "the evidence token has expired; the listing may be out of date",
    "EVIDENCE_WRONG_OPERATION": "the evidence comes from a different listing than the one this "
    "action declares",
    "EVIDENCE_WRONG_PRINCIPAL": "the evidence was minted for a different credential",
    "EVIDENCE_ALREADY_USED": "the evidence was already used by a completed mutation",
    "EVIDENCE_UNKNOWN": "this server no longer holds the API evidence that belongs to the token",
    "EVIDENCE_VOIDED_BY_WARNING": "the listing carried a warning this action declares as voiding",
    "EVIDENCE_UNSUPPORTED": "this action declares no listing its evidence may come from",
    "TARGETS_MISSING": "no target ids were named",
    "TARGETS_OUTSIDE_EVIDENCE": "some target ids were not returned by the complete listing",
}


class Refused(Exception):
    """Evidence verification failed; ``codes`` are stable reason codes (tests assert on them)."""

    def __init__(self, codes: Sequence[str], *, outside: Sequence[str] = ()) -> None:
        self.codes = tuple(codes)
        self.outside = tuple(outside)
        super().__init__(", ".join(self.codes))


@dataclass(frozen=True)
class EvidenceGrant:
    """A verified token: what it authorises and the API evidence that goes with it."""

    jti: str
    operation: str
    ids: frozenset[str]
    warnings: tuple[str, ...]
    api_token: str | None


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _canon(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def principal_of(base_url: str, headers: Mapping[str, str]) -> str:
    """A stable digest naming the credential the server acts as (never the secret itself)."""
    material = {
        "base_url": base_url.rstrip("/"),
        "headers": sorted((k.lower(), v) for k, v in headers.items()),
    }
    return hashlib.sha256(_canon(material)).hexdigest()[:32]


class EvidenceKeeper:
    """Mints and verifies the MCP server's evidence tokens through :mod:`.tokens`.

    The token (``TokenSigner``, purpose ``evidence``, the MCP server's own secret) binds the
    operation, a digest of the query, the principal, the sorted id set, the listing's warning
    codes, issue and expiry times, and a random token id (in the token's data). Used token ids
    and the API's own evidence are kept in bounded in-memory maps (one process; a restart
    forgets them, which refuses, never authorises).
    """

    def __init__(
        self,
        secret: bytes,
        principal: str,
        *,
        clock: Callable[[], float] = time.time,
        store_limit: int = 4096,
    ) -> None:
        self._signer = TokenSigner(secret, clock=clock)
        self.principal = principal
        self._limit = store_limit
        self._api_tokens: OrderedDict[str, str] = OrderedDict()
        self._used: OrderedDict[str, None] = OrderedDict()
        self._lock = threading.Lock()

    def mint(
        self,
        *,
        operation: str,
        query: Mapping[str, Any],
        envelope: Mapping[str, Any],
        ids: Iterable[str],
        ttl_s: float,
        api_token: str | None = None,
    ) -> str:
        """Sign evidence over ``ids``; raises ``ValueError`` unless ``envelope`` is complete."""
        comp = envelope.get("completeness") or {}
        complete = (
            envelope.get("status") == "complete"
            and comp.get("complete") is True
            and not comp.get("reasons")
        )
        if not complete:
            raise ValueError("evidence can only be minted from a complete result")
        id_list = sorted(set(ids))
        if len(id_list) > MAX_EVIDENCE_IDS:
            raise ValueError(f"more than {MAX_EVIDENCE_IDS} ids; no evidence minted")
        jti = _b64(os.urandom(12))
        token = self._signer.sign(
            "evidence",
            operation=operation,
            ttl_seconds=ttl_s,
            query=query,
            principal=self.principal,
            data={"jti": jti},
            ids=id_list,
            warnings=sorted({str(w.get("code")) for w in envelope.get("warnings") or []}),
        )
        if api_token is not None:
            with self._lock:
                self._api_tokens[jti] = api_token
                while len(self._api_tokens) > self._limit:
                    self._api_tokens.popitem(last=False)
        return token

    def verify(
        self,
        token: Any,
        *,
        operation: str,
        targets: Sequence[str] | None,
        void_on_warnings: Iterable[str] = (),
        needs_api_token: bool = False,
    ) -> EvidenceGrant:
        """Check ``token`` for a mutation; raises :class:`Refused` with the applicable codes.

        Authenticity and bindings are checked first (the first failure is reported: a token for
        someone else is refused as such); for an authentic, bound token every further problem
        (used, voiding warning, missing or outside targets) is reported together.
        """
        if token is None or token == "":
            raise Refused(["EVIDENCE_MISSING"] + ([] if targets else ["TARGETS_MISSING"]))
        try:
            claims = self._signer.verify(
                token,
                purpose="evidence",
                operation=operation,
                principal=self.principal,
                check_query=False,
            )
        except TokenMismatch as exc:
            code = {
                "operation": "EVIDENCE_WRONG_OPERATION",
                "principal": "EVIDENCE_WRONG_PRINCIPAL",
            }
            raise Refused([code.get(exc.field, "EVIDENCE_INVALID")]) from None
        except TokenExpired:
            raise Refused(["EVIDENCE_EXPIRED"]) from None
        except TokenError:
            raise Refused(["EVIDENCE_INVALID"]) from None
        data = claims.data if isinstance(claims.data, Mapping) else {}
        jti = data.get("jti")
        if claims.ids is None or not isinstance(jti, str):
            raise Refused(["EVIDENCE_INVALID"])
        codes: list[str] = []
        with self._lock:
            if jti in self._used:
                codes.append("EVIDENCE_ALREADY_USED")
            api_token = self._api_tokens.get(jti)
        if set(claims.warnings) & set(void_on_warnings):
            codes.append("EVIDENCE_VOIDED_BY_WARNING")
        if needs_api_token and api_token is None and not codes:
            # The listing's API gave no evidence of its own (or this process forgot it); other
            # findings explain more, so this is reported only alone. A spent token's is gone.
            codes.append("EVIDENCE_UNKNOWN")
        ids = frozenset(claims.ids)
        outside: list[str] = []
        if not targets:
            codes.append("TARGETS_MISSING")
        else:
            outside = sorted({str(t) for t in targets} - ids)
            if outside:
                codes.append("TARGETS_OUTSIDE_EVIDENCE")
        if codes:
            raise Refused(codes, outside=outside)
        return EvidenceGrant(jti, claims.operation, ids, claims.warnings, api_token)

    def consume(self, grant: EvidenceGrant) -> None:
        """Mark a token used once its mutation succeeded (a second use is refused)."""
        with self._lock:
            self._used[grant.jti] = None
            while len(self._used) > self._limit:
                self._used.popitem(last=False)
            self._api_tokens.pop(grant.jti, None)


# --------------------------------------------------------------------------- tool results


def _plain(obj: Any) -> Any:
    """JSON-able form of pydantic models, dataclasses, enums and containers."""
    if obj is None or type(obj) in _SCALARS:
        return obj
    if type(obj) is dict:
        return {str(k): _plain(v) for k, v in obj.items()}
    if type(obj) in (list, tuple):
        return [_plain(v) for v in obj]
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if hasattr(obj, "model_dump"):
        return obj.model_dump(mode="json", by_alias=True, exclude_none=False)
    if callable(getattr(obj, "to_dict", None)):
        return _plain(obj.to_dict())
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return _plain(dataclasses.asdict(obj))
    if isinstance(obj, Mapping):
        return {str(k): _plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_plain(v) for v in obj]
    if hasattr(obj, "value") and isinstance(obj.value, str):
        return obj.value
    return obj


_SCALARS = (str, int, bool)


def _get(obj: Any, key: str, default: Any = None) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(key, default)
    return getattr(obj, key, default)


def item_id(item: Any, pointer: str) -> str | None:
    """The id at JSON pointer ``pointer`` inside one item, as a string (None when absent)."""
    return _id_at(item, _tokens(pointer))


def _tokens(pointer: str) -> tuple[str, ...]:
    return tuple(t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:])


def _id_at(item: Any, tokens: tuple[str, ...]) -> str | None:
    node = item if isinstance(item, (Mapping, list)) else _plain(item)
    for token in tokens:
        if isinstance(node, Mapping) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    if node is None or isinstance(node, (Mapping, list, bool)):
        return None
    return str(node)


_RESERVED_REASON_KEYS = {"code", "origin", "message", "details"}


def _reason(entry: Any, default_origin: str) -> dict[str, Any]:
    data = _plain(entry)
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
    data = _plain(entry)
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
    data = _plain(obj)
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
    items = [_plain(i) for i in (_get(result, "items") or [])]
    reasons = [_reason(r, "server") for r in (_get(result, "reasons") or [])]
    complete = _get(result, "complete") is True
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
    continuation = None if complete else _continuation(_get(result, "continuation"))
    result_scope = _plain(_get(result, "scope"))
    merged_scope = dict(scope or {})
    if isinstance(result_scope, Mapping):
        merged_scope.update({k: v for k, v in result_scope.items() if v is not None})
    snapshot = _plain(_get(result, "snapshot"))
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
        "warnings": [_warning(w) for w in (_get(result, "warnings") or [])],
        "evidence": None,
    }


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


def refusal(
    *,
    tool: str,
    destructive: bool,
    codes: Sequence[str],
    targets: Sequence[str] | None,
    outside: Sequence[str] = (),
    listing_tool: str | None,
    listing_scope: Mapping[str, Any] | None,
) -> dict[str, Any]:
    """The structured refusal of a mutation: reason codes plus the approval prompt."""
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
        },
        "why": [WHY.get(c, c) for c in codes],
        "options": [
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
            {"option": "abandon", "description": "do not perform the action"},
        ],
    }
    return env


# --------------------------------------------------------------------------- validation


_TYPES: dict[str, Callable[[Any], bool]] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: (
        isinstance(v, int) and not isinstance(v, bool) or isinstance(v, float) and v.is_integer()
    ),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def validate(value: Any, schema: Mapping[str, Any], path: str = "") -> list[str]:
    """Errors of ``value`` against the JSON Schema subset the tool schemas use (bounded)."""
    errors: list[str] = []
    if "anyOf" in schema:
        if not any(not validate(value, sub, path) for sub in schema["anyOf"]):
            errors.append(f"{path or '/'}: matches no alternative")
        return errors
    t = schema.get("type")
    if t is not None:
        kinds = t if isinstance(t, list) else [t]
        if not any(_TYPES.get(k, lambda v: False)(value) for k in kinds):
            return [f"{path or '/'}: expected {'/'.join(kinds)}"]
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path or '/'}: not one of the allowed values")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            errors.append(f"{path or '/'}: below minimum {schema['minimum']}")
        if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
            errors.append(f"{path or '/'}: not above {schema['exclusiveMinimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            errors.append(f"{path or '/'}: above maximum {schema['maximum']}")
    if isinstance(value, dict):
        props = schema.get("properties") or {}
        for name in schema.get("required") or []:
            if name not in value:
                errors.append(f"{path}/{name}: required")
        for name, sub in value.items():
            if name in props:
                errors.extend(validate(sub, props[name], f"{path}/{name}"))
            elif schema.get("additionalProperties") is False:
                errors.append(f"{path}/{name}: not allowed")
    if isinstance(value, list) and isinstance(schema.get("items"), Mapping):
        for i, sub in enumerate(value):
            errors.extend(validate(sub, schema["items"], f"{path}/{i}"))
            if len(errors) > 20:
                break
    return errors


# --------------------------------------------------------------------------- the host


@dataclass(frozen=True)
class _Tool:
    definition: Mapping[str, Any]
    operation: str
    client_attr: str
    kind: str
    params: tuple[str, ...]
    body: tuple[str, ...]
    json_args: tuple[str, ...]

    @property
    def name(self) -> str:
        return str(self.definition["name"])


def _tool(defn: Mapping[str, Any]) -> _Tool:
    meta = defn.get("_meta") or {}
    return _Tool(
        definition=defn,
        operation=str(meta["x-completeness/operation"]),
        client_attr=str(meta["x-completeness/client_attr"]),
        kind=str(meta["x-completeness/kind"]),
        params=tuple(meta.get("x-completeness/params") or ()),
        body=tuple(meta.get("x-completeness/body") or ()),
        json_args=tuple(meta.get("x-completeness/json_args") or ()),
    )


LISTING_KINDS = frozenset({"collection", "search", "aggregate"})


class ToolHost:
    """Answers tool calls for one generated package; transport-free (the server wires MCP).

    ``tools`` is the ``tools`` list of ``mcp.json``; ``contracts`` the ``contracts`` map of
    ``_contracts.json``; ``client`` the generated (sync) Client. Every answer is a dict valid
    under the tool's ``outputSchema`` plus an ``is_error`` flag.
    """

    def __init__(
        self,
        tools: Sequence[Mapping[str, Any]],
        contracts: Mapping[str, Mapping[str, Any]],
        client: Any,
        keeper: EvidenceKeeper,
        *,
        default_max_pages: int = 20,
        default_deadline_s: float = 20.0,
        max_deadline_s: float = 300.0,
    ) -> None:
        self.tools = {t["name"]: _tool(t) for t in tools}
        self.by_operation = {t.operation: t for t in self.tools.values()}
        self.contracts = contracts
        self.client = client
        self.keeper = keeper
        self.default_max_pages = default_max_pages
        self.default_deadline_s = default_deadline_s
        self.max_deadline_s = max_deadline_s
        self._evidence_sources = {
            str((c.get("mutation") or {}).get("from"))
            for c in contracts.values()
            if (c.get("mutation") or {}).get("from")
        }

    def definitions(self) -> list[Mapping[str, Any]]:
        return [t.definition for t in self.tools.values()]

    def call(self, name: str, arguments: Mapping[str, Any] | None) -> tuple[dict[str, Any], bool]:
        tool = self.tools.get(name)
        if tool is None:
            return error_result("UNKNOWN_TOOL", "no tool of that name"), True
        args = dict(arguments or {})
        schema = tool.definition["inputSchema"]
        for name, sub in (schema.get("properties") or {}).items():
            if name not in args and not validate(None, sub):
                args[name] = None  # strict schemas require nullable keys; MCP callers may omit them
        problems = validate(args, schema)
        decoded, bad = self._decode(tool, args)
        if problems or bad:
            return error_result("INVALID_ARGUMENTS", "; ".join([*problems, *bad])[:2000]), True
        try:
            if tool.kind in LISTING_KINDS:
                env = self._listing(tool, decoded)
            elif tool.kind == "mutation":
                env = self._mutation(tool, decoded)
            else:
                env = self._single(tool, decoded)
        except Exception as exc:  # noqa: BLE001 -- every failure becomes a typed error envelope
            env = api_error(exc)
        problems = validate(env, tool.definition["outputSchema"]) or _invariant_problems(env)
        if problems:
            env = error_result("OUTPUT_INVALID", "; ".join(problems)[:2000])
        return env, env["status"] == "error"

    def _decode(self, tool: _Tool, args: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
        bad = []
        for name in tool.json_args:
            if isinstance(args.get(name), str):
                try:
                    args[name] = json.loads(args[name])
                except ValueError:
                    bad.append(f"/{name}: not valid JSON")
        return args, bad

    def _listing(self, tool: _Tool, args: dict[str, Any]) -> dict[str, Any]:
        contract = self.contracts.get(tool.operation) or {}
        params = {k: args[k] for k in tool.params if args.get(k) is not None}
        resumed = args.get("continuation")
        max_pages = args.get("max_pages") or self.default_max_pages
        deadline = args.get("deadline_s")
        deadline = self.default_deadline_s if deadline is None else float(deadline)
        op = getattr(self.client, tool.client_attr)
        result = op.collect(
            max_pages=int(max_pages),
            deadline=min(deadline, self.max_deadline_s),
            continuation=resumed,
            params=params,
        )
        scope = {k: v for k, v in (contract.get("scope") or {}).items() if v is not None}
        key = _resource_key(scope.get("resource"))
        env = tool_result(result, resource_key=key, scope=scope)
        mints = (contract.get("evidence") or {}).get(
            "mint"
        ) or tool.operation in self._evidence_sources
        if env["status"] == "complete" and mints and resumed is None:
            id_pointer = str(contract.get("id") or "/id")
            tokens = _tokens(id_pointer)
            ids = [_id_at(i, tokens) for i in env["data"][key]]
            if all(i is not None for i in ids) and len(ids) <= MAX_EVIDENCE_IDS:
                ttl = (contract.get("evidence") or {}).get("ttl_seconds") or 600
                api_token = _get(result, "evidence")
                env["evidence"] = self.keeper.mint(
                    operation=tool.operation,
                    query=params,
                    envelope=env,
                    ids=[i for i in ids if i is not None],
                    ttl_s=float(ttl),
                    api_token=str(api_token) if api_token else None,
                )
        return env

    def _mutation(self, tool: _Tool, args: dict[str, Any]) -> dict[str, Any]:
        contract = self.contracts.get(tool.operation) or {}
        mutation = contract.get("mutation") or {}
        source = mutation.get("from")
        ids_field = _body_field(mutation.get("ids"))
        token_field = _body_field(mutation.get("token"))
        raw_targets = args.get(ids_field) if ids_field else None
        targets = [str(t) for t in raw_targets] if isinstance(raw_targets, list) else None
        source_tool = self.by_operation.get(str(source)) if source else None
        source_contract = self.contracts.get(str(source)) or {}

        def refuse(codes: Sequence[str], outside: Sequence[str] = ()) -> dict[str, Any]:
            return refusal(
                tool=tool.name,
                destructive=bool(contract.get("destructive")),
                codes=codes,
                targets=targets,
                outside=outside,
                listing_tool=source_tool.name if source_tool else None,
                listing_scope=source_contract.get("scope"),
            )

        if not source:
            if contract.get("destructive"):
                return refuse(["EVIDENCE_UNSUPPORTED"])
            return self._send(tool, {k: args[k] for k in tool.body if args.get(k) is not None})
        try:
            grant = self.keeper.verify(
                args.get("evidence"),
                operation=str(source),
                targets=targets,
                void_on_warnings=mutation.get("void_on_warnings") or (),
                needs_api_token=bool(token_field) and _api_mints(source_contract),
            )
        except Refused as exc:
            return refuse(exc.codes, exc.outside)
        body = {k: args[k] for k in tool.body if args.get(k) is not None}
        if token_field and grant.api_token is not None:
            body[token_field] = grant.api_token
        env = self._send(tool, body)
        self.keeper.consume(grant)  # only after the API accepted it; a failed call keeps it
        return env

    def _send(self, tool: _Tool, body: Mapping[str, Any]) -> dict[str, Any]:
        data = _plain(getattr(self.client, tool.client_attr)(**body))
        return {
            "status": "complete",
            "data": {"response": data if isinstance(data, (dict, list)) else {"value": data}},
            "completeness": {"complete": True, "reasons": [], "scope": None, "continuation": None},
            "warnings": [],
            "evidence": None,
        }

    def _single(self, tool: _Tool, args: dict[str, Any]) -> dict[str, Any]:
        params = {k: args[k] for k in tool.params if args.get(k) is not None}
        response = getattr(self.client, tool.client_attr)(params=params)
        data = _plain(response)
        return {
            "status": "complete",
            "data": {"item": data if isinstance(data, (dict, list)) else {"value": data}},
            "completeness": {"complete": True, "reasons": [], "scope": None, "continuation": None},
            "warnings": [],
            "evidence": None,
        }


def _api_mints(contract: Mapping[str, Any]) -> bool:
    """True when the listing's API returns its own evidence token (native, ``mint: true``)."""
    return contract.get("mode") == "native" and bool((contract.get("evidence") or {}).get("mint"))


def _invariant_problems(env: Mapping[str, Any]) -> list[str]:
    """The runtime's ToolResult model re-checks the envelope invariants (status vs complete...)."""
    try:
        ToolResult.model_validate(env)
    except ValueError as exc:  # pydantic's ValidationError is a ValueError
        return [str(exc).splitlines()[0]]
    return []


def _body_field(expr: Any) -> str | None:
    if not isinstance(expr, str) or not expr.startswith("$request.body#/"):
        return None
    token = expr.split("#/", 1)[1]
    return None if "/" in token else token.replace("~1", "/").replace("~0", "~")


def _resource_key(resource: Any) -> str:
    """The ``data`` key: the declared resource when it is a plain word, else ``items``."""
    if isinstance(resource, str) and resource.replace("_", "").isalnum() and resource.isascii():
        return resource[:64]
    return "items"
