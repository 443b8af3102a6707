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
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from xcompleteness.detect import (
    CREDENTIAL_PARAMS,
    PAGING_PARAMS,
    SHAPING_PARAMS,
    fold,
    role_keys,
    shapes_response,
)
from xcompleteness.document import deref, pointer_tokens
from xcompleteness.ir import argument_name
from xcompleteness.runtime.codes import CLIENT_CODES as _CLIENT_CODES
from xcompleteness.runtime.codes import CLIENT_WARNING_CODES

__all__ = [
    "ARRAY_KEYS",
    "CONTROL_ARGS",
    "DESCRIPTION_LIMIT",
    "MAX_ENUM",
    "MAX_NESTING",
    "META_JSON_ARGS",
    "META_KIND",
    "MUTATION_ARGS",
    "NUMBER_KEYS",
    "STATUS",
    "STRING_FORMATS",
    "annotations",
    "anthropic_tool",
    "closed_object",
    "credential_body_fields",
    "credential_params",
    "description",
    "evidence_token_field",
    "host_params",
    "input_schema",
    "make_nullable",
    "managed_params",
    "mcp_tool",
    "md_data",
    "needs_evidence",
    "neutral",
    "fit_schema_limits",
    "nullable_scalar",
    "number_bounds",
    "openai_chat_tool",
    "openai_responses_tool",
    "output_schema",
    "quoted",
    "size_cap",
    "strict_schema",
    "target_ids_field",
    "tool_body_fields",
    "tool_parameters",
]

STATUS = ("complete", "partial", "error")
_SORTED_CLIENT_CODES = tuple(sorted(_CLIENT_CODES))
CONTROL_ARGS = ("max_pages", "deadline_s", "continuation")


def __getattr__(name: str) -> Any:
    """``REFUSAL_CODES``: the runtime's refusal reasons, read on first use (the runtime module
    imports httpx, which rendering never needs)."""
    if name == "REFUSAL_CODES":
        from xcompleteness.runtime.approval import WHY

        return tuple(WHY)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
ENUM_VALUES_TOTAL = 1000
"""OpenAI strict mode: at most 1,000 enum values in one schema (all arguments together)."""
NAME_AND_ENUM_CHARS = 120_000
"""OpenAI strict mode: at most 120,000 characters of property names and enum values in one
schema."""
DESCRIPTION_LIMIT = 300
PARAM_DESCRIPTION_LIMIT = 120
"""Spec text in argument descriptions: the first sentences within this budget."""
SUMMARY_LIMIT = 160


def neutral(text: Any, limit: int = DESCRIPTION_LIMIT) -> str:
    """Spec text flattened to one line of printable characters, cut to ``limit``.

    Control, format (bidi overrides, zero-width) and separator characters become spaces, so the
    text cannot fake a new line, a heading or a hidden instruction in a prompt.
    """
    if not isinstance(text, str):
        return ""
    if text.isascii():  # the ASCII characters of categories C and Z: the controls and space
        flat = " ".join(text.translate(_ASCII_CZ).split())
    else:
        chars = []
        for ch in text:
            cat = unicodedata.category(ch)
            chars.append(" " if cat[0] in "CZ" else ch)
        flat = " ".join("".join(chars).split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


_ASCII_CZ = {code: " " for code in (*range(32), 127)}


_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]{0,15}(?:\s[^<>]{0,200})?/?>")
"""An HTML tag in spec prose (Stripe's ``<p>``, ``<code>``): markup, not meaning."""


def brief(text: Any, limit: int) -> str:
    """``neutral(text)`` without HTML tags, cut at the last sentence end within ``limit``
    characters (else at the last word, with an ellipsis): a description that stops mid-word
    reads as a different claim."""
    flat = neutral(_TAG.sub("", text) if isinstance(text, str) else text, 10_000)
    if len(flat) <= limit:
        return flat
    head = flat[:limit]
    ends = [m.end() for m in re.finditer(r"[.!?](?=\s)", head + " ")]
    if ends and ends[-1] >= limit // 3:
        return head[: ends[-1]].rstrip()
    cut = head[: limit - 1].rsplit(" ", 1)[0] if " " in head else head[: limit - 1]
    return cut.rstrip(" ,;:") + "…"


