"""The parts of OpenAPI validation that need no import of the validator stack.

Importing openapi-spec-validator costs about 0.3 s of CPU (it loads pydantic-settings,
jsonschema-path, referencing, requests and jsonschema), more than validating GitHub's 13 MB
description once it is loaded. Most documents need none of it: their verdict is decided by

* the **structural check**: the document against the OpenAPI meta-schema of its version, which
  openapi-spec-validator 0.9 asks of jsonschema-rs when installed
  (``schemas.backend.jsonschema_rs.create_validator``: ``validator_cls_for(schema)(schema)``
  over ``resources/schemas/v3.x/schema.json``). :func:`structural_valid` builds the same
  validator from the same file, read from the installed package's folder without importing it;
* the **keyword walk** (:mod:`xcompleteness.check._osv_walk`), whose own bookkeeping is plain
  Python, and two value checks it asks of the stock code:
* **meta-checks** of schema objects: for OpenAPI 3.0 the draft-04 meta-schema (read from
  jsonschema-specifications' folder, the resource ``OAS30Validator.META_SCHEMA`` is) compiled
  with jsonschema-rs and the stock ``regex`` format function (``re.compile``; when the optional
  ``regress`` is installed the stock one uses it, and this one is not offered). A pass is a stock
  pass (the argument is in :mod:`xcompleteness.check._osv_speedup`); anything else asks the stock
  check;
* **default values**: :func:`default_ok` says True only for a schema made of a handful of
  keywords whose OAS 3.0 meaning is plain (a type among boolean/integer/number/string, enum,
  bounds, lengths, a format the stock checker does not check, annotations) and a value it
  plainly satisfies; anything else asks the stock check. Which formats the stock checker checks
  (jsonschema's, which depend on the optional libraries installed) is read from the jsonschema
  release's own rules (:func:`format_checked`), not by importing it.

Whatever is not decided here is decided by the stock code, imported at that moment (the walk
builds the stock validator lazily). Every shortcut is compared with the stock code in
tests/check/test_validate_lean.py; nothing here is used when an ``OPENAPI_SPEC_VALIDATOR_*`` or
``OPENAPI_SCHEMA_VALIDATOR_*`` setting is in the environment (those change how the stock
validator works).
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import re
import sys
from functools import cache
from pathlib import Path
from typing import Any

from xcompleteness.document import plain_tree

__all__ = [
    "JSONSCHEMA_FORMATS_READ",
    "OAS_FORMATS",
    "checked_as_read",
    "default_ok",
    "document_meta_schema",
    "fast_meta_valid",
    "format_checked",
    "lean_meta_check",
    "plain_json",
    "schema_meta_schema",
    "structural_valid",
]

_SETTINGS = ("OPENAPI_SPEC_VALIDATOR_", "OPENAPI_SCHEMA_VALIDATOR_")


def _settings_in_env() -> bool:
    return any(name.startswith(_SETTINGS) for name in os.environ)


def _package_dir(name: str) -> Path | None:
    """The folder of an installed package, found without importing it."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    locations = list(spec.submodule_search_locations or ()) if spec is not None else []
    return Path(locations[0]) if locations else None


def _rs() -> Any | None:
    try:
        import jsonschema_rs
    except ImportError:  # pragma: no cover - jsonschema-rs is a dependency
        return None
    return jsonschema_rs


def _read_json(path: Path | None) -> Any | None:
    if path is None:
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


@cache
def document_meta_schema(version: str) -> Any | None:
    """openapi-spec-validator's OpenAPI ``version`` ("3.0"/"3.1") meta-schema, from its folder."""
    base = _package_dir("openapi_spec_validator")
    return _read_json(
        base / "resources" / "schemas" / f"v{version}" / "schema.json" if base else None
    )


@cache
def _structural(version: str) -> Any | None:
    rs, schema = _rs(), document_meta_schema(version)
    if rs is None or not isinstance(schema, dict):
        return None
    try:
        return rs.validator_cls_for(schema)(dict(schema))
    except Exception:  # noqa: BLE001 - no lean check: the stock one decides
        return None


