"""Speed-ups for openapi-spec-validator 0.9's ``SchemaValidator`` that keep its verdicts.

Two changes, both applied by validate.py through subclasses (the library is never patched
globally), both with a test that compares every verdict with the stock validator
(tests/check/test_validate.py, tests/corpus/test_validate_corpus.py).

**Set-based visit registries.** ``openapi_spec_validator.validation.keywords.SchemaValidator``
keeps the ids of visited (and meta-checked) schemas in *lists* and tests ``schema_id in list``
on every visit, so validation is quadratic in the number of schemas. Sets give the same answers
(membership of ints; the order of the registries is never read) in constant time. The
upstream-ready patch is written up in docs/upstream/openapi-spec-validator-visited-sets.md.

**A compiled meta-check.** The stock ``_validate_schema_meta`` checks each schema node it
visits (the raw dict of the node as written; ``$ref`` inside it are not expanded) against the
dialect's meta-schema with the pure-Python ``jsonschema`` package: for OpenAPI 3.0 the draft-04
meta-schema with ``Draft4Validator`` and the OAS 3.0 format checker, for 3.1 the OAS 3.1 base
dialect meta-schema with ``Draft202012Validator`` and the OAS 3.1 format checker. On GitHub's
REST description that is about half of the validator's run time. We first ask ``jsonschema-rs``
(the Rust JSON Schema validator, which openapi-spec-validator itself uses for the document-level
check when it is installed) whether the *same node* is valid against the *same meta-schema*:

* if it says valid, the node is valid for the stock check too, and the stock check is skipped
  (it would have returned no error);
* in every other case (invalid, or a case the fast path does not decide) the stock check runs
  unchanged, so every reported error is the stock error, with the stock message and path.

Why "valid for jsonschema-rs" implies "valid for the stock check" here:

1. *Same input, same schema.* The fast check reads the very object the stock check would
   (``schema_value``), with no ``$ref`` expansion on either side, against the meta-schema object
   the stock check uses (taken from ``openapi_schema_validator``, not copied), with the OAS 3.1
   meta-schemas registered from the library's own registry (no network: remote retrieval is
   refused).
2. *Same dialect.* 3.1 nodes are decided only when the document uses the default dialect (no
   ``jsonSchemaDialect`` other than the OAS base dialect) and the node has no ``$schema``; any
   other dialect goes to the stock path, which picks the validator by ``$schema``.
3. *Same formats.* jsonschema-rs is told to assert formats, and every ``format`` that appears in
   the meta-schemas is replaced by a callable: the stock format checker's own function for the
   formats it checks (``regex``: Python's ``re``, or ``regress`` when installed, exactly as
   upstream), and "always valid" for the formats it does not check (``uri``, ``uri-reference``,
   ...). At import we verify that each such function accepts non-strings, since jsonschema-rs
   calls format functions on strings only; if one did not, the fast path is switched off.
4. *Numbers.* JSON Schema implementations have historically differed on floats with an integral
   value (``1.0`` as an ``integer``) and on integers beyond 64 bits, and non-finite floats are
   not JSON. A node holding any of those anywhere is not decided by the fast path.
5. *Everything else* is the JSON Schema specification both libraries implement (type, enum,
   uniqueItems, required, $ref/$dynamicRef inside the meta-schema, pattern). The places where
   they can still differ make jsonschema-rs the *stricter* one (ECMA ``$`` does not match before
   a final newline, Python's does), and a stricter fast check only means a fallback. A node the
   fast check cannot convert or that raises is a fallback too. Boolean schemas and non-mappings
   always take the stock path.

**Cheaper child lookups.** jsonschema-path resolves every path step through
``SchemaNode._get_subnode``, which pathable guards with ``isinstance(node, Subscriptable)``, a
``runtime_checkable`` Protocol. On Python 3.11 each such check re-collects the protocol's members
(about a third of the remaining validation time on GitHub). For ``dict`` and ``list`` nodes
(every node of a parsed document) the answer is always yes, so :func:`fast_child_lookups`
installs, for the duration of one validation, a ``_get_subnode`` that skips the check for exactly
those two types and defers to the stock method for anything else. It is installed only if
``SchemaNode`` does not define its own ``_get_subnode`` and ``dict``/``list`` do satisfy the
protocol, and it is removed when the last validation using it ends.

Only meta-checks are replaced; the traversal, the ``required``/``allOf`` property check, the
``default`` value checks and the visited-node bookkeeping are the stock code, so the order in
which nodes are visited (which decides some verdicts) is unchanged. Without jsonschema-rs
installed the fast path is off and everything is stock.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from openapi_spec_validator.validation import keywords

from xcompleteness.check._lean import fast_meta_valid, plain_json

try:  # optional: without it every meta-check is the stock one
    import jsonschema_rs
except ImportError:  # pragma: no cover - jsonschema-rs is a dependency
    jsonschema_rs = None

__all__ = [
    "compiled_meta_check",
    "fast_child_lookups",
    "fast_meta_valid",
    "plain_json",
    "with_fast_meta_check",
    "with_set_registries",
]


class _IdSet(set[int]):
    """A set that also answers the list method the upstream code calls."""

    def append(self, item: int) -> None:
        self.add(item)


def _with_sets(base: type[keywords.SchemaValidator]) -> type[keywords.SchemaValidator]:
    class SetSchemaValidator(base):  # type: ignore[misc, valid-type]
        def __init__(self, registry: Any):
            super().__init__(registry)
            self.visited_schema_ids = _IdSet()  # type: ignore[assignment]
            self.meta_checked_schema_ids = _IdSet()  # type: ignore[assignment]

    SetSchemaValidator.__name__ = SetSchemaValidator.__qualname__ = f"Set{base.__name__}"
    return SetSchemaValidator


def with_set_registries(
    base: type[keywords.SchemaValidator],
) -> type[keywords.SchemaValidator]:
    """``base`` with set-based visit registries (public name for validate.py)."""
    return _with_sets(base)


# --------------------------------------------------------------------------------------------
# The compiled meta-check.


def _formats_in(node: Any) -> Iterator[str]:
    """Every ``format`` value named anywhere in a meta-schema."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Mapping):
            fmt = item.get("format")
            if isinstance(fmt, str):
                yield fmt
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _format_functions(meta_schemas: list[Any], checker: Any) -> dict[str, Callable[[Any], bool]]:
    """Each meta-schema format -> the stock checker's verdict (True where it checks nothing)."""
    out: dict[str, Callable[[Any], bool]] = {}
    for name in sorted({f for m in meta_schemas for f in _formats_in(m)}):
        if name in checker.checkers:
            for probe in (0, 1.5, None, True, [], {}):
                if not checker.conforms(probe, name):
                    raise ValueError(f"format {name!r} rejects non-strings")
            out[name] = lambda value, _name=name: checker.conforms(value, _name)
        else:
            out[name] = lambda value: True
    return out


