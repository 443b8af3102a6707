"""``make bench`` (generate): GitHub's REST description + an overlay declaring its list operations.

Measures, each in a fresh process run one after the other (wall time and peak RSS from
``os.wait4``):

- ``xcompleteness generate`` of GitHub's description (``bench/fetch.py github_spec()``) with an
  Overlay 1.0 built here: every GET whose 200 response is a JSON array, declared as an
  adapter-mode collection paginated by ``Link: rel="next"``;
- ``openapi-python-client generate`` on the same description (the peer), installed at run time
  into an isolated venv under ``.cache/`` so its dependencies never touch ours;
- the import time of the generated package (``import NAME, NAME.models, NAME.server,
  NAME.client``), target < 0.5 s.

Run: ``python bench/run.py generate``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import venv
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CACHE = ROOT / ".cache" / "bench-generate"
PEER = "openapi-python-client"
PEER_VERSION = "0.29.1"
PACKAGE = "github_bench"


def _deref(doc: dict[str, Any], node: Any) -> Any:
    for _ in range(16):
        if not (isinstance(node, dict) and isinstance(node.get("$ref"), str)):
            return node
        target: Any = doc
        for token in node["$ref"].lstrip("#/").split("/"):
            target = target.get(token.replace("~1", "/").replace("~0", "~"), {})
        node = target
    return node


def _array_200(doc: dict[str, Any], op: dict[str, Any]) -> dict[str, Any] | None:
    response = _deref(doc, (op.get("responses") or {}).get("200"))
    schema = _deref(doc, ((response or {}).get("content") or {}).get("application/json", {}))
    schema = _deref(doc, (schema or {}).get("schema"))
    return schema if isinstance(schema, dict) and schema.get("type") == "array" else None


def build_overlay(doc: dict[str, Any]) -> dict[str, Any]:
    """An Overlay 1.0 document declaring every array-returning GET as a link-header listing."""
    actions = []
    for path, item in sorted((doc.get("paths") or {}).items()):
        op = item.get("get") if isinstance(item, dict) else None
        if not isinstance(op, dict) or not op.get("operationId"):
            continue
        schema = _array_200(doc, op)
        if schema is None:
            continue
        names = {_deref(doc, p).get("name") for p in op.get("parameters") or []}
        item_schema = _deref(doc, schema.get("items") or {})
        pagination: dict[str, Any] = {
            "style": "link-header",
            "response": {"next": "$response.link.next"},
        }
        if "per_page" in names:
            pagination["request"] = {"size": "per_page"}
            pagination["max-page-size"] = 100
        declaration: dict[str, Any] = {
            "kind": "collection",
            "mode": "adapter",
            "scope": {"resource": path, "visibility": "what the token can see", "snapshot": "none"},
            "items": "$response.body#",
            "pagination": pagination,
            "reasons": [
                {"code": "MORE_PAGES_AVAILABLE", "when": {"present": "$response.link.next"}}
            ],
        }
        if "id" in (item_schema.get("properties") or {}):
            declaration["id"] = "/id"
        target = "$.paths[" + json.dumps(path).replace('"', "'") + "].get"
        actions.append({"target": target, "update": {"x-completeness": declaration}})
    return {
        "overlay": "1.0.0",
        "info": {"title": "x-completeness for every GitHub list operation", "version": "1.0.0"},
        "actions": actions,
    }


_WRAPPER = """
import json, resource, subprocess, sys, time
cmd, cwd, timeout = json.loads(sys.argv[1])
t = time.perf_counter()
try:
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    code, out = p.returncode, p.stdout + p.stderr
except subprocess.TimeoutExpired:
    code, out = "timeout", ""