def structural_valid(data: Any, version: str) -> bool | None:
    """Whether the stock structural check finds no error in ``data``; None: ask the stock one."""
    if _settings_in_env():
        return None
    validator = _structural(version)
    if validator is None:
        return None
    try:
        return bool(validator.is_valid(data))
    except Exception:  # noqa: BLE001 - anything odd is decided by the stock check
        return None


@cache
def schema_meta_schema() -> Any | None:
    """The draft-04 meta-schema, the one OpenAPI 3.0 schema objects are meta-checked against."""
    base = _package_dir("jsonschema_specifications")
    return _read_json(base / "schemas" / "draft4" / "metaschema.json" if base else None)


def _is_regex(value: Any) -> bool:
    """The stock ``regex`` format check without ``regress`` (openapi_schema_validator._regex)."""
    if not isinstance(value, str):
        return True
    try:
        re.compile(value)
    except re.error:
        return False
    return True


def _refuse_retrieval(uri: str) -> Any:
    raise ValueError(f"not retrieving {uri}: meta-schemas come from the local registry")


@cache
def _compiled_meta(version: str) -> Any | None:
    if version != "3.0" or _package_dir("regress") is not None:
        return None
    rs, meta = _rs(), schema_meta_schema()
    if rs is None or not isinstance(meta, dict):
        return None
    try:
        return rs.Draft4Validator(
            dict(meta),
            validate_formats=True,
            formats={"regex": _is_regex},
            retriever=_refuse_retrieval,
        )
    except Exception:  # noqa: BLE001 - no lean meta-check: the stock one decides
        return None


def lean_meta_check(version: str) -> Any | None:
    """The compiled meta-check of schema objects for ``version``, built without the validator
    stack (OpenAPI 3.0 only), or None."""
    return None if _settings_in_env() else _compiled_meta(version)


def _float_plain(item: float) -> bool:
    return math.isfinite(item) and not item.is_integer()


def plain_json(node: Any) -> bool:
    """True when ``node`` holds only strings keys and numbers every implementation reads alike.

    False for a float that is integral (``1.0``) or not finite, an integer beyond 64 bits, or a
    non-string mapping key: those nodes go to the stock check.
    """
    return plain_tree(node, _float_plain)


def fast_meta_valid(compiled: Any, schema_value: Any, *, known_plain: bool = False) -> bool:
    """True only when the compiled meta-check accepts ``schema_value`` (see the module doc).
    ``known_plain``: the caller knows :func:`plain_json` holds for it (a container of a JSON
    text's data outside ``SourceDoc.unplain``), so it is not walked again."""
    if compiled is None or type(schema_value) is not dict:
        return False
    if not known_plain and not plain_json(schema_value):
        return False
    try:
        return bool(compiled.is_valid(schema_value))
    except Exception:  # noqa: BLE001 - anything unusual is decided by the stock check
        return False


# -- default values (OpenAPI 3.0) -------------------------------------------------------------

OAS_FORMATS = frozenset(
    ("int32", "int64", "float", "double", "binary", "byte", "password", "regex")
)
"""The formats openapi-schema-validator adds to jsonschema's checker for OAS 3.0 values."""
_ANNOTATIONS = frozenset(
    ("default", "description", "title", "example", "deprecated", "readOnly", "writeOnly")
)
"""Keys the OAS 3.0 value validator never judges a value by (unknown keywords, or keywords it
implements as no-ops)."""
_PLAIN_TYPES: dict[str, tuple[type, ...]] = {
    "boolean": (bool,),
    "integer": (int,),
    "number": (int, float),
    "string": (str,),
}
_NUMBER = (int, float)


@cache
def _checked_formats() -> frozenset[str]:
    # The stock OAS 3.0 value checker is jsonschema's default FormatChecker() plus OAS_FORMATS;
    # which formats jsonschema checks depends on the optional libraries installed.
    from jsonschema import FormatChecker

    return frozenset(FormatChecker.checkers) | OAS_FORMATS


