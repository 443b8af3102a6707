"""``NAME/models.py`` (typed envelopes, code models, results) and ``NAME/_items.py``.

``models.py`` is a lazy facade (PEP 562 ``__getattr__``) over ``_models.py``, which holds the
classes: importing the package must not build models no call has touched.

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

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from xcompleteness.emitters.items import BASE_MODULE, BASE_SOURCE, items_source
from xcompleteness.escape import py_str
from xcompleteness.ir import CodeIR, FieldIR, OperationIR, SpecIR, deref
from xcompleteness.naming import NameRegistry, snake
from xcompleteness.render import Renderer


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
    wire = (pointer.partition("#")[2].strip("/").split("/")[0]) or "omitted_fields"
    names = NameRegistry("result fields")
    names.reserve(*{n for n in dir(object)})
    py = names.claim(snake(wire), origin=op.pointer)
    omissions = _omissions(spec)
    codes = f"Literal[{', '.join(py_str(c) for c in omissions)}]" if omissions else "str"
    annotation = f"dict[str, {codes}] | None"
    base = op.response_model or "BaseModel"
    if op.response_model and not _is_object(spec, op.response_model):
        base = "BaseModel"
    omitted = FieldSpec(py, annotation, wire if wire != py else None, False)
    return ResultSpec(op.envelope_model, base, omitted, op.operation_id)


def _frozenset(codes: Iterable[str]) -> str:
    """A ``frozenset({...})`` literal of codes (escaped), no trailing comma (stays one line)."""
    items = sorted(set(codes))
    return f"frozenset({{{', '.join(py_str(c) for c in items)}}})" if items else "frozenset()"


def _omissions(spec: SpecIR) -> list[str]:
    raw = spec.registry.get("field_omissions") or []
    return sorted(str(x) for x in raw)


def _is_object(spec: SpecIR, class_name: str) -> bool:
    schema: Any = spec.model_schemas.get(class_name, {})
    doc = {"components": {"schemas": spec.model_schemas}}
    node = deref(doc, schema)
    return bool(node.get("type") == "object" or node.get("properties") or node.get("allOf"))


def context(spec: SpecIR) -> dict[str, Any]:
    """Everything the models template needs, as plain values."""
    custom_reasons = [c for c in spec.reason_codes if not c.standard]
    custom_warnings = [c for c in spec.warning_codes if not c.standard]
    runtime_imports = sorted(
        {c.class_name for c in (*spec.reason_codes, *spec.warning_codes) if c.standard}
    )
    item_imports = sorted(
        {op.item_model for op in spec.operations if op.item_model}
        | {op.response_model for op in spec.operations if op.response_model}
        | {op.body_model for op in spec.operations if op.body_model}
    )
    listings = [
        {
            "op": op,
            "item": op.item_model or "dict[str, Any]",
            "reason_union": _union(op.reasons, "Reason", open_details=op.mode == "adapter"),
            "warning_union": _union(op.warnings, "Warning", open_details=op.mode == "adapter"),
            "declared_reasons": _frozenset(c.code for c in op.reasons),
            "declared_warnings": _frozenset(c.code for c in op.warnings),
        }
        for op in spec.listings
    ]
    results = [r for r in (_result(spec, op) for op in spec.operations) if r is not None]
    item_plain = [name for name in item_imports if spec.item_class(name) == name]
    item_renamed = [
        {"name": name, "generated": spec.item_class(name)}
        for name in item_imports
        if spec.item_class(name) != name
    ]
    exported = sorted(
        {*item_imports, *runtime_imports, "Envelope", "PAGE_MODELS", "RESULT_MODELS"}
        | {c.class_name for c in (*custom_reasons, *custom_warnings)}
        | {entry["op"].envelope_model for entry in listings}
        | {entry["op"].reason_union for entry in listings if entry["reason_union"]}
        | {entry["op"].warning_union for entry in listings if entry["warning_union"]}
        | {r.class_name for r in results}
    )
    return {
        "spec": spec,
        "custom_codes": [
            {"code": c, "base": base, "fields": [_field(f) for f in c.detail_fields]}
            for base, codes in (("Reason", custom_reasons), ("Warning", custom_warnings))
            for c in codes
        ],
        "runtime_imports": runtime_imports,
        "item_imports": item_imports,
        "item_plain": item_plain,
        "item_renamed": item_renamed,
        "listings": listings,
        "results": results,
        "exported": exported,
    }


def emit(spec: SpecIR, renderer: Renderer) -> dict[PurePosixPath, str]:
    ctx = context(spec)
    return {
        PurePosixPath("_items.py"): items_source(spec),
        PurePosixPath(f"{BASE_MODULE}.py"): BASE_SOURCE,
        PurePosixPath("_models.py"): renderer.render("package/_models.py.jinja", **ctx),
        PurePosixPath("models.py"): renderer.render("package/models.py.jinja", **ctx),
    }
