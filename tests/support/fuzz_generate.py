"""Campaign driver: hostile specs, overlays and caches through check, audit and generate.

Not part of ``make test`` (its bounded twin is ``tests/security/test_mangled_generate.py``). Run
it by hand, niced, for as long as it finds things::

    nice -n 10 .venv/bin/python tests/support/fuzz_generate.py --minutes 30 --out /tmp/fuzz

Each trial takes a bundled example (:data:`support.mangle.CASES`), applies one to three hostile
mutations (:func:`support.mangle.mutate`) and runs, in this process:

- ``check`` and ``audit`` (``xcompleteness.api``);
- ``generate`` without a cache, one process: the reference;
- ``generate`` cold (an empty cache folder) and as an *edit* (a copy of a cache warmed by the
  unmutated example), each with the second core forced on or off at random, then the same
  input again (a whole-run hit);
- with some probability, a *hostile cache*: entries of the edit's cache truncated, replaced by
  garbage, swapped with each other or with another example's entries, then the run again;
- with some probability, the same through the command line (``check``, ``audit``,
  ``generate -o`` cold and as an edit) in a subprocess.

A finding is an exception out of the API, an exit code other than 0/1/2 (docs/cli.md), an
``XC000`` or a traceback on the command line, a run that outlives ``--timeout``, or a cached,
edited or two-process run whose exit code, errors or files differ from the reference (a
hostile cache may instead make the run refuse). Findings are grouped by class (where the
exception was raised, or which comparison failed); each class keeps its first reproducer
(the trial folder and a ``finding.json``) under ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: import support.*

from support.mangle import (  # noqa: E402 - after the path
    CASES,
    Outcome,
    copy_cache,
    forge_entry,
    load_case,
    mutate,
    outcome,
    text_mutation,
    write_case,
)

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTED = {0, 1, 2}
INTERNAL = re.compile(r'error XC000|"ruleId": ?"XC000"|"code": ?"XC000"|title=XC000')
FORMATS = ("text", "json", "sarif", "github")
DAMAGES = ("truncate", "garbage", "empty", "swap", "foreign", "json")
"""What anyone or anything (a full disk, a crash, another version) may do to an entry."""


class Hang(Exception):
    pass


def _alarm(_signum: int, _frame: Any) -> None:
    raise Hang()


class Campaign:
    def __init__(
        self,
        out: Path,
        seed: int,
        timeout: int,
        cli_rate: float,
        cache_rate: float,
        text_rate: float = 0.1,
        declarations: float = 0.3,
    ):
        self.text_rate = text_rate
        self.declarations = declarations
        self.out = out
        self.rng = random.Random(seed)
        self.timeout = timeout
        self.cli_rate = cli_rate
        self.cache_rate = cache_rate
        self.work = Path(tempfile.mkdtemp(prefix="xcfuzz-"))
        self.tried: Counter[str] = Counter()
        self.classes: dict[str, dict[str, Any]] = {}
        self.cases = {name: load_case(name) for name in CASES}
        self.warm: dict[str, Path] = {}
        self.trial = 0
        self.tests = False
        self.path = ""

    # -- bookkeeping -----------------------------------------------------------------------

    def finding(self, kind: str, where: str, detail: str, folder: Path, mutations: Any) -> None:
        key = f"{kind} @ {where}"
        detail = f"path: {self.path}\n{detail}"
        entry = self.classes.get(key)
        if entry is None:
            keep = self.out / f"finding-{len(self.classes):03d}"
            if keep.exists():
                shutil.rmtree(keep)
            shutil.copytree(folder, keep, ignore=shutil.ignore_patterns("cache*", "out*"))
            entry = self.classes[key] = {
                "class": key,
                "count": 0,
                "first": str(keep),
                "detail": detail[-4000:],
                "mutations": [str(m) for m in mutations],
                "trial": self.trial,
            }
            (keep / "finding.json").write_text(json.dumps(entry, indent=2), "utf-8")
            print(f"NEW {key}\n    {detail.splitlines()[-1] if detail else ''}", flush=True)
        entry["count"] += 1

    def guarded(self, path: str, folder: Path, mutations: Any, fn: Any, *args: Any, **kw: Any):
        """``fn(*args)`` with a timeout; an exception is a finding (returns None)."""
        self.tried[path] += 1
        self.path = path
        signal.alarm(self.timeout)
        try:
            return fn(*args, **kw)
        except Hang:
            self.finding("hang", path, f"more than {self.timeout} s", folder, mutations)
        except Exception as exc:  # noqa: BLE001 - every exception out of the API is a finding
            tb = traceback.format_exc()
            frames = [
                f for f in traceback.extract_tb(exc.__traceback__) if "xcompleteness" in f.filename
            ]
            site = frames[-1] if frames else traceback.extract_tb(exc.__traceback__)[-1]
            where = f"{type(exc).__name__} {Path(site.filename).name}:{site.lineno} ({site.name})"
            self.finding("exception", where, tb, folder, mutations)
        finally:
            signal.alarm(0)
        return None

    # -- the paths ---------------------------------------------------------------------------

    def warm_cache(self, name: str) -> Path:
        """A cache warmed by the unmutated example (made once per example)."""
        if name not in self.warm:
            folder = self.work / f"warm-{name}"
            spec, overlays = write_case(self.cases[name], folder / "src")
            outcome(spec, overlays, folder / "cache", two=False)
            self.warm[name] = folder / "cache"
        return self.warm[name]

    def check_audit(self, spec: Path, overlays: list[Path], folder: Path, muts: Any) -> None:
        from xcompleteness import api

        for name, fn in (("check", api.check), ("audit", api.audit)):
            report = self.guarded(f"api.{name}", folder, muts, fn, spec, overlays)
            if report is None:
                continue
            codes = {d.code for d in report.diagnostics}
            if int(report.exit_code) not in DOCUMENTED:
                self.finding("exit code", f"api.{name}", str(report.exit_code), folder, muts)
            if "XC000" in codes:
                self.finding("XC000", f"api.{name}", str(report.diagnostics), folder, muts)

    def compare(
        self,
        path: str,
        ref: Outcome,
        got: Outcome | None,
        folder: Path,
        muts: Any,
        may_refuse: bool = False,
        kind: str = "differs from the uncached run",
    ) -> None:
        if got is None:
            return
        if got.exit_code not in DOCUMENTED:
            self.finding("exit code", path, str(got.exit_code), folder, muts)
        if got.astray and not kind.startswith("info"):  # a sound cache never misleads a run
            self.finding("cache led the run astray", path, str(got.warnings), folder, muts)
        if got == ref:
            if got.warnings != ref.warnings and not kind.startswith("info"):
                lost = sorted(set(ref.warnings) ^ set(got.warnings))[:4]
                self.finding("warnings differ", path, f"{lost}", folder, muts)
            return
        if may_refuse and got.exit_code != 0 and not got.files:
            return  # a hostile cache may make a run refuse, never accept something else
        what = []
        if got.exit_code != ref.exit_code:
            what.append(f"exit {ref.exit_code} -> {got.exit_code}")
        if got.errors != ref.errors:
            what.append(f"errors {ref.errors[:4]} -> {got.errors[:4]}")
        if got.files != ref.files:
            differ = sorted(
                k for k in set(got.files) | set(ref.files) if got.files.get(k) != ref.files.get(k)
            )
            what.append(f"files differ: {differ[:6]}")
        where = f"{path}: " + ", ".join(w.split(" ")[0] for w in what)
        self.finding(kind, where, "; ".join(what), folder, muts)

    def hostile_cache(self, cache: Path, modes: tuple[str, ...]) -> str:
        """Spoil some entries of ``cache`` in place (``modes``: how); returns what was done."""
        entries = sorted(p for p in cache.rglob("*") if p.is_file())
        others = sorted(
            p for w in self.warm.values() if w != cache for p in w.rglob("*") if p.is_file()
        )
        if not entries:
            return "empty"
        done = []
        for entry in self.rng.sample(entries, k=min(len(entries), self.rng.randint(1, 3))):
            how = self.rng.choice(modes)
            data = entry.read_bytes()
            if how == "truncate":
                entry.write_bytes(data[: self.rng.randint(0, max(0, len(data) - 1))])
            elif how == "garbage":
                entry.write_bytes(os.urandom(self.rng.randint(1, 4096)))
            elif how == "empty":
                entry.write_bytes(b"")
            elif how == "swap":
                other = self.rng.choice(entries)
                entry.write_bytes(other.read_bytes())
            elif how == "foreign" and others:
                entry.write_bytes(self.rng.choice(others).read_bytes())
            elif how == "json":
                head, _, _rest = data.partition(b"\n")
                entry.write_bytes(head + b"\n" + json.dumps([5, None, {"x": []}]).encode())
            elif how == "forge":
                forged = forge_entry(entry, self.rng)
                if forged:
                    done.append(f"{forged} {entry.name}")
                continue
            done.append(f"{how} {entry.name}")
        return ", ".join(done)

    def cli(
        self,
        spec: Path,
        overlays: list[Path],
        folder: Path,
        muts: Any,
        warm: Path,
        ref: Outcome | None = None,
    ) -> None:
        py = str(ROOT / ".venv" / "bin" / "python")
        flags = [a for o in overlays for a in ("--overlay", str(o))]
        cache = folder / "cache-cli"
        copy_cache(warm, cache)
        env = {**os.environ, "XC_CACHE_DIR": str(cache)}
        env.pop("XC_NO_CACHE", None)
        two = self.rng.random() < 0.5
        if two:
            env.pop("XC_JOBS", None)
        else:
            env["XC_JOBS"] = "1"
        force = (
            "import sys; from xcompleteness.emit import _generate as G; "
            "G._idle_core = lambda: True; G.SIDE_MIN_OPERATIONS = 0; G.PREPARE_MIN_BYTES = 0; "
            "from xcompleteness.cli import main; sys.exit(main(sys.argv[1:]))"
        )
        out = str(folder / "out-cli")
        generate = ["generate", str(spec), *flags, "-o", out, "--package", "mangled"]
        generate += ["--tests"] if self.tests else []  # as the reference was made
        runs = [
            ("cli check", ["check", str(spec), *flags, "--format", self.rng.choice(FORMATS)]),
            ("cli audit", ["audit", str(spec), *flags, "--emit-overlay", str(folder / "d.yaml")]),
            ("cli generate edit", generate),
            ("cli generate again", generate),
        ]
        for path, args in runs:
            self.tried[path] += 1
            self.path = path
            try:
                proc = subprocess.run(
                    [py, "-c", force, *args] if two else [py, "-m", "xcompleteness", *args],
                    capture_output=True,
                    text=True,
                    timeout=self.timeout,
                    env=env,
                    cwd=folder,
                )
            except subprocess.TimeoutExpired:
                self.finding("hang", path, f"more than {self.timeout} s", folder, muts)
                continue
            text = proc.stdout + proc.stderr
            if proc.returncode not in DOCUMENTED:
                self.finding("exit code", path, f"{proc.returncode}\n{text}", folder, muts)
            if "Traceback" in text:
                self.finding("traceback", path, text, folder, muts)
            if INTERNAL.search(text):  # as a finding (SARIF lists every rule, XC000 too)
                line = next(x for x in text.splitlines() if "XC000" in x)
                self.finding(
                    "XC000", f"{path}: {line.split('internal error:')[-1][:60]}", text, folder, muts
                )
            if path.startswith("cli generate") and ref is not None:
                if proc.returncode != ref.exit_code:
                    self.finding("cli exit differs", path, text, folder, muts)
                elif proc.returncode == 0:
                    out = folder / "out-cli"
                    tree = {
                        p.relative_to(out).as_posix(): p.read_text("utf-8")
                        for p in out.rglob("*")
                        if p.is_file() and not p.name.startswith(".xcompleteness")
                    }
                    if tree != ref.files:
                        self.finding("cli tree differs", path, str(sorted(tree)), folder, muts)

    # -- one trial ----------------------------------------------------------------------------

    def run_trial(self) -> None:
        self.trial += 1
        name = self.rng.choice(sorted(CASES))
        near = self.rng.random() < self.declarations  # a declaration's own keys
        count = self.rng.choice([1, 1, 1, 2, 3])
        case, muts = mutate(self.cases[name], self.rng, count, declarations=near)
        folder = self.work / f"t{self.trial}"
        if folder.exists():
            shutil.rmtree(folder)
        as_json = self.rng.random() < 0.2
        spec, overlays = write_case(case, folder, as_json=as_json)
        if self.rng.random() < self.text_rate:
            muts = [*muts, text_mutation(self.rng.choice([spec, *overlays]), self.rng)]
        (folder / "trial.json").write_text(
            json.dumps({"case": name, "json": as_json, "mutations": [str(m) for m in muts]}),
            "utf-8",
        )
        self.tests = self.rng.random() < 0.2  # generate --tests: the contract suite too
        warm = self.warm_cache(name)
        self.check_audit(spec, overlays, folder, muts)
        ref = self.generate("generate uncached", folder, muts, spec, overlays, None, two=False)
        if ref is None:
            return
        if ref.exit_code not in DOCUMENTED:
            self.finding("exit code", "generate uncached", str(ref.exit_code), folder, muts)
        two = self.rng.random() < 0.5
        path = f"generate cold two={two}"
        cold = self.generate(path, folder, muts, spec, overlays, folder / "cache-cold", two=two)
        self.compare(path, ref, cold, folder, muts)
        cache = copy_cache(warm, folder / "cache-edit")
        two = self.rng.random() < 0.5
        path = f"generate edit two={two}"
        edit = self.generate(path, folder, muts, spec, overlays, cache, two=two)
        self.compare(path, ref, edit, folder, muts)
        again = self.generate("generate again", folder, muts, spec, overlays, cache, two=not two)
        self.compare("generate again", ref, again, folder, muts)
        if self.rng.random() < self.cache_rate:
            self.hostile_runs(name, spec, overlays, cache, ref, folder, muts)
        if self.rng.random() < self.cli_rate:
            self.cli(spec, overlays, folder, muts, warm, ref)
        shutil.rmtree(folder, ignore_errors=True)

    def generate(
        self,
        path: str,
        folder: Path,
        muts: Any,
        spec: Path,
        overlays: list[Path],
        cache: Path | None,
        *,
        two: bool,
    ) -> Outcome | None:
        """:func:`outcome` of this trial's input (``--tests`` as the trial chose), guarded."""
        return self.guarded(
            path, folder, muts, outcome, spec, overlays, cache, two=two, tests=self.tests
        )

    def hostile_runs(
        self,
        name: str,
        spec: Path,
        overlays: list[Path],
        cache: Path,
        ref: Outcome,
        folder: Path,
        muts: Any,
    ) -> None:
        """The same input on three spoiled copies of the edit's cache: damaged entries (the
        run must give the reference or refuse), forged entries and facts planted for every key
        (someone with the user's own account: docs/security.md says what these may change, so
        a changed outcome is recorded as information; an exception is a finding)."""
        damaged = copy_cache(cache, folder / "cache-damaged")
        done = self.hostile_cache(damaged, DAMAGES)
        (folder / "cache-damage.txt").write_text(done, "utf-8")
        two = self.rng.random() < 0.5
        path = f"generate damaged cache two={two}"
        got = self.generate(path, folder, muts, spec, overlays, damaged, two=two)
        self.compare(path, ref, got, folder, [*muts, done], may_refuse=True)
        # the unmutated example on a damaged cache: its own uncached tree, or refused
        src = self.work / f"warm-{name}" / "src"
        clean_spec = src / Path(CASES[name][0]).name
        clean_ovl = [src / Path(o).name for o in CASES[name][1]]
        clean_ref = self.clean_ref(name, clean_spec, clean_ovl)
        done2 = self.hostile_cache(damaged, DAMAGES)
        path = "generate damaged cache (clean input)"
        got = self.guarded(
            path, folder, muts, outcome, clean_spec, clean_ovl, damaged, two=self.rng.random() < 0.5
        )
        self.compare(path, clean_ref, got, folder, [*muts, done, done2], may_refuse=True)
        shutil.rmtree(damaged, ignore_errors=True)

        forged = copy_cache(cache, folder / "cache-forged")
        done = self.hostile_cache(forged, ("forge",))
        if done:
            (folder / "cache-forged.txt").write_text(done, "utf-8")
            suffixes = sorted(set(re.findall(r"forged (\.\w+):", done)))
            two = self.rng.random() < 0.5
            path = f"generate forged cache two={two}"
            got = self.generate(path, folder, muts, spec, overlays, forged, two=two)
            self.compare(
                f"generate forged {suffixes}",
                ref,
                got,
                folder,
                [*muts, done],
                kind="info: a forged entry changed the outcome",
            )
        shutil.rmtree(forged, ignore_errors=True)

        planted = copy_cache(cache, folder / "cache-planted")
        two = self.rng.random() < 0.5
        path = f"generate planted facts two={two}"
        with planted_facts():
            got = self.generate(path, folder, muts, spec, overlays, planted, two=two)
        self.compare(
            "generate planted facts",
            ref,
            got,
            folder,
            muts,
            kind="info: a planted fact changed the outcome",
        )
        shutil.rmtree(planted, ignore_errors=True)

    _clean: dict[str, Outcome] = {}

    def clean_ref(self, name: str, spec: Path, overlays: list[Path]) -> Outcome:
        if name not in self._clean:
            self._clean[name] = outcome(spec, overlays, None, two=False)
        return self._clean[name]

    def report(self, started: float) -> dict[str, Any]:
        return {
            "trials": self.trial,
            "minutes": round((time.monotonic() - started) / 60, 1),
            "runs per path": dict(sorted(self.tried.items())),
            "classes": sorted(self.classes.values(), key=lambda c: -c["count"]),
        }


