"""openapi-spec-validator's keyword walk over the plain document, for documents it can decide.

The stock validator (0.9) does two things: a structural check of the whole document against
the OpenAPI meta-schema (jsonschema-rs when installed, as here), and a *keyword walk* through
``jsonschema-path`` objects that adds what a meta-schema cannot say: schema meta-checks,
``required`` names missing from an ``allOf``, ``default`` values that break their schema,
duplicate tags / parameters / operationIds and unresolved path parameters. The walk is almost
all of its time on a large document (about 0.5 million ``get_resolved`` calls on GitHub's), for
plumbing: each step re-resolves its path through ``referencing``.

:func:`walk_errors` is the same walk over the plain ``dict``: the same visit order, the same
``$ref`` following (a ``$ref`` node is replaced by its target, chains followed, siblings
ignored), the same visited-node registries keyed by ``id()`` of the resolved node, the same
error classes and messages built by the stock expressions, and the same pointers (the path the
walk took, through ``$ref``s, prefixed the way :mod:`xcompleteness.check._validate` does). The
parts that judge a value are the stock code itself: meta-checks go through the validator's own
``schema`` keyword (jsonschema-rs first, stock on anything but a pass), ``default`` values
through its own ``default`` keyword.

It declines, by raising :class:`Undecided`, whenever the document is anything but the plain
case: the structural check found errors, a ``$ref`` is not a local ``#/`` pointer without
percent-escapes, a node the walk reads has an unexpected type (where the stock walk would raise
or take an odd branch), a boolean schema, or anything raises. The caller then runs the stock
walk, so every verdict is the stock verdict; tests compare the two on every fixture and on a
sample of real specs (tests/check/test_validate*.py, tests/corpus/test_validate_corpus.py).
"""

from __future__ import annotations

import marshal
import string
from collections.abc import Callable, Iterable
from itertools import repeat
from operator import itemgetter
from typing import Any, NamedTuple

from xcompleteness.check import _lean
from xcompleteness.check._lean import fast_meta_valid
from xcompleteness.diagnostics import exception_text
from xcompleteness.document import HTTP_METHODS, iter_refs, pointer_tokens

__all__ = ["Found", "MAX_REF_CHAIN", "OPERATIONS", "Undecided", "local_refs_only", "walk_errors"]


OPERATIONS = frozenset(HTTP_METHODS)
"""The path item fields the stock walk visits as operations (``PathValidator.OPERATIONS``: the
same eight as ours, so that the walk imports nothing of the validator; a test keeps them equal)."""
MAX_REF_CHAIN = 64


class Undecided(Exception):
    """The plain walk cannot promise the stock verdict here; run the stock walk."""


class Found(NamedTuple):
    """One error: the document path (as the stock walk reports it) and the stock message."""

    absolute_path: tuple[Any, ...]
    message: str


def local_refs_only(data: Any, refs: Iterable[tuple[str, str]] | None = None) -> bool:
    """True when every ``$ref`` string is a plain local pointer (``#/...``, no ``%``); ``refs``
    lists them when known (``SourceDoc.refs``), else ``data`` is walked for them."""
    # each distinct text once, its two tests in C (GitHub: 1,764 texts for 10,460 refs)
    texts = set(map(itemgetter(1), iter_refs(data) if refs is None else refs))
    return all(map(str.startswith, texts, repeat("#/"))) and not any(
        map(str.count, texts, repeat("%"))
    )


