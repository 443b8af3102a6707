"""The published tool definitions: valid for MCP, OpenAI strict mode and Anthropic, one per op."""

from __future__ import annotations

import json
import re

import mcp.types as types
import pytest
from jsonschema import Draft202012Validator
from support.tool_rules import OUR_NAME, anthropic_problems, openai_strict_problems
from support.tools_gen import TOOLS_PACKAGES as PACKAGES
from support.tools_gen import TOOLS_SPECS as SPECS
from support.tools_gen import generation_files
from support.tools_gen import load_tools_json as load_json
from xcompleteness.runtime.validation import validate

NAMES = sorted(PACKAGES)


@pytest.mark.parametrize("pkg", NAMES)
def test_one_tool_per_declared_operation_with_valid_unique_names(generated, pkg):
    folder = generated[pkg]
    contracts = json.loads((folder / "_contracts.json").read_text())["contracts"]
    chat = load_json(folder, "openai.json")["chat_completions"]
    for target, tools in (
        ("mcp", load_json(folder, "mcp.json")["tools"]),
        ("anthropic", load_json(folder, "anthropic.json")["tools"]),
        ("openai.responses", load_json(folder, "openai.json")["responses"]),
        ("openai.chat", [t["function"] for t in chat]),
    ):
        names = [t["name"] for t in tools]
        assert len(names) == len(set(names)) == len(contracts), target
        assert all(OUR_NAME.match(n) for n in names), (target, names)


@pytest.mark.parametrize("pkg", NAMES)
def test_every_openai_tool_is_valid_in_strict_mode_in_both_shapes(generated, pkg):
    doc = load_json(generated[pkg], "openai.json")
    assert len(doc["responses"]) == len(doc["chat_completions"])
    for resp, chat in zip(doc["responses"], doc["chat_completions"], strict=True):
        assert resp["type"] == chat["type"] == "function"
        assert resp["strict"] is True and chat["function"]["strict"] is True
        assert resp["parameters"] == chat["function"]["parameters"]
        assert resp["name"] == chat["function"]["name"]
        assert openai_strict_problems(resp["name"], resp["parameters"]) == []


def test_the_strict_checker_catches_what_strict_mode_rejects():
    loose = {"type": "object", "properties": {"a": {"type": "string"}}}
    assert any("additionalProperties" in p for p in openai_strict_problems("x", loose))
    loose["additionalProperties"] = False
    assert any("required" in p for p in openai_strict_problems("x", loose))
    loose["required"] = ["a"]
    assert openai_strict_problems("x", loose) == []
    loose["properties"]["a"] = {"allOf": [{"type": "string"}]}
    assert any("allOf" in p for p in openai_strict_problems("bad name!", loose))


@pytest.mark.parametrize("pkg", NAMES)
def test_every_anthropic_tool_follows_the_documented_name_and_schema_rules(generated, pkg):
    tools = load_json(generated[pkg], "anthropic.json")["tools"]
    for tool in tools:
        assert anthropic_problems(tool) == [], tool["name"]
        Draft202012Validator.check_schema(tool["input_schema"])


@pytest.mark.parametrize("pkg", NAMES)
def test_mcp_tools_have_object_rooted_envelope_output_schemas_and_hints(generated, pkg):
    folder = generated[pkg]
    contracts = json.loads((folder / "_contracts.json").read_text())["contracts"]
    for tool in load_json(folder, "mcp.json")["tools"]:
        types.Tool.model_validate(tool)  # the SDK's own model accepts it
        Draft202012Validator.check_schema(tool["inputSchema"])
        out = tool["outputSchema"]
        Draft202012Validator.check_schema(out)
        assert out["type"] == "object"
        assert out["properties"]["status"]["enum"] == ["complete", "partial", "error"]
        comp = out["properties"]["completeness"]
        assert "complete" in comp["required"]
        reason = comp["properties"]["reasons"]["items"]
        assert {"code", "origin"} <= set(reason["required"])
        assert {"scope", "continuation"} <= set(comp["properties"])
        assert {"data", "warnings", "evidence"} <= set(out["properties"])
        contract = contracts[tool["_meta"]["x-completeness/operation"]]
        declared = {r["code"] for r in contract["reasons"] or []}
        assert declared <= set(reason["properties"]["code"]["enum"])
        hints = tool["annotations"]
        if contract["kind"] == "mutation":
            assert hints.get("readOnlyHint", False) is False  # MCP's default: not read-only
            assert hints["destructiveHint"] is bool(contract["destructive"])
            mutation = contract["mutation"] or {}
            rechecked = mutation.get("recheck_each_target") and not mutation.get("from")
            gated = bool(contract["destructive"] or mutation.get("from")) and not rechecked
            assert ("evidence" in tool["inputSchema"]["properties"]) is gated
        else:
            assert hints["readOnlyHint"] is True
        if contract["kind"] in ("collection", "search", "aggregate"):
            assert {"max_pages", "deadline_s", "continuation"} <= set(
                tool["inputSchema"]["properties"]
            )


def test_the_runtime_validator_agrees_with_jsonschema_on_tool_inputs(generated):
    tools = {t["name"]: t for t in load_json(generated["xct_items"], "mcp.json")["tools"]}
    schema = tools["archive_items"]["inputSchema"]
    samples = [
        {"ids": ["a"], "reason": None, "evidence": None},
        {"ids": ["a"], "reason": "x", "evidence": "t"},
        {"ids": "a", "reason": None, "evidence": None},
        {"ids": ["a"], "reason": None},
        {"ids": ["a"], "reason": None, "evidence": None, "extra": 1},
        {"ids": [1], "reason": None, "evidence": None},
    ]
    for sample in samples:
        expected = Draft202012Validator(schema).is_valid(sample)
        assert (validate(sample, schema) == []) is expected, sample


def test_hostile_spec_text_reaches_tools_only_as_inert_quoted_data(generated):
    folder = generated["xct_hostile"]
    rules = (folder / "tools" / "AGENT_RULES.md").read_text()
    for line in rules.splitlines():
        assert not line.startswith(("# SYSTEM", "## New rules", "- injected bullet", "Ignore"))
    for fragment in ("DROP TABLE", "obey me", "injected bullet"):
        (line,) = [x for x in rules.splitlines() if fragment in x]
        assert re.search(r'`"[^`\n]*' + re.escape(fragment) + r'[^`\n]*"`', line), line
    assert "\u202e" not in rules and "\u200b" not in rules
    for tool in load_json(folder, "mcp.json")["tools"]:
        assert "\n" not in tool["description"] and "\u202e" not in json.dumps(tool)
    compile((folder / "tools" / "mcp_server.py").read_text(), "mcp_server.py", "exec")


def test_unexpressible_spec_schemas_become_json_string_arguments_not_loose_schemas(generated):
    (listing,) = [
        t
        for t in load_json(generated["xct_hostile"], "mcp.json")["tools"]
        if t["_meta"]["x-completeness/kind"] == "collection"
    ]
    assert listing["_meta"]["x-completeness/json_args"] == ["combo", "deep", "filter"]
    assert listing["inputSchema"]["properties"]["filter"]["type"] == ["string", "null"]
    assert len(listing["name"]) <= 64


def test_tool_files_are_byte_identical_between_runs(generated):
    """A second, in-memory generation equals the session's tree on disk, byte for byte."""
    again = generation_files(SPECS / "hostile.yaml", "xct_hostile")
    tools = {p: text for p, text in again.items() if "tools" in p.parts}
    assert len(tools) == 6
    out = generated["xct_hostile"].parent
    for rel, text in tools.items():
        assert (out / rel).read_bytes() == text.encode("utf-8"), rel