def quoted(text: Any, limit: int = DESCRIPTION_LIMIT) -> str:
    """``neutral(text)`` as a JSON string literal: visibly quoted data, never an instruction."""
    return json.dumps(brief(text, limit), ensure_ascii=False)


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
    desc = brief(s.get("description"), PARAM_DESCRIPTION_LIMIT)
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
        return {"type": t, **number_bounds(s)}
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


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def number_bounds(s: Mapping[str, Any]) -> dict[str, Any]:
    """A number schema's bounds as JSON Schema 2020-12 spells them (MCP's dialect, and OpenAI's).

    OpenAPI 3.0 (JSON Schema draft 4) writes an exclusive bound as a flag beside the bound:
    ``minimum: 0, exclusiveMinimum: true``; 2020-12 takes the number itself,
    ``exclusiveMinimum: 0``, and rejects the flag. A flag is turned into that number (``false``:
    the plain bound stays); a number (OpenAPI 3.1) is kept; anything else is left out.
    """
    out = {k: s[k] for k in ("minimum", "maximum", "multipleOf") if _number(s.get(k))}
    for flag, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        value = s.get(flag)
        if _number(value):
            out[flag] = value
        elif value is True and bound in out:
            out[flag] = out.pop(bound)
    return out


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
    """The arguments of ``op``'s tool and the names of JSON-encoded string arguments.

    Argument names follow the client's rule (docs/agents.md, "Arguments"): the keyword name the
    generated client gives the parameter or body field (``AccountSid`` -> ``account_sid``), see
    :func:`xcompleteness.ir.argument_name`; :func:`spec_names` maps them back for the server.
    """
    props: dict[str, Any] = {}
    json_args: list[str] = []
    reserved = set(CONTROL_ARGS if op.is_listing else ()) | set(
        MUTATION_ARGS if needs_evidence(op) else ()
    )

    cap = size_cap(op)

    def add(name: str, schema: Any, required: bool, description: str, spec_name: str) -> None:
        if name in reserved or name in props:
            return  # our control argument wins; the spec value is not reachable from the tool
        strict = strict_schema(document, schema)
        desc = brief(description, PARAM_DESCRIPTION_LIMIT)
        if strict is None:
            json_args.append(name)
            strict = {"type": "string"}
            desc = f"{desc} (JSON-encoded)".strip()
        if cap is not None and spec_name == cap[0] and "integer" in _types(strict):
            most = strict.get("maximum")
            most = min(most, cap[1]) if isinstance(most, int) else cap[1]
            strict = {**strict, "minimum": max(1, strict.get("minimum") or 1), "maximum": most}
            desc = f"{cap_text(cap[1])} {desc}".strip()
        if desc:
            strict = {**strict, "description": desc}
        props[name] = strict if required else make_nullable(strict)

    for param in tool_parameters(op, document):
        name = argument_name(param.py_name)
        add(name, param.schema, param.required, param.description, param.name)
    if op.is_mutation or op.is_listing:
        for fld in tool_body_fields(op):
            add(argument_name(fld.py_name), fld.schema, fld.required, fld.description, fld.name)
    if needs_evidence(op):
        props["evidence"] = nullable_scalar(
            "string", "The evidence token of a complete result of this tool's listing."
        )
    if op.is_listing:
        props["max_pages"] = nullable_scalar("integer", "Page limit.", minimum=1)
        props["deadline_s"] = nullable_scalar("number", "Seconds to spend.", minimum=0)
        props["continuation"] = nullable_scalar(
            "string", "continuation.cursor of a partial result."
        )
    fit_schema_limits(props)
    return closed_object(props), sorted(json_args)


