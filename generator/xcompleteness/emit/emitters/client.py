"""Emit ``NAME/client.py``: ``Client`` / ``AsyncClient`` with one attribute per declared operation.

Everything that is the same for every spec (building requests, following continuations, typed
errors) lives in ``_runtime/operations.py`` and ``_runtime/walk.py``; the generated module only
declares, per operation, a thin class that loads its contract from ``_contracts.json`` by
operation id and exposes typed keyword arguments. The decisions (class and keyword names, their
collisions with the methods' own keywords, which models to parse into) are made here in Python;
the template spells them out, passing every spec string through ``py_str`` / ``py_doc``.
"""

from __future__ import annotations

import keyword
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from xcompleteness.emit._render import Renderer
from xcompleteness.ir import (
    NameRegistry,
    OperationIR,
    SpecIR,
    operation_rename_hint,
    wire_name_hint,
)

__all__ = [
    "Arg",
    "MODULE_NAMES",
    "OP_TEMPLATE",
    "OWN_KEYWORDS",
    "OpView",
    "TEMPLATE",
    "emit",
    "views",
]

TEMPLATE = "package/client.py.jinja"
OP_TEMPLATE = "package/_ops/operation.py.jinja"
OWN_KEYWORDS = (
    "self",
    "max_pages",
    "max_items",
    "deadline",
    "continuation",
    "params",
    "more",
    "result",
)
"""Keywords and locals (``result``) the generated methods use themselves; a parameter with one
of these names is renamed (``deadline_``) and stays reachable by its spec name through
``params={...}``."""

MODULE_NAMES = (
    "annotations",
    "Any",
    "Mapping",
    "Path",
    "json",
    "models",
    "BaseClient",
    "AsyncBaseClient",
    "Listing",
    "AsyncListing",
    "Call",
    "AsyncCall",
    "limits",
    "CollectResult",
    "Continuation",
    "ItemStream",
    "PageStream",
    "AsyncItemStream",
    "AsyncPageStream",
    "Client",
    "AsyncClient",
    "CONTRACTS",
    "functools",
    "importlib",
    "TYPE_CHECKING",
    "_operation",
    "limits",
    "models",
)


@dataclass(frozen=True)
class Arg:
    """One typed keyword of a generated method."""

    py_name: str
    name: str
    location: str  # path | query | header | cookie | body
    type_hint: str
    required: bool = False  # path parameters: a call without them cannot be sent
    spec_keyword: str = ""
    """A required path parameter whose keyword is a builtin's name escaped with ``_`` (``id_``)
    and whose spec name (``id``) callers write too (docs/client.md): both keywords stay, and
    the methods get two overloads, one requiring each, so a call without either is a type
    error while no call that works today breaks."""
    style: str = ""
    explode: bool = False
    default_serialisation: bool = True
    """Style and explode are written into the parameter tuple only when they are not the
    location's OpenAPI defaults (the runtime fills those in), so most tuples stay three long."""
    default: int | None = None  # a required page size the walk owns: the declared max-page-size


@dataclass(frozen=True)
class OpView:
    """What the template needs for one operation."""

    operation_id: str
    attr: str
    sync_class: str
    async_class: str
    listing: bool
    doc: str
    args: tuple[Arg, ...]
    envelope_model: str | None
    item_model: str | None
    result_model: str | None

    @property
    def overloaded(self) -> bool:
        """Some required path parameter has two keywords (``id_`` and ``id``): overloads."""
        return any(a.spec_keyword for a in self.args)

    @property
    def params(self) -> tuple[Arg, ...]:
        return tuple(a for a in self.args if a.location != "body")

    @property
    def body(self) -> tuple[Arg, ...]:
        return tuple(a for a in self.args if a.location == "body")


def _doc(op: OperationIR) -> str:
    head = op.summary.strip() or f"{op.method.upper()} {op.path}"
    return f"{head}\n\noperationId {op.operation_id} ({op.kind}, {op.mode} mode)."