class _Walk:
    def __init__(
        self,
        data: dict[str, Any],
        version: str,
        stock: Callable[[], Any],
        unplain: frozenset[int] | None = None,
    ) -> None:
        self.data = data
        self.unplain = unplain
        """``SourceDoc.unplain`` of ``data``: a schema outside it is plain JSON, not walked for
        that again before its meta-check (None: every schema is)."""
        self._stock = stock  # builds the stock validator, on the first value check it must do
        self._validator: Any = None
        self.compiled = _lean.lean_meta_check(version)
        if self.compiled is None:
            from xcompleteness.check._osv_speedup import compiled_meta_check

            self.compiled = compiled_meta_check(version)
        self.lean_defaults = version == "3.0"
        dialect = data.get("jsonSchemaDialect")
        if version == "3.1":
            from openapi_schema_validator import OAS31_BASE_DIALECT_ID

            if dialect is not None and not isinstance(dialect, str):
                raise Undecided("jsonSchemaDialect is not a string")
            self.fast_meta = dialect in (None, OAS31_BASE_DIALECT_ID)
        else:
            self.fast_meta = True
        self.is_31 = version == "3.1"
        self.meta_checked: set[int] = set()
        self.visited: set[int] = set()
        self.walked_clean: set[int] = set()
        """Parameter and response objects whose schemas were walked and yielded nothing: walked
        again (a shared ``$ref``'d one, once per operation), each of their schemas would stop
        at once, since a schema that yields nothing ends meta-checked and visited (an error is
        what leaves one unvisited), so the stock walk of them yields nothing again."""
        self.clean_contents: set[bytes] = set()
        """Inline parameter schemas (their :func:`_content_key`) whose walk yielded nothing: one
        written the same elsewhere yields nothing either (Microsoft Graph writes its 38,473
        parameter schemas in 992 ways). What the stock walk of such a schema reads is its own
        content and the document's ``$ref`` targets, which the first walk left meta-checked and
        visited; the one thing its visit can change for a later route to one of its nodes (a
        ``$ref`` into ``paths``, a node a YAML alias shares) is whether an ``allOf``'s
        ``required`` list is checked there, so a schema holding ``allOf`` has no key."""
        self.operation_ids: set[Any] = set()
        self.found: list[Found] = []
        """The errors so far, in the stock walk's order."""
        self._targets: dict[str, Any] = {}

    # -- reading the plain document the way jsonschema-path does -------------------------------

    def resolve(self, node: Any) -> Any:
        if not (type(node) is dict and "$ref" in node):
            return node  # (most nodes: no loop set up for them)
        for _ in range(MAX_REF_CHAIN):
            if not (type(node) is dict and "$ref" in node):
                return node
            ref = node["$ref"]
            if type(ref) is not str:
                return node  # jsonschema-path follows string refs only
            node = self._target(ref)
        raise Undecided("$ref chain too long")

    def _target(self, ref: str) -> Any:
        hit = self._targets.get(ref)
        if hit is not None:
            return hit
        if not ref.startswith("#/") or "%" in ref:
            raise Undecided(f"not a plain local $ref: {ref!r}")
        tokens = pointer_tokens(ref[1:])
        node: Any = self.data
        for token in tokens or ():
            if type(node) is dict and token in node:
                node = node[token]
            elif type(node) is list and token.isdigit() and int(token) < len(node):
                node = node[int(token)]
            else:
                raise Undecided(f"dangling $ref {ref!r}")
        self._targets[ref] = node
        return node

    def child(self, node: dict[str, Any], key: str, kind: type) -> Any:
        value = self.resolve(node[key])
        if type(value) is not kind:
            raise Undecided(f"{key} is a {type(value).__name__}")
        return value

    @property
    def validator(self) -> Any:
        """The stock validator (its keyword registry and document SchemaPath), built once."""
        if self._validator is None:
            self._validator = self._stock()
        return self._validator

    def sp(self, parts: tuple[Any, ...]) -> Any:
        """The SchemaPath the stock walk would hold at ``parts`` (for the stock value checks)."""
        root = self.validator.schema_path
        return root.joinpath(*parts) if parts else root

    # -- the walk (keywords.RootValidator and below, in the stock order) -----------------------

    def run(self) -> list[Found]:
        """Every error, in the stock walk's order (each step appends to ``self.found``: no
        generator per schema node, as a walk of 41,000 schema visits on GitHub's had)."""
        spec = self.data
        if "tags" in spec:
            self.tags(("tags",), self.child(spec, "tags", list))
        if "paths" in spec:
            paths = self.child(spec, "paths", dict)
            for url, item in paths.items():
                item = self.resolve(item)
                if type(item) is not dict or type(url) is not str:
                    raise Undecided("path item")
                self.path(url, ("paths", url), item)
        if "components" in spec:
            components = self.child(spec, "components", dict)
            if "schemas" in components:
                schemas = self.child(components, "schemas", dict)
                for name, schema in schemas.items():
                    self.schema(("components", "schemas", name), schema)
        return self.found

    def tags(self, at: tuple[Any, ...], tags: list[Any]) -> None:
        seen: set[str] = set()
        for tag in tags:
            tag = self.resolve(tag)
            name = self.resolve(tag.get("name")) if type(tag) is dict else None
            if type(name) is not str:
                raise Undecided("tag without a name")
            if name in seen:
                self.found.append(Found(at, f"Duplicate tag name '{name}'"))
            seen.add(name)

    def path(self, url: str, at: tuple[Any, ...], item: dict[str, Any]) -> None:
        # What every operation of the item compares (the stock walk works both out again per
        # operation; an odd parameter raised Undecided in ``parameters`` already, and any
        # Undecided discards the whole walk, so working them out once here changes nothing).
        path_names: list[str] = []
        if "parameters" in item:
            parameters = self.child(item, "parameters", list)
            path_names = self.parameters((*at, "parameters"), parameters)
        url_params: set[str] | None = None  # read when the item has an operation, as before
        for name, operation in item.items():
            if name not in OPERATIONS:
                continue
            if url_params is None:
                url_params = {p for _, p, _, _ in string.Formatter().parse(url) if p}
            operation = self.resolve(operation)
            if type(operation) is not dict:
                raise Undecided("operation")
            self.operation(url, name, (*at, name), operation, path_names, url_params)

    def parameters(self, at: tuple[Any, ...], parameters: list[Any]) -> list[str]:
        """The stock walk of a parameter list; returns the names of its path parameters (which
        the stock walk reads in a second pass over the list: every parameter's ``name`` and
        ``in`` were read here already, so that pass finds nothing new to decline)."""
        seen = set()
        path_names: list[str] = []
        field = self._field
        for index, parameter in enumerate(parameters):
            if type(parameter) is dict and "$ref" in parameter:
                parameter = self.resolve(parameter)
            if type(parameter) is not dict:
                raise Undecided("parameter")
            if "schema" in parameter and id(parameter) not in self.walked_clean:
                raw = parameter["schema"]
                key = _content_key(raw) if type(raw) is dict and "$ref" not in raw else None
                if key is None or key not in self.clean_contents:
                    before = len(self.found)
                    self.schema((*at, index, "schema"), raw)
                    if len(self.found) == before:  # clean
                        self.walked_clean.add(id(parameter))
                        if key is not None:
                            self.clean_contents.add(key)
            name, where = field(parameter, "name"), field(parameter, "in")
            key = (name, where)
            if key in seen:
                self.found.append(Found(at, f"Duplicate parameter '{name}'"))
            seen.add(key)
            if where == "path":
                path_names.append(name)
        return path_names

    def _field(self, node: dict[str, Any], key: str) -> str:
        if key not in node:
            raise Undecided(f"no {key}")
        value = node[key]
        if type(value) is not str:  # a text is its own resolution
            value = self.resolve(value)
            if type(value) is not str:
                raise Undecided(f"{key} is not a string")
        return value

    def operation(
        self,
        url: str,
        name: str,
        at: tuple[Any, ...],
        operation: dict[str, Any],
        path_names: list[str],
        url_params: set[str],
    ) -> None:
        if "operationId" in operation:
            op_id = self.resolve(operation["operationId"])
            if type(op_id) is not str:
                raise Undecided("operationId")
            if op_id in self.operation_ids:
                message = f"Operation ID '{op_id}' for '{name}' in '{url}' is not unique"
                self.found.append(Found(at, message))
            self.operation_ids.add(op_id)
        if "responses" in operation:
            responses = self.child(operation, "responses", dict)
            for code, response in responses.items():
                response = self.resolve(response)
                if type(response) is not dict:
                    continue  # the stock walk finds no "content" in it and moves on
                if "content" in response and id(response) not in self.walked_clean:
                    before = len(self.found)
                    content = self.child(response, "content", dict)
                    for mime, media in content.items():
                        media = self.resolve(media)
                        if type(media) is not dict:
                            continue  # no "schema" in it: skipped, as the stock walk does
                        if "schema" in media:
                            where = ("responses", code, "content", mime, "schema")
                            self.schema((*at, *where), media["schema"])
                    if len(self.found) == before:  # clean
                        self.walked_clean.add(id(response))
        names: list[str] = []
        if "parameters" in operation:
            parameters = self.child(operation, "parameters", list)
            names = self.parameters((*at, "parameters"), parameters)
        all_params = set(names) | set(path_names)
        for param in sorted(url_params):
            if param not in all_params:
                self.found.append(Found(at, _unresolved(param, name, url)))
        for param in sorted(all_params):
            if param not in url_params:
                self.found.append(Found(at, _unresolved(param, name, url)))

    # -- keywords.SchemaValidator ------------------------------------------------------------

    def schema(
        self,
        at: tuple[Any, ...],
        node: Any,
        require_properties: bool = True,
        meta_checked: bool = False,
    ) -> None:
        # self.resolve(node), without the call for a node that holds no $ref (most of them)
        value = self.resolve(node) if type(node) is dict and "$ref" in node else node
        if type(value) is not dict:
            raise Undecided("a schema that is not an object")  # bool schemas, odd values
        schema_id = id(value)
        if not meta_checked and schema_id not in self.meta_checked:
            self.meta_checked.add(schema_id)
            err = self._meta(at, value)
            if err is not None:
                self.found.append(err)
                return
        if schema_id in self.visited:
            return
        self.visited.add(schema_id)

        # A subschema that is a plain leaf (_quiet) is not visited: its visit adds nothing.
        nested_properties: list[str] = []
        if "allOf" in value:
            all_of = self.child(value, "allOf", list)
            for index, inner in enumerate(all_of):
                if not (type(inner) is dict and _quiet(inner)):
                    self.schema((*at, "allOf", index), inner, False, True)
                nested_properties += list(self._collect_properties(inner))
        for keyword in ("anyOf", "oneOf"):
            if keyword in value:
                for index, inner in enumerate(self.child(value, keyword, list)):
                    if not (type(inner) is dict and _quiet(inner)):
                        self.schema((*at, keyword, index), inner, False, True)
        if "not" in value:
            inner = value["not"]
            if not (type(inner) is dict and _quiet(inner)):
                self.schema((*at, "not"), inner, False, True)
        if "items" in value:
            inner = value["items"]
            if not (type(inner) is dict and _quiet(inner)):
                self.schema((*at, "items"), inner, False, True)
        properties: Any = []
        if "properties" in value:
            props = self.child(value, "properties", dict)
            for key, prop in props.items():
                if not (type(prop) is dict and _quiet(prop)):
                    self.schema((*at, "properties", key), prop, False, True)
            properties = props.keys() or []
        required: Any = []
        if "required" in value:
            required = self.resolve(value["required"])
            if type(required) is not list:
                raise Undecided("required is not a list")
            required = required or []
        if "allOf" in value:
            extra_properties = list(set(required) - set(properties) - set(nested_properties))
        else:
            extra_properties = []
        if extra_properties and require_properties:
            message = f"Required list has not defined properties: {extra_properties}"
            self.found.append(Found(at, message))
        if "default" in value:
            default_value = value["default"]
            if type(default_value) is dict and type(default_value.get("$ref")) is str:
                raise Undecided("a default that looks like a $ref")
            nullable_value: Any = False
            if "nullable" in value:
                nullable_value = self.resolve(value["nullable"])
            if default_value is not None or nullable_value is not True:
                self._default(at, value, default_value)

    def _collect_properties(self, node: Any) -> set[str]:
        value = self.resolve(node)
        if type(value) is not dict:
            raise Undecided("a schema that is not an object")
        props: set[str] = set()
        if "properties" in value:
            props.update(self.child(value, "properties", dict).keys())
        for keyword in ("allOf", "anyOf", "oneOf"):
            if keyword in value:
                for sub in self.child(value, keyword, list):
                    props.update(self._collect_properties(sub))
        if "items" in value:
            props.update(self._collect_properties(value["items"]))
        if "not" in value:
            props.update(self._collect_properties(value["not"]))
        return props

    def _meta(self, at: tuple[Any, ...], value: dict[str, Any]) -> Found | None:
        if self.fast_meta and not (self.is_31 and "$schema" in value):
            unplain = self.unplain
            known = unplain is not None and id(value) not in unplain
            if fast_meta_valid(self.compiled, value, known_plain=known):
                return None
        registry = self.validator.keyword_validators_registry
        err = registry["schema"]._validate_schema_meta(self.sp(at), value)
        if err is None:
            return None
        return Found((*at, *err.path), err.message)

    def _default(self, at: tuple[Any, ...], schema: dict[str, Any], default_value: Any) -> None:
        # The validator's own (located) ``default`` keyword: errors carry the full path.
        if self.lean_defaults and _lean.default_ok(schema, default_value):
            return  # the stock check finds no error in a plain default (module doc of _lean)
        registry = self.validator.keyword_validators_registry
        for err in registry["default"](self.sp(at), default_value):
            self.found.append(Found(tuple(err.absolute_path), err.message))