def fit_schema_limits(props: Mapping[str, Any]) -> None:
    """Keep one tool's arguments within OpenAI strict mode's whole-schema limits (at most
    :data:`ENUM_VALUES_TOTAL` enum values and :data:`NAME_AND_ENUM_CHARS` characters of property
    names and enum values), which each argument alone can meet while a tool of many enum
    arguments does not: OpenAI refuses the whole tool list then.

    The largest enums give up their value list first (the type stays; the API still checks the
    value) and say so in their description, until the schema fits; a value list is never cut
    short, which would refuse values the API takes.
    """
    enums = [node for node in _schema_nodes(props.values()) if isinstance(node.get("enum"), list)]
    names = sum(len(str(n)) for node in _schema_nodes(props.values()) for n in _props_of(node))
    names += sum(len(str(n)) for n in props)
    values = sum(len(node["enum"]) for node in enums)
    chars = names + sum(_enum_chars(node) for node in enums)
    for node in sorted(enums, key=lambda n: (-len(n["enum"]), -_enum_chars(n))):
        if values <= ENUM_VALUES_TOTAL and chars <= NAME_AND_ENUM_CHARS:
            break
        values -= len(node["enum"])
        chars -= _enum_chars(node)
        count = sum(1 for v in node.pop("enum") if v is not None)
        note = f"One of {count} values the API lists (left out here: too many for one tool)."
        node["description"] = f"{node.get('description', '')} {note}".strip()


def _enum_chars(node: Mapping[str, Any]) -> int:
    return sum(len(str(v)) for v in node["enum"] if v is not None)


def _props_of(node: Mapping[str, Any]) -> Mapping[str, Any]:
    props = node.get("properties")
    return props if isinstance(props, Mapping) else {}


def _schema_nodes(schemas: Iterable[Any]) -> Iterable[dict[str, Any]]:
    """Every schema object in ``schemas`` and below (properties, items, anyOf), each once."""
    stack = [s for s in schemas if isinstance(s, dict)]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(v for v in _props_of(node).values() if isinstance(v, dict))
        if isinstance(node.get("items"), dict):
            stack.append(node["items"])
        stack.extend(o for o in node.get("anyOf") or () if isinstance(o, dict))


def spec_names(op: Any, document: Mapping[str, Any]) -> dict[str, str]:
    """Argument name -> spec name, for the arguments whose names differ (the server's map)."""
    body = tool_body_fields(op) if op.is_mutation or op.is_listing else ()
    fields = [*tool_parameters(op, document), *body]
    names = {argument_name(f.py_name): f.name for f in fields}
    return {arg: name for arg, name in names.items() if arg != name}


def size_cap(op: Any) -> tuple[str, int] | None:
    """(size parameter, max-page-size) of an unpaged listing capped by its size parameter
    (``style: none`` with ``request.size``), else None. Its size reaches the model: the walk
    sends it (the model's value up to the cap, else the cap), and a full answer is partial."""
    pag = op.contract.pagination if op.is_listing else None
    if pag is None or not pag.capped or pag.max_page_size is None:
        return None
    return str(pag.request.size), pag.max_page_size


def cap_text(cap: int) -> str:
    """What the size argument of a capped unpaged listing tells the model (never spec text)."""
    return (
        f"At most {cap} (sent as {cap} when null); one answer, no further page: an answer "
        "holding as many items as asked for is partial (RESULT_LIMIT_REACHED), so narrow the "
        "query."
    )


def _types(schema: Mapping[str, Any]) -> set[str]:
    kind = schema.get("type")
    if isinstance(kind, str):
        return {kind}
    return {k for k in kind if isinstance(k, str)} if isinstance(kind, list) else set()


