"""docs/adopting.md's walkthrough ("From audit to an agent") runs as written.

A newcomer's path through an API nobody named, as the page shows it: audit, a defaults overlay
answering the question every listing asks, the draft, ``check --strict``, ``generate``, the
package installed, ``xcompleteness mock`` as a loopback fake of the API, and an agent calling a
listing tool through the generated MCP server with the official MCP SDK. Every command and file
is taken from the page (shell lines, the YAML block, the Python block and its printed output), so
a step that breaks, or a page that drifts from what the tool does, fails here. Two stand-ins, both
for installation only: ``pip install './tasks-out[mcp]'`` becomes ``PYTHONPATH``, and the console
script it would install, ``tasks-api-mcp``, a shim running ``python -m tasks_api.tools.mcp_server``.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from support.cli import xc
from support.mock_proc import mock_server
from support.paths import EXAMPLES, ROOT

PAGE = (ROOT / "docs" / "adopting.md").read_text("utf-8")
SECTION = PAGE.split("## 6. From audit to an agent", 1)[1].split("\n## ", 1)[0]
BLOCKS = re.findall(r"```(\w+)\n(.*?)```", SECTION, re.S)


def _blocks(lang: str) -> list[str]:
    return [body for kind, body in BLOCKS if kind == lang]


def _commands() -> list[list[str]]:
    return [shlex.split(line) for body in _blocks("sh") for line in body.splitlines() if line]


def _xc(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return xc(*args, cwd=cwd)


def test_the_walkthrough_runs_from_audit_to_an_agent_call(tmp_path: Path) -> None:
    shutil.copytree(EXAMPLES / "tasks", tmp_path / "examples" / "tasks")
    (yaml_block,) = _blocks("yaml")
    name = yaml_block.splitlines()[0].removeprefix("# ").strip()
    (tmp_path / name).write_text(yaml_block, encoding="utf-8")
    commands = _commands()
    assert [c[:2] for c in commands] == [
        ["xcompleteness", "audit"],
        ["xcompleteness", "audit"],
        ["xcompleteness", "check"],
        ["xcompleteness", "generate"],
        ["pip", "install"],
        ["xcompleteness", "mock"],
    ]
    first = _xc(commands[0][1:], tmp_path)
    assert first.returncode == 1 and first.stdout.count("TODO visibility") == 2, first.stdout
    drafted = _xc(commands[1][1:], tmp_path)
    assert drafted.returncode == 1, drafted.stderr  # still undeclared in the spec itself
    assert "drafted with 0 TODO(s)" in drafted.stderr, drafted.stderr
    checked = _xc(commands[2][1:], tmp_path)
    assert checked.returncode == 0, checked.stderr
    assert "0 error(s), 0 warning(s); 2 declaration(s) checked" in checked.stderr
    generated = _xc(commands[3][1:], tmp_path)
    assert generated.returncode == 0, generated.stderr
    assert commands[4] == ["pip", "install", "./tasks-out[mcp]"]
    out = tmp_path / "tasks-out"
    assert (out / "pyproject.toml").is_file()

    mock = commands[5]
    spec, overlays = tmp_path / mock[2], mock[3 : mock.index("--port")]
    overlays = [str(tmp_path / a) if a.endswith(".yaml") else a for a in overlays]
    shim = tmp_path / "bin" / "tasks-api-mcp"
    shim.parent.mkdir()
    # the SDK starts the server with a minimal environment (no PYTHONPATH): the shim sets it,
    # as an installed package would not need to
    shim.write_text(
        f"#!/bin/sh\nPYTHONPATH={shlex.quote(str(out))} exec {shlex.quote(sys.executable)} "
        '-m tasks_api.tools.mcp_server "$@"\n'
    )
    shim.chmod(0o755)
    (script,) = _blocks("python")
    (printed,) = _blocks("text")
    with mock_server(spec, extra=tuple(overlays)) as url:
        agent = subprocess.run(
            [sys.executable, "-c", script.replace("http://127.0.0.1:8099", url)],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=300,
            env={
                **os.environ,
                "PATH": f"{shim.parent}{os.pathsep}{os.environ['PATH']}",
                "PYTHONPATH": str(out),
            },
        )
    assert agent.returncode == 0, agent.stderr[-3000:]
    assert agent.stdout == printed
