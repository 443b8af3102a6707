"""Checkers for published tool definitions, written from the targets' documented constraints.

OpenAI function calling with ``strict: true`` uses the Structured Outputs schema subset
(platform.openai.com/docs/guides/structured-outputs, "Supported schemas"):
- supported types: string, number, boolean, integer, object, array, enum, anyOf; the root must be
  an object and not anyOf;
- every object sets ``additionalProperties: false`` and lists every property in ``required``;
  optional fields are a union with ``null``;
- supported keywords: string ``pattern``/``format`` (date-time, time, date, duration, email,
  hostname, ipv4, ipv6, uuid), number ``multipleOf``/``maximum``/``exclusiveMaximum``/
  ``minimum``/``exclusiveMinimum``, array ``minItems``/``maxItems``; plus ``description``,
  ``$defs``/``$ref``; unsupported composition: ``allOf``, ``not``, ``dependentRequired``,
  ``dependentSchemas``, ``if``/``then``/``else``;
- limits: at most 5,000 object properties in total, 10 levels of nesting, 120,000 characters of
  property names + definition names + enum values + const values, 1,000 enum values in total, and
  15,000 characters for a string enum of more than 250 values;
- function names: ``^[a-zA-Z0-9_-]{1,64}$``.

Anthropic tool use (docs.anthropic.com, "Tool use", tools parameter): ``name`` must match
``^[a-zA-Z0-9_-]{1,64}$`` and be unique in the request; ``input_schema`` is a JSON Schema object
whose root ``type`` is ``object``; ``description`` is plain text.

Our own naming rule (docs/internals.md) is stricter than both: ``^[A-Za-z_][A-Za-z0-9_]{0,63}$``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

OPENAI_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
ANTHROPIC_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
OUR_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
OPENAI_KEYWORDS = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "enum",
        "anyOf",
        "description",
        "format",
        "pattern",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minItems",
        "maxItems",
        "$defs",
        "$ref",
        "const",
    }
)
OPENAI_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)
OPENAI_TYPES = frozenset({"string", "number", "boolean", "integer", "object", "array", "null"})
MAX_PROPERTIES = 5000
MAX_NESTING = 10
MAX_STRING_BUDGET = 120_000
MAX_ENUM_VALUES = 1000


def _walk(schema: Any, path: str, depth: int) -> Iterator[tuple[str, dict, int]]:
    """Every sub-schema with its path and object nesting depth."""
    if not isinstance(schema, dict):
        return
    yield path, schema, depth
    inner = depth + (1 if schema.get("type") == "object" or "properties" in schema else 0)
    for name, sub in (schema.get("properties") or {}).items():
        yield from _walk(sub, f"{path}/properties/{name}", inner)
    if isinstance(schema.get("items"), dict):
        yield from _walk(schema["items"], f"{path}/items", depth)
    for i, sub in enumerate(schema.get("anyOf") or []):
        yield from _walk(sub, f"{path}/anyOf/{i}", depth)
    for name, sub in (schema.get("$defs") or {}).items():
        yield from _walk(sub, f"{path}/$defs/{name}", depth)


def openai_strict_problems(name: str, parameters: dict) -> list[str]:
    """Every way ``parameters`` breaks OpenAI strict mode (empty list: valid)."""
    out: list[str] = []
    if not OPENAI_NAME.match(name):
        out.append(f"name {name!r} does not match {OPENAI_NAME.pattern}")
    if parameters.get("type") != "object" or "anyOf" in parameters:
        out.append("root must be an object schema, not anyOf")
    n_props = 0
    budget = 0
    n_enum = 0
    for path, node, depth in _walk(parameters, "#", 0):
        extra = set(node) - OPENAI_KEYWORDS
        if extra:
            out.append(f"{path}: unsupported keywords {sorted(extra)}")
        if "type" not in node and "anyOf" not in node and "$ref" not in node and "enum" not in node:
            out.append(f"{path}: no type")
        types = node.get("type")
        for t in types if isinstance(types, list) else [types] if types else []:
            if t not in OPENAI_TYPES:
                out.append(f"{path}: unsupported type {t!r}")
        if "format" in node and node["format"] not in OPENAI_FORMATS:
            out.append(f"{path}: unsupported format {node['format']!r}")
        is_object = types == "object" or (isinstance(types, list) and "object" in types)
        if is_object or "properties" in node:
            if node.get("additionalProperties") is not False:
                out.append(f"{path}: additionalProperties must be false")
            props = node.get("properties") or {}
            if set(node.get("required") or []) != set(props):
                out.append(f"{path}: every property must be required")
            n_props += len(props)
            budget += sum(len(k) for k in props)
        if "enum" in node:
            values = node["enum"]
            n_enum += len(values)
            budget += sum(len(str(v)) for v in values if v is not None)
            if isinstance(types, list) and "null" in types and None not in values:
                out.append(f"{path}: a nullable enum must list null")
            strings = [v for v in values if isinstance(v, str)]
            if len(strings) > 250 and sum(map(len, strings)) > 15_000:
                out.append(f"{path}: long string enum exceeds 15,000 characters")
        if "const" in node:
            budget += len(str(node["const"]))
        if depth > MAX_NESTING:
            out.append(f"{path}: nested deeper than {MAX_NESTING} object levels")
    if n_props > MAX_PROPERTIES:
        out.append(f"{n_props} object properties (max {MAX_PROPERTIES})")
    if budget > MAX_STRING_BUDGET:
        out.append(f"{budget} characters of names and enum values (max {MAX_STRING_BUDGET})")
    if n_enum > MAX_ENUM_VALUES:
        out.append(f"{n_enum} enum values (max {MAX_ENUM_VALUES})")
    return out


def anthropic_problems(tool: dict) -> list[str]:
    out = []
    if set(tool) - {"name", "description", "input_schema"}:
        out.append(f"unexpected keys {sorted(set(tool) - {'name', 'description', 'input_schema'})}")
    if not ANTHROPIC_NAME.match(str(tool.get("name"))):
        out.append(f"name {tool.get('name')!r} does not match {ANTHROPIC_NAME.pattern}")
    schema = tool.get("input_schema")
    if not isinstance(schema, dict) or schema.get("type") != "object":
        out.append("input_schema root must have type object")
    if not isinstance(tool.get("description"), str) or not tool["description"]:
        out.append("description must be non-empty text")
    return out