def needs_evidence(op: Any) -> bool:
    """A mutation takes ``evidence`` when it declares a listing for it or is destructive.

    A ``recheck`` mutation re-reads its targets instead, so it takes no evidence argument.
    """
    contract = op.contract
    if contract.recheck_each_target and not contract.evidence_from:
        return False
    return bool(op.is_mutation and (contract.evidence_from or contract.destructive))


def managed_params(op: Any) -> set[str]:
    """Parameters the walk owns: the declared cursor, size, offset, page and server deadline,
    and on a listing every parameter named like a position or a page size (``page``,
    ``PageToken``, ``starting_after``, ``offset``, ``per_page``, ...; detect's paging words)
    that is not a date. The walk moves the position itself (a next URL carries it), so a value
    from the model would start the walk elsewhere and still call the result complete."""
    contract = op.contract
    out: set[str] = set()
    if contract.pagination is not None:
        request = contract.pagination.request
        out.update(
            v for k, v in request.to_dict().items() if v is not None and k not in request.body
        )
    if contract.deadline is not None and contract.deadline.param is not None:
        out.add(contract.deadline.param)
    if op.is_listing:
        out.update(p.name for p in op.parameters if _paging_word(p))
    cap = size_cap(op)
    if cap is not None:  # one capped answer: the size is the model's to choose, up to the cap
        out.discard(cap[0])
    return out


def _paging_word(param: Any) -> bool:
    schema = param.schema if isinstance(param.schema, Mapping) else {}
    if param.location != "query" or schema.get("format") in ("date", "date-time"):
        return False
    return any(key in PAGING_PARAMS for key in role_keys(param.name))


def host_params(op: Any, document: Mapping[str, Any]) -> set[str]:
    """Parameters no model may set, beside the walk's own (:func:`managed_params`):

    - on a listing, the ones that shape its answer: a field selector or a response-format switch,
      by name (detect's ``SHAPING_PARAMS`` folded like the paging words: ``fields``, ``$select``,
      PostgREST ``select``, ``_fields``, ``alt``, ``callback``, ``$format``; JSON:API
      ``fields[TYPE]``; OData ``$apply``) or by a description saying partial response, fields to
      include or response format. ``fields=items(id)`` drops Google's ``nextPageToken``: the walk
      would end after page 1 and call the result complete. A false positive costs the model an
      option, never a signal;
    - on every operation, the query credentials: detect's ``CREDENTIAL_PARAMS`` (``key``,
      ``access_token``, ``oauth_token``, ``api_key``...) and every ``apiKey`` security scheme
      ``in: query``. The MCP server's host supplies them (``--query``).
    """
    out = credential_params(op, document)
    if op.is_listing:
        out.update(p.name for p in op.parameters if p.location == "query" and _shapes_answer(p))
    return out


def credential_params(op: Any, document: Mapping[str, Any]) -> set[str]:
    """``op``'s query parameters that carry a credential (see :func:`host_params`)."""
    schemes = _query_key_schemes(document)
    return {
        p.name
        for p in op.parameters
        if p.location == "query" and (fold(p.name) in CREDENTIAL_PARAMS or fold(p.name) in schemes)
    }


_JSONAPI_FIELDS = re.compile(r"fields\[[^\]]*\]", re.IGNORECASE)


def _shapes_answer(param: Any) -> bool:
    name = str(param.name)
    if fold(name) in SHAPING_PARAMS or _JSONAPI_FIELDS.fullmatch(name):
        return True
    if name.lower() == "$apply":  # OData aggregation: the answer is no longer the items
        return True
    return shapes_response(param.description)


def _query_key_schemes(document: Mapping[str, Any]) -> frozenset[str]:
    """Folded names of the ``apiKey`` security schemes sent in the query (OpenAPI 3 and 2)."""
    components = document.get("components")
    found = []
    for schemes in (
        components.get("securitySchemes") if isinstance(components, Mapping) else None,
        document.get("securityDefinitions"),
    ):
        for scheme in schemes.values() if isinstance(schemes, Mapping) else ():
            if (
                isinstance(scheme, Mapping)
                and scheme.get("type") == "apiKey"
                and scheme.get("in") == "query"
                and isinstance(scheme.get("name"), str)
            ):
                found.append(fold(scheme["name"]))
    return frozenset(found)


