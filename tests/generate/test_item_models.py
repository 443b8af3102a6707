"""Pages bind the model of the declared items schema, whatever datamodel-code-generator names it.

Fixtures (issue 10): ``specs/inline_name_collision.yaml`` is Stripe's shape (an inline
``customer`` property takes the name ``Customer`` in ``_items.py``; the component becomes
``CustomerModel``) plus unicourt's ``Exception``; ``specs/allof_items.yaml`` is DigitalOcean's
(the body and the items are ``allOf``s). The real specs are checked by
``tests/corpus/test_real_item_models.py``.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import pytest
from fastapi import FastAPI, Request
from pydantic import BaseModel, RootModel
from support.fault_server import serve
from support.gen import import_generated
from support.pages import item_class
from xcompleteness.emit._generate import Generation, generate
from xcompleteness.emit._write import write_tree

SPECS = Path(__file__).parent / "specs"


def _generate(spec: str, out: Path, package: str) -> tuple[Generation, ModuleType]:
    gen = generate(SPECS / spec, (), package)
    write_tree(out, gen.files)
    import_generated(out, package)
    return gen, importlib.import_module(f"{package}.models")


@pytest.fixture(scope="module")
def collision(tmp_path_factory: pytest.TempPathFactory) -> tuple[Generation, ModuleType, Path]:
    out = tmp_path_factory.mktemp("collision")
    gen, models = _generate("inline_name_collision.yaml", out, "gen_collision")
    return gen, models, out


def _wire_names(model: type[BaseModel]) -> set[str]:
    return {f.alias or name for name, f in model.model_fields.items()}


def test_page_items_bind_the_component_not_the_inline_namesake(collision) -> None:
    _, models, _ = collision
    element = item_class(models.GetCustomersPage)
    assert element is models.Customer
    assert not issubclass(element, RootModel)
    assert _wire_names(element) == {"id", "object", "email", "sources"}
    customer = element.model_validate({"id": "cus_1", "object": "customer", "email": "a@b.c"})
    assert customer.email == "a@b.c"


def test_a_builtin_named_schema_is_generated_not_refused(collision) -> None:
    gen, models, _ = collision
    assert not [d for d in gen.diagnostics if d.code == "XC603"]
    element = item_class(models.GetErrorsPage)
    assert element is models.Exception_ and _wire_names(element) == {"code", "detail"}


def test_renames_are_reported_naming_both_schemas(collision) -> None:
    gen, _, _ = collision
    by_code = {d.code: d for d in gen.diagnostics if d.code in ("XC610", "XC611")}
    assert set(by_code) == {"XC610", "XC611"}
    clash = by_code["XC610"]
    # info: the right class is bound, nothing to fix (docs/generate.md)
    assert {d.severity.value for d in by_code.values()} == {"info"}
    assert clash.pointer == "/components/schemas/customer"
    assert "/components/schemas/bank_account/properties/customer/anyOf/0" in clash.message
    assert "'CustomerModel'" in clash.message
    assert by_code["XC611"].pointer == "/components/schemas/Exception"


def test_a_stripe_like_listing_walks_to_complete_with_typed_items(collision) -> None:
    """Before the fix every page was a contract violation: items were validated as strings."""
    _, models, out = collision
    client_mod = importlib.import_module("gen_collision.client")
    rows = [
        {"id": f"cus_{i}", "object": "customer", "email": f"{i}@x.test", "sources": []}
        for i in range(5)
    ]
    app = FastAPI()

    @app.get("/v1/customers")
    def customers(request: Request) -> dict:
        after = request.query_params.get("starting_after")
        limit = int(request.query_params.get("limit") or 2)
        start = next((i + 1 for i, r in enumerate(rows) if r["id"] == after), 0)
        page = rows[start : start + limit]
        more = start + limit < len(rows)
        return {"object": "list", "data": page, "has_more": more, "url": "/v1/customers"}

    with serve(app) as base, client_mod.Client(base) as client:
        result = client.get_customers.collect(limit=2)
    assert result.complete, result
    assert [c.id for c in result.items] == [r["id"] for r in rows]
    assert all(isinstance(c, models.Customer) for c in result.items)


def test_allof_items_get_a_typed_model(tmp_path: Path) -> None:
    gen, models = _generate("allof_items.yaml", tmp_path, "gen_allof_items")
    assert not [d for d in gen.diagnostics if d.code == "XC603"]
    element = item_class(models.DropletsListPage)
    assert issubclass(element, BaseModel) and not issubclass(element, RootModel)
    assert _wire_names(element) == {"id", "created_at", "name", "memory"}
    droplet = element.model_validate({"id": 3, "name": "web-1", "memory": 1024})
    assert (droplet.id, droplet.name) == (3, "web-1")


def test_a_schema_the_library_merged_into_an_identical_inline_one_is_still_typed(
    tmp_path: Path,
) -> None:
    """datamodel-code-generator reuses one class for identical schemas and records it under the
    first place it met it (GitHub AE: an inline ``verification`` property and the
    ``Verification`` component); generation used to be refused with XC603."""
    gen, models = _generate("reused_model.yaml", tmp_path, "gen_reused")
    assert not [d for d in gen.diagnostics if d.code == "XC603"]
    for op_id, field in (("listChecks", "reason"), ("listEvents", "verification")):
        page = models.PAGE_MODELS[op_id]
        element = item_class(page)
        assert issubclass(element, BaseModel) and field in element.model_fields
    checks = item_class(models.PAGE_MODELS["listChecks"])
    assert set(checks.model_fields) == {"verified", "reason"}


def test_discriminator_mappings_to_dotted_names_are_typed_not_refused(tmp_path: Path) -> None:
    """Microsoft Graph names schemas ``microsoft.graph.user`` and maps discriminators to them
    with plain-string refs; left unrewritten they split datamodel-code-generator's output into
    modules and generation was refused (XC603). A mapping to no component is dropped."""
    gen, models = _generate("dotted_discriminator.yaml", tmp_path, "gen_dotted")
    assert not [d for d in gen.diagnostics if d.code == "XC603"]
    schemas = gen.ir.model_schemas  # what datamodel-code-generator is given
    mappings = [s["discriminator"]["mapping"] for s in schemas.values() if "discriminator" in s]
    assert mappings and all(
        ref.removeprefix("#/components/schemas/") in schemas for m in mappings for ref in m.values()
    )
    assert all(len(m) == 1 for m in mappings)  # the mapping to no component is dropped
    element = item_class(models.PAGE_MODELS["listDirectoryObjects"])
    assert issubclass(element, BaseModel) and "id" in element.model_fields


def test_a_bound_rename_is_a_note_in_ci_not_a_warning_on_every_run(tmp_path: Path) -> None:
    """XC610 / XC611 said "nothing to do" as warnings: every plain ``generate`` of Stripe printed
    them and ``generate --check --format github`` annotated them as warnings on every CI run.
    They are info: left out of a plain run, a ``notice`` (SARIF ``note``) under ``--check``."""
    import json

    from support.cli import xc

    spec = str(SPECS / "inline_name_collision.yaml")
    out = tmp_path / "out"
    plain = xc("generate", spec, "-o", str(out), "--package", "gen_notes", "--no-cache")
    assert plain.returncode == 0, plain.stderr
    assert "XC610" not in plain.stderr and "XC611" not in plain.stderr
    args = ("generate", spec, "-o", str(out), "--package", "gen_notes", "--check", "--no-cache")
    github = xc(*args, "--format", "github")
    assert github.returncode == 0, github.stdout + github.stderr
    lines = [line for line in github.stdout.splitlines() if "XC61" in line]
    assert lines and all(line.startswith("::notice ") for line in lines), github.stdout
    sarif = json.loads(xc(*args, "--format", "sarif").stdout)
    run = sarif["runs"][0]
    rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
    assert rules["XC610"]["defaultConfiguration"]["level"] == "note"
    assert {r["level"] for r in run["results"] if r["ruleId"] in ("XC610", "XC611")} == {"note"}