wall = time.perf_counter() - t
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(json.dumps({"seconds": wall, "rss_mib": rss, "code": code, "output": out[-6000:]}))
"""


def _measure(cmd: list[str], *, cwd: Path | None = None, timeout: float = 1800) -> dict[str, Any]:
    """Wall time, peak RSS (MiB, of that child alone) and exit code of one command.

    A small wrapper process runs the command as its only child, so ``RUSAGE_CHILDREN`` is that
    command's own peak, not the maximum over every earlier measurement.
    """
    arg = json.dumps([cmd, str(cwd) if cwd else None, timeout])
    proc = subprocess.run(
        [sys.executable, "-c", _WRAPPER, arg], capture_output=True, text=True, check=True
    )
    return json.loads(proc.stdout)


def _peer_bin() -> Path:
    env = CACHE / "peer-venv"
    exe = env / "bin" / "openapi-python-client"
    if not exe.exists():
        venv.create(env, with_pip=True, clear=True)
        subprocess.run(
            [
                str(env / "bin" / "python"),
                "-m",
                "pip",
                "install",
                "--quiet",
                f"{PEER}=={PEER_VERSION}",
            ],
            check=True,
            timeout=900,
        )
    return exe


def _count_ops(doc: dict[str, Any]) -> int:
    return sum(
        1
        for item in (doc.get("paths") or {}).values()
        for method in ("get", "put", "post", "delete", "patch")
        if isinstance(item, dict) and method in item
    )


def main() -> str:
    sys.path.insert(0, str(HERE))
    from fetch import github_spec

    spec = github_spec()
    doc = json.loads(spec.read_text(encoding="utf-8"))
    CACHE.mkdir(parents=True, exist_ok=True)
    overlay = CACHE / "github-overlay.json"
    built = build_overlay(doc)
    overlay.write_text(json.dumps(built, indent=1), encoding="utf-8")
    declared = len(built["actions"])

    ours_out = CACHE / "ours"
    shutil.rmtree(ours_out, ignore_errors=True)
    ours = _measure(
        [
            sys.executable,
            "-m",
            "xcompleteness",
            "generate",
            str(spec),
            "--overlay",
            str(overlay),
            "-o",
            str(ours_out),
            "--package",
            PACKAGE,
        ]
    )
    peer_out = CACHE / "peer"
    shutil.rmtree(peer_out, ignore_errors=True)
    peer = _measure(
        [
            str(_peer_bin()),
            "generate",
            "--path",
            str(spec),
            "--output-path",
            str(peer_out),
            "--overwrite",
            "--meta",
            "none",
        ]
    )
    probe = [
        sys.executable,
        "-c",
        "import time, importlib, pydantic, httpx\nt = time.perf_counter()\n"
        f"for m in ('{PACKAGE}', '{PACKAGE}.models', '{PACKAGE}.server', '{PACKAGE}.client'):\n"
        "    importlib.import_module(m)\n"
        "print(f'{time.perf_counter() - t:.3f}')",
    ]
    cold = _measure(probe, cwd=ours_out)  # compiles the bytecode on the way
    imports = _measure(probe, cwd=ours_out)  # what a service pays on every start
    files = sorted(p for p in ours_out.rglob("*") if p.is_file())
    size = sum(p.stat().st_size for p in files)
    import_s = imports["output"].strip().splitlines()[-1] if imports["code"] == 0 else "failed"
    cold_s = cold["output"].strip().splitlines()[-1] if cold["code"] == 0 else "failed"
    lines = [
        "## generate: GitHub REST description + overlay declaring its list operations",
        "",
        f"spec: {spec.name} ({spec.stat().st_size / 1e6:.1f} MB, {_count_ops(doc)} operations);"
        f" overlay declares {declared} list operations (adapter, link-header)",
        "",
        "| tool | exit | wall s | peak RSS MiB |",
        "|---|---|---|---|",
        f"| xcompleteness generate | {ours['code']} | {ours['seconds']:.1f} | "
        f"{ours['rss_mib']:.0f} |",
        f"| {PEER} {PEER_VERSION} (peer) | {peer['code']} | {peer['seconds']:.1f} | "
        f"{peer['rss_mib']:.0f} |",
        "",
        f"time ratio ours/peer: {ours['seconds'] / max(peer['seconds'], 1e-9):.2f} "
        f"(target <= 1.0); memory ratio: {ours['rss_mib'] / max(peer['rss_mib'], 1e-9):.2f}",
        f"generated: {len(files)} files, {size / 1e6:.1f} MB; import time of the package "
        f"(models, server, client; pydantic, httpx preloaded): {import_s} s warm, {cold_s} s "
        "on the first import, which compiles the bytecode (target < 0.5 s)",
    ]
    if ours["code"] != 0:
        lines += ["", "xcompleteness output (tail):", "```", ours["output"][-3000:], "```"]
    if peer["code"] != 0:
        lines += ["", f"{PEER} output (tail):", "```", peer["output"][-1500:], "```"]
    if imports["code"] != 0:
        lines += ["", "import failure:", "```", imports["output"][-2000:], "```"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(main())
