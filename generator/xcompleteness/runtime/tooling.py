"""The transport-free host of a generated package's agent tools (wired to MCP by the template).

Why this lives in the runtime and not in the server template: every rule that keeps an agent from
acting on a partial answer must be ordinary, directly tested code. ``tools/mcp_server.py`` only
wires :class:`ToolHost` to the MCP SDK; what it answers is built from the sibling modules:

- :mod:`.tool_result` -- the tool envelope of a collect result or an API failure;
- :mod:`.evidence` -- the MCP server's own evidence tokens (mint from complete listings, verify
  before mutations);
- :mod:`.approval` -- structured refusals with the approval prompt;
- :mod:`.recheck` -- the per-target re-read of mutations declared with ``recheck``;
- :mod:`.validation` -- inputs and outputs checked against the published tool schemas.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .answer_bound import DEFAULT_MAX_ANSWER_BYTES, bounded_walk
from .approval import refusal
from .codes import LISTING_KINDS
from .contract import Contract
from .envelope import ToolResult
from .evidence import MAX_EVIDENCE_IDS, EvidenceKeeper, Refused
from .expressions import read_json
from .plain import get, id_at, id_text, unescape_token
from .recheck import (
    MAX_RECHECK_TARGETS,
    RecheckFailure,
    read_failure,
    recheck_targets,
    target_param,
)
from .redaction import Redactor
from .tool_result import api_error, error_result, single_result, tool_result
from .validation import validate
from .walk_results import evidence_doubts

__all__ = ["LISTING_KINDS", "ToolHost"]


@dataclass(frozen=True)
class _Tool:
    definition: Mapping[str, Any]
    operation: str
    client_attr: str
    kind: str
    params: tuple[str, ...]
    body: tuple[str, ...]
    json_args: tuple[str, ...]
    spec_names: Mapping[str, str]
    """Argument name -> the spec's name, where they differ (arguments are the client's
    Python keyword names; the host speaks spec names to the client's ``params``)."""
    host_body: tuple[str, ...] = ()
    """Body fields that carry a credential: never the model's, the host's values are sent."""

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
        spec_names=dict(meta.get("x-completeness/spec_names") or {}),
        host_body=tuple(meta.get("x-completeness/host_body") or ()),
    )


