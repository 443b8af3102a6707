"""The item models are linear in the document: a shared schema is copied once (issue 23).

The spec below is 20 KB: three shared-ref DAGs of about 7 KB, each with 2^30 paths, in the
three shapes a ref can take: into a component's properties (Azure's
``network-applicationGateway``, which ran for minutes and was refused), into a component's
properties whose names the model library cannot read in a ref (dots), and into
``components/responses``. Copying it as a tree would not end; it generates, the classes are one
per schema, a warning about the shared leaf is raised once, and the work fits a budget of one
step per node of the document (``XC_MAX_SCHEMA_NODES``). Past the budget the build stops with
``XC015`` at a located pointer (exit 2). A chain of 400 components used to exhaust the Python
stack while copying (``XC000``).
"""

from __future__ import annotations

import importlib
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from support.gen import import_generated
from xcompleteness import api
from xcompleteness.diagnostics import ExitCode
from xcompleteness.emit._write import write_tree

LEVELS = 30
ARRAY = "application/json"


def _ref(ref: str) -> dict[str, str]:
    return {"$ref": ref}


def _listing(op_id: str, item_ref: str) -> dict[str, Any]:
    page = {"type": "object", "properties": {"items": {"type": "array", "items": _ref(item_ref)}}}
    return {
        "get": {
            "operationId": op_id,
            "x-completeness": {
                "kind": "collection",
                "scope": {"resource": op_id, "snapshot": "none"},
                "items": "$response.body#/items",
                "pagination": {"style": "none"},
            },
            "responses": {"200": {"description": "ok", "content": {ARRAY: {"schema": page}}}},
        }
    }


def _level(next_ref: str) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"a": _ref(next_ref), "b": _ref(next_ref), "n": {"type": "integer"}},
    }


LEAF = {
    "type": "object",
    "required": ["leaf"],
    "properties": {"leaf": {"type": "string", "pattern": "^(?!x)"}},  # look-ahead: XC603
}


def dag_spec() -> dict[str, Any]:
    tree = {
        f"l{i}": _level(f"#/components/schemas/Tree/properties/l{i + 1}") for i in range(LEVELS)
    }
    tree[f"l{LEVELS}"] = LEAF
    dotted = {
        f"n.{i}": _level(f"#/components/schemas/Dotted/properties/n.{i + 1}") for i in range(LEVELS)
    }
    dotted[f"n.{LEVELS}"] = {"type": "string"}
    body = "#/components/responses/R{}/content/application~1json/schema"
    responses = {
        f"R{i}": {"description": "r", "content": {ARRAY: {"schema": _level(body.format(i + 1))}}}
        for i in range(LEVELS)
    }
    responses[f"R{LEVELS}"] = {
        "description": "r",
        "content": {ARRAY: {"schema": {"type": "string"}}},
    }
    return {
        "openapi": "3.0.3",
        "info": {"title": "Dag", "version": "1"},
        "paths": {
            "/tree": _listing("listTree", "#/components/schemas/Tree/properties/l0"),
            "/dotted": _listing("listDotted", "#/components/schemas/Dotted/properties/n.0"),
            "/responses": _listing("listResponses", body.format(0)),
        },
        "components": {
            "schemas": {
                "Tree": {"type": "object", "properties": tree},
                "Dotted": {"type": "object", "properties": dotted},
            },
            "responses": responses,
        },
    }


