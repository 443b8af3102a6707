"""The intermediate representation every emitter reads: frozen dataclasses built once per spec.

Why an IR: the decisions (names, Python types, which schemas to model, which codes an operation
may return) are made here, in Python, once; templates only spell them out. Field names below are
a stable interface for the model, server, client and tool emitters — add fields, never rename.

``SpecIR``
    ``package`` (package folder name), ``title``, ``version``, ``source`` (spec file name used in
    diagnostics), ``document`` (the input spec after overlays; treat as read-only), ``contracts``
    (operationId -> canonical contract, see docs/internals.md), ``registry`` (the document's
    :class:`xcompleteness.runtime.contract.Registry`; ``_contracts.json`` carries its used codes
    + client codes), ``operations`` (sorted by
    path, then method), ``model_schemas`` (class name -> JSON Schema of every item/body model the
    declarations reach, ``$ref``s rewritten to ``#/components/schemas/<ClassName>``, or to a
    place inside one: ``.../<ClassName>/properties/x``; each schema copied once: ir/_schemas.py),
    ``reason_codes`` / ``warning_codes`` (every :class:`CodeIR` used, sorted by code),
    ``diagnostics`` (warnings raised while building: name collisions, unsupported schemas,
    classes datamodel-code-generator renamed: ``XC610``/``XC611``), ``item_models``
    (:class:`xcompleteness.ir._datamodels.ItemModels`: ``_items.py`` and the class it holds for each
    ``model_schemas`` key; ``item_class(name)`` answers it).

``OperationIR``
    ``operation_id``, ``py_name`` (snake case of operationId, unique in the package),
    ``class_name`` (PascalCase, unique), ``tool_name``, ``method`` (lower case), ``path``,
    ``pointer`` (JSON pointer of the operation object), ``kind``, ``mode``, ``contract``
    (canonical dict), ``summary``,
    ``description``, ``parameters`` (:class:`ParamIR`, path-level merged with operation-level),
    ``body_fields`` (:class:`FieldIR` of a JSON request body), ``body_required``, ``body_model``
    (class name of the request model or None), ``success_status`` (first 2xx, e.g. ``"200"``),
    ``item_model`` (public class name in models.py, or None when the items are untyped; found
    through ``allOf``/``anyOf``/``oneOf`` like audit does), ``envelope_model`` (class name of
    the generated wrapper: ``<Op>Page`` envelope for listings, ``<Op>Result`` (response
    model + ``omitted_fields``) for resources, None for mutations), ``response_model`` (class of
    the spec's own success body for non-listings, or None),
    ``reasons`` / ``warnings`` (:class:`CodeIR` declared by this operation, declaration order).
    Properties: ``is_listing``, ``is_mutation``, ``reason_union`` (type alias name).

``ParamIR`` / ``FieldIR``
    ``name`` (as in the spec), ``py_name`` (python-safe alias), ``type_hint`` (a Python
    annotation built only from builtins/``Any`` — never spec text), ``required``, ``location``
    (params: query/path/header/cookie), ``schema`` (resolved JSON Schema), ``description``;
    params also ``style`` and ``explode`` (OpenAPI serialisation, defaults filled in).

``CodeIR``
    ``code``, ``class_name`` (pydantic class in models.py), ``details`` (JSON Schema of the detail
    fields), ``detail_fields`` (:class:`FieldIR`), ``continuation``, ``origin``, ``description``,
    ``standard`` (the class comes from ``_runtime.envelope``; custom codes get ``<Code>Reason`` /
    ``<Code>Warning`` classes defined in models.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from xcompleteness import document
from xcompleteness.detect import SchemaWalker
from xcompleteness.diagnostics import Diagnostic, Severity, pointer_join
from xcompleteness.document import (
    HTTP_METHODS,
    DocumentViews,
    Operation,
    deref_mapping,
    overlay_target,
)
from xcompleteness.ir._datamodels import PREFIX, ItemModels, ModelsRefused, model_items
from xcompleteness.ir._naming import (
    ATTR_NAME_MAX,
    TOOL_NAME_MAX,
    NameRegistry,
    attr_name,
    operation_rename_hint,
    pascal,
    snake,
    tool_name,
    wire_name_hint,
)
from xcompleteness.ir._runtime_names import (
    STANDARD_REASON_CLASSES,
    STANDARD_WARNING_CLASSES,
    model_attributes,
)
from xcompleteness.ir._schemas import ModelSchemas
from xcompleteness.load import Limits
from xcompleteness.runtime.codes import LISTING_KINDS
from xcompleteness.runtime.contract import Contract, ReasonDecl, Registry
from xcompleteness.runtime.parameters import DEFAULT_STYLE, JSON_CONTENT, STYLES

__all__ = [
    "CodeIR",
    "FieldIR",
    "IRParts",
    "MODEL_RESERVED",
    "ModelsPending",
    "OperationIR",
    "ParamIR",
    "SpecIR",
    "build_ir",
    "item_schemas",
    "py_type",
    "resolve_pointer",
]

_REASON_ATTRIBUTES = frozenset({"code", "message", "origin", "details"})


def _field_reserved() -> frozenset[str]:
    """Attribute names of pydantic models and of the runtime Reason/Warning: never a field name
    (pydantic's from a plain table: building the IR imports no pydantic, ir/_runtime_names.py)."""
    return _REASON_ATTRIBUTES | model_attributes()


MODEL_RESERVED = (
    "Annotated Any BaseModel ConfigDict Field Literal Optional Union Enum RootModel Envelope "
    "Reason Warning Scope Page Work Continuation ToolResult AwareDatetime Decimal UUID XcBaseModel "
    "JsonNumber"
).split()


@dataclass(frozen=True)
class FieldIR:
    name: str
    py_name: str
    type_hint: str
    required: bool
    schema: Mapping[str, Any] = field(default_factory=dict)
    description: str = ""


@dataclass(frozen=True)
class ParamIR:
    name: str
    py_name: str
    location: str
    type_hint: str
    required: bool
    schema: Mapping[str, Any] = field(default_factory=dict)
    description: str = ""
    style: str = ""
    """OpenAPI ``style`` (the location's default when the spec gives none or an unknown one)."""
    explode: bool = False
    """OpenAPI ``explode`` (default: true for ``form``, false otherwise)."""

    @property
    def default_serialisation(self) -> bool:
        """True when style and explode are the location's OpenAPI defaults."""
        default = DEFAULT_STYLE.get(self.location, "form")
        return self.style == default and self.explode == (default == "form")


@dataclass(frozen=True)
class CodeIR:
    code: str
    class_name: str
    details: Mapping[str, Any]
    detail_fields: tuple[FieldIR, ...]
    continuation: str
    origin: str
    description: str = ""
    standard: bool = False
    """True when the runtime (``_runtime/envelope.py``) already has the typed model
    ``class_name``; models.py then imports it instead of defining it."""


@dataclass(frozen=True)
class OperationIR:
    operation_id: str
    py_name: str
    class_name: str
    tool_name: str
    method: str
    path: str
    pointer: str
    kind: str
    mode: str
    contract: Contract
    summary: str
    description: str
    parameters: tuple[ParamIR, ...]
    body_fields: tuple[FieldIR, ...]
    body_required: bool
    body_model: str | None
    success_status: str | None
    item_model: str | None
    envelope_model: str | None
    response_model: str | None
    reasons: tuple[CodeIR, ...]
    warnings: tuple[CodeIR, ...]

    @property
    def is_listing(self) -> bool:
        return self.kind in LISTING_KINDS

    @property
    def is_mutation(self) -> bool:
        return self.kind == "mutation"

    @property
    def reason_union(self) -> str:
        return f"{self.class_name}Reason"

    @property
    def warning_union(self) -> str:
        return f"{self.class_name}Warning"


@dataclass(frozen=True)
class SpecIR:
    package: str
    title: str
    version: str
    source: str
    document: Mapping[str, Any]
    contracts: Mapping[str, Contract]
    registry: Registry
    operations: tuple[OperationIR, ...]
    model_schemas: Mapping[str, Mapping[str, Any]]
    reason_codes: tuple[CodeIR, ...]
    warning_codes: tuple[CodeIR, ...]
    diagnostics: tuple[Diagnostic, ...] = ()
    item_models: ItemModels | None = None
    """``_items.py`` and the class datamodel-code-generator gave each ``model_schemas`` key
    (None only for an IR built by hand); ``_models.py`` imports ``item_class(name)`` as
    ``name``."""
    tool_selection: tuple[str, ...] = ()
    """``generate --tools``: selectors of the operations that get an agent tool (empty: all);
    the client and models always cover every declared operation."""

    @property
    def listings(self) -> tuple[OperationIR, ...]:
        return tuple(op for op in self.operations if op.is_listing)

    def item_class(self, name: str) -> str:
        """The class in ``_items.py`` that models schema ``name`` (a ``model_schemas`` key)."""
        if self.item_models is None:
            return name
        return self.item_models.classes.get(name, name)


# ----------------------------------------------------------------------------- schema helpers


def resolve_pointer(doc: Any, ref: str) -> Any:
    """Follow a local ``#/a/b`` reference (:func:`xcompleteness.document.resolve_ref`); None when it
    does not resolve."""
    found, node = document.resolve_ref(doc, ref)
    return node if found else None


_SCALARS = {"integer": "int", "number": "float", "boolean": "bool", "string": "str"}


def py_type(doc: Any, schema: Any, depth: int = 0) -> str:
    """A Python annotation for a parameter/field schema, from builtins only (no spec text)."""
    s = deref_mapping(doc, schema)
    t = s.get("type")
    if isinstance(t, list):
        non_null = [x for x in t if x != "null"]
        t = non_null[0] if len(non_null) == 1 else None
    if t in _SCALARS:
        return _SCALARS[t]
    if t == "array" and depth < 4:
        return f"list[{py_type(doc, s.get('items', {}), depth + 1)}]"
    if t == "object":
        return "dict[str, Any]"
    return "Any"


def _schema_at_body_pointer(walker: SchemaWalker, schema: Any, pointer: str) -> Any:
    """The schema of the value at ``pointer`` inside a body described by ``schema``.

    Properties are looked up through ``allOf``/``anyOf``/``oneOf`` and local ``$ref``s (the
    walker audit and check use), so ``allOf: [{properties: {droplets: ...}}, {$ref: meta}]``
    finds ``droplets`` like audit does.
    """
    node: Any = schema
    for token in document.pointer_tokens(pointer) or ():
        props = walker.properties(node)
        if token in props:
            node = props[token][0]
        elif token.isdigit() and (found := walker.array_items(node, "")) is not None:
            node = found[0]
        else:
            return None
    return node


# ----------------------------------------------------------------------------- builder


class _Builder:
    def __init__(self, check_result: Any, package: str) -> None:
        self.doc_src = check_result.doc
        self.doc: Mapping[str, Any] = check_result.doc.data
        self.views: DocumentViews = check_result.doc.views
        self.file = getattr(check_result.doc, "origin", "") or str(check_result.doc.path)
        # never ``or {}``: truth-testing a lazy line map (overlay.py) walks all of it
        lines = getattr(check_result.doc, "lines", None)
        self.lines: Mapping[str, int] = lines if lines is not None else {}
        self.contracts: Mapping[str, Contract] = check_result.contracts
        self.registry: Registry = check_result.registry
        self.package = package
        self.diags: list[Diagnostic] = []
        self.ops_names = NameRegistry(
            "the operations of the package", self.file, limit=ATTR_NAME_MAX
        )
        self.ops_names.reserve(
            "client", "models", "server", "tools", "signer", "Client", "AsyncClient"
        )
        self.classes = NameRegistry("models.py", self.file)
        self.classes.reserve(*MODEL_RESERVED)
        self.tools = NameRegistry("the tool names", self.file, limit=TOOL_NAME_MAX)
        self.schemas = ModelSchemas(
            self.doc,
            self.views.schemas,
            self.classes,
            self.warn,
            file=self.file,
            lines=self.lines,
            budget=Limits.from_env().max_schema_nodes,
        )
        self.model_schemas: dict[str, Any] = self.schemas.schemas
        self.schema_origin: dict[str, str] = self.schemas.origin
        """class name -> JSON pointer of the spec schema it models (for diagnostics)."""
        self.codes: dict[tuple[str, str], CodeIR] = {}
        self.walker = SchemaWalker(self.doc)

    def warn(
        self,
        pointer: str,
        code: str,
        message: str,
        hint: str = "",
        severity: Severity = Severity.WARNING,
    ) -> None:
        self.diags.append(
            Diagnostic(
                file=self.file,
                pointer=pointer,
                code=code,
                severity=severity,
                message=message,
                hint=hint,
                line=self.lines.get(pointer),
            )
        )

    # -- codes
    def code_ir(self, kind: str, code: str, entry: ReasonDecl | None) -> CodeIR:
        """The model of one code; a reason's continuation and origin are its declaration's
        (filled by ``normalize`` from the registry), a warning's origin the registry's."""
        key = (kind, code)
        if key not in self.codes:
            entries = self.registry.reasons if kind == "reasons" else self.registry.warnings
            found = entries.get(code)
            details = (found.details if found is not None else None) or {
                "type": "object",
                "properties": {},
            }
            standard = (
                STANDARD_REASON_CLASSES if kind == "reasons" else STANDARD_WARNING_CLASSES
            ).get(code)
            if standard is not None:
                cls = standard
                self.classes.reserve(cls)
            else:
                suffix = "Reason" if kind == "reasons" else "Warning"
                cls = self.classes.claim(
                    pascal(code.lower()) + suffix,
                    origin=f"code {code}",
                    style="pascal",
                    hint=_code_rename_hint,
                )
            self.codes[key] = CodeIR(
                code=code,
                class_name=cls,
                details=details,
                detail_fields=self.fields_of(details, f"code {code}"),
                continuation=entry.continuation if entry is not None else "none",
                origin=(
                    entry.origin if entry is not None else self.registry.warning_origin_for(code)
                ),
                description=found.description if found is not None else "",
                standard=standard is not None,
            )
        return self.codes[key]

    def fields_of(
        self, schema: Any, origin: str, reserved: frozenset[str] | None = None
    ) -> tuple[FieldIR, ...]:
        s = deref_mapping(self.doc, schema)
        props = s.get("properties") or {}
        required = set(s.get("required") or [])
        names = NameRegistry(f"the fields of {origin}", self.file)
        names.reserve(*(_field_reserved() if reserved is None else reserved))
        out = []
        for name in props:
            py = names.claim(snake(name), origin=origin, hint=wire_name_hint(name))
            sub = props[name]
            out.append(
                FieldIR(
                    name=name,
                    py_name=py,
                    type_hint=py_type(self.doc, sub),
                    required=name in required,
                    schema=deref_mapping(self.doc, sub),
                    description=str(deref_mapping(self.doc, sub).get("description") or ""),
                )
            )
        self.diags.extend(names.diagnostics)
        return tuple(out)

    # -- schemas reachable from the declarations (ir/_schemas.py: each copied once)
    def model_for(
        self,
        schema: Any,
        wanted: str,
        pointer: str,
        hint: Callable[[str], str] | None = None,
    ) -> str | None:
        """Class name modelling ``schema``: its component class, or a new named model
        (``hint``: what renames ``wanted`` when it clashes, XC602)."""
        return self.schemas.model(schema, wanted, pointer, hint)

    # -- the generated item models
    def spec_pointer(self, ref: str) -> str:
        """The spec pointer a sub-document location (``#/components/schemas/Cls/..``) came from."""
        if not ref.startswith(PREFIX):
            return ref
        cls, _, rest = ref[len(PREFIX) :].partition("/")
        base = self.schema_origin.get(cls)
        if base is None:
            return pointer_join("/components/schemas", cls)
        return base + ("/" + rest if rest else "")

    def item_models(self) -> ItemModels | None:
        """Run datamodel-code-generator once; report every schema whose class is renamed."""
        try:
            schemas = dict(sorted(self.model_schemas.items()))
            models = model_items(schemas, self.views.openapi)
        except ModelsRefused as exc:
            self.diags.append(
                Diagnostic(
                    file=self.file,
                    pointer="/components/schemas",
                    code="XC603",
                    severity=Severity.ERROR,
                    message=str(exc),
                    hint="simplify the schemas the declarations reach, or report the construct",
                )
            )
            return None
        # Info, not warning: the right class is bound and imported under the schema's name, so
        # there is nothing to fix (a consumer of a vendored spec could not rename the schema
        # anyway); a warning here made every generate of Stripe or unicourt look like it needed
        # attention, and `generate --check` in CI annotated it on every run.
        for name, cls in models.renamed().items():
            pointer = self.schema_origin.get(name, pointer_join("/components/schemas", name))
            what = (
                f"the schema at {pointer} is modelled by {cls!r} in the item models (_items/), "
                f"not {name!r}"
            )
            hint = (
                f"nothing to do: models.py and the pages import {cls} under the name {name}. "
                "Only the spec's owner can make the two names equal (by renaming the schema): "
                "an overlay cannot rename a component, whose name is the key its $refs point at"
            )
            holder = models.holders.get(name)
            if holder is not None:
                holder_pointer = self.spec_pointer(holder)
                self.warn(
                    pointer,
                    "XC610",
                    f"{what}: datamodel-code-generator gave {name!r} to the schema at "
                    f"{holder_pointer}",
                    hint,
                    Severity.INFO,
                )
            else:
                rules = "datamodel-code-generator's naming rules"
                self.warn(pointer, "XC611", f"{what} ({rules})", hint, Severity.INFO)
        return models

    # -- operations
    def operation(self, op_id: str, contract: Contract) -> OperationIR | None:
        method, path = str(contract.method).lower(), str(contract.path)
        op = self.views.at(path, method)
        pointer = pointer_join("/paths", path, method)
        if op is None:
            self.diags.append(
                Diagnostic(
                    self.file,
                    pointer,
                    "XC605",
                    Severity.ERROR,
                    f"declared operation {op_id!r} not found at {method.upper()} {path}",
                )
            )
            return None
        renamed = operation_rename_hint(pointer)
        py_name = self.ops_names.claim(attr_name(op_id), origin=pointer, hint=renamed)
        cls = self.classes.claim(pascal(op_id), origin=pointer, style="pascal", hint=renamed)
        kind = str(contract.kind)
        params = self.parameters(op, pointer)
        body = op.request_body
        body_ref = body.json_schema() if body is not None else None
        body_schema = body_ref.raw if body_ref is not None else None
        body_fields = (
            self.fields_of(body_schema, pointer, model_attributes())
            if body_schema is not None
            else ()
        )
        body_model = None
        if body_schema is not None and kind == "mutation":
            body_model = self.model_for(
                body_schema, cls + "Request", pointer_join(pointer, "requestBody"), renamed
            )
        if kind == "mutation":
            self.check_evidence_fields(contract, body_fields, pointer)
        status, resp_schema = self.success(op)
        item_model = envelope = response_model = None
        if kind in LISTING_KINDS:
            item_schema = self.item_schema(resp_schema, contract)
            item_model = self.model_for(
                item_schema, cls + "Item", pointer_join(pointer, "responses"), renamed
            )
            if item_model is None:
                self.warn(
                    pointer,
                    "XC603",
                    f"no item schema found for {op_id!r}; items are untyped",
                    self.item_schema_hint(op),
                )
            envelope = self.classes.claim(
                cls + "Page", origin=pointer, style="pascal", hint=renamed
            )
        elif resp_schema is not None:
            response_model = self.model_for(
                resp_schema, cls + "Response", pointer_join(pointer, "responses"), renamed
            )
        if kind == "resource":
            envelope = self.classes.claim(
                cls + "Result", origin=pointer, style="pascal", hint=renamed
            )
        reasons = tuple(self.code_ir("reasons", r.code, r) for r in contract.reasons)
        warnings = tuple(self.code_ir("warnings", w, None) for w in contract.warnings)
        return OperationIR(
            operation_id=op_id,
            py_name=py_name,
            class_name=cls,
            tool_name=self.tools.claim(tool_name(op_id), origin=pointer, hint=renamed),
            method=method,
            path=path,
            pointer=pointer,
            kind=kind,
            mode=contract.mode,
            contract=contract,
            summary=op.summary,
            description=op.description,
            parameters=params,
            body_fields=body_fields,
            body_required=body is not None and body.required,
            body_model=body_model,
            success_status=status,
            item_model=item_model,
            envelope_model=envelope,
            response_model=response_model,
            reasons=reasons,
            warnings=warnings,
        )

    def check_evidence_fields(
        self, contract: Contract, body_fields: tuple[FieldIR, ...], pointer: str
    ) -> None:
        """The request model must carry the evidence fields the declaration points at."""
        names = {f.name for f in body_fields}
        mutation = contract.mutation
        if mutation is None:
            return
        for key, expr in (("ids", mutation.ids), ("token", mutation.token)):
            if not isinstance(expr, str) or not expr.startswith("$request.body#/"):
                continue
            field_name = (document.pointer_tokens("/" + expr.partition("#/")[2]) or ("",))[0]
            if field_name not in names:
                self.warn(
                    pointer_join(contract.pointer or pointer, "evidence", key),
                    "XC603",
                    f"evidence {key} {expr} is not a property of the JSON request body schema",
                    "declare it in the request body so the request model carries it",
                )

    def parameters(self, op: Operation, pointer: str) -> tuple[ParamIR, ...]:
        names = NameRegistry(f"the parameters of {pointer}", self.file)
        out = []
        for p in op.parameters:
            loc, name = p.location, p.name
            schema = deref_mapping(self.doc, p.get("schema", {}))
            style = p.get("style")
            style = style if style in STYLES.get(loc, ()) and style != JSON_CONTENT else None
            style = style or DEFAULT_STYLE.get(loc, "form")
            explode = p.get("explode")
            in_content = p.json_schema()
            if p.schema is None and in_content is not None and in_content.raw is not None:
                # ``content: {application/json: {schema}}``: the value is sent as JSON text
                schema = deref_mapping(self.doc, in_content.raw)
                style, explode = JSON_CONTENT, False
            out.append(
                ParamIR(
                    name=name,
                    py_name=names.claim(snake(name), origin=pointer, hint=wire_name_hint(name)),
                    location=loc,
                    type_hint=py_type(self.doc, schema),
                    required=p.required,
                    schema=schema,
                    description=str(p.get("description") or ""),
                    style=style,
                    explode=explode if isinstance(explode, bool) else style == "form",
                )
            )
        self.diags.extend(names.diagnostics)
        return tuple(out)

    def success(self, op: Operation) -> tuple[str | None, Any]:
        response = op.first_success()
        if response is None:
            return None, None
        schema = response.json_schema()
        return response.status, schema.raw if schema is not None else None

    def item_schema_hint(self, op: Operation) -> str:
        """XC603's hint for untyped items: where an overlay describes them, for a spec the
        user does not edit (the success response's JSON schema, else the response itself)."""
        response = op.first_success()
        schema = response.json_schema() if response is not None else None
        if schema is not None and schema.target is not None:
            place = (
                f"target {overlay_target(schema.target, self.doc)} with update: {{properties: "
                "{ITEMS_FIELD: {type: array, items: {...}}}}} (or items: {...} where the schema "
                "is the array)"
            )
        elif response is not None and response.target:
            place = (
                f"target {overlay_target(response.target, self.doc)} with update: "
                "{content: {application/json: {schema: ...}}}"
            )
        else:
            place = "add a 2xx response with a JSON schema"
        return (
            "describe the items in the success response's JSON schema (an array with an items "
            f"schema where the declaration's items location points); in a spec you do not edit, "
            f"an overlay does it: {place}"
        )

    def item_schema(self, resp_schema: Any, contract: Contract) -> Any:
        if resp_schema is None:
            return None
        pointer = contract.items_body_pointer
        walker = self.walker
        node: Any = _schema_at_body_pointer(walker, resp_schema, pointer)
        if node is None and walker.is_array(resp_schema):
            node = resp_schema  # the response schema declares only the items
        if node is None:
            return None
        found = walker.array_items(node, "")
        return None if found is None else found[0]


def _operations(check_result: Any, package: str) -> tuple[_Builder, tuple[OperationIR, ...]]:
    """The builder after the operation pass (which also collects every item schema)."""
    b = _Builder(check_result, package)
    ordered = sorted(
        check_result.contracts.items(),
        key=lambda kv: (
            str(kv[1].path),
            HTTP_METHODS.index(str(kv[1].method).lower())
            if str(kv[1].method).lower() in HTTP_METHODS
            else 99,
            kv[0],
        ),
    )
    ops = tuple(o for o in (b.operation(op_id, c) for op_id, c in ordered) if o is not None)
    return b, ops


def build_ir(check_result: Any, package: str) -> SpecIR:
    """Build the IR from a :class:`xcompleteness.check.CheckResult` (errors already refused)."""
    b, ops = _operations(check_result, package)
    return _assembled(b, check_result.contracts, ops, b.item_models())


class ModelsPending(RuntimeError):
    """The item models of :attr:`IRParts.first` were read before it was finished."""


class _Pending:
    """``SpecIR.item_models`` until the models are joined: any use raises :class:`ModelsPending`."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)  # copy/pickle protocol probes
        raise ModelsPending(f"the item models are not joined yet ({name})")

    def __bool__(self) -> bool:
        raise ModelsPending("the item models are not joined yet")


class IRParts:
    """:func:`build_ir` in two steps: :attr:`first`, the IR without its item models, and
    :meth:`finish`, the whole IR (the one :func:`build_ir` builds), running or joining the item
    models then.

    The first IR's ``item_models`` raises :class:`ModelsPending` on any use and its diagnostics
    lack the models' (renames, a refusal): only an emitter that reads neither may render from it
    (``generate`` renders those while a second process runs datamodel-code-generator:
    :func:`xcompleteness.ir._datamodels.models_ahead`).
    """

    def __init__(self, check_result: Any, package: str) -> None:
        self._b, self._ops = _operations(check_result, package)
        self._contracts = check_result.contracts
        self.first = _assembled(self._b, self._contracts, self._ops, cast(Any, _Pending()))

    def look_up_lines(self) -> None:
        """Look up now the line of every item schema, which a rename diagnostic of the models
        may ask for (GitHub: the first one indexes ``/components/schemas``, ~0.15 s), while the
        models are made elsewhere; a line depends on the spec text alone, so only the moment it
        is computed changes."""
        b = self._b
        for name in b.model_schemas:
            b.lines.get(b.schema_origin.get(name, pointer_join("/components/schemas", name)))

    def finish(self) -> SpecIR:
        return _assembled(self._b, self._contracts, self._ops, self._b.item_models())


@dataclass(frozen=True)
class _Declared:
    doc: Any
    contracts: Mapping[str, Contract]
    registry: Registry


def item_schemas(
    doc: Any, contracts: Mapping[str, Contract], registry: Registry, package: str
) -> tuple[dict[str, Any], str]:
    """The schemas (and OpenAPI version) :func:`build_ir` gives datamodel-code-generator, from
    the checked document, its contracts and registry: what the IR's operation pass collects,
    without the rest of the IR (``generate`` starts the library on them before the rules run)."""
    b, _ = _operations(_Declared(doc, contracts, registry), package)
    return dict(sorted(b.model_schemas.items())), b.views.openapi


def _assembled(
    b: _Builder,
    contracts: Mapping[str, Contract],
    ops: tuple[OperationIR, ...],
    item_models: ItemModels | None,
) -> SpecIR:
    info = b.views.info
    diags = b.diags + b.ops_names.diagnostics + b.classes.diagnostics + b.tools.diagnostics
    reason_codes = tuple(
        sorted((c for (k, _), c in b.codes.items() if k == "reasons"), key=lambda c: c.code)
    )
    warning_codes = tuple(
        sorted((c for (k, _), c in b.codes.items() if k == "warnings"), key=lambda c: c.code)
    )
    return SpecIR(
        package=b.package,
        title=str(info.get("title") or ""),
        version=str(info.get("version") or ""),
        source=b.file,
        document=b.doc,
        contracts={o.operation_id: contracts[o.operation_id] for o in ops},
        registry=b.registry,
        operations=ops,
        model_schemas=dict(sorted(b.model_schemas.items())),
        reason_codes=reason_codes,
        warning_codes=warning_codes,
        diagnostics=tuple(sorted(diags)),
        item_models=item_models,
    )


def _code_rename_hint(candidate: str) -> str:
    """XC602 for a custom code's class: the code is the user's own (x-completeness-registry,
    in the spec or in the overlay that declares it), so renaming the code is theirs to do."""
    return (
        f"nothing breaks: the class is {candidate!r}. To choose it, rename the custom code in "
        "x-completeness-registry and the declarations that use it (in the spec, or in the "
        "overlay that declares them)"
    )
