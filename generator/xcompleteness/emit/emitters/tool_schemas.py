"""Pure builders for the agent tool definitions (MCP, OpenAI strict, Anthropic).

Why a separate module: the schemas are data, built as Python dicts (never templated JSON) from
the IR, and every rule that makes them acceptable to all three targets lives here in one place:

- one input schema per tool, already in OpenAI *strict* form (closed objects, every property
  required, optional ones as null unions, only documented keywords), so MCP, OpenAI and Anthropic
  publish the same arguments and one executor can serve them all;
- a spec schema that strict mode cannot express (free-form objects, ``allOf``, unknown types, too
  deep) becomes a JSON-encoded string argument, listed in the tool's ``_meta`` so the MCP server
  decodes it -- never silently loosened;
- spec text (summaries, descriptions) is untrusted: it is flattened, stripped of control and
  bidi characters, cut short and quoted as data.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from xcompleteness.document import deref, pointer_tokens
from xcompleteness.runtime.approval import WHY
from xcompleteness.runtime.codes import CLIENT_CODES as _CLIENT_CODES
from xcompleteness.runtime.codes import CLIENT_WARNING_CODES, CONTINUATION_KINDS

STATUS = ("complete", "partial", "error")
_SORTED_CLIENT_CODES = tuple(sorted(_CLIENT_CODES))
REFUSAL_CODES = tuple(WHY)
CONTROL_ARGS = ("max_pages", "deadline_s", "continuation")
MUTATION_ARGS = ("evidence",)
META_JSON_ARGS = "x-completeness/json_args"
META_KIND = "x-completeness/kind"

# OpenAI Structured Outputs, "Supported schemas"
# (platform.openai.com/docs/guides/structured-outputs#supported-schemas):
# string: pattern, format (date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid);
# number: multipleOf, maximum, exclusiveMaximum, minimum, exclusiveMinimum; array: minItems,
# maxItems; objects need additionalProperties: false and every property in required. We keep a
# strict subset and drop ``pattern`` (an untrusted regex is not worth constraining decoding with).
STRING_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)
NUMBER_KEYS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
ARRAY_KEYS = ("minItems", "maxItems")
MAX_NESTING = 5  # object levels below the root we emit (OpenAI allows 10; keep headroom)
MAX_ENUM = 250
DESCRIPTION_LIMIT = 300


def neutral(text: Any, limit: int = DESCRIPTION_LIMIT) -> str:
    """Spec text flattened to one line of printable characters, cut to ``limit``.

    Control, format (bidi overrides, zero-width) and separator characters become spaces, so the
    text cannot fake a new line, a heading or a hidden instruction in a prompt.
    """
    if not isinstance(text, str):
        return ""
    chars = []
    for ch in text:
        cat = unicodedata.category(ch)
        chars.append(" " if cat[0] in "CZ" else ch)
    flat = " ".join("".join(chars).split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def quoted(text: Any, limit: int = DESCRIPTION_LIMIT) -> str:
    """``neutral(text)`` as a JSON string literal: visibly quoted data, never an instruction."""
    return json.dumps(neutral(text, limit), ensure_ascii=False)


def md_data(text: Any, limit: int) -> str:
    """Spec text for Markdown (AGENT_RULES.md, the project README): neutralised, JSON-quoted and
    inside a code span (inert data)."""
    return "`" + quoted(text, limit).replace("`", "'") + "`"


# --------------------------------------------------------------------------- spec -> strict


def strict_schema(doc: Mapping[str, Any], schema: Any, depth: int = 0) -> dict[str, Any] | None:
    """A strict-mode JSON Schema equivalent to ``schema``, or None when it cannot be expressed."""
    s = deref(doc, schema)
    if not isinstance(s, Mapping) or depth > MAX_NESTING:
        return None
    for combo in ("anyOf", "oneOf"):
        if isinstance(s.get(combo), list):
            return _strict_union(doc, s[combo], depth)
    if any(k in s for k in ("allOf", "not", "if", "then", "else", "const")):
        return None
    t = s.get("type")
    nullable = bool(s.get("nullable"))
    if isinstance(t, list):
        nullable = nullable or "null" in t
        rest = [x for x in t if x != "null"]
        if len(rest) != 1:
            return None
        t = rest[0]
    out = _strict_typed(doc, s, t, depth)
    if out is None:
        return None
    desc = neutral(s.get("description"))
    if desc:
        out["description"] = desc
    return make_nullable(out) if nullable else out


def _strict_typed(doc: Mapping[str, Any], s: Mapping[str, Any], t: Any, depth: int) -> dict | None:
    if "enum" in s:
        values = s["enum"]
        if not isinstance(values, list) or not values or len(values) > MAX_ENUM:
            return None
        if not all(isinstance(v, (str, int, float, bool)) for v in values):
            return None
        kinds = {type(v) for v in values}
        if t is None:
            t = {str: "string", bool: "boolean", int: "integer", float: "number"}.get(
                next(iter(kinds)) if len(kinds) == 1 else None
            )
        if t is None:
            return None
        return {"type": t, "enum": list(values)}
    if t == "string":
        out: dict[str, Any] = {"type": "string"}
        if s.get("format") in STRING_FORMATS:
            out["format"] = s["format"]
        return out
    if t in ("integer", "number"):
        out = {"type": t}
        out.update({k: s[k] for k in NUMBER_KEYS if isinstance(s.get(k), (int, float))})
        return out
    if t == "boolean":
        return {"type": "boolean"}
    if t == "array":
        items = strict_schema(doc, s.get("items"), depth + 1)
        if items is None:
            return None
        out = {"type": "array", "items": items}
        out.update({k: s[k] for k in ARRAY_KEYS if isinstance(s.get(k), int)})
        return out
    if t == "object" or (t is None and "properties" in s):
        props = s.get("properties")
        if (
            not isinstance(props, Mapping)
            or not props
            or s.get("additionalProperties") not in (None, False)
        ):
            return None  # a free-form object has no strict form
        required = set(s.get("required") or [])
        fields: dict[str, Any] = {}
        for name in sorted(props):
            sub = strict_schema(doc, props[name], depth + 1)
            if sub is None:
                return None
            fields[str(name)] = sub if name in required else make_nullable(sub)
        return closed_object(fields)
    return None


def _strict_union(doc: Mapping[str, Any], options: list[Any], depth: int) -> dict[str, Any] | None:
    converted = []
    nullable = False
    for option in options:
        o = deref(doc, option)
        if isinstance(o, Mapping) and o.get("type") == "null":
            nullable = True
            continue
        sub = strict_schema(doc, option, depth + 1)
        if sub is None:
            return None
        converted.append(sub)
    if not converted:
        return None
    out = converted[0] if len(converted) == 1 else {"anyOf": converted}
    return make_nullable(out) if nullable else out


def make_nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` or null, spelled the way strict mode accepts (type list, or anyOf with null)."""
    if "anyOf" in schema:
        if not any(o.get("type") == "null" for o in schema["anyOf"]):
            schema = {**schema, "anyOf": [*schema["anyOf"], {"type": "null"}]}
        return schema
    t = schema.get("type")
    if isinstance(t, str) and t not in ("object", "array"):
        out = {**schema, "type": [t, "null"]}
        if "enum" in out and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
        return out
    if isinstance(t, list):
        return schema if "null" in t else {**schema, "type": [*t, "null"]}
    desc = schema.get("description")
    inner = {k: v for k, v in schema.items() if k != "description"}
    out = {"anyOf": [inner, {"type": "null"}]}
    if desc:
        out["description"] = desc
    return out