def _refuse_retrieval(uri: str) -> Any:
    raise ValueError(f"not retrieving {uri}: meta-schemas come from the local registry")


def _compile(version: str) -> Any | None:
    """A jsonschema-rs validator mirroring the stock meta-check of ``version``, or None."""
    if jsonschema_rs is None:
        return None
    from openapi_schema_validator import OAS30Validator, OAS31Validator
    from openapi_schema_validator._specifications import REGISTRY

    try:
        if version == "3.0":
            meta = OAS30Validator.META_SCHEMA
            formats = _format_functions([meta], OAS30Validator.FORMAT_CHECKER)
            return jsonschema_rs.Draft4Validator(
                dict(meta), validate_formats=True, formats=formats, retriever=_refuse_retrieval
            )
        meta = OAS31Validator.META_SCHEMA
        uris = [u for u in REGISTRY if u.startswith("https://json-schema.org/draft/2020-12/")]
        uris += ["https://spec.openapis.org/oas/3.1/meta/base", meta["$id"]]
        resources = [(u, REGISTRY.contents(u)) for u in uris]
        formats = _format_functions([r for _, r in resources], OAS31Validator.FORMAT_CHECKER)
        return jsonschema_rs.Draft202012Validator(
            dict(meta),
            validate_formats=True,
            formats=formats,
            registry=jsonschema_rs.Registry(resources, retriever=_refuse_retrieval),
            retriever=_refuse_retrieval,
        )
    except Exception:  # noqa: BLE001 - an incompatible jsonschema-rs only means no fast path
        return None


