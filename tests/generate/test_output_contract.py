"""The generated-output contract on small synthetic specs, one per class of failure the real-spec
corpus found (docs/corpus.md): the tree is ruff-clean (package and ``--tests`` suite), every tool
definition is valid for MCP, OpenAI strict mode and Anthropic (``support.output_contract``), and
names stay valid and unique after they are cut to a consumer's length.

Each spec is built here in a few lines (never the real spec that showed the class) and generated
through the real pipeline into a temporary folder.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from support.output_contract import ruff_problems, tool_problems
from support.tool_rules import OUR_NAME

PACKAGE = "xc_contract"


def resource(op_id: str, *, params: list[dict] | None = None, summary: str = "") -> dict:
    """A declared single read (``kind: resource``) answering an object."""
    op: dict[str, Any] = {
        "operationId": op_id,
        "x-completeness": {"kind": "resource"},
        "responses": {
            "200": {
                "description": "the thing",
                "content": {
                    "application/json": {
                        "schema": {"type": "object", "properties": {"id": {"type": "string"}}}
                    }
                },
            }
        },
    }
    if params:
        op["parameters"] = params
    if summary:
        op["summary"] = summary
    return op


def spec(paths: dict[str, dict[str, dict]], **extra: Any) -> dict:
    return {
        "openapi": "3.0.3",
        "info": {"title": "Contract", "version": "1"},
        "paths": paths,
        **extra,
    }


def generated(tmp_path: Path, document: dict) -> Path:
    """Generate ``document`` (package and ``--tests`` suite) into ``tmp_path/out``."""
    from xcompleteness.emit._generate import generate
    from xcompleteness.emit._write import write_tree

    source = tmp_path / "spec.json"
    source.write_text(json.dumps(document), "utf-8")
    out = tmp_path / "out"
    write_tree(out, generate(source, (), PACKAGE, tests=True, cache=False).files)
    return out


def tools(out: Path, name: str = "mcp.json") -> Any:
    return json.loads((out / PACKAGE / "tools" / name).read_text("utf-8"))


# --------------------------------------------------------------------------- names


def test_tool_names_cut_to_64_stay_within_64_when_they_collide(tmp_path: Path) -> None:
    """Two long operationIds that name the same tool once cut to 64 characters: the second
    one's collision suffix must fit in the 64 too (it made a 66-character name)."""
    long = "VeryLongResourceName" * 4
    document = spec(
        {
            "/a/{id}": {"get": resource(f"list{long}ById", params=[_path_id()])},
            "/b/{id}": {"get": resource(f"list_{long}_by_id", params=[_path_id()])},
            "/c/{id}": {"get": resource(f"list-{long}-by-id", params=[_path_id()])},
        }
    )
    out = generated(tmp_path, document)
    names = [t["name"] for t in tools(out)["tools"]]
    assert len(names) == 3 == len(set(names))
    assert all(OUR_NAME.match(n) for n in names), names
    assert tool_problems(out / PACKAGE / "tools") == []
    assert ruff_problems(out) == []


def _path_id() -> dict:
    return {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}


# --------------------------------------------------------------------------- schemas


def test_openapi_30_boolean_exclusive_bounds_become_2020_12_numbers(tmp_path: Path) -> None:
    """OpenAPI 3.0 writes ``exclusiveMinimum: true`` beside ``minimum``; JSON Schema 2020-12
    (MCP) and OpenAI strict mode take the bound itself as the number. The boolean was copied
    through, which no 2020-12 validator accepts."""
    schemas = {
        "above": {"type": "number", "minimum": 0, "exclusiveMinimum": True},
        "below": {"type": "integer", "maximum": 10, "exclusiveMaximum": True},
        "loose": {"type": "integer", "minimum": 1, "exclusiveMinimum": False},
    }
    params = [{"name": n, "in": "query", "schema": schema} for n, schema in schemas.items()]
    out = generated(tmp_path, spec({"/t": {"get": resource("getT", params=params)}}))
    props = tools(out)["tools"][0]["inputSchema"]["properties"]
    assert props["above"]["exclusiveMinimum"] == 0 and "minimum" not in props["above"]
    assert props["below"]["exclusiveMaximum"] == 10 and "maximum" not in props["below"]
    assert props["loose"]["minimum"] == 1 and "exclusiveMinimum" not in props["loose"]
    assert tool_problems(out / PACKAGE / "tools") == []


def test_a_tool_of_many_enum_arguments_fits_openai_whole_schema_limits(tmp_path: Path) -> None:
    """Each argument's enum is within bounds (240 values) but five of them pass OpenAI strict
    mode's 1,000 enum values per schema, and OpenAI refuses the whole tool list. The largest
    enums give up their list (and say so); the others keep theirs whole."""
    values = [f"value{j}" for j in range(240)]
    params = [
        {"name": f"p{i}", "in": "query", "schema": {"type": "string", "enum": values}}
        for i in range(5)
    ]
    out = generated(tmp_path, spec({"/t": {"get": resource("getT", params=params)}}))
    assert tool_problems(out / PACKAGE / "tools") == []
    props = tools(out, "openai.json")["responses"][0]["parameters"]["properties"]
    kept = [p for p in props.values() if "enum" in p]
    assert len(kept) == 4 and all(p["enum"] == [*values, None] for p in kept)
    (left,) = [p for p in props.values() if p.get("type") == ["string", "null"] and "enum" not in p]
    assert "One of 240 values" in left["description"]


