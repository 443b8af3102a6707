"""The ``x-completeness-defaults`` merge: a document's defaults folded into each listing.

Kept apart from the normalizer (``_contract``) and the structural validation (``_vocabulary``),
which both read the merged declaration, so neither imports the other for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from xcompleteness.document import DEFAULTS_KEY
from xcompleteness.runtime.codes import LISTING_KINDS

__all__ = ["defaulted_keys", "document_defaults", "effective_declaration"]

_DEFAULT_SCOPE_KEYS = ("visibility", "snapshot", "covers")


def document_defaults(document: Any) -> Mapping[str, Any] | None:
    """The ``x-completeness-defaults`` object at the document root, or None."""
    data = getattr(document, "data", document)
    raw = data.get(DEFAULTS_KEY) if isinstance(data, Mapping) else None
    return raw if isinstance(raw, Mapping) else None


def effective_declaration(decl: Any, defaults: Mapping[str, Any] | None) -> Any:
    """``decl`` with the document defaults merged in (a new dict; neither input is changed).

    Only listings (collection, search, aggregate) take defaults. The operation wins: ``mode``
    and each of ``scope.visibility``, ``scope.snapshot``, ``scope.covers`` come from the defaults
    only where the operation leaves them out. ``reasons`` and ``warnings`` are a union: the
    operation's entries first, then each default whose code the operation does not already list.
    ``drafts`` is read by audit alone. Anything else (a non-listing, a malformed declaration or
    defaults block) is returned unchanged.
    """
    if not isinstance(decl, Mapping) or not isinstance(defaults, Mapping):
        return decl
    kind = decl.get("kind")  # read before the schema check: any JSON value (a list, a mapping)
    if not isinstance(kind, str) or kind not in LISTING_KINDS:
        return decl
    out = dict(decl)
    if "mode" not in out and isinstance(defaults.get("mode"), str):
        out["mode"] = defaults["mode"]
    scope_defaults = defaults.get("scope")
    if isinstance(scope_defaults, Mapping) and isinstance(out.get("scope"), Mapping):
        scope = dict(out["scope"])
        for key in _DEFAULT_SCOPE_KEYS:
            if key not in scope and key in scope_defaults:
                scope[key] = scope_defaults[key]
        out["scope"] = scope
    for key in ("reasons", "warnings"):
        extra = defaults.get(key)
        if not isinstance(extra, list) or not extra:
            continue
        own = list(out[key]) if isinstance(out.get(key), list) else []
        if key in out and not isinstance(out.get(key), list):
            continue  # malformed: leave it for the schema to report
        codes = {_code_of(v) for v in own}
        merged = own + [v for v in extra if _code_of(v) not in codes]
        out[key] = merged
    return out


def defaulted_keys(decl: Any, effective: Any) -> list[str]:
    """Dotted names of what ``effective_declaration`` added (``scope.visibility``, ``reasons``)."""
    if not isinstance(decl, Mapping) or not isinstance(effective, Mapping):
        return []
    out = [k for k in ("mode",) if k in effective and k not in decl]
    scope, eff_scope = decl.get("scope"), effective.get("scope")
    if isinstance(scope, Mapping) and isinstance(eff_scope, Mapping):
        out += [f"scope.{k}" for k in _DEFAULT_SCOPE_KEYS if k in eff_scope and k not in scope]
    for key in ("reasons", "warnings"):
        before, after = decl.get(key), effective.get(key)
        if isinstance(after, list) and len(after) > (
            len(before) if isinstance(before, list) else 0
        ):
            out.append(key)
    return out


def _code_of(entry: Any) -> str | None:
    """The code of a bare or object reason; None for malformed entries (the schema reports them)."""
    code = entry.get("code") if isinstance(entry, Mapping) else entry
    return code if isinstance(code, str) else None
