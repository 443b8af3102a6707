"""``NAME/models.py`` and the modules behind it: ``_models/<operation>.py``, ``_codes.py``,
``_items/``.

Layout, per operation so that its first call imports and builds only its own models:

- ``_models/<operation>.py``: that operation's envelope (``<Op>Page``, its reason/warning unions)
  or result model, importing the item classes it needs from ``_items/`` and its custom codes
  from ``_codes.py``; the client's ``_ops/<operation>.py`` imports it directly;
- ``_items/``: datamodel-code-generator's classes cut per set of operations using them (see
  :func:`xcompleteness.ir._datamodels.split_items`);
- ``models.py``: the public names, each imported from its module on first attribute access
  (PEP 562 ``__getattr__``), and ``PAGE_MODELS`` / ``RESULT_MODELS`` as lazy mappings
  (``_runtime/lazy.py``): importing it builds nothing.

The envelope logic (invariants 1-5, builders ``complete_page`` / ``partial_page``) lives once in
``_runtime/envelope.py``; what this emitter adds is only what one spec decides:

- for every listing, ``<Op>Page(Envelope)`` with ``items: list[<Item>]``, ``incomplete_reasons``
  a discriminated union (on ``code``) of exactly the declared reason models, warnings likewise,
  and the ClassVars ``declared_reasons`` / ``declared_warnings``;
- a typed model per custom registry code (standard codes reuse the runtime's models);
- for resources, ``<Op>Result`` = the response model plus the typed ``omitted_fields`` map;
- ``PAGE_MODELS`` / ``RESULT_MODELS``: operationId -> model, for clients, tools and services.

Decisions (names, Python types, aliases) are made here and in the IR; the template only spells
them out, passing every spec string through the ``py_*`` escapers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from xcompleteness.document import deref_mapping, pointer_tokens
from xcompleteness.emit._escape import py_str
from xcompleteness.emit._render import Renderer
from xcompleteness.emit.emitters.items import BASE_MODULE, BASE_SOURCE, item_layout
from xcompleteness.ir import (
    CodeIR,
    FieldIR,
    ItemLayout,
    NameRegistry,
    OperationIR,
    SpecIR,
    snake,
)

__all__ = ["FieldSpec", "ResultSpec", "context", "emit", "operation_models"]


@dataclass(frozen=True)
class FieldSpec:
    """One pydantic field line: ``py_name: annotation = default``, alias when the names differ."""

    py_name: str
    annotation: str
    alias: str | None
    required: bool


@dataclass(frozen=True)
class ResultSpec:
    class_name: str
    base: str
    omitted: FieldSpec
    operation_id: str
    codes: str
    """The value type of the omitted-fields map (``Literal[...]`` of the registry's codes)."""


def _field(f: FieldIR) -> FieldSpec:
    annotation = f.type_hint if f.required else f"{f.type_hint} | None"
    return FieldSpec(f.py_name, annotation, f.name if f.name != f.py_name else None, f.required)


def _union(codes: tuple[CodeIR, ...], base: str, *, open_details: bool) -> str | None:
    """The element type of ``incomplete_reasons``/``warnings``: exactly the declared models.

    Native mode: a union discriminated on ``code``. Adapter mode: the client derives codes from
    native signals that rarely carry the details (GitHub's ``incomplete_results`` has no
    ``budget_ms``), so each typed model is tried first and the open base model (code still
    limited to the declared set by the envelope) takes a code whose details are unknown.
    """
    names = [c.class_name for c in codes]
    if not names:
        return None
    if open_details:
        return f'Annotated[{" | ".join([*names, base])}, Field(union_mode="left_to_right")]'
    if len(names) == 1:
        return names[0]
    return f'Annotated[{" | ".join(names)}, Field(discriminator="code")]'


def _result(spec: SpecIR, op: OperationIR) -> ResultSpec | None:
    if op.kind != "resource" or op.envelope_model is None:
        return None
    pointer = op.contract.omitted_fields or "$response.body#/omitted_fields"
    tokens = pointer_tokens("/" + pointer.partition("#")[2].strip("/")) or ("",)
    wire = tokens[0] or "omitted_fields"
    names = NameRegistry("result fields")
    names.reserve(*{n for n in dir(object)})
    py = names.claim(snake(wire), origin=op.pointer)
    omissions = _omissions(spec)
    codes = f"Literal[{', '.join(py_str(c) for c in omissions)}]" if omissions else "str"
    annotation = "dict[str, _OmissionCode] | None"
    base = op.response_model or "BaseModel"
    if op.response_model and not _is_object(spec, op.response_model):
        base = "BaseModel"
    omitted = FieldSpec(py, annotation, wire if wire != py else None, False)
    return ResultSpec(op.envelope_model, base, omitted, op.operation_id, codes)


def _frozenset(codes: Iterable[str]) -> str:
    """A ``frozenset({...})`` literal of codes (escaped), no trailing comma (stays one line)."""
    items = sorted(set(codes))
    return f"frozenset({{{', '.join(py_str(c) for c in items)}}})" if items else "frozenset()"


def _omissions(spec: SpecIR) -> list[str]:
    raw = spec.registry.field_omissions
    return sorted(str(x) for x in raw)


def _is_object(spec: SpecIR, class_name: str) -> bool:
    schema: Any = spec.model_schemas.get(class_name, {})
    doc = {"components": {"schemas": spec.model_schemas}}
    node = deref_mapping(doc, schema)
    return bool(node.get("type") == "object" or node.get("properties") or node.get("allOf"))


def _listing(op: OperationIR) -> dict[str, Any]:
    return {
        "op": op,
        "item": op.item_model or "dict[str, Any]",
        "reason_union": _union(op.reasons, "Reason", open_details=op.mode == "adapter"),
        "warning_union": _union(op.warnings, "Warning", open_details=op.mode == "adapter"),
        "declared_reasons": _frozenset(c.code for c in op.reasons),
        "declared_warnings": _frozenset(c.code for c in op.warnings),
    }


def _item_module(spec: SpecIR, layout: ItemLayout, name: str) -> tuple[str, str]:
    """(module in ``_items/``, generated class) of the public item name ``name``."""
    generated = spec.item_class(name)
    return layout.where.get(generated, layout.modules[0].name), generated


def _op_names(op: OperationIR) -> list[str]:
    """The public item names an operation's models module re-exports."""
    return sorted({n for n in (op.item_model, op.response_model, op.body_model) if n})


def operation_models(spec: SpecIR, layout: ItemLayout) -> list[dict[str, Any]]:
    """One entry per operation that has models: what ``_models/<operation>.py`` holds."""
    out = []
    for op in spec.operations:
        listing = _listing(op) if op.is_listing else None
        result = _result(spec, op)
        names = _op_names(op)
        if listing is None and result is None and not names:
            continue
        codes = (*op.reasons, *op.warnings) if listing is not None else ()
        exported = set(names)
        if listing is not None:
            exported.add(op.envelope_model)
            if listing["reason_union"]:
                exported.add(op.reason_union)
            if listing["warning_union"]:
                exported.add(op.warning_union)
        if result is not None:
            exported.add(result.class_name)
        items = []
        for name in names:
            module, generated = _item_module(spec, layout, name)
            items.append({"module": module, "generated": generated, "name": name})
        runtime = {c.class_name for c in codes if c.standard}
        if listing is not None and (listing["reason_union"] or listing["warning_union"]):
            runtime.add("new_list")  # the default factory of the narrowed list fields
        if listing is not None:
            # The envelope names its item model by where it lives (LazyModel), so importing
            # the envelope imports no item module: a first page() validates the envelope at
            # once and the items on first read (runtime/page_items.py).
            listing["lazy_item"] = next((i for i in items if i["name"] == op.item_model), None)
        out.append(
            {
                "op": op,
                "listing": listing,
                "result": result,
                "runtime_imports": sorted(runtime),
                "code_imports": sorted({c.class_name for c in codes if not c.standard}),
                "item_imports": items,
                "exported": sorted(str(n) for n in exported),
            }
        )
    return out


def context(spec: SpecIR, layout: ItemLayout | None = None) -> dict[str, Any]:
    """Everything the model templates need, as plain values."""
    layout = layout if layout is not None else item_layout(spec)
    custom_reasons = [c for c in spec.reason_codes if not c.standard]
    custom_warnings = [c for c in spec.warning_codes if not c.standard]
    runtime_names = sorted(
        {c.class_name for c in (*spec.reason_codes, *spec.warning_codes) if c.standard}
    )
    ops = operation_models(spec, layout)
    where: dict[str, tuple[str, str]] = {"Envelope": ("._runtime.envelope", "Envelope")}
    for name in runtime_names:
        where[name] = ("._runtime.envelope", name)
    for c in (*custom_reasons, *custom_warnings):
        where[c.class_name] = ("._codes", c.class_name)
    for m in ops:
        for i in m["item_imports"]:
            where[i["name"]] = (f"._items.{i['module']}", i["generated"])
        for name in m["exported"]:
            where.setdefault(name, (f"._models.{m['op'].py_name}", name))
    type_imports: dict[str, list[tuple[str, str]]] = {}
    for name, (module, generated) in sorted(where.items()):
        type_imports.setdefault(module, []).append((name, generated))
    page_models = [
        (m["op"].operation_id, f"._models.{m['op'].py_name}", m["op"].envelope_model)
        for m in ops
        if m["listing"] is not None
    ]
    result_models = [
        (m["op"].operation_id, f"._models.{m['op'].py_name}", m["result"].class_name)
        for m in ops
        if m["result"] is not None
    ]
    return {
        "spec": spec,
        "custom_codes": [
            {
                "code": c,
                "base": base,
                "fields": [_field(f) for f in c.detail_fields],
                "extra": _extra(c.details),
            }
            for base, codes in (("Reason", custom_reasons), ("Warning", custom_warnings))
            for c in codes
        ],
        "operations": ops,
        "where": [(name, module, generated) for name, (module, generated) in sorted(where.items())],
        "type_imports": sorted(type_imports.items()),
        "page_models": page_models,
        "result_models": result_models,
        "exported": sorted({*where, "PAGE_MODELS", "RESULT_MODELS"}),
    }


def _extra(details: Mapping[str, Any]) -> str:
    """``allow`` for a code whose details schema types nothing (the default ``{type: object}``:
    any static detail a declaration gives is valid, so the model must accept it), else
    ``forbid`` (typed details are closed)."""
    if details.get("properties") or details.get("additionalProperties") is False:
        return "forbid"
    return "allow"


def emit(spec: SpecIR, renderer: Renderer) -> dict[PurePosixPath, str]:
    layout = item_layout(spec)
    ctx = context(spec, layout)
    out: dict[PurePosixPath, str] = {
        PurePosixPath("_items/__init__.py"): renderer.render(
            "package/_items/__init__.py.jinja", where=layout.where
        ),
        PurePosixPath(f"{BASE_MODULE}.py"): BASE_SOURCE,
        PurePosixPath("_codes.py"): renderer.render("package/_codes.py.jinja", **ctx),
        PurePosixPath("_models/__init__.py"): renderer.render("package/_models/__init__.py.jinja"),
        PurePosixPath("models.py"): renderer.render("package/models.py.jinja", **ctx),
    }
    for module in layout.modules:
        out[PurePosixPath(f"_items/{module.name}.py")] = module.source
    for m in ctx["operations"]:
        path = PurePosixPath(f"_models/{m['op'].py_name}.py")
        out[path] = renderer.render("package/_models/operation.py.jinja", m=m)
    return out