@contextmanager
def planted_facts():
    """As if the cache held an entry for every key of a fact store and every declaration
    digest: what someone with the user's own account could plant."""
    from xcompleteness.declare import _vocabulary
    from xcompleteness.emit import _verdict_cache

    class Everything(dict):
        def __contains__(self, key: object) -> bool:
            return True

    saved_get, saved_init = _verdict_cache.FactCache.get, _vocabulary._Clean.__init__

    def init(self: Any) -> None:
        saved_init(self)
        if self.store is not None:
            self.digests = Everything(self.digests)

    _verdict_cache.FactCache.get = lambda self, key: True
    _vocabulary._Clean.__init__ = init
    try:
        yield
    finally:
        _verdict_cache.FactCache.get, _vocabulary._Clean.__init__ = saved_get, saved_init


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--minutes", type=float, default=10)
    p.add_argument("--trials", type=int, default=0, help="stop after this many (0: no limit)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--timeout", type=int, default=120, help="seconds per run before a hang")
    p.add_argument("--cli-rate", type=float, default=0.1)
    p.add_argument("--cache-rate", type=float, default=0.3)
    p.add_argument("--text-rate", type=float, default=0.1, help="byte-level damage to a file")
    p.add_argument(
        "--declarations", type=float, default=0.3, help="share of trials mutating declarations"
    )
    p.add_argument("--out", type=Path, default=Path("/tmp/xcfuzz-findings"))
    args = p.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    signal.signal(signal.SIGALRM, _alarm)
    campaign = Campaign(
        args.out,
        args.seed,
        args.timeout,
        args.cli_rate,
        args.cache_rate,
        args.text_rate,
        args.declarations,
    )
    return drive(campaign, args.minutes, args.trials, args.out, every=20)


def drive(campaign: Campaign, minutes: float, trials: int, out: Path, *, every: int) -> int:
    """Run ``campaign``'s trials for ``minutes`` (or ``trials`` of them), writing
    ``out/report.json`` every ``every`` trials and at the end; print the classes found."""
    started = time.monotonic()
    try:
        while time.monotonic() - started < minutes * 60:
            if trials and campaign.trial >= trials:
                break
            campaign.run_trial()
            if campaign.trial % every == 0:
                summary = campaign.report(started)
                (out / "report.json").write_text(json.dumps(summary, indent=2), "utf-8")
                print(f"trial {campaign.trial}: {len(campaign.classes)} classes", flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        summary = campaign.report(started)
        (out / "report.json").write_text(json.dumps(summary, indent=2), "utf-8")
        shutil.rmtree(campaign.work, ignore_errors=True)
    print(json.dumps({k: v for k, v in summary.items() if k != "classes"}, indent=2))
    for c in summary["classes"]:
        print(f"{c['count']:5d}  {c['class']}  ({c['first']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
