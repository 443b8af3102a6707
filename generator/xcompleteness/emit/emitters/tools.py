"""Emit ``NAME/tools/``: tool definitions for MCP, OpenAI and Anthropic, the MCP server and rules.

One tool per declared operation, named by the IR (the naming authority already made the names
valid for every target and unique). The JSON files are built as dicts by
:mod:`xcompleteness.emit.emitters.tool_schemas` and written with sorted keys, so the output is
byte-identical between runs; only ``mcp_server.py``, ``__init__.py`` and ``AGENT_RULES.md`` are
rendered from templates (``templates/tools/``), and none of them inlines spec text except through
the escapers (Python) or ``tool_schemas.md_data`` (Markdown: neutralised, quoted, in a code span).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import PurePosixPath
from typing import Any

from xcompleteness.diagnostics import Diagnostic, Severity
from xcompleteness.document import resolve_pointer
from xcompleteness.emit._json import dumps_indented
from xcompleteness.emit._render import Renderer
from xcompleteness.emit.emitters import EmitError, tool_dynamic
from xcompleteness.emit.emitters import tool_schemas as ts
from xcompleteness.emit.emitters.tool_schemas import md_data
from xcompleteness.ir import SpecIR
from xcompleteness.resources import runtime_constant
from xcompleteness.runtime.contract import ScopeDecl
from xcompleteness.runtime.recheck import OMISSION_REASONS

TOOLS = PurePosixPath("tools")
SNAPSHOTS = ("none", "request", "token")
_CODE = re.compile(r"^[A-Z][A-Z0-9_]{0,63}$")


def _code(code: Any) -> str:
    """A reason/warning code for Markdown; anything not shaped like a code is shown as invalid."""
    return code if isinstance(code, str) and _CODE.match(code) else "INVALID_CODE"


def dump(obj: Any) -> str:
    return dumps_indented(obj, ensure_ascii=True, default=None) + "\n"


def reason_codes(op: Any) -> list[str]:
    """The reasons a tool can report: the declared ones, plus, for a single read with an
    omitted-fields map, the codes a FORBIDDEN / SOURCE_FAILED field is reported as."""
    codes = [r.code for r in op.reasons]
    if op.contract.omitted_fields:
        codes += [c for c in OMISSION_REASONS.values() if c not in codes]
    return codes


def op_tags(spec: SpecIR, op: Any) -> list[str]:
    """The operation's OpenAPI ``tags`` (strings only), for ``--tools`` and ``search_tools``."""
    found, node = resolve_pointer(spec.document, op.pointer)
    tags = node.get("tags") if found and isinstance(node, dict) else None
    return [t for t in tags if isinstance(t, str)] if isinstance(tags, list) else []


def chosen_operations(spec: SpecIR) -> list[Any]:
    """The operations that get a tool: all, or the ``--tools`` subset closed under evidence
    (:func:`xcompleteness.runtime.toolsets.select`; a selector matching nothing is XC609)."""
    if not spec.tool_selection:
        return list(spec.operations)
    # imported only for a subset: the runtime's toolsets import httpx (tool results)
    from xcompleteness.runtime.toolsets import SelectionError, select

    entries = [(op.operation_id, op.tool_name, op_tags(spec, op)) for op in spec.operations]
    try:
        picked = select(spec.tool_selection, entries, spec.contracts)
    except SelectionError as exc:
        raise EmitError(
            [
                Diagnostic(
                    file=spec.source,
                    pointer="",
                    code="XC609",
                    message=f"--tools {sel!r} matches no declared operation, tool name or tag",
                    severity=Severity.ERROR,
                    hint="select by operationId, tool name or OpenAPI tag (globs allowed: "
                    "'list_*'); only declared operations have tools",
                )
                for sel in exc.unmatched
            ]
        ) from None
    return [op for op in spec.operations if op.operation_id in picked]


