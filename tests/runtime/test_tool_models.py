"""The agent tool result models live in ``runtime/tool_models.py`` beside ``tool_result.py``;
``runtime/envelope.py`` keeps the wire envelope and re-exports the tool models lazily.

The dependency runs one way at import time (tool_models -> envelope); envelope reaches
tool_models only inside its module ``__getattr__``, so either module can be imported first.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import xcompleteness.runtime
from xcompleteness.runtime import envelope, tool_models

RUNTIME = Path(xcompleteness.runtime.__file__).parent
TOOL_MODELS = ("ToolCompleteness", "ToolError", "ToolReason", "ToolResult", "ToolWarning")


def _module_level_imports(name: str) -> set[str]:
    tree = ast.parse((RUNTIME / f"{name}.py").read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in tree.body:  # module level only; TYPE_CHECKING blocks never run
        if isinstance(node, ast.ImportFrom):
            out.add("." * node.level + (node.module or ""))
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def test_the_tool_models_live_beside_tool_result_and_envelope_re_exports_them() -> None:
    for name in TOOL_MODELS:
        assert getattr(tool_models, name).__module__ == tool_models.__name__
        assert getattr(envelope, name) is getattr(tool_models, name)
        assert name in envelope.__all__
    assert sorted(tool_models.__all__) == sorted(TOOL_MODELS)
    assert not any(line.startswith("class Tool") for line in _source("envelope").splitlines())


def _source(name: str) -> str:
    return (RUNTIME / f"{name}.py").read_text(encoding="utf-8")


def test_imports_run_one_way_and_pull_in_no_httpx() -> None:
    assert ".envelope" in _module_level_imports("tool_models")
    assert ".tool_models" not in _module_level_imports("envelope")
    for name in ("envelope", "tool_models"):
        assert "httpx" not in {m.split(".")[0] for m in _module_level_imports(name)}


def test_either_module_can_be_imported_first_in_a_fresh_interpreter() -> None:
    for first in ("tool_models", "envelope"):
        code = (
            f"import xcompleteness.runtime.{first}\n"
            "from xcompleteness.runtime.envelope import ToolResult\n"
            "from xcompleteness.runtime import tool_models, envelope\n"
            "assert ToolResult is tool_models.ToolResult\n"
            "ns = {}\n"
            "exec('from xcompleteness.runtime.envelope import *', ns)\n"
            "assert ns['ToolWarning'] is tool_models.ToolWarning\n"
            "try:\n    envelope.NoSuchName\nexcept AttributeError:\n    pass\n"
            "else:\n    raise SystemExit('missing name did not raise')\n"
        )
        proc = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
        )
        assert proc.returncode == 0, (first, proc.stderr[-2000:])
