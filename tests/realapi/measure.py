"""Compute the per-spec table of docs/corpus.md ("Four real APIs, end to end").

    .venv/bin/python tests/realapi/measure.py [--full] [--write-docs]

For Stripe, DigitalOcean, Kubernetes and GitHub (real descriptions, fetched into the ignored
cache by bench/fetch.py) with the reviewed overlay from examples/:

- declared: listings (collection/search/aggregate) the overlay declares, as ``check`` reads them;
- generated: listings in the generated package (its ``PAGE_MODELS``);
- typed items: listings whose page model's ``items`` element is a real item model (a pydantic
  model with fields: not ``Any``, ``dict`` or a ``RootModel`` such as one wrapping ``str``);
- walked (client / MCP): operations of the scenarios in scenarios.py that pass against the API's
  loopback fake, through the generated client and through the generated MCP server.

``--full`` also generates each spec at full coverage and reports declared / generated / typed:
with ``examples/<api>/overlay.full.yaml`` (every list-like operation the audit finds, TODOs
answered by tests/realapi/answer_drafts.py) where there is one, else (GitHub) with the draft
``xcompleteness audit --emit-overlay`` writes, TODOs unanswered.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE.parent.parent / "generator")]

from pydantic import BaseModel, RootModel  # noqa: E402
from realapi.harness import APIS, Generated, generate_package, real_spec  # noqa: E402
from realapi.scenarios import SCENARIOS, WALKED  # noqa: E402
from support.pages import item_class  # noqa: E402
from xcompleteness.check._pipeline import check_spec  # noqa: E402

LISTING = {"collection", "search", "aggregate"}


def typed(page_model: type) -> bool:
    el = item_class(page_model)
    return (
        isinstance(el, type)
        and issubclass(el, BaseModel)
        and not issubclass(el, RootModel)
        and bool(el.model_fields)
    )


def package_counts(gen: Generated) -> tuple[int, int, list[str]]:
    pages = gen.module("models").PAGE_MODELS
    untyped = sorted(op for op, m in pages.items() if not typed(m))
    return len(pages), len(pages) - len(untyped), untyped


def declared(spec: Path, overlay: Path) -> int:
    result = check_spec(spec, [overlay])
    return sum(1 for c in result.contracts.values() if _kind(c) in LISTING)


def _kind(contract: object) -> str | None:
    if isinstance(contract, dict):
        return contract.get("kind")
    return getattr(contract, "kind", None)


def walked(api: str, gen: Generated) -> tuple[set[str], set[str], list[str]]:
    client, mcp, failed = set(), set(), []
    for scenario in SCENARIOS[api]:
        door, ops = WALKED[scenario.__name__]
        try:
            scenario(gen)
        except Exception as exc:  # a failing scenario walks nothing; its name is reported
            failed.append(f"{scenario.__name__}: {type(exc).__name__}")
            continue
        (client if door == "client" else mcp).update(ops)
    return client, mcp, failed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="also measure full coverage")
    parser.add_argument(
        "--write-docs", action="store_true", help="write the table into docs/corpus.md"
    )
    args = parser.parse_args(argv)
    rows, notes = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for api, overlay in APIS.items():
            spec = real_spec(api)
            t0 = time.monotonic()
            gen = Generated(
                api, generate_package(spec, overlay, Path(tmp) / api, f"m_{api}"), Path(tmp)
            )
            took = time.monotonic() - t0
            n_gen, n_typed, untyped = package_counts(gen)
            client, mcp, failed = walked(api, gen)
            rows.append(
                f"| {api} | reviewed | {declared(spec, overlay)} | {n_gen} | {len(client)} | "
                f"{len(mcp)} | {n_typed} / {n_gen} | {took:.0f} s |"
            )
            notes += [f"- {api}: failing scenario {f}" for f in failed]
            notes += (
                [f"- {api} (reviewed): untyped items in {', '.join(untyped)}"] if untyped else []
            )
            full = overlay.with_name("overlay.full.yaml")
            if args.full and full.exists():
                draft, label = full, "full (overlay.full.yaml)"
            elif args.full:
                draft, label = Path(tmp) / f"{api}.draft.yaml", "audit draft"
                subprocess.run(
                    [
                        sys.executable,
                        "-m",
                        "xcompleteness",
                        "audit",
                        str(spec),
                        "--emit-overlay",
                        str(draft),
                        "--force",
                    ],
                    capture_output=True,
                    check=False,
                )
            if args.full:
                t0 = time.monotonic()
                dgen = Generated(
                    api,
                    generate_package(spec, draft, Path(tmp) / f"{api}_d", f"d_{api}"),
                    Path(tmp),
                )
                took = time.monotonic() - t0
                d_gen, d_typed, d_untyped = package_counts(dgen)
                rows.append(
                    f"| {api} | {label} | {declared(spec, draft)} | {d_gen} | – | – | "
                    f"{d_typed} / {d_gen} | {took:.0f} s |"
                )
                if d_untyped:
                    notes.append(f"- {api} ({label}): untyped items in {', '.join(d_untyped)}")
    lines = [
        "| spec | overlay | listings declared | generated | walked (client) | walked (MCP) "
        "| typed items | generate |",
        "|---|---|---|---|---|---|---|---|",
        *rows,
    ]
    if notes:
        lines += ["", *notes]
    text = "\n".join(lines)
    print(text)
    if args.write_docs:
        doc = HERE.parent.parent / "docs" / "corpus.md"
        body = doc.read_text(encoding="utf-8")
        start, end = "<!-- realapi:begin -->\n", "<!-- realapi:end -->"
        head, rest = body.split(start, 1)
        doc.write_text(head + start + text + "\n" + end + rest.split(end, 1)[1], encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
