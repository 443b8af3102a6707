"""Reuse a clean OpenAPI validation verdict across runs whose document differs only in our own
extension values.

Why: an overlay edit of ``x-completeness`` declarations (reasons, scope, pagination) changes no
part of the document the OpenAPI validator judges: ``x-`` keys of the root and of Operation
objects are specification extensions, which both meta-schemas (3.0: ``^x-: {}``; 3.1:
``specification-extensions``: ``^x-: true``) accept with any value, and the keyword walk
(:mod:`xcompleteness.check._osv_walk`, and the stock walk it mirrors) reads only named fields
(``operationId``, ``responses``, ``parameters``) of an operation. Yet validation is the largest
stage left on such an edit once the item models and the formatting are reused (GitHub: importing
the validator stack, about 0.5 s, and the walk itself in a second process).

:func:`verdict_key` is a SHA-256 over the document with every ``x-completeness*`` key removed
from the root and from each operation object at ``/paths/{path}/{method}`` (nothing else is
touched; a path item reached through ``$ref``, webhooks and callbacks keep theirs), the versions
of every library the verdict comes from, the validator modules' own source and Python's version.
Only a **clean** verdict (no diagnostic at all) is recorded: a document with errors is refused by
``generate`` anyway, and an error message may quote a node that holds an extension value, so an
error list is never reused.

Exactly sound: two documents with the same key differ at most in values a meta-schema accepts
whatever they are and the walk never reads, so one is clean exactly when the other is. The key is
``None`` (validate as usual) whenever that reasoning could fail: a ``$ref`` that is not a plain
local pointer (the stock walk would resolve it), a ``$ref`` whose text names ``x-completeness``
(a removed value could be read through it), a dangling ``$ref`` (it can change how a validator
failure is reported), files pulled in by refs, a document that is not JSON-serialisable, or refs
not collected by the loader. ``$ref`` values inside removed parts are hashed with the rest.

The store is supplied by ``generate`` (:mod:`xcompleteness.emit._verdict_cache`, its cache
folder and rules) through :func:`verdict_store`; nothing here touches the disk. This module must
not import the validator stack: a hit is what lets a run skip that import.
"""

from __future__ import annotations

import hashlib
import os
import sys
from functools import cache
from pathlib import Path
from typing import Any

from xcompleteness.document import stripped
from xcompleteness.reuse import (
    FactStore,
    StoreSlot,
    hash_sources,
    known,
    library_versions,
    remember,
)

__all__ = [
    "LIBRARIES",
    "VerdictStore",
    "known_clean",
    "record",
    "stripped",
    "verdict_key",
    "verdict_store",
]

LIBRARIES = (
    "openapi-spec-validator",
    "openapi-schema-validator",
    "jsonschema",
    "jsonschema-rs",
    "jsonschema-path",
    "jsonschema-specifications",
    "referencing",
    "pathable",
)
"""Every library a verdict comes from (the meta-schemas ship inside them)."""
_SOURCES = (
    "_validate.py",
    "_lean.py",
    "_osv_walk.py",
    "_osv_stock.py",
    "_osv_speedup.py",
    "_verdict.py",
)
_DOCUMENT_SOURCES = ("_stripped.py",)
_ENV = ("OPENAPI_SPEC_VALIDATOR_RESOLVED_CACHE_MAXSIZE",)


VerdictStore = FactStore
"""Where clean verdicts are kept between runs (``generate``'s cache folder supplies one)."""

_SLOT: StoreSlot[VerdictStore] = StoreSlot("xc_verdict_store")
verdict_store = _SLOT.using
"""``with verdict_store(store):`` lets :func:`known_clean` and :func:`record` use ``store``."""


@cache
def _fingerprint() -> bytes:
    h = hashlib.sha256()
    h.update(f"xc-verdict 1\npython {sys.version}\n".encode())
    h.update(library_versions(LIBRARIES))
    hash_sources(h, Path(__file__).resolve().parent, _SOURCES)
    hash_sources(h, Path(__file__).resolve().parent.parent / "document", _DOCUMENT_SOURCES)
    return h.digest()


def verdict_key(doc: Any) -> str | None:
    """The key of ``doc``'s verdict, or None when a verdict must not be reused (module doc)."""
    from xcompleteness.load import DANGLING_REF

    refs = getattr(doc, "refs", None)
    data = getattr(doc, "data", None)
    if refs is None or not isinstance(data, dict) or getattr(doc, "sources", ()):
        return None
    if any(d.code == DANGLING_REF for d in doc.diagnostics):
        return None
    digest = getattr(doc, "declaration_free_digest", None)  # the loaded document's, computed once
    if digest is None:
        return None
    h = hashlib.sha256(_fingerprint())
    for name in _ENV:
        value = os.environ.get(name, "").encode("utf-8", "surrogateescape")
        h.update(b"%s=%d:%s\n" % (name.encode(), len(value), value))
    h.update(digest)
    return h.hexdigest()


def known_clean(doc: Any) -> tuple[bool, str | None]:
    """(a clean verdict is stored for ``doc``, its key); the key is None with no store."""
    store = _SLOT.current()
    if store is None:
        return False, None
    key = verdict_key(doc)
    if key is None:
        return False, None
    return known(store, key), key


def record(key: str | None, diagnostics: list[Any]) -> None:
    """Remember a clean verdict (``diagnostics`` empty) under ``key``; errors are never kept."""
    store = _SLOT.current()
    if store is None or key is None or diagnostics:
        return
    remember(store, key)