_COMPILED: dict[str, Any] = {}


def compiled_meta_check(version: str) -> Any | None:
    """The compiled meta-check for ``"3.0"`` or ``"3.1"`` (built once), None when unavailable."""
    if version not in _COMPILED:
        _COMPILED[version] = _compile(version)
    return _COMPILED[version]


def with_fast_meta_check(
    base: type[keywords.SchemaValidator],
) -> type[keywords.SchemaValidator]:
    """``base`` whose meta-check asks the compiled check first (stock on anything but a pass)."""
    is_31 = issubclass(base, keywords.OpenAPIV31SchemaValidator)
    if is_31 and issubclass(base, keywords.OpenAPIV32SchemaValidator):
        return base  # 3.2 has its own dialect; not covered
    version = "3.1" if is_31 else "3.0"

    class FastMetaSchemaValidator(base):  # type: ignore[misc, valid-type]
        def _validate_schema_meta(self, schema: Any, schema_value: Any) -> Any:
            compiled = compiled_meta_check(version)
            if compiled is not None and self._decidable(schema, schema_value):
                if fast_meta_valid(compiled, schema_value):
                    return None
            return super()._validate_schema_meta(schema, schema_value)

        def _decidable(self, schema: Any, schema_value: Any) -> bool:
            if not is_31:
                return True
            if not isinstance(schema_value, dict) or "$schema" in schema_value:
                return False
            from openapi_schema_validator import OAS31_BASE_DIALECT_ID

            try:
                dialect = self._get_default_jsonschema_dialect_id(schema)
            except Exception:  # noqa: BLE001 - a malformed jsonSchemaDialect: stock path
                return False
            return bool(dialect == OAS31_BASE_DIALECT_ID)

    FastMetaSchemaValidator.__name__ = f"FastMeta{base.__name__}"
    FastMetaSchemaValidator.__qualname__ = FastMetaSchemaValidator.__name__
    return FastMetaSchemaValidator


# --------------------------------------------------------------------------------------------
# Child lookups without the Protocol isinstance check, for dicts and lists.

_LOOKUP_LOCK = threading.Lock()
_lookup_users = 0


def _child_lookup_patchable() -> bool:
    from jsonschema_path.nodes import SchemaNode
    from pathable.protocols import Subscriptable

    return (
        "_get_subnode" not in SchemaNode.__dict__
        and isinstance({}, Subscriptable)
        and isinstance([], Subscriptable)
    )


def _install_child_lookup() -> None:
    from jsonschema_path.nodes import SchemaNode

    stock = SchemaNode._get_subnode  # bound to SchemaNode, inherited from pathable

    def _get_subnode(cls: Any, node: Any, part: Any) -> Any:
        kind = type(node)
        if kind is dict or kind is list:  # both are Subscriptable: the stock check says yes
            try:
                return node[part]
            except (KeyError, IndexError, TypeError) as exc:
                raise KeyError(part) from exc
        return stock(node, part)

    SchemaNode._get_subnode = classmethod(_get_subnode)  # type: ignore[method-assign, assignment]


@contextmanager
def fast_child_lookups() -> Iterator[None]:
    """Skip pathable's Protocol check for dict/list nodes while the block runs (see module doc)."""
    global _lookup_users
    from jsonschema_path.nodes import SchemaNode

    with _LOOKUP_LOCK:
        if _lookup_users == 0 and _child_lookup_patchable():
            _install_child_lookup()
        _lookup_users += 1
    try:
        yield
    finally:
        with _LOOKUP_LOCK:
            _lookup_users -= 1
            if _lookup_users == 0 and "_get_subnode" in SchemaNode.__dict__:
                del SchemaNode._get_subnode