def _args(op: OperationIR) -> tuple[Arg, ...]:
    names = NameRegistry(f"the keywords of {op.operation_id}")
    names.reserve(*OWN_KEYWORDS)
    out = []
    for p in op.parameters:
        py = names.claim(
            p.py_name, origin=f"{op.pointer} parameter {p.name}", hint=wire_name_hint(p.name)
        )
        # A path parameter is a required keyword, renamed (``jobId`` -> ``job_id``) or not: a
        # call without it cannot be sent, so the type checker says so, not the call at run time.
        # Callers holding spec names (the MCP host) map them with ``split_arguments`` first.
        # A builtin's name escaped with ``_`` (``id`` -> ``id_``) has two keywords callers
        # write: ``id_`` (the signature's) and the spec's ``id`` (``get_service_account(id=...)``,
        # documented; it reaches the call through ``**more``). Neither may break, so the
        # method keeps ``id_`` optional and two overloads require one or the other.
        required = p.location == "path"
        escaped = required and _escaped_builtin(p.name, py)
        out.append(
            Arg(
                py,
                p.name,
                p.location,
                p.type_hint,
                required,
                p.name if escaped else "",
                p.style,
                p.explode,
                p.default_serialisation,
                _required_page_size(op, p),
            )
        )
    # Body fields are keywords of every operation with a JSON object body: a mutation's fields,
    # and a POST search's (its query in the body, maybe its cursor: pagination.request).
    if op.body_fields:
        for f in op.body_fields:
            py = names.claim(
                f.py_name, origin=f"{op.pointer} body field {f.name}", hint=wire_name_hint(f.name)
            )
            out.append(Arg(py, f.name, "body", f.type_hint))
    return tuple(out)


def _required_page_size(op: OperationIR, param: Any) -> int | None:
    """The default of a page-size parameter the API requires (Postmark's ``count``: a request
    without it is refused with 422) and the walk owns: the declared ``max-page-size``, so a
    call that names no size (every MCP tool call: the tool never offers the walk's size) still
    sends one. None for an optional size: the server's default is the API's own choice."""
    paging = op.contract.pagination
    if paging is None or not param.required or param.location not in ("query", "header"):
        return None
    if paging.request.size != param.name or paging.max_page_size is None:
        return None
    return int(paging.max_page_size)


def _escaped_builtin(name: str, py: str) -> bool:
    """``py`` is ``name`` with the trailing ``_`` the naming authority adds to a builtin's name
    (``id_``, ``type_``); a caller may still pass ``name=`` itself (not so for a keyword:
    ``from_``, whose spec name no call can write as a keyword)."""
    return py == name + "_" and name.isidentifier() and not keyword.iskeyword(name)


def views(spec: SpecIR) -> list[OpView]:
    classes = NameRegistry("client.py")
    classes.reserve(*MODULE_NAMES)
    out = []
    for op in spec.operations:
        renamed = operation_rename_hint(op.pointer)
        sync = classes.claim(
            op.class_name + "Operation", origin=op.pointer, style="pascal", hint=renamed
        )
        asyn = classes.claim(
            "Async" + op.class_name + "Operation", origin=op.pointer, style="pascal", hint=renamed
        )
        out.append(
            OpView(
                operation_id=op.operation_id,
                attr=op.py_name,
                sync_class=sync,
                async_class=asyn,
                listing=op.is_listing,
                doc=_doc(op),
                args=_args(op),
                envelope_model=op.envelope_model if op.is_listing else None,
                item_model=op.item_model,
                result_model=(op.envelope_model or op.response_model)
                if not op.is_listing
                else None,
            )
        )
    return out


def emit(spec: SpecIR, renderer: Renderer) -> dict[PurePosixPath, str]:
    """``client.py`` plus one ``_ops/<attr>.py`` per operation, imported on first use.

    The operation classes make up most of a large client; keeping them out of ``client.py``
    lets ``import NAME`` and ``Client(...)`` stay cheap for a caller who uses a few operations.
    """
    ops = views(spec)
    out = {PurePosixPath("client.py"): renderer.render(TEMPLATE, spec=spec, ops=ops)}
    out[PurePosixPath("_ops/__init__.py")] = renderer.render("package/_ops/__init__.py.jinja")
    for op in ops:
        out[PurePosixPath(f"_ops/{op.attr}.py")] = renderer.render(OP_TEMPLATE, op=op)
    return out