def closed_object(properties: Mapping[str, Any], description: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {
        "type": "object",
        "properties": dict(properties),
        "required": sorted(properties),
        "additionalProperties": False,
    }
    if description:
        out["description"] = description
    return out


def nullable_scalar(t: str, description: str, **extra: Any) -> dict[str, Any]:
    return {"type": [t, "null"], "description": description, **extra}


# --------------------------------------------------------------------------- tool inputs


def input_schema(op: Any, document: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The arguments of ``op``'s tool and the names of JSON-encoded string arguments."""
    props: dict[str, Any] = {}
    json_args: list[str] = []
    reserved = set(CONTROL_ARGS if op.is_listing else ()) | set(
        MUTATION_ARGS if needs_evidence(op) else ()
    )

    def add(name: str, schema: Any, required: bool, description: str) -> None:
        if name in reserved or name in props:
            return  # our control argument wins; the spec value is not reachable from the tool
        strict = strict_schema(document, schema)
        desc = neutral(description)
        if strict is None:
            json_args.append(name)
            strict = {"type": "string"}
            desc = f"{desc} (a JSON-encoded value)".strip()
        if desc:
            strict = {**strict, "description": desc}
        props[name] = strict if required else make_nullable(strict)

    for param in tool_parameters(op):
        add(param.name, param.schema, param.required, param.description)
    if op.is_mutation:
        for fld in tool_body_fields(op):
            add(fld.name, fld.schema, fld.required, fld.description)
    if needs_evidence(op):
        props["evidence"] = nullable_scalar(
            "string",
            "Evidence token from a COMPLETE result of the listing tool named in this tool's "
            "description. Without it the mutation is refused.",
        )
    if op.is_listing:
        props["max_pages"] = nullable_scalar(
            "integer", "Stop after this many pages (null: the server default).", minimum=1
        )
        props["deadline_s"] = nullable_scalar(
            "number",
            "Stop collecting after this many seconds (null: the server default).",
            minimum=0,
        )
        props["continuation"] = nullable_scalar(
            "string", "The continuation.cursor of a previous partial result, to resume it."
        )
    return closed_object(props), sorted(json_args)


def needs_evidence(op: Any) -> bool:
    """A mutation takes ``evidence`` when it declares a listing for it or is destructive.

    A ``recheck`` mutation re-reads its targets instead, so it takes no evidence argument.
    """
    contract = op.contract
    if contract.recheck_each_target and not contract.evidence_from:
        return False
    return bool(op.is_mutation and (contract.evidence_from or contract.destructive))


def managed_params(op: Any) -> set[str]:
    """Parameters the walk sets itself (cursor, size, offset, page, server deadline)."""
    contract = op.contract
    out: set[str] = set()
    if contract.pagination is not None:
        out.update(v for v in contract.pagination.request.to_dict().values() if v is not None)
    if contract.deadline is not None and contract.deadline.param is not None:
        out.add(contract.deadline.param)
    return out


def tool_parameters(op: Any) -> list[Any]:
    """Path and query parameters the model may set (headers and cookies carry credentials)."""
    managed = managed_params(op)
    return [p for p in op.parameters if p.location in ("path", "query") and p.name not in managed]


def _body_pointer_field(expr: Any) -> str | None:
    """``$request.body#/evidence`` -> ``evidence`` (only a top-level body field)."""
    if not isinstance(expr, str) or not expr.startswith("$request.body#/"):
        return None
    tokens = pointer_tokens("/" + expr.split("#/", 1)[1])
    return tokens[0] if tokens is not None and len(tokens) == 1 else None


def evidence_token_field(op: Any) -> str | None:
    mutation = op.contract.mutation
    return _body_pointer_field(mutation.token if mutation else None)


def target_ids_field(op: Any) -> str | None:
    mutation = op.contract.mutation
    return _body_pointer_field(mutation.ids if mutation else None)


def tool_body_fields(op: Any) -> list[Any]:
    """Body fields the model supplies: all but the API evidence token, which the server fills."""
    hidden = evidence_token_field(op)
    return [f for f in op.body_fields if f.name != hidden]


# --------------------------------------------------------------------------- tool result


def _reason_schema(codes: Iterable[str]) -> dict[str, Any]:
    return closed_object(
        {
            "code": {"type": "string", "enum": sorted(set(codes))},
            "origin": {"type": "string", "enum": ["client", "server"]},
            "details": {"type": "object"},
            "message": {"type": ["string", "null"]},
        }
    ) | {"required": ["code", "origin", "details"]}


def output_schema(reason_codes: Iterable[str], warning_codes: Iterable[str]) -> dict[str, Any]:
    """The tool result envelope of DESIGN.md §4 as a JSON Schema (MCP ``outputSchema``)."""
    continuation = {
        "type": ["object", "null"],
        "properties": {
            "kind": {"type": "string", "enum": list(CONTINUATION_KINDS)},
            "cursor": {"type": ["string", "null"]},
            "seconds": {"type": ["number", "null"]},
            "minimum_seconds": {"type": ["number", "null"]},
        },
        "required": ["kind"],
        "additionalProperties": False,
    }
    warnings = sorted(set(warning_codes) | CLIENT_WARNING_CODES)  # client codes: any tool
    warning = {
        "type": "object",
        "properties": {
            "code": {"type": "string", "enum": warnings} if warnings else {"type": "string"},
            "message": {"type": ["string", "null"]},
            "details": {"type": "object"},
        },
        "required": ["code"],
        "additionalProperties": False,
    }
    approval = {
        "type": ["object", "null"],
        "properties": {
            "action": {"type": "string"},
            "target_scope": {"type": "object"},
            "why": {"type": "array", "items": {"type": "string"}},
            "options": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "option": {
                            "type": "string",
                            "enum": [
                                "retry_with_longer_deadline",
                                "act_only_on_returned_ids",
                                "abandon",
                            ],
                        },
                        "description": {"type": "string"},
                    },
                    "required": ["option", "description"],
                },
            },
        },
        "required": ["action", "target_scope", "why", "options"],
    }
    error = {
        "type": ["object", "null"],
        "properties": {
            "code": {"type": "string"},
            "reasons": {"type": "array", "items": {"type": "string"}},
            "message": {"type": "string"},
            "decision": {"type": ["string", "null"]},
        },
        "required": ["code", "reasons", "message"],
    }
    return {
        "type": "object",
        "properties": {
            "status": {"type": "string", "enum": list(STATUS)},
            "data": {"type": ["object", "null"]},
            "completeness": {
                "type": "object",
                "properties": {
                    "complete": {"type": "boolean"},
                    "reasons": {
                        "type": "array",
                        "items": _reason_schema([*reason_codes, *_SORTED_CLIENT_CODES]),
                    },
                    "scope": {"type": ["object", "null"]},
                    "continuation": continuation,
                },
                "required": ["complete", "reasons", "scope", "continuation"],
                "additionalProperties": False,
            },
            "warnings": {"type": "array", "items": warning},
            "evidence": {"type": ["string", "null"]},
            "error": error,
            "approval": approval,
        },
        "required": ["status", "data", "completeness", "warnings", "evidence"],
        "additionalProperties": False,
    }


