"""The three tool definitions of the dynamic toolset (search -> describe -> call), as data.

Why fixed definitions: their size must not grow with the API (GitHub's hundreds of tools), so
nothing per-operation is in them; what an agent needs about one tool comes from
``describe_tools``. The runtime (``_runtime/toolsets.py``) answers them over the same
``ToolHost`` as the direct tools. ``call_tool``'s output schema is the envelope with open codes,
since it answers for every tool.

One spelling difference between targets, forced by OpenAI strict mode (no free-form objects):
``call_tool.arguments`` is a JSON-encoded string there, an object for MCP and Anthropic. The
runtime accepts either on every route.
"""

from __future__ import annotations

from typing import Any

from xcompleteness.emit.emitters import tool_schemas as ts
from xcompleteness.resources import runtime_constant


def _limit(name: str) -> int:
    """``MAX_RESULTS`` / ``MAX_DESCRIBE`` of the runtime's toolsets, read without importing it."""
    limit: int = runtime_constant("toolsets", name)
    return limit


SEARCH = (
    "Find tools of this API by words (tool names, summaries, tags, resources; deterministic "
    "lexical match, best first). Then describe_tools for their schemas and call_tool to run one."
)
DESCRIBE = (
    "Full definitions (description, inputSchema, outputSchema) of up to {max_describe} tools "
    "named by search_tools."
)
CALL = (
    "Run one tool by name. Answers exactly what that tool answers: the completeness envelope "
    "(status, completeness, evidence). Destructive tools need the evidence of a complete listing "
    "result; a refusal is an error envelope with an approval prompt for a human."
)


def _search_input() -> dict[str, Any]:
    return ts.closed_object(
        {
            "query": {"type": "string", "description": "Words to look for."},
            "limit": ts.nullable_scalar(
                "integer",
                "At most this many tools (default 10).",
                minimum=1,
                maximum=_limit("MAX_RESULTS"),
            ),
        }
    )


def _describe_input() -> dict[str, Any]:
    return ts.closed_object(
        {
            "names": {
                "type": "array",
                "items": {"type": "string"},
                "maxItems": _limit("MAX_DESCRIBE"),
                "description": "Tool names from search_tools.",
            }
        }
    )


def _call_input(strict: bool) -> dict[str, Any]:
    if strict:
        arguments: dict[str, Any] = {
            "type": "string",
            "description": "The tool's arguments: a JSON object, encoded as a string.",
        }
    else:
        arguments = {"type": "object", "description": "The tool's arguments (its inputSchema)."}
    return ts.closed_object(
        {"name": {"type": "string", "description": "A tool name."}, "arguments": arguments}
    )


def _listing_output(key: str, item: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {key: {"type": "array", "items": item}},
        "required": [key],
    }


def definitions(strict: bool) -> list[dict[str, Any]]:
    """Target-neutral definitions (name, description, parameters, output, annotations).

    ``strict``: spell ``call_tool.arguments`` as OpenAI strict mode needs (a JSON string).
    """
    hit = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    read_only = {"readOnlyHint": True}
    return [
        {
            "name": "search_tools",
            "description": SEARCH,
            "parameters": _search_input(),
            "output": _listing_output("tools", hit),
            "annotations": read_only,
        },
        {
            "name": "describe_tools",
            "description": DESCRIBE.format(max_describe=_limit("MAX_DESCRIBE")),
            "parameters": _describe_input(),
            "output": _listing_output("tools", {"type": "object"}),
            "annotations": read_only,
        },
        {
            "name": "call_tool",
            "description": CALL,
            "parameters": _call_input(strict),
            "output": ts.output_schema(None),
            "annotations": {},
        },
    ]


def mcp_tools() -> list[dict[str, Any]]:
    return [
        ts.mcp_tool(d["name"], d["description"], d["parameters"], d["output"], d["annotations"])
        for d in definitions(strict=False)
    ]


def openai_tools() -> dict[str, list[dict[str, Any]]]:
    defs = definitions(strict=True)
    return {
        "chat_completions": [
            ts.openai_chat_tool(d["name"], d["description"], d["parameters"]) for d in defs
        ],
        "responses": [
            ts.openai_responses_tool(d["name"], d["description"], d["parameters"]) for d in defs
        ],
    }


def anthropic_tools() -> list[dict[str, Any]]:
    return [
        ts.anthropic_tool(d["name"], d["description"], d["parameters"])
        for d in definitions(strict=False)
    ]


__all__ = ["anthropic_tools", "definitions", "mcp_tools", "openai_tools"]