def listing(op_id: str, item_ref: str) -> dict:
    """A declared unpaged collection whose items are the component ``item_ref``."""
    return {
        "operationId": op_id,
        "x-completeness": {
            "kind": "collection",
            "mode": "adapter",
            "scope": {"resource": "things", "visibility": "all", "snapshot": "none"},
            "items": "$response.body#/value",
            "id": "/id",
            "pagination": {"style": "none"},
            "reasons": [],
        },
        "responses": {
            "200": {
                "description": "the things",
                "content": {
                    "application/json": {
                        "schema": {
                            "type": "object",
                            "properties": {"value": {"type": "array", "items": {"$ref": item_ref}}},
                        }
                    }
                },
            }
        },
    }


def test_a_shared_item_module_named_after_a_long_schema_stays_within_the_line(
    tmp_path: Path,
) -> None:
    """Azure's shape: item models two listings share go to ``_items/_shared_<schema>.py``,
    and ``from .._items._shared_<schema> import (`` passed 100 columns for a 66-character schema
    name (E501 in ``_models/`` and ``models.py``): the module name was not bounded like the
    operation modules are."""
    name = "SharedAccessSignatureAuthorizationRuleAccessRightsDescription"
    ref = f"#/components/schemas/{name}"
    schemas = {name: {"type": "object", "properties": {"id": {"type": "string"}}}}
    document = spec(
        {"/a": {"get": listing("listA", ref)}, "/b": {"get": listing("listB", ref)}},
        components={"schemas": schemas},
    )
    out = generated(tmp_path, document)
    shared = [p.name for p in (out / PACKAGE / "_items").glob("_shared_*.py")]
    assert shared, "the schema is shared by both listings"
    assert ruff_problems(out) == []


def test_a_description_of_wide_characters_is_split_by_its_width(tmp_path: Path) -> None:
    """shop-pro.jp's shape: datamodel-code-generator keeps an item field's description verbatim
    in ``Field(description="...")``; 46 characters of Japanese text are about 90 columns to
    ruff's E501 but 46 to a length count, so the literal was not split (a line of 73 characters,
    122 columns)."""
    text = "インラインスクリプトを 実行する タイミングです。" * 2
    schemas = {
        "Tag": {
            "type": "object",
            "properties": {
                "id": {"type": "string"},
                "when": {"type": "string", "description": text},
            },
        }
    }
    document = spec(
        {"/tags": {"get": listing("listTags", "#/components/schemas/Tag")}},
        components={"schemas": schemas},
    )
    out = generated(tmp_path, document)
    assert ruff_problems(out) == []


# --------------------------------------------------------------------------- the checks themselves


def test_the_checks_report_each_class_they_look_for(tmp_path: Path) -> None:
    """The corpus counts what these checks report: each must see the class it names."""
    long = "x" * 66
    loose = {"type": "object", "properties": {"a": {"type": "number", "exclusiveMinimum": True}}}
    folder = tmp_path / "tools"
    folder.mkdir()
    mcp_tool = {"name": long, "description": "d", "inputSchema": loose}
    fn = {"name": long, "description": "d", "parameters": loose, "strict": True}
    (folder / "mcp.json").write_text(json.dumps({"tools": [mcp_tool, mcp_tool], "dynamic": []}))
    openai = {
        "chat_completions": [{"type": "function", "function": fn}],
        "responses": [{"type": "function", **fn}],
        "dynamic": {"chat_completions": [], "responses": []},
    }
    (folder / "openai.json").write_text(json.dumps(openai))
    anthropic = {
        "tools": [{"name": "ok", "description": "d", "input_schema": loose}],
        "dynamic": [],
    }
    (folder / "anthropic.json").write_text(json.dumps(anthropic))
    classes = {klass for klass, _ in tool_problems(folder)}
    assert {
        "mcp: duplicate tool name",
        "mcp: inputSchema is not valid JSON Schema 2020-12",
        "openai responses: strict: name ... does not match",
        "openai chat: strict: every property must be required",
        "anthropic: input_schema is not valid JSON Schema 2020-12",
        "targets publish different tool names",
    } <= classes, classes
    code = tmp_path / "code"
    code.mkdir()
    (code / "m.py").write_text(f'X = "{"y " * 60}"\n')
    assert [c for c, _ in ruff_problems(code)] == ["E501"]


def test_the_corpus_summary_counts_contract_failures_and_fails_on_them() -> None:
    from corpus.harness import failed, render, summarize

    clean = {"classes": {}, "examples": []}
    base = {"parsed": True, "valid": True, "generate": "ok", "importable": True, "wall": 1.0}
    results = [
        {**base, "spec": "a.json", "ruff": clean, "tools": clean, "twin": {"exit": 0, "n": 0}},
        {
            **base,
            "spec": "b.json",
            "ruff": {"classes": {"E501": 2}, "examples": ["E501: m.py:1: long", "E501: m.py:2"]},
            "tools": clean,
            "twin": {"exit": 0, "n": 1, "differ": ["p/models.py"], "seed": "7"},
        },
    ]
    summary = summarize(results)
    assert (summary["ruff_clean"], summary["linted"]) == (1, 2)
    assert summary["ruff_by_code"]["findings"]["E501"] == 2
    assert (summary["identical"], summary["twinned"]) == (1, 2)
    assert failed(summary)
    block = render(summary, command="x", total=2, seconds=60.0)
    assert "| generated trees ruff-clean (package and `--tests` suite) | 1 / 2 |" in block
    assert "E501 ×2 (1 specs)" in block and "not deterministic: `b.json`" in block
    assert not failed(summarize(results[:1]))