# --------------------------------------------------------------------------- descriptions


def description(op: Any, listing_tool: Mapping[str, str]) -> str:
    """Tool description built from the declaration; spec text appears only quoted."""
    contract = op.contract
    resource = contract.scope.resource if contract.scope else None
    parts = []
    summary = op.summary or op.description
    if summary:
        parts.append(f"API summary (quoted spec text): {quoted(summary, 160)}.")
    if op.is_listing:
        codes = ", ".join(r.code for r in op.reasons) or "none declared"
        parts.append(
            f"Read-only {op.kind} tool. Collects pages within max_pages/deadline_s and returns a "
            "completeness envelope. status is 'complete' only when the whole declared scope was "
            "read; an empty list proves absence ONLY when completeness.complete is true."
        )
        parts.append(f"Incomplete reasons it may report: {codes}.")
        if resource:
            parts.append(f"Scope resource: {quoted(resource, 80)}.")
        if contract.mints_evidence:
            parts.append("A complete result carries an evidence token for the mutation tools.")
    elif op.is_mutation:
        source = contract.evidence_from
        kind = "DESTRUCTIVE mutation" if contract.destructive else "Mutation"
        if source:
            source_tool = listing_tool.get(str(source), "the declared listing tool")
            parts.append(
                f"{kind} tool. Requires 'evidence' from a complete result of {source_tool}; "
                "every target id must be in that result. Otherwise it is refused before any API "
                "call, with an approval prompt."
            )
        elif contract.recheck_each_target:
            each = str(contract.recheck_each_target)
            read_tool = listing_tool.get(each, "the declared single-read tool")
            parts.append(
                f"{kind} tool. Before any API call the server re-reads every target id with "
                f"{read_tool}; it proceeds only if every target exists and reads complete, "
                "otherwise it is refused with the failing ids and an approval prompt."
            )
        elif contract.destructive:
            parts.append(
                f"{kind} tool without a declared evidence listing: the MCP server refuses it "
                "(EVIDENCE_UNSUPPORTED) with an approval prompt for a human."
            )
        else:
            parts.append(f"{kind} tool (not destructive; no evidence declared).")
    else:
        parts.append(f"Read-only {op.kind} tool returning the completeness envelope.")
    return " ".join(parts)


def annotations(op: Any) -> dict[str, Any]:
    if op.is_mutation:
        destructive = op.contract.destructive
        return {
            "readOnlyHint": False,
            "destructiveHint": destructive,
            "idempotentHint": False,
            "openWorldHint": True,
        }
    return {
        "readOnlyHint": True,
        "destructiveHint": False,
        "idempotentHint": True,
        "openWorldHint": True,
    }


# --------------------------------------------------------------------------- targets


def mcp_tool(name: str, desc: str, params: dict, out: dict, ann: dict, meta: dict) -> dict:
    return {
        "name": name,
        "title": name.replace("_", " "),
        "description": desc,
        "inputSchema": params,
        "outputSchema": out,
        "annotations": ann,
        "_meta": meta,
    }


def openai_responses_tool(name: str, desc: str, params: dict) -> dict:
    return {
        "type": "function",
        "name": name,
        "description": desc,
        "parameters": params,
        "strict": True,
    }


def openai_chat_tool(name: str, desc: str, params: dict) -> dict:
    return {
        "type": "function",
        "function": {"name": name, "description": desc, "parameters": params, "strict": True},
    }


def anthropic_tool(name: str, desc: str, params: dict) -> dict:
    return {"name": name, "description": desc, "input_schema": params}