def tool_defs(spec: SpecIR, operations: Sequence[Any] | None = None) -> list[dict[str, Any]]:
    """The target-neutral definition of every tool (name, description, schemas, metadata)."""
    ops = list(spec.operations if operations is None else operations)
    listing_tool = {op.operation_id: op.tool_name for op in spec.operations}
    unlocks: dict[str, list[str]] = {}
    for op in ops:
        if op.contract.evidence_from:
            unlocks.setdefault(str(op.contract.evidence_from), []).append(op.tool_name)
    out = []
    for op in ops:
        params, json_args = ts.input_schema(op, spec.document)
        warning_codes = [w.code for w in op.warnings]
        if op.is_mutation:
            source = spec.contracts.get(str(op.contract.evidence_from))
            warning_codes += list(source.warnings if source is not None else ())
        evidence_for = sorted(unlocks.get(op.operation_id, ()))
        source_tool = listing_tool.get(str(op.contract.evidence_from))
        scope = op.contract.scope
        meta = {
            "x-completeness/operation": op.operation_id,
            "x-completeness/client_attr": op.py_name,
            ts.META_KIND: op.kind,
            ts.META_JSON_ARGS: json_args,
            "x-completeness/params": sorted(p.name for p in ts.tool_parameters(op, spec.document)),
            "x-completeness/body": sorted(f.name for f in ts.tool_body_fields(op)),
            "x-completeness/spec_names": ts.spec_names(op, spec.document),
            runtime_constant("toolsets", "META"): {
                "summary": ts.brief(op.summary or op.description, ts.SUMMARY_LIMIT),
                "tags": [ts.neutral(t, 80) for t in op_tags(spec, op)],
                "resource": ts.neutral(scope.resource, 80) if scope and scope.resource else "",
                "evidence_pairs": [source_tool] if source_tool else evidence_for,
            },
        }
        host_body = ts.credential_body_fields(op) if op.is_mutation or op.is_listing else []
        if host_body:  # the host supplies these body fields (--body-field), never the model
            meta["x-completeness/host_body"] = host_body
        out.append(
            {
                "name": op.tool_name,
                "description": ts.description(op, listing_tool, evidence_for),
                "parameters": params,
                "output": ts.output_schema(reason_codes(op), warning_codes),
                "annotations": ts.annotations(op),
                "meta": meta,
            }
        )
    return out


def rules_context(spec: SpecIR, operations: Sequence[Any] | None = None) -> list[dict[str, Any]]:
    """What AGENT_RULES.md says per tool; every spec string is quoted and neutralised first."""
    rows = []
    for op in spec.operations if operations is None else operations:
        scope = op.contract.scope or ScopeDecl()
        mutation = op.contract.mutation
        rows.append(
            {
                "tool": op.tool_name,
                "kind": op.kind,
                "listing": op.is_listing,
                "mutation": op.is_mutation,
                "destructive": op.contract.destructive,
                "reasons": [_code(c) for c in reason_codes(op)],
                "warnings": [_code(w.code) for w in op.warnings],
                "resource": md_data(scope.resource, 80) if scope.resource else "",
                "covers": md_data(scope.covers, 200) if scope.covers else "",
                "visibility": md_data(scope.visibility, 200) if scope.visibility else "",
                "snapshot": scope.snapshot if scope.snapshot in SNAPSHOTS else "none",
                "from_tool": _tool_of(spec, op.contract.evidence_from),
                "recheck_tool": _tool_of(spec, op.contract.recheck_each_target),
                "void_on_warnings": [
                    _code(w) for w in (mutation.void_on_warnings if mutation else ())
                ],
                "evidence": op.contract.mints_evidence,
            }
        )
    return rows


def _tool_of(spec: SpecIR, operation_id: Any) -> str:
    for op in spec.operations:
        if op.operation_id == operation_id:
            return op.tool_name
    return ""


def emit(spec: SpecIR, renderer: Renderer) -> dict[PurePosixPath, str]:
    ops = chosen_operations(spec)
    defs = tool_defs(spec, ops)
    mcp = {
        "tools": [
            ts.mcp_tool(
                d["name"],
                d["description"],
                d["parameters"],
                d["output"],
                d["annotations"],
                d["meta"],
            )
            for d in defs
        ],
        "dynamic": tool_dynamic.mcp_tools(),
    }
    openai = {
        "chat_completions": [
            ts.openai_chat_tool(d["name"], d["description"], d["parameters"]) for d in defs
        ],
        "responses": [
            ts.openai_responses_tool(d["name"], d["description"], d["parameters"]) for d in defs
        ],
        "dynamic": tool_dynamic.openai_tools(),
    }
    anthropic = {
        "tools": [ts.anthropic_tool(d["name"], d["description"], d["parameters"]) for d in defs],
        "dynamic": tool_dynamic.anthropic_tools(),
    }
    ctx = {"spec": spec, "tools": rules_context(spec, ops), "title": md_data(spec.title, 120)}
    return {
        TOOLS / "__init__.py": renderer.render("tools/__init__.py.jinja", **ctx),
        TOOLS / "mcp.json": dump(mcp),
        TOOLS / "openai.json": dump(openai),
        TOOLS / "anthropic.json": dump(anthropic),
        TOOLS / "mcp_server.py": renderer.render("tools/mcp_server.py.jinja", **ctx),
        TOOLS / "AGENT_RULES.md": renderer.render("tools/AGENT_RULES.md.jinja", **ctx),
    }


__all__ = ["chosen_operations", "dump", "emit", "md_data", "op_tags", "rules_context", "tool_defs"]
