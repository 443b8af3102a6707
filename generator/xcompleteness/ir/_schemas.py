"""The item-model schemas: every spec schema the declarations reach, copied once, refs kept as refs.

Why: the item models are one sub-document (``#/components/schemas/<Class>``) handed to
datamodel-code-generator. Copying a schema by inlining every ``$ref`` that does not name a whole
component copies a DAG of shared refs as a tree, so the work grows with the number of paths
through the schema graph, exponentially in its depth. Azure's ``network-applicationGateway``
(155 KB; swagger2openapi's refs into other schemas' properties) made 20 million copy calls and 4
million identical warnings, then was refused after minutes for holding too many objects.

How each ``$ref`` is kept (every target is copied at most once; a cycle is closed by the ref):

* a component (``#/components/schemas/Name``): its class, copied once (as before);
* a schema object inside a component whose tokens are plain (``[A-Za-z0-9_-]``: the library
  misreads dots, escapes and percent signs in a ref) and cross no ``$ref``: the same location
  inside that component's copy (``#/components/schemas/<Class>/properties/x``);
  datamodel-code-generator gives such a location one class, used wherever it is referenced;
* any other local location (a response's or a path's schema, a component interior with other
  tokens): an entry of its own, named after the location by the naming authority;
* a chain of refs is followed to its end first, so an alias never becomes a wrapper class.

Copies are made from a work list, never by recursing into the next schema, so a chain of
thousands of components does not exhaust the Python stack, and warnings about one schema are
raised once, at that schema's own pointer. The work is budgeted: every node copied and every ref
followed is a step, and past ``Limits.max_schema_nodes`` (``XC_MAX_SCHEMA_NODES``) the build
stops with ``XC015`` located at the schema being copied (unusable input, exit 2) instead of
running on.

Patterns: a ``pattern`` pydantic's regex engine cannot compile is left out (``XC603``). Asking
pydantic costs its import (about 0.15 s); inside :func:`pattern_store` (``generate``'s cache
folder) a pattern pydantic compiled is remembered under SHA-256 of the pattern, the versions of
pydantic and pydantic-core and this question's source, so an overlay edit asks again only about
new patterns. Only "compiles" is kept: a refusal is asked again every time.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections import deque
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from xcompleteness import document
from xcompleteness.diagnostics import Diagnostic, InputError, Severity, pointer_join
from xcompleteness.document import HTTP_METHODS
from xcompleteness.ir._datamodels import PREFIX
from xcompleteness.ir._naming import NameRegistry, component_rename_hint, pascal
from xcompleteness.load import WORK_BUDGET
from xcompleteness.reuse import (
    FactStore,
    StoreSlot,
    file_sha256,
    known,
    library_versions,
    remember,
)

__all__ = [
    "MAX_CHAIN",
    "MAX_NESTING",
    "ModelSchemas",
    "PatternStore",
    "pattern_key",
    "pattern_store",
    "pattern_supported",
]

PatternStore = FactStore
"""Where "pydantic compiles this pattern" is kept."""

_PATTERNS: StoreSlot[PatternStore] = StoreSlot("xc_pattern_store")
pattern_store = _PATTERNS.using
"""``with pattern_store(store):`` lets :func:`pattern_supported` use ``store``."""

MAX_NESTING = 64
"""A schema nested deeper than this inside one copy is modelled as ``Any`` (``XC603``)."""
MAX_CHAIN = 32
"""Refs followed in one chain before the chain is modelled as ``Any``."""
_PLAIN = re.compile(r"[A-Za-z0-9_-]+\Z")
_STRUCTURE = frozenset(
    "properties items additionalProperties patternProperties prefixItems allOf anyOf oneOf not "
    "if then else contains propertyNames dependentSchemas unevaluatedProperties unevaluatedItems "
    "$defs definitions schema schemas content components responses requestBody requestBodies "
    "parameters headers paths".split()
) | frozenset(HTTP_METHODS)


class ModelSchemas:
    """The copies (``schemas``: class name -> schema) and where each came from (``origin``)."""

    def __init__(
        self,
        doc: Mapping[str, Any],
        components: Mapping[str, Any],
        classes: NameRegistry,
        warn: Callable[..., None],
        *,
        file: str,
        lines: Mapping[str, int],
        budget: int,
    ) -> None:
        self.doc = doc
        self.components = components
        """``components/schemas`` of ``doc`` (``DocumentViews.schemas``)."""
        self.classes = classes
        self.warn = warn
        """The builder's located warning (pointer, code, message, hint=""): once per schema."""
        self.file = file
        self.lines = lines
        self.budget = budget
        self.steps = 0
        """Nodes copied and refs followed so far (the budgeted work; linear in the document)."""
        self.schemas: dict[str, Any] = {}
        self.origin: dict[str, str] = {}
        """class name -> JSON pointer of the spec schema it models (for diagnostics)."""
        self.component_class: dict[str, str] = {}
        self.placed: dict[str, str] = {}
        """spec pointer of a ref target -> the ``$ref`` that names its copy."""
        self._pending: deque[tuple[str, Any, str]] = deque()

    # -- entries
    def component(self, name: str) -> str:
        """The class of component schema ``name``; its copy is made by :meth:`drain`."""
        if name not in self.component_class:
            pointer = pointer_join("/components/schemas", name)
            cls = self.classes.claim(
                pascal(name), origin=pointer, style="pascal", hint=component_rename_hint
            )
            self.component_class[name] = cls
            self._schedule(cls, self.components.get(name, {}), pointer)
        return self.component_class[name]

    def model(
        self,
        schema: Any,
        wanted: str,
        pointer: str,
        hint: Callable[[str], str] | None = None,
    ) -> str | None:
        """Class name modelling ``schema``: its component class, or a new named model."""
        if schema is None:
            return None
        node, at = self._follow(schema, pointer)
        ref = node.get("$ref") if isinstance(node, Mapping) else None
        name = document.ref_component(ref) if isinstance(ref, str) else None
        if name is not None and name in self.components:
            cls = self.component(name)  # directly or through aliases: the component's class
        else:
            cls = self.classes.claim(wanted, origin=pointer, style="pascal", hint=hint)
            if at is not None:
                self.placed.setdefault(at, PREFIX + cls)
            self._schedule(cls, node, at or pointer)
            self.origin[cls] = pointer
        self.drain()
        return cls

    def drain(self) -> None:
        """Copy every scheduled schema (each copy schedules the ones it references)."""
        while self._pending:
            cls, node, pointer = self._pending.popleft()
            self.schemas[cls] = self._copy(node, pointer, 0)

    def _schedule(self, cls: str, node: Any, pointer: str) -> None:
        self.origin[cls] = pointer
        self.schemas[cls] = {}  # placeholder until drained
        self._pending.append((cls, node, pointer))

    # -- copying
    def _step(self, pointer: str) -> None:
        self.steps += 1
        if self.steps > self.budget:
            raise InputError(
                [
                    Diagnostic(
                        self.file,
                        pointer,
                        WORK_BUDGET,
                        Severity.ERROR,
                        f"modelling the schemas the declarations reach takes more than "
                        f"{self.budget:,} steps (nodes copied and refs followed); stopped here",
                        "split the document or declare fewer operations per run; raise "
                        "XC_MAX_SCHEMA_NODES if the schemas really are this large",
                        self.lines.get(pointer),
                    )
                ]
            )

    def _copy(self, node: Any, pointer: str, depth: int) -> Any:
        self._step(pointer)
        if depth > MAX_NESTING:
            self.warn(pointer, "XC603", "schema nested too deeply; modelled as Any")
            return {}
        if isinstance(node, Mapping):
            ref = node.get("$ref")
            if isinstance(ref, str):
                return self._ref(ref, pointer, depth)
            out = {k: self._copy(v, pointer_join(pointer, k), depth + 1) for k, v in node.items()}
            if isinstance(out.get("discriminator"), Mapping):
                out["discriminator"] = self._discriminator(out["discriminator"])
            pattern = out.get("pattern")
            if isinstance(pattern, str) and not pattern_supported(pattern):
                del out["pattern"]
                self.warn(
                    pointer_join(pointer, "pattern"),
                    "XC603",
                    "pattern not supported by pydantic's regex engine; the models skip it",
                    "use a pattern without look-around or back-references",
                )
            return out
        if isinstance(node, list):
            return [self._copy(v, pointer_join(pointer, i), depth + 1) for i, v in enumerate(node)]
        return node  # str, int, float, bool, None: immutable

    def _follow(self, node: Any, pointer: str) -> tuple[Any, str | None]:
        """Follow local refs that name no component: ``(node, its pointer)``, stopping at a
        component ref, a non-ref or a ref that does not resolve (``pointer`` None: not moved)."""
        at = None
        for _ in range(MAX_CHAIN):
            ref = node.get("$ref") if isinstance(node, Mapping) else None
            if not isinstance(ref, str):
                break
            name = document.ref_component(ref)
            if name is not None and name in self.components:
                break
            found, target = document.resolve_ref(self.doc, ref)
            if not found:
                break
            self._step(pointer)
            node, at = target, document.ref_pointer(ref)
            pointer = at or pointer
        return node, at

    def _ref(self, ref: str, pointer: str, depth: int) -> Any:
        """The copy of a ``$ref`` found at ``pointer``: a ref (``{}`` for ``Any``); a target that
        is not an object (``true``, a list) is copied in place, as it has no class."""
        for _ in range(MAX_CHAIN):
            self._step(pointer)
            name = document.ref_component(ref)
            if name is not None and name in self.components:
                return {"$ref": PREFIX + self.component(name)}
            at = document.ref_pointer(ref)
            if at is not None and at in self.placed:
                return {"$ref": self.placed[at]}
            found, target = document.resolve_ref(self.doc, ref)
            if not found or at is None:
                break
            if isinstance(target, Mapping) and isinstance(target.get("$ref"), str):
                ref, pointer = target["$ref"], at  # an alias: its target is the schema
                continue
            if not isinstance(target, Mapping):
                return self._copy(target, at, depth + 1)
            inner = self._inside_component(at, target)
            if inner is not None:
                self.placed[at] = inner
                return {"$ref": inner}
            cls = self.classes.claim(_entry_name(at), origin=at, style="pascal", report=False)
            self.placed[at] = PREFIX + cls
            self._schedule(cls, target, at)
            return {"$ref": PREFIX + cls}
        self.warn(pointer, "XC603", f"unsupported $ref {ref!r}; modelled as Any")
        return {}

    def _inside_component(self, at: str, target: Any) -> str | None:
        """``#/components/schemas/<Class>/rest`` for a plain location inside a component, else
        None (the location then gets an entry of its own). The copy of a component keeps every
        schema object where it was (it drops only ``pattern`` strings and the siblings of a
        ``$ref``, and cuts nesting past ``MAX_NESTING``), so such a ref never dangles."""
        tokens = document.pointer_tokens(at) or ()
        if len(tokens) < 4 or tokens[:2] != ("components", "schemas"):
            return None
        if not isinstance(target, Mapping):
            return None
        rest = tokens[3:]
        if tokens[2] not in self.components or len(rest) > MAX_NESTING:
            return None
        node: Any = self.components[tokens[2]]
        for token in rest:
            if not _PLAIN.match(token) or not isinstance(node, Mapping | list):
                return None
            if isinstance(node, Mapping) and isinstance(node.get("$ref"), str):
                return None  # the copy of a ref node holds only the ref
            found, node = document.resolve_pointer(node, pointer_join("", token))
            if not found:
                return None
        return PREFIX + self.component(tokens[2]) + "/" + "/".join(rest)

    def _discriminator(self, node: Mapping[str, Any]) -> dict[str, Any]:
        """A discriminator whose ``mapping`` values (refs written as plain strings, which
        :meth:`_copy` does not see as ``$ref``) point at our class names too; an entry naming
        no component is dropped. Left as they were, names like ``microsoft.graph.user`` made
        datamodel-code-generator split its output into modules (Microsoft Graph: XC603)."""
        out = dict(node)
        mapping = node.get("mapping")
        if isinstance(mapping, Mapping):
            kept = {}
            for key, ref in mapping.items():
                name = document.ref_component(ref) if isinstance(ref, str) else None
                if name is not None and name in self.components:
                    kept[key] = PREFIX + self.component(name)
            out["mapping"] = kept
        return out