JSONSCHEMA_FORMATS_READ = "4.26.0"
"""The jsonschema release whose ``_format.py`` :data:`_ALWAYS_CHECKED` and
:data:`_CHECKED_WITH` were read from (tests/check/test_validate_lean.py compares them with its
``FormatChecker.checkers``); any other release is asked (imported)."""
_ALWAYS_CHECKED = frozenset(("date", "email", "idn-email", "ipv4", "ipv6", "regex", "time", "uuid"))
"""Formats jsonschema's global ``FormatChecker.checkers`` holds whatever is installed."""
_CHECKED_WITH: dict[str, tuple[str, ...]] = {
    "hostname": ("fqdn",),
    "idn-hostname": ("idna",),
    "uri": ("rfc3987", "rfc3986_validator"),
    "uri-reference": ("rfc3987", "rfc3986_validator"),
    "iri": ("rfc3987", "rfc3987_syntax"),
    "iri-reference": ("rfc3987", "rfc3987_syntax"),
    "date-time": ("rfc3339_validator",),
    "color": ("webcolors",),
    "json-pointer": ("jsonpointer",),
    "relative-json-pointer": ("jsonpointer",),
    "uri-template": ("uri_template",),
    "duration": ("isoduration",),
}
"""Format -> the optional modules whose import makes jsonschema check it (it imports them in
``try``/``suppress(ImportError)`` blocks); every other format it never checks."""


def _findable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return True  # not known to be absent: as if it were there


def format_checked(name: str) -> bool:
    """Whether the stock OAS 3.0 value checker may check ``format: name`` (True also when that
    is not known), answered without importing jsonschema (about 0.25 billion instructions, a
    tenth of a second: the first ``default`` beside a ``format`` in a document cost GitHub's
    check that) when jsonschema is not imported yet and is the release read
    (:data:`JSONSCHEMA_FORMATS_READ`): a format it registers only after importing an optional
    module is checked only when that module can be found (found but failing to import, it is
    counted as checked: the stock check decides then). Otherwise, from ``FormatChecker``."""
    if "jsonschema" in sys.modules or not _formats_as_read():
        return name in _checked_formats()
    return checked_as_read(name)


def checked_as_read(name: str) -> bool:
    """:func:`format_checked` from the release read, whether or not it is the one installed."""
    if name in OAS_FORMATS or name in _ALWAYS_CHECKED:
        return True
    return any(_findable(module) for module in _CHECKED_WITH.get(name, ()))


@cache
def _formats_as_read() -> bool:
    from xcompleteness.reuse import installed_version

    return installed_version("jsonschema") == JSONSCHEMA_FORMATS_READ


def default_ok(schema: dict[str, Any], value: Any) -> bool:
    """True when the stock OAS 3.0 value check of ``value`` against ``schema`` finds no error,
    decided without it; False means "not decided here" (ask the stock check)."""
    kind = schema.get("type")
    types = _PLAIN_TYPES.get(kind) if type(kind) is str else None
    if types is None or value is None or type(value) not in types:
        return False
    for key, rule in schema.items():
        if key in _ANNOTATIONS or key == "type" or key.startswith("x-"):
            continue
        if key == "nullable":  # read by "type" only when the value is null
            continue
        if key == "enum":
            if type(rule) is not list or not any(
                type(m) is type(value) and m == value for m in rule
            ):
                return False
        elif key in ("minimum", "maximum"):
            if type(rule) not in _NUMBER or (type(rule) is float and not math.isfinite(rule)):
                return False
            if type(value) in _NUMBER and (value < rule if key == "minimum" else value > rule):
                return False
        elif key in ("minLength", "maxLength"):
            if type(rule) is not int:
                return False
            if type(value) is str and (
                len(value) < rule if key == "minLength" else len(value) > rule
            ):
                return False
        elif key == "format":
            if type(rule) is not str or format_checked(rule):
                return False
        else:
            return False
    return True
