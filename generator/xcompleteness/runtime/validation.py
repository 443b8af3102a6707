"""A small JSON Schema checker for the tool schemas the generator emits (inputs and outputs).

Why not a library: the generated package depends only on pydantic and httpx (and mcp), and the
tool schemas use a closed, known subset (type, enum, anyOf, properties, required,
additionalProperties, items, prefixItems, minItems/maxItems, maxLength, minimum/maximum; the
service helpers check cursor positions with it too). Output is bounded: at most ~20 errors per
array.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["validate"]

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
    if isinstance(value, list):
        if "minItems" in schema and len(value) < schema["minItems"]:
            errors.append(f"{path or '/'}: fewer than {schema['minItems']} items")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            errors.append(f"{path or '/'}: more than {schema['maxItems']} items")
        prefix = schema.get("prefixItems") or ()
        for i, (sub, item_schema) in enumerate(zip(value, prefix, strict=False)):
            errors.extend(validate(sub, item_schema, f"{path}/{i}"))
    if isinstance(value, str) and "maxLength" in schema and len(value) > schema["maxLength"]:
        errors.append(f"{path or '/'}: longer than {schema['maxLength']} characters")
    if isinstance(value, list) and isinstance(schema.get("items"), Mapping):
        for i, sub in enumerate(value):
            errors.extend(validate(sub, schema["items"], f"{path}/{i}"))
            if len(errors) > 20:
                break
    return errors