def _nodes(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + sum(_nodes(v) for v in value.values())
    if isinstance(value, list):
        return 1 + sum(_nodes(v) for v in value)
    return 1


def _paths(doc: dict[str, Any], ref: str) -> int:
    """Paths from ``ref`` to a schema without refs, counted over the DAG (not by walking it)."""

    @cache
    def count(target: str) -> int:
        node: Any = doc
        for token in target[2:].split("/"):
            node = node[token.replace("~1", "/").replace("~0", "~")]
        refs = [p["$ref"] for p in node.get("properties", {}).values() if "$ref" in p]
        return sum(count(r) for r in refs) if refs else 1

    return count(ref)


@pytest.fixture(scope="module")
def spec(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("dag") / "dag.json"
    path.write_text(json.dumps(dag_spec(), separators=(",", ":")), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def generated(spec: Path) -> api.GenerateResult:
    return api.generate(spec, package="dag_api", cache=False)


def test_the_spec_is_small_and_its_ref_dag_has_2_to_the_30_paths(spec: Path) -> None:
    doc = json.loads(spec.read_text(encoding="utf-8"))
    assert spec.stat().st_size < 24_000  # three DAGs of about 7 KB each
    body = "#/components/responses/R0/content/application~1json/schema"
    for ref in ("#/components/schemas/Tree/properties/l0", body):
        assert _paths(doc, ref) == 2**LEVELS


def test_it_generates_with_one_class_per_schema_and_one_warning(
    generated: api.GenerateResult,
) -> None:
    assert generated.exit_code == ExitCode.OK, generated.diagnostics
    found = [(d.code, d.pointer) for d in generated.diagnostics]
    assert found == [("XC603", "/components/schemas/Tree/properties/l30/properties/leaf/pattern")]
    items = "".join(t for p, t in generated.files.items() if "_items" in p.parts)
    classes = re.findall(r"^class (\w+)", items, flags=re.M)
    assert len(classes) == len(set(classes)) < 4 * (LEVELS + 1)  # linear, not 2**LEVELS


def _nested(depth: int, leaf: Any) -> Any:
    """An item ``depth`` levels deep along ``a`` (``b`` stays shallow: a tree, not the DAG)."""
    node = leaf
    for i in reversed(range(depth)):
        node = {"a": node, "b": leaf if i == depth - 1 else {}, "n": i}
    return node


def test_the_models_validate_the_whole_depth_through_shared_classes(
    generated: api.GenerateResult, tmp_path: Path
) -> None:
    write_tree(tmp_path, dict(generated.files))
    import_generated(tmp_path, "dag_api")
    models = importlib.import_module("dag_api.models")
    for name, leaf in (
        ("ListTreeItem", {"leaf": "deep"}),
        ("ListDottedItem", "deep"),
        ("ListResponsesItem", "deep"),
    ):
        item = getattr(models, name).model_validate(_nested(LEVELS, leaf))
        node: Any = item
        for i in range(LEVELS):
            assert node.n == i
            assert type(node.a) is type(node.b)  # one class for the shared schema
            node = node.a
        assert (node.leaf if name == "ListTreeItem" else node.root) == "deep"
        with pytest.raises(ValueError):  # the leaf's type is enforced at the bottom
            getattr(models, name).model_validate(_nested(LEVELS, {"leaf": 1}))


def test_the_work_is_linear_and_budgeted_with_a_located_diagnostic(
    spec: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = json.loads(spec.read_text(encoding="utf-8"))
    monkeypatch.setenv("XC_MAX_SCHEMA_NODES", str(_nodes(doc)))  # one step per document node
    assert api.generate(spec, package="dag_api", cache=False).exit_code == ExitCode.OK
    monkeypatch.setenv("XC_MAX_SCHEMA_NODES", "100")
    refused = api.generate(spec, package="dag_api", cache=False)
    assert refused.exit_code == ExitCode.UNUSABLE
    [diag] = refused.diagnostics
    assert diag.code == "XC015" and diag.severity.value == "error"
    assert diag.pointer.startswith(("/components/", "/paths/")) and diag.line is not None
    assert "XC_MAX_SCHEMA_NODES" in diag.hint


def test_the_mock_follows_refs_into_a_model(spec: Path) -> None:
    built = api.mock(spec)
    assert built.exit_code == ExitCode.OK, built.diagnostics
    status, _, body = built.api.handle("GET", "/tree", {}, None, "http://mock")
    assert status == 200
    item = body["items"][0]
    assert isinstance(item["n"], int) and isinstance(item["a"]["a"]["n"], int)


def test_a_chain_of_400_components_does_not_exhaust_the_stack(tmp_path: Path) -> None:
    schemas: dict[str, Any] = {
        f"C{i}": {"type": "object", "properties": {"next": _ref(f"#/components/schemas/C{i + 1}")}}
        for i in range(400)
    }
    schemas["C400"] = {"type": "object", "properties": {"v": {"type": "string"}}}
    doc = {
        "openapi": "3.0.3",
        "info": {"title": "Chain", "version": "1"},
        "paths": {"/c": _listing("listChain", "#/components/schemas/C0")},
        "components": {"schemas": schemas},
    }
    path = tmp_path / "chain.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    result = api.generate(path, package="chain_api", cache=False)
    assert result.exit_code == ExitCode.OK, result.diagnostics[:3]
    assert "class C400(" in "".join(result.files.values())


def test_an_alias_is_followed_and_a_non_object_target_copied_in_place(tmp_path: Path) -> None:
    """A ref to a response's schema that is itself a ref names the component (no wrapper
    class); a ref to a boolean schema (3.1) has no class of its own: it is copied in place."""
    from xcompleteness.emit._generate import generate

    pet = {"type": "object", "properties": {"id": {"type": "string"}, "free": True}}
    body = "#/components/responses/Pets/content/application~1json/schema"
    doc = {
        "openapi": "3.1.0",
        "info": {"title": "Alias", "version": "1"},
        "paths": {"/pets": _listing("listPets", body)},
        "components": {
            "schemas": {
                "Pet": pet,
                "Tag": {"properties": {"any": _ref("#/components/schemas/Pet/properties/free")}},
                "Holder": {"properties": {"tag": _ref("#/components/schemas/Tag")}},
            },
            "responses": {
                "Pets": {
                    "description": "p",
                    "content": {ARRAY: {"schema": _ref("#/components/schemas/Pet")}},
                }
            },
        },
    }
    doc["paths"]["/holders"] = _listing("listHolders", "#/components/schemas/Holder")
    path = tmp_path / "alias.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    gen = generate(path, (), "alias_api", cache=False)
    assert gen.ir is not None
    assert {o.operation_id: o.item_model for o in gen.ir.operations} == {
        "listPets": "Pet",
        "listHolders": "Holder",
    }
    assert gen.ir.model_schemas["Tag"] == {"properties": {"any": True}}
    assert sorted(gen.ir.model_schemas) == ["Holder", "Pet", "Tag"]
