"""Loading limits and the input-class diagnostic codes (documented in docs/cli.md).

The spec is someone else's file: a size cap (``XC_MAX_SPEC_BYTES``), a nesting cap
(``XC_MAX_DEPTH``) and a cap on YAML alias expansion (``XC_MAX_ALIAS_NODES``) apply while loading;
a cap on the work of copying the schemas into the item models (``XC_MAX_SCHEMA_NODES``, checked by
``ir``: ``XC015``) and a cap on the number of declarations (``XC_MAX_DECLARATIONS``, checked once
the overlays are applied: ``XC025``) bound what a small document can make the generator do.
Unusable input raises :class:`~xcompleteness.diagnostics.InputError` built by
:func:`input_error` (exit code 2).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from xcompleteness.diagnostics import Diagnostic, InputError, Severity

__all__ = [
    "ALIAS_BOMB",
    "DANGLING_REF",
    "DEFAULT_MAX_ALIAS_NODES",
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_DECLARATIONS",
    "DEFAULT_MAX_DEPTH",
    "DUPLICATE_KEY",
    "EXTERNAL_REF",
    "Limits",
    "NOT_MAPPING",
    "NOT_OPENAPI",
    "REF_CYCLE",
    "REF_OUTSIDE",
    "SYNTAX",
    "TOO_DEEP",
    "TOO_LARGE",
    "TOO_MANY_DECLARATIONS",
    "UNREADABLE",
    "UNSUPPORTED_YAML",
    "URL_REF",
    "input_error",
    "too_deep_error",
]

DEFAULT_MAX_BYTES = 64 * 1024 * 1024
"""Documents larger than this are refused (override with ``XC_MAX_SPEC_BYTES``)."""
DEFAULT_MAX_YAML_BYTES = 16 * 1024 * 1024
"""YAML documents larger than this are refused (override with ``XC_MAX_YAML_BYTES``): parsing
YAML costs about 12 times parsing the same content as JSON (a 63 MB YAML spec took 50 s of CPU
and 1.5 GB, its JSON twin 4 s), so the YAML cap is a quarter of the JSON cap: the costliest YAML
input accepted costs about 3 times the costliest JSON one."""
DEFAULT_MAX_DEPTH = 256
"""Deeper nesting is refused (override with ``XC_MAX_DEPTH``); real specs stay below ~40."""
DEFAULT_MAX_ALIAS_NODES = 100_000
"""YAML aliases may add at most this many nodes in total (override with ``XC_MAX_ALIAS_NODES``)."""
DEFAULT_MAX_SCHEMA_NODES = 300_000
"""Steps (schema nodes copied, refs followed) the item models may take (``XC_MAX_SCHEMA_NODES``).
Each schema is copied once, so the work is linear in the document, and modelling costs about the
same per step whatever the schemas are (0.37 ms of datamodel-code-generator per step for Stripe's
30,000 steps and for one schema of 10,000 properties alike). The largest real description,
Microsoft Graph beta (47 MB, every list-like operation declared), takes 152,000 steps (Graph
63,000, GitHub 23,000); the cap is twice that. At the cap a run costs about 110 s of CPU and
1.7 GB (149,900 properties in one 4.5 MB schema); the former cap, 2 million, let a 30 MB document
ask for about 12 minutes and 12 GB before anything was refused."""
DEFAULT_MAX_DECLARATIONS = 10_000
"""``x-completeness`` declarations a document may hold (``XC_MAX_DECLARATIONS``). Each costs
about 4 ms in ``check`` (the vocabulary schema) and 30 ms in ``generate`` (its modules, formatted),
so the spec's byte cap alone let a 64 MB document of small declarations ask for hours. Microsoft
Graph beta has 3,686 list-like operations (22,361 operations in all); Graph 1,894."""

# Input-class diagnostic codes (documented in docs/cli.md).
UNREADABLE = "XC001"
TOO_LARGE = "XC002"
SYNTAX = "XC003"
ALIAS_BOMB = "XC004"
TOO_DEEP = "XC005"
NOT_MAPPING = "XC006"
NOT_OPENAPI = "XC007"
EXTERNAL_REF = "XC008"
URL_REF = "XC009"
REF_CYCLE = "XC010"
REF_OUTSIDE = "XC011"
UNSUPPORTED_YAML = "XC012"
DUPLICATE_KEY = "XC013"
DANGLING_REF = "XC014"
WORK_BUDGET = "XC015"
MIXED_ENUM = "XC016"
TOO_MANY_DECLARATIONS = "XC025"


@dataclass(frozen=True)
class Limits:
    """Caps applied while loading; defaults come from the environment (see module docstring)."""

    max_bytes: int = DEFAULT_MAX_BYTES
    max_yaml_bytes: int = DEFAULT_MAX_YAML_BYTES
    max_depth: int = DEFAULT_MAX_DEPTH
    max_alias_nodes: int = DEFAULT_MAX_ALIAS_NODES
    max_schema_nodes: int = DEFAULT_MAX_SCHEMA_NODES
    max_declarations: int = DEFAULT_MAX_DECLARATIONS

    @classmethod
    def from_env(cls) -> Limits:
        return cls(
            max_bytes=_env_int("XC_MAX_SPEC_BYTES", DEFAULT_MAX_BYTES),
            max_yaml_bytes=_env_int("XC_MAX_YAML_BYTES", DEFAULT_MAX_YAML_BYTES),
            max_depth=_env_int("XC_MAX_DEPTH", DEFAULT_MAX_DEPTH),
            max_alias_nodes=_env_int("XC_MAX_ALIAS_NODES", DEFAULT_MAX_ALIAS_NODES),
            max_schema_nodes=_env_int("XC_MAX_SCHEMA_NODES", DEFAULT_MAX_SCHEMA_NODES),
            max_declarations=_env_int("XC_MAX_DECLARATIONS", DEFAULT_MAX_DECLARATIONS),
        )


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "")
    try:
        value = int(raw)
    except ValueError:
        return default
    return value if value > 0 else default


def input_error(
    origin: str,
    code: str,
    message: str,
    *,
    pointer: str = "",
    line: int | None = None,
    hint: str = "",
) -> InputError:
    """An :class:`InputError` holding one error diagnostic (the input cannot be used)."""
    return InputError([Diagnostic(origin, pointer, code, Severity.ERROR, message, hint, line)])


def too_deep_error(origin: str, limits: Limits, line: int | None) -> InputError:
    """The ``XC005`` error: nesting deeper than ``limits.max_depth``."""
    return input_error(
        origin,
        TOO_DEEP,
        f"nesting is deeper than {limits.max_depth} levels",
        line=line,
        hint="raise XC_MAX_DEPTH if the document is really this deep",
    )