_quiet = frozenset(
    ("$ref", "allOf", "anyOf", "oneOf", "not", "items", "properties", "required", "default")
).isdisjoint
"""True for a schema object holding none of the keys :meth:`_Walk.schema` reads: a plain leaf
(``{"type": "string", "example": ...}``: 31,833 of the 41,390 schema visits on GitHub's). Its
visit as a subschema (meta-checked with its parent) finds nothing and raises nothing, and only
adds its ``id`` to ``visited``; ``visited`` is read by ``schema`` alone, to return early, which
for such a leaf is what walking it does anyway. So the walk leaves plain subschemas unvisited:
the same errors, in the same order, and the same Undecided cases (a leaf that is not an object
is still visited, and raises)."""


def _content_key(schema: dict[str, Any]) -> bytes | None:
    """The content of an inline schema as bytes equal only for equal plain contents
    (``marshal`` version 0: types kept, ``1`` and ``True`` and ``1.0`` apart, key order kept, no
    back-references), None when it holds ``allOf`` (the word anywhere, a value included:
    :attr:`_Walk.clean_contents`) or is not plain data."""
    try:
        key = marshal.dumps(schema, 0)
    except ValueError:  # a value that is not plain data, or nested too deep
        return None
    return None if b"allOf" in key else key


def _unresolved(param: str, name: str, url: str) -> str:
    return f"Path parameter '{param}' for '{name}' operation in '{url}' was not resolved"


