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

Our generate is measured three ways, each in a fresh empty cache (``XDG_CACHE_HOME`` under
``.cache/``): cold (the default: OpenAPI validation in a second process, see
docs/generate.md "Speed"), cold on one process (``XC_JOBS=1``), and warm (the same command again:
the cache hit, target < 2 s). CPU is user + system time of the command and all its children
(ruff, the validation process); peak RSS is that of its largest process. ``XC_BENCH_REPS=N``
repeats every measurement N times and reports the best wall and CPU time; the load average is
printed before and after, since other work on the machine inflates wall times.

Run: ``python bench/run.py generate``.
"""

from __future__ import annotations

import json
import os
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
REPS = max(1, int(os.environ.get("XC_BENCH_REPS", "1") or 1))


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
import json, os, resource, subprocess, sys, time
cmd, cwd, timeout, env = json.loads(sys.argv[1])
t = time.perf_counter()
try:
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                       env={**os.environ, **env})
    code, out = p.returncode, p.stdout + p.stderr
except subprocess.TimeoutExpired:
    code, out = "timeout", ""
wall = time.perf_counter() - t
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"seconds": wall, "cpu": ru.ru_utime + ru.ru_stime, "rss_mib": ru.ru_maxrss / 1024,
                  "code": code, "output": out[-6000:]}))
"""


def _measure_once(
    cmd: list[str], *, cwd: Path | None = None, timeout: float = 1800, env: dict | None = None
) -> dict[str, Any]:
    arg = json.dumps([cmd, str(cwd) if cwd else None, timeout, env or {}])
    proc = subprocess.run(
        [sys.executable, "-c", _WRAPPER, arg], capture_output=True, text=True, check=True
    )
    return json.loads(proc.stdout)


def _measure(
    cmd: list[str],
    *,
    cwd: Path | None = None,
    timeout: float = 1800,
    env: dict | None = None,
    before: Any = None,
    reps: int | None = None,
) -> dict[str, Any]:
    """Wall time, CPU time, peak RSS (MiB) and exit code of one command (best of ``REPS``).

    A small wrapper process runs the command as its only child, so ``RUSAGE_CHILDREN`` is that
    command's own (and its children's), not the total over every earlier measurement.
    ``before()`` runs before each repetition (e.g. to empty the output folder).
    """
    runs = []
    for _ in range(reps or REPS):
        if before is not None:
            before()
        runs.append(_measure_once(cmd, cwd=cwd, timeout=timeout, env=env))
    best = dict(runs[-1])
    best["seconds"] = min(r["seconds"] for r in runs)
    best["cpu"] = min(r["cpu"] for r in runs)
    best["rss_mib"] = max(r["rss_mib"] for r in runs)
    return best


def _load() -> str:
    try:
        return "/".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


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

    load_before = _load()
    ours_out = CACHE / "ours"
    xdg = CACHE / "xdg-cache"
    ours_cmd = [
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

    def fresh() -> None:  # an empty output folder and an empty cache: a cold run
        shutil.rmtree(ours_out, ignore_errors=True)
        shutil.rmtree(xdg, ignore_errors=True)

    env = {"XDG_CACHE_HOME": str(xdg)}
    one = _measure(ours_cmd, env={**env, "XC_JOBS": "1"}, before=fresh)
    ours = _measure(ours_cmd, env=env, before=fresh)
    warm = _measure(ours_cmd, env=env)  # same inputs, same OUT, the cache is filled: a hit
    peer_out = CACHE / "peer"
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
        ],
        before=lambda: shutil.rmtree(peer_out, ignore_errors=True),
    )
    probe = [
        sys.executable,
        "-c",
        "import time, importlib, pydantic, httpx\nt = time.perf_counter()\n"
        f"for m in ('{PACKAGE}', '{PACKAGE}.models', '{PACKAGE}.server', '{PACKAGE}.client'):\n"
        "    importlib.import_module(m)\n"
        "print(f'{time.perf_counter() - t:.3f}')",
    ]
    cold = _measure(probe, cwd=ours_out, reps=1)  # compiles the bytecode on the way
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
        "| tool | exit | wall s | CPU s | peak RSS MiB |",
        "|---|---|---|---|---|",
        _row("xcompleteness generate (cold, default: 2 processes)", ours),
        _row("xcompleteness generate (cold, XC_JOBS=1: 1 process)", one),
        _row("xcompleteness generate (warm: unchanged inputs, cache hit)", warm),
        _row(f"{PEER} {PEER_VERSION} (peer)", peer),
        "",
        f"time ratio ours/peer: {ours['seconds'] / max(peer['seconds'], 1e-9):.2f} "
        f"(target <= 1.0; one process: {one['seconds'] / max(peer['seconds'], 1e-9):.2f}); "
        f"CPU ratio: {ours['cpu'] / max(peer['cpu'], 1e-9):.2f}; "
        f"memory ratio: {ours['rss_mib'] / max(peer['rss_mib'], 1e-9):.2f}; "
        f"warm run: {warm['seconds']:.2f} s (target < 2 s)",
        f"best of {REPS} run(s) each; load average (1/5/15 min) before: {load_before}, "
        f"after: {_load()}",
        f"generated: {len(files)} files, {size / 1e6:.1f} MB; import time of the package "
        f"(models, server, client; pydantic, httpx preloaded): {import_s} s warm, {cold_s} s "
        "on the first import, which compiles the bytecode (target < 0.5 s)",
    ]
    for label, run in (("", ours), (" (XC_JOBS=1)", one), (" (warm)", warm)):
        if run["code"] != 0:
            lines += [
                "",
                f"xcompleteness output{label} (tail):",
                "```",
                run["output"][-3000:],
                "```",
            ]
    if peer["code"] != 0:
        lines += ["", f"{PEER} output (tail):", "```", peer["output"][-1500:], "```"]
    if imports["code"] != 0:
        lines += ["", "import failure:", "```", imports["output"][-2000:], "```"]
    return "\n".join(lines) + "\n"


def _row(label: str, run: dict[str, Any]) -> str:
    return (
        f"| {label} | {run['code']} | {run['seconds']:.2f} | {run['cpu']:.1f} | "
        f"{run['rss_mib']:.0f} |"
    )


if __name__ == "__main__":
    print(main())
