"""OpenAPI parameter serialisation: ``style`` / ``explode`` for path, query, header and cookie.

Why here: how a value is spelled on the wire is decided by the spec per parameter (OpenAPI 3
"Style Values"), so the generated client carries each parameter's name, location, style and
explode as data (a tuple in ``_ops/<op>.py``) and this one tested module turns values into the
request. Nothing of the spec becomes code.

What is produced (``v`` percent-encoded, delimiters literal, as OpenAPI's style table spells them):

========================  ===============================  ===================================
style (location)          array ``[a, b]``                 object ``{k: v, j: w}``
========================  ===============================  ===================================
form, explode (query)     ``n=a&n=b``                      ``k=v&j=w``
form (query)              ``n=a,b``                        ``n=k,v,j,w``
spaceDelimited (query)    ``n=a%20b``                      ``n=k%20v%20j%20w``
pipeDelimited (query)     ``n=a|b``                        ``n=k|v|j|w``
deepObject (query)        ``n[]=a&n[]=b``                  ``n[k]=v&n[j]=w`` (nested: ``n[k][x]=1``)
simple (path, header)     ``a,b``                          ``k,v,j,w`` / explode ``k=v,j=w``
label (path)              ``.a,b`` / explode ``.a.b``      ``.k,v,j,w`` / explode ``.k=v.j=w``
matrix (path)             ``;n=a,b`` / explode ``;n=a;n=b`` ``;n=k,v,j,w`` / explode ``;k=v;j=w``
form (cookie)             ``n=a,b`` / explode ``n=a; n=b`` ``n=k,v,j,w`` / explode ``k=v; j=w``
========================  ===============================  ===================================

A parameter declared with ``content: {application/json: ...}`` instead of a schema carries the
style mark :data:`JSON_CONTENT` and is sent as compact JSON text: ``filter=%7B%22a%22%3A1%7D``.
deepObject is defined by OpenAPI for objects only; arrays follow the bracket convention Stripe
and Rails/Rack servers read (``expand[]=a&expand[]=b``), arrays of objects use indices
(``items[0][price]=x``). A scalar in a deepObject parameter (Stripe's ``created=5``, whose
schema is ``integer | range object``) is sent as ``n=5``. Booleans are ``true``/``false``;
``None`` is never sent. Cookies go into one ``Cookie`` header, never into the URL.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from enum import Enum
from typing import Any
from urllib.parse import quote

from .records import record

__all__ = [
    "DEFAULT_STYLE",
    "JSON_CONTENT",
    "STYLES",
    "ParamSpec",
    "cookie_header",
    "cookie_pairs",
    "header_value",
    "path_value",
    "query_fragments",
    "query_string",
]

DEFAULT_STYLE = {"query": "form", "cookie": "form", "path": "simple", "header": "simple"}
"""OpenAPI's default style per location (explode defaults to true for form, false otherwise)."""

JSON_CONTENT = "application/json"
"""Not an OpenAPI style: the mark of a parameter declared with ``content: {application/json:
...}`` instead of a schema, whose value is sent as compact JSON text (percent-encoded in the
query and path, as is in a header)."""

STYLES = {
    "query": frozenset({"form", "spaceDelimited", "pipeDelimited", "deepObject", JSON_CONTENT}),
    "cookie": frozenset({"form", JSON_CONTENT}),
    "path": frozenset({"simple", "label", "matrix", JSON_CONTENT}),
    "header": frozenset({"simple", JSON_CONTENT}),
}
"""The styles OpenAPI allows per location (plus :data:`JSON_CONTENT`); anything else falls back
to the location's default."""

_DELIMITER = {"form": ",", "spaceDelimited": "%20", "pipeDelimited": "|"}
_COOKIE_SAFE = "!#$&'()*+-./:<=>?@[]^_`{|}~"
"""RFC 6265 cookie-octets left as they are (no space, quote, comma, semicolon, backslash, %)."""


@record(frozen=True)
class ParamSpec:
    """One parameter: python keyword, spec name, location, style and explode."""

    python: str
    name: str
    location: str
    style: str
    explode: bool

    @classmethod
    def of(cls, entry: Sequence[Any]) -> ParamSpec:
        """From a generated tuple ``(python, name, location[, style[, explode]])``.

        Missing or unknown style means the location's default; missing explode means
        OpenAPI's default for the style (true for form only).
        """
        python, name, location = (str(x) for x in entry[:3])
        style = str(entry[3]) if len(entry) > 3 and entry[3] else ""
        if style not in STYLES.get(location, ()):
            style = DEFAULT_STYLE.get(location, "form")
        explode = entry[4] if len(entry) > 4 and isinstance(entry[4], bool) else style == "form"
        return cls(python, name, location, style, explode)


def _plain(value: Any) -> Any:
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json", by_alias=True, exclude_none=True)
    if isinstance(value, Enum):
        return value.value
    return value


def _text(value: Any) -> str:
    """A scalar as text; containers inside a flat style are sent as compact JSON."""
    value = _plain(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, (Mapping, list, tuple)):
        return json.dumps(value, separators=(",", ":"), sort_keys=True, default=str)
    return str(value)


def _json(value: Any) -> str:
    return json.dumps(_plain(value), separators=(",", ":"), ensure_ascii=False, default=str)


def _enc(value: Any) -> str:
    return quote(_text(value), safe="")


def _key(name: str) -> str:
    """A query key: percent-encoded, brackets kept (``created[gt]``, a spec name ``ids[]``)."""
    return quote(name, safe="[]")