def walk_errors(
    data: dict[str, Any],
    version: str,
    stock: Callable[[], Any],
    refs: Iterable[tuple[str, str]] | None = None,
    unplain: frozenset[int] | None = None,
) -> list[Found]:
    """Every error of the stock keyword walk, or :class:`Undecided` (see the module doc).

    ``stock()`` builds the (located, sped-up) stock spec validator instance for ``data``; it is
    called only when a check is not decided without it (:mod:`xcompleteness.check._lean`): its
    keyword registry supplies the meta-check and the ``default`` check, its ``schema_path`` the
    paths those stock calls need. ``refs``: every ``$ref`` of ``data`` when the loader listed
    them already (else they are looked up here); ``unplain``: ``SourceDoc.unplain`` of
    ``data`` when known (the schemas outside it skip the plain-JSON walk). The structural check
    runs first, as in the stock validator; any error there is left to the stock walk (a
    malformed document is where the two could part).
    """
    try:
        if type(data) is not dict or not local_refs_only(data, refs):
            raise Undecided("external or escaped $ref")
        walk = _Walk(data, version, stock, unplain)
        valid = _lean.structural_valid(data, version)
        if valid is None:
            valid = not any(True for _ in walk.validator.schema_validator.iter_errors(data))
        if not valid:
            raise Undecided("the document has structural errors")
        return walk.run()
    except Undecided:
        raise
    except Exception as exc:  # noqa: BLE001 - anything odd: the stock walk decides
        raise Undecided(f"{type(exc).__name__}: {exception_text(exc)}") from exc