def _entry_name(pointer: str) -> str:
    """The class name of a location's own entry: its last token that is a name, not structure
    (``/components/responses/Pets/content/application~1json/schema`` -> ``Pets``)."""
    for token in reversed(document.pointer_tokens(pointer) or ()):
        if token in _STRUCTURE or token.isdigit() or ("/" in token and not token.startswith("/")):
            continue
        return pascal(token)
    return "Schema"


def pattern_supported(pattern: str) -> bool:
    """True when pydantic (Rust regex, the generated models' engine) compiles ``pattern``
    (a :func:`pattern_store` that knows it answers without pydantic; module doc)."""
    store = _PATTERNS.current()
    if store is None:
        return _compiles(pattern)
    key = pattern_key(pattern)
    if known(store, key):
        return True
    ok = _compiles(pattern)
    if ok:
        remember(store, key)
    return ok


@functools.lru_cache(maxsize=4096)
def _compiles(pattern: str) -> bool:
    from typing import Annotated

    from pydantic import Field, TypeAdapter

    try:
        TypeAdapter(Annotated[str, Field(pattern=pattern)])
    except Exception:  # noqa: BLE001 - any failure means the models could not be imported
        return False
    return True


@functools.cache
def _pattern_salt() -> bytes:
    return library_versions(("pydantic", "pydantic-core")) + file_sha256(Path(__file__))


def pattern_key(pattern: str) -> str:
    """SHA-256 of ``pattern``, the pydantic and pydantic-core versions and this module."""
    h = hashlib.sha256(b"xc-pattern 1\n")
    h.update(_pattern_salt())
    h.update(pattern.encode("utf-8", "surrogatepass"))
    return h.hexdigest()