class ToolHost:
    """Answers tool calls for one generated package; transport-free (the server wires MCP).

    ``tools`` is the ``tools`` list of ``mcp.json``; ``contracts`` the typed contracts of
    ``_contracts.json`` (``load_contracts``); ``client`` the generated (sync) Client. Every
    answer is a dict valid under the tool's ``outputSchema`` plus an ``is_error`` flag.
    """

    def __init__(
        self,
        tools: Sequence[Mapping[str, Any]],
        contracts: Mapping[str, Contract],
        client: Any,
        keeper: EvidenceKeeper,
        *,
        default_max_pages: int = 20,
        default_deadline_s: float = 20.0,
        max_deadline_s: float = 300.0,
        only: Collection[str] | None = None,
        body_credentials: Mapping[str, str] | None = None,
        max_answer_items: int | None = None,
        max_answer_bytes: int | None = DEFAULT_MAX_ANSWER_BYTES,
    ) -> None:
        everything = [_tool(t) for t in tools]
        self.tools = {t.name: t for t in everything if only is None or t.operation in only}
        self.by_operation = {t.operation: t for t in self.tools.values()}
        self.contracts = contracts
        self.client = client
        self.keeper = keeper
        self.body_credentials = {str(k): str(v) for k, v in (body_credentials or {}).items()}
        """Body fields the host supplies (``--body-field``), added to the body of every tool
        whose ``_meta["x-completeness/host_body"]`` names them; never a model's argument."""
        self.redactor = Redactor.of(client, self.body_credentials.values())
        """Masks the host's credentials in every answer; re-binds continuations."""
        bounds = (("max_answer_items", max_answer_items), ("max_answer_bytes", max_answer_bytes))
        for name, bound in bounds:
            if bound is not None and (isinstance(bound, bool) or int(bound) < 1):
                raise ValueError(f"{name} must be a positive integer or None, got {bound!r}")
        self.max_answer_items = max_answer_items
        self.max_answer_bytes = max_answer_bytes
        """The bound on one listing answer (:mod:`.answer_bound`): items, bytes of their JSON."""
        self.default_max_pages = default_max_pages
        self.default_deadline_s = default_deadline_s
        self.max_deadline_s = max_deadline_s
        self._evidence_sources = {
            str(c.evidence_from) for c in contracts.values() if c.evidence_from
        }

    def definitions(self) -> list[Mapping[str, Any]]:
        """The tools as published in ``tools/list``: without ``_meta`` (the server's own routing
        data, nothing an agent can use)."""
        return [self.published(t.definition) for t in self.tools.values()]

    @staticmethod
    def published(definition: Mapping[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in definition.items() if k != "_meta"}

    def call(self, name: str, arguments: Mapping[str, Any] | None) -> tuple[dict[str, Any], bool]:
        tool = self.tools.get(name)
        if tool is None:
            return error_result("UNKNOWN_TOOL", "no tool of that name"), True
        # The one gate toward the model: whatever the API echoed of the host's credentials
        # (a next link's ``key=``, a quoted bearer token) is masked before it is checked and sent.
        env = self.redactor.scrub(self._answer(tool, arguments))
        problems = validate(env, tool.definition["outputSchema"]) or _invariant_problems(env)
        if problems:
            env = error_result("OUTPUT_INVALID", "; ".join(problems)[:2000])
        return env, env["status"] == "error"

    def _answer(self, tool: _Tool, arguments: Mapping[str, Any] | None) -> dict[str, Any]:
        args = dict(arguments or {})
        schema = tool.definition["inputSchema"]
        for name, sub in (schema.get("properties") or {}).items():
            if name not in args and not validate(None, sub):
                args[name] = None  # strict schemas require nullable keys; MCP callers may omit them
        problems = validate(args, schema)
        decoded, bad = self._decode(tool, args)
        if problems or bad:
            return error_result("INVALID_ARGUMENTS", "; ".join([*problems, *bad])[:2000])
        decoded = {tool.spec_names.get(k, k): v for k, v in decoded.items()}
        try:
            if tool.kind in LISTING_KINDS:
                return self._listing(tool, decoded)
            if tool.kind == "mutation":
                return self._mutation(tool, decoded)
            return self._single(tool, decoded)
        except Exception as exc:  # noqa: BLE001 -- every failure becomes a typed error envelope
            return api_error(exc)

    def _decode(self, tool: _Tool, args: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
        bad = []
        for name in tool.json_args:
            if isinstance(args.get(name), str):
                try:
                    args[name] = read_json(args[name])
                except ValueError:
                    bad.append(f"/{name}: not valid JSON")
        return args, bad

    def _listing(self, tool: _Tool, args: dict[str, Any]) -> dict[str, Any]:
        contract = self.contracts[tool.operation]
        params = {k: args[k] for k in tool.params if args.get(k) is not None}
        # A POST search's body fields (its query); the walk writes the paging ones itself.
        params.update({k: args[k] for k in tool.body if args.get(k) is not None})
        sent = {**params, **self._host_body(tool)}  # the evidence binds the model's query only
        # A continuation comes back re-bound: the host's query credentials are dropped from the
        # URL it holds and the client adds its own (the model never carries nor chooses them).
        resumed = self.redactor.rebind(args.get("continuation"))
        max_pages = args.get("max_pages") or self.default_max_pages
        deadline = args.get("deadline_s")
        deadline = self.default_deadline_s if deadline is None else float(deadline)
        op = getattr(self.client, tool.client_attr)
        keywords, rest = op.split_arguments(sent)  # required path parameters are keywords
        stream = op.iter_pages(
            max_pages=int(max_pages),
            deadline=min(deadline, self.max_deadline_s),
            continuation=resumed,
            params=rest,
            **keywords,
        )
        result = bounded_walk(
            stream, max_items=self.max_answer_items, max_bytes=self.max_answer_bytes
        )
        scope = contract.scope.declared() if contract.scope else {}
        key = _resource_key(scope.get("resource"))
        # Scrubbed before evidence is minted: the token binds the ids the model is shown.
        env = self.redactor.scrub(tool_result(result, resource_key=key, scope=scope))
        mints = contract.mints_evidence or tool.operation in self._evidence_sources
        if env["status"] == "complete" and mints and resumed is None and _undoubted(env, contract):
            tokens = contract.id_pointer if contract.id and contract.id_pointer else ("id",)
            ids = [id_at(i, tokens) for i in env["data"][key]]
            if all(i is not None for i in ids) and len(ids) <= MAX_EVIDENCE_IDS:
                ttl = (contract.evidence.ttl_seconds if contract.evidence else None) or 600
                api_token = get(result, "evidence")
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
        contract = self.contracts[tool.operation]
        mutation = contract.mutation
        source = contract.evidence_from
        ids_field = _body_field(mutation.ids if mutation else None)
        token_field = _body_field(mutation.token if mutation else None)
        raw_targets = args.get(ids_field) if ids_field else _param_targets(mutation, args)
        targets = [id_text(t) for t in raw_targets] if isinstance(raw_targets, list) else None
        source_tool = self.by_operation.get(str(source)) if source else None
        source_contract = self.contracts.get(str(source)) if source else None
        source_scope = source_contract.scope if source_contract else None

        def refuse(codes: Sequence[str], outside: Sequence[str] = ()) -> dict[str, Any]:
            return refusal(
                tool=tool.name,
                destructive=contract.destructive,
                codes=codes,
                targets=targets,
                outside=outside,
                listing_tool=source_tool.name if source_tool else None,
                listing_scope=source_scope.to_dict() if source_scope else None,
            )

        if not source:
            if contract.recheck_each_target:
                return self._rechecked(tool, contract, args)
            if contract.destructive:
                return refuse(["EVIDENCE_UNSUPPORTED"])
            return self._send(tool, args)
        try:
            grant = self.keeper.verify(
                args.get("evidence"),
                operation=str(source),
                targets=targets,
                void_on_warnings=mutation.void_on_warnings if mutation else (),
                needs_api_token=bool(token_field)
                and source_contract is not None
                and _api_mints(source_contract),
            )
        except Refused as exc:
            return refuse(exc.codes, exc.outside)
        if not self.keeper.claim(grant):  # spent meanwhile, here or on another server
            return refuse(["EVIDENCE_ALREADY_USED"])
        extra = {token_field: grant.api_token} if token_field and grant.api_token else {}
        try:
            env = self._send(tool, args, extra)
        except BaseException:
            self.keeper.release(grant)  # the API did not act: a failed call keeps the token
            raise
        self.keeper.consume(grant)
        return env

    def _rechecked(self, tool: _Tool, contract: Contract, args: dict[str, Any]) -> dict[str, Any]:
        """A ``recheck`` mutation: re-read every target first, call the API only if all pass."""
        read_op = str(contract.recheck_each_target)
        read_tool = self.by_operation.get(read_op)
        read_contract = self.contracts.get(read_op)
        param = target_param(read_contract) if read_contract is not None else None
        targets, _ = (
            recheck_targets(param, args, params=tool.params, body=tool.body)
            if param
            else (None, None)
        )

        def refuse(codes: Sequence[str], failures: Sequence[RecheckFailure] = ()) -> dict:
            return refusal(
                tool=tool.name,
                destructive=contract.destructive,
                codes=codes,
                targets=targets,
                outside=[f.id for f in failures],
                listing_tool=None,
                listing_scope=None,
                recheck_tool=read_tool.name if read_tool else read_op,
                failures=[f.to_dict() for f in failures],
            )

        if read_tool is None or read_contract is None or param is None or not targets:
            return refuse(["TARGETS_MISSING"])
        unique = list(dict.fromkeys(targets))
        if len(unique) > MAX_RECHECK_TARGETS:
            return refuse(["TARGETS_TOO_MANY"])
        read = getattr(self.client, read_tool.client_attr)
        omitted = read_contract.omitted_fields
        failures = [
            f
            for t in unique
            if (f := read_failure(t, functools.partial(_invoke, read, {param: t}), omitted))
            is not None
        ]
        if failures:
            return refuse(sorted({f.code for f in failures}), failures)
        return self._send(tool, args)

    def _send(
        self, tool: _Tool, args: Mapping[str, Any], extra: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """Call the mutation with its body fields (plus ``extra``) and its parameters."""
        body = {k: args[k] for k in tool.body if args.get(k) is not None}
        body.update(self._host_body(tool))
        body.update(extra or {})
        params = {k: args[k] for k in tool.params if args.get(k) is not None}
        call = getattr(self.client, tool.client_attr)
        return single_result("response", _invoke(call, params, body))

    def _host_body(self, tool: _Tool) -> dict[str, str]:
        return {k: self.body_credentials[k] for k in tool.host_body if k in self.body_credentials}

    def _single(self, tool: _Tool, args: dict[str, Any]) -> dict[str, Any]:
        params = {k: args[k] for k in tool.params if args.get(k) is not None}
        omitted = self.contracts[tool.operation].omitted_fields
        response = _invoke(getattr(self.client, tool.client_attr), params)
        return single_result("item", response, omitted_fields=omitted)


def _invoke(call: Any, params: Mapping[str, Any], body: Mapping[str, Any] | None = None) -> Any:
    """Call a generated single operation with arguments by spec name, as ``_listing`` calls a
    walk: the operation's own parameters as keywords (a path parameter the client names as the
    spec does, ``tasklist``, is a required keyword: ``params=`` alone does not satisfy it), the
    rest in ``params=``, the body fields as keywords."""
    keywords, rest = call.split_arguments(params)
    return call(params=rest or None, **keywords, **(body or {}))


def _undoubted(env: dict[str, Any], contract: Contract) -> bool:
    """True when a complete listing may carry evidence: its end was confirmed by the API and
    not doubted (no END_INFERRED, ITEMS_SEEN_TWICE or DUPLICATE_CHECK_STOPPED the declaration's
    ``evidence.accept`` leaves out). Otherwise the envelope says why (EVIDENCE_WITHHELD)."""
    warnings = env["warnings"]
    accept = contract.evidence.accept if contract.evidence is not None else ()
    doubt = evidence_doubts(((w["code"], w["details"]) for w in warnings), accept)
    if doubt is None:
        return True
    if not any(w["code"] == doubt.code for w in warnings):  # the client may have said it already
        warnings.append({"code": doubt.code, "message": doubt.message, "details": doubt.details})
    return False


def _api_mints(contract: Contract) -> bool:
    """True when the listing's API returns its own evidence token (native, ``mint: true``)."""
    return contract.mode == "native" and contract.mints_evidence


def _invariant_problems(env: Mapping[str, Any]) -> list[str]:
    """The runtime's ToolResult model re-checks the envelope invariants (status vs complete...)."""
    try:
        ToolResult.model_validate(env)
    except ValueError as exc:  # pydantic's ValidationError is a ValueError
        return [str(exc).splitlines()[0]]
    return []


def _param_targets(mutation: Any, args: Mapping[str, Any]) -> list[Any] | None:
    """The target ids of a mutation whose ``evidence.ids`` names a path or query parameter
    (``$request.path.templateIdOrAlias``: Postmark's ``DELETE /templates/{id}`` acts on one
    target), by its spec name: one id, or a list for an array parameter. None when the
    declaration names no parameter or the call gives none (then ``TARGETS_MISSING``)."""
    expr = mutation.ids if mutation is not None else None
    if not isinstance(expr, str):
        return None
    for prefix in ("$request.path.", "$request.query."):
        if expr.startswith(prefix):
            value = args.get(expr[len(prefix) :])
            if isinstance(value, list):
                return value
            return None if value is None or isinstance(value, dict) else [value]
    return None


def _body_field(expr: Any) -> str | None:
    if not isinstance(expr, str) or not expr.startswith("$request.body#/"):
        return None
    token = expr.split("#/", 1)[1]
    return None if "/" in token else unescape_token(token)


_FILE_SUFFIX = re.compile(r"[._](?:json|xml|csv|ya?ml|txt|html?)$", re.IGNORECASE)


def _resource_key(resource: Any) -> str:
    """The ``data`` key: the declared resource, less a file suffix (``messages_json`` and
    ``Messages.json`` are ``messages`` / ``Messages``), when that is a plain word; else
    ``items``."""
    if isinstance(resource, str):
        resource = _FILE_SUFFIX.sub("", resource)
    if isinstance(resource, str) and resource.replace("_", "").isalnum() and resource.isascii():
        return resource[:64]
    return "items"