def _items(value: Any) -> list[tuple[str, Any]] | None:
    """(key, value) pairs of an object value, None values dropped; None when not an object."""
    value = _plain(value)
    if isinstance(value, Mapping):
        return [(str(k), v) for k, v in value.items() if v is not None]
    return None


def _seq(value: Any) -> list[Any] | None:
    value = _plain(value)
    if isinstance(value, (list, tuple)):
        return [v for v in value if v is not None]
    return None


def _deep(prefix: str, value: Any, out: list[str]) -> None:
    value = _plain(value)
    pairs = _items(value)
    if pairs is not None:
        for k, v in pairs:
            _deep(f"{prefix}[{quote(k, safe='')}]", v, out)
        return
    seq = _seq(value)
    if seq is not None:
        nested = any(isinstance(_plain(v), (Mapping, list, tuple)) for v in seq)
        for i, v in enumerate(seq):
            _deep(f"{prefix}[{i}]" if nested else f"{prefix}[]", v, out)
        return
    out.append(f"{prefix}={_enc(value)}")


def query_fragments(spec: ParamSpec, value: Any) -> list[str]:
    """The encoded ``key=value`` pieces of one query parameter (joined with ``&`` by the caller)."""
    value = _plain(value)
    if value is None:
        return []
    key = _key(spec.name)
    if spec.style == JSON_CONTENT:
        return [f"{key}={quote(_json(value), safe='')}"]
    if spec.style == "deepObject":
        out: list[str] = []
        _deep(key, value, out)
        return out
    seq = _seq(value)
    pairs = _items(value)
    if seq is None and pairs is None:
        return [f"{key}={_enc(value)}"]
    if spec.explode:
        if seq is not None:
            return [f"{key}={_enc(v)}" for v in seq]
        return [f"{_key(k)}={_enc(v)}" for k, v in pairs or ()]
    delimiter = _DELIMITER.get(spec.style, ",")
    parts = [_enc(v) for v in seq] if seq is not None else _flat(pairs or ())
    return [f"{key}={delimiter.join(parts)}"]


def _flat(pairs: Iterable[tuple[str, Any]]) -> list[str]:
    return [x for k, v in pairs for x in (_enc(k), _enc(v))]


def query_string(specs: Iterable[tuple[ParamSpec, Any]]) -> str:
    """The whole query (without ``?``) for (spec, value) pairs, in the order given."""
    return "&".join(f for spec, value in specs for f in query_fragments(spec, value))


def path_value(spec: ParamSpec, value: Any) -> str:
    """The text that replaces ``{name}`` in the path template (simple, label or matrix)."""
    value = _plain(value)
    if spec.style == JSON_CONTENT:
        return quote(_json(value), safe="")
    seq = _seq(value)
    pairs = _items(value)
    name = quote(spec.name, safe="")
    if spec.style == "label":
        lead, sep = ".", ("." if spec.explode else ",")
    elif spec.style == "matrix":
        lead, sep = ";", ";" if spec.explode else ","
    else:
        lead, sep = "", ","
    if seq is None and pairs is None:
        text = _enc(value)
        return f";{name}={text}" if spec.style == "matrix" else lead + text
    if seq is not None:
        parts = [_enc(v) for v in seq]
        if spec.style == "matrix":
            if spec.explode:
                return "".join(f";{name}={p}" for p in parts)
            return f";{name}=" + ",".join(parts)
        return lead + sep.join(parts)
    if spec.explode:
        parts = [f"{_enc(k)}={_enc(v)}" for k, v in pairs or ()]
        return lead + sep.join(parts)
    flat = ",".join(_flat(pairs or ()))
    return f";{name}={flat}" if spec.style == "matrix" else lead + flat


def header_value(spec: ParamSpec, value: Any) -> str:
    """A header parameter (style simple): ``a,b``; objects ``k,v`` or, exploded, ``k=v``."""
    value = _plain(value)
    if spec.style == JSON_CONTENT:
        return _json(value)
    seq = _seq(value)
    pairs = _items(value)
    if seq is not None:
        return ",".join(_text(v) for v in seq)
    if pairs is not None:
        if spec.explode:
            return ",".join(f"{k}={_text(v)}" for k, v in pairs)
        return ",".join(x for k, v in pairs for x in (k, _text(v)))
    return _text(value)


def _cookie_enc(value: Any) -> str:
    return quote(_text(value), safe=_COOKIE_SAFE)


def cookie_pairs(spec: ParamSpec, value: Any) -> list[str]:
    """The ``name=value`` pieces one cookie parameter adds to the Cookie header."""
    value = _plain(value)
    if value is None:
        return []
    name = _cookie_enc(spec.name)
    if spec.style == JSON_CONTENT:
        return [f"{name}={quote(_json(value), safe='')}"]
    seq = _seq(value)
    pairs = _items(value)
    if seq is None and pairs is None:
        return [f"{name}={_cookie_enc(value)}"]
    if spec.explode:
        if seq is not None:
            return [f"{name}={_cookie_enc(v)}" for v in seq]
        return [f"{_cookie_enc(k)}={_cookie_enc(v)}" for k, v in pairs or ()]
    if seq is not None:
        return [f"{name}=" + ",".join(_cookie_enc(v) for v in seq)]
    flat = [x for k, v in pairs or () for x in (_cookie_enc(k), _cookie_enc(v))]
    return [f"{name}=" + ",".join(flat)]


def cookie_header(specs: Iterable[tuple[ParamSpec, Any]], existing: str | None = None) -> str:
    """One ``Cookie`` header value: ``existing`` (a caller's own cookies) first, then ours."""
    parts = [existing.strip()] if existing and existing.strip() else []
    parts.extend(p for spec, value in specs for p in cookie_pairs(spec, value))
    return "; ".join(parts)