def tool_parameters(op: Any, document: Mapping[str, Any]) -> list[Any]:
    """Path and query parameters the model may set: the one place that decides it (the tool
    schemas of every target, the dynamic toolset and the MCP server's ``x-completeness/params``
    follow it). Headers and cookies carry credentials and are never offered; neither are the
    walk's own parameters (:func:`managed_params`) nor :func:`host_params`."""
    hidden = managed_params(op) | host_params(op, document)
    return [p for p in op.parameters if p.location in ("path", "query") and p.name not in hidden]


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
    """Body fields the model supplies: a mutation's, all but the API evidence token (the server
    fills it); a listing's, all but the ones the walk writes (``$request.body#/marker``); on
    both, never a credential (:func:`credential_body_fields`)."""
    hidden: set[str | None] = {evidence_token_field(op), *credential_body_fields(op)}
    if op.is_listing and op.contract.pagination is not None and size_cap(op) is None:
        hidden |= op.contract.pagination.request.body_names
    return [f for f in op.body_fields if f.name not in hidden]


def credential_body_fields(op: Any) -> list[str]:
    """``op``'s top-level JSON body fields that carry a credential, named like a query one
    (detect's ``CREDENTIAL_PARAMS``: ``api_key``, ``access_token``, ``client_secret``...). Like
    a query credential they are never the model's: offered, the model would have to be told the
    secret, or would choose the principal. The MCP server's host supplies them
    (``--body-field NAME=VALUE``); the server adds them to the body of every tool that has one
    (``_meta["x-completeness/host_body"]``)."""
    return sorted(f.name for f in op.body_fields if fold(f.name) in CREDENTIAL_PARAMS)


# --------------------------------------------------------------------------- tool result


def output_schema(
    reason_codes: Iterable[str] | None, warning_codes: Iterable[str] = ()
) -> dict[str, Any]:
    """The tool result envelope of DESIGN.md §4 as a compact JSON Schema (MCP ``outputSchema``).

    MCP gives every tool its own schema (no shared ``$defs``), so the part every tool shares is
    kept to what a client or a model reads: the status, ``complete``, the reason and warning
    codes this tool can report, and which keys are always there. The optional ``error`` and
    ``approval`` of an error envelope (AGENT_RULES.md says what they hold) and the finer shape
    (details) are checked by the server itself, against the runtime's ``ToolResult`` model,
    before it answers. ``reason_codes=None`` leaves the codes
    open (the dynamic ``call_tool``, which answers for every tool).
    """
    nullable = {"type": ["object", "null"]}
    if reason_codes is None:
        reason_code: dict[str, Any] = {"type": "string"}
        warning_code: dict[str, Any] = {"type": "string"}
    else:
        reason_code = {"enum": sorted({*reason_codes, *_SORTED_CLIENT_CODES, "SNAPSHOT_CHANGED"})}
        warning_code = {"enum": sorted(set(warning_codes) | CLIENT_WARNING_CODES)}
    return {
        "type": "object",
        "properties": {
            "status": {"enum": list(STATUS)},
            "data": nullable,
            "completeness": {
                "type": "object",
                "properties": {
                    "complete": {"type": "boolean"},
                    "reasons": {
                        "type": "array",
                        # the walk adds SNAPSHOT_CHANGED itself (origin client) when a page
                        # of another snapshot arrives, declared or not
                        "items": {
                            "properties": {"code": reason_code},
                            "required": ["code", "origin"],
                        },
                    },
                    "scope": nullable,
                    "continuation": nullable,
                },
                "required": ["complete", "reasons"],
            },
            "warnings": {
                "type": "array",
                "items": {"properties": {"code": warning_code}, "required": ["code"]},
            },
            "evidence": {"type": ["string", "null"]},
        },
        "required": ["status", "data", "completeness", "warnings", "evidence"],
    }


# --------------------------------------------------------------------------- descriptions


TOOL_DESCRIPTION_LIMIT = 480
"""A tool description's budget: the quoted summary is cut at a sentence first, so the part
built from the declaration (kind, codes, evidence) is never the part that is cut."""


def description(op: Any, listing_tool: Mapping[str, str], evidence_for: Sequence[str] = ()) -> str:
    """Tool description built from the declaration; spec text appears only quoted.

    The rules every tool shares (read ``complete``, an empty list proves nothing unless complete,
    follow continuations) are said once, in the server instructions (AGENT_RULES.md); each
    description says what differs: its kind, its codes, its evidence links.
    """
    contract = op.contract
    resource = contract.scope.resource if contract.scope else None
    parts = []
    if op.is_listing:
        codes = ", ".join(r.code for r in op.reasons) or "none declared"
        parts.append(f"Read-only {op.kind}; may be partial (see completeness). Reasons: {codes}.")
        cap = size_cap(op)
        if cap is not None:
            parts.append(
                f"Unpaged: one answer of at most {cap[1]} items; a full one is partial "
                "(RESULT_LIMIT_REACHED)."
            )
        if resource:
            parts.append(f"Resource: {quoted(resource, 60)}.")
        if evidence_for:
            parts.append(f"A complete result's evidence unlocks: {', '.join(evidence_for)}.")
    elif op.is_mutation:
        source = contract.evidence_from
        kind = "DESTRUCTIVE mutation" if contract.destructive else "Mutation"
        if source:
            source_tool = listing_tool.get(str(source), "the declared listing tool")
            parts.append(
                f"{kind}: needs 'evidence' from a complete {source_tool} result holding every "
                "target id, else it is refused before any API call, with an approval prompt."
            )
        elif contract.recheck_each_target:
            each = str(contract.recheck_each_target)
            read_tool = listing_tool.get(each, "the declared single-read tool")
            parts.append(
                f"{kind}: before any API call the server re-reads every target id with "
                f"{read_tool} and refuses unless each exists and reads complete."
            )
        elif contract.destructive:
            parts.append(
                f"{kind} without a declared evidence listing: refused (EVIDENCE_UNSUPPORTED) with "
                "an approval prompt for a human."
            )
        else:
            parts.append(f"{kind} (not destructive; no evidence needed).")
    else:
        parts.append(f"Read-only {op.kind} tool; answers the completeness envelope.")
    fixed = " ".join(parts)
    summary = op.summary or op.description
    room = TOOL_DESCRIPTION_LIMIT - len(fixed) - 3
    if summary and room >= 40:
        return f"{quoted(summary, min(SUMMARY_LIMIT, room))}. {fixed}"
    return fixed


def annotations(op: Any) -> dict[str, Any]:
    """MCP tool annotations, only where they differ from the defaults (read-only false,
    destructive true, idempotent false, open-world true) or say what matters most (destructive
    on a mutation)."""
    if op.is_mutation:
        return {"destructiveHint": bool(op.contract.destructive)}
    return {"readOnlyHint": True}


# --------------------------------------------------------------------------- targets


def mcp_tool(
    name: str, desc: str, params: dict, out: dict, ann: dict, meta: dict | None = None
) -> dict:
    """An MCP tool; ``_meta`` is the server's routing data (never published in ``tools/list``)."""
    tool: dict[str, Any] = {
        "name": name,
        "description": desc,
        "inputSchema": params,
        "outputSchema": out,
    }
    if ann:
        tool["annotations"] = ann
    if meta is not None:
        tool["_meta"] = meta
    return tool


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
