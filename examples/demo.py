"""`make demo`: the danger and the fix, end to end, in one command.

1. ``xcompleteness check`` on the bundled examples.
2. ``xcompleteness generate`` the service_accounts package into ``.cache/demo/`` (git-ignored).
3. Start the example service (FastAPI on sharded SQLite) on 127.0.0.1 with one slow shard.
4. Ask "which service accounts have no owner?" through the generated client: the answer is
   partial (a shard over its time budget, the result cap) and decide() refuses a cleanup.
5. An agent asks the same through the generated MCP server (official MCP SDK client, stdio): the
   listing is partial, the archive is refused with the approval prompt; a retry with a longer
   deadline is complete and carries evidence; the archive proceeds; replaying it is refused.
6. Stop the service. Exit 0 only if every step behaved as the contract says.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "service_accounts"
SPEC = EXAMPLE / "openapi.yaml"
CACHE = ROOT / ".cache" / "demo"
PACKAGE = "service_accounts_api"
TOKEN = "auditor-token"
SLOW_SHARD, SLOW_MS = "shard-2", 600  # one shard answers in 600 ms
HURRIED_MS = 1000  # the first attempts allow 1 s (the service keeps half to answer in time)
STEP_TIMEOUT_S = 120

sys.path.insert(0, str(EXAMPLE))


class DemoFailed(Exception):
    """A step did not behave as the contract says."""


def expect(condition: bool, what: str) -> None:
    if not condition:
        raise DemoFailed(what)


def say(text: str = "") -> None:
    print(text, flush=True)


STARTED = time.monotonic()


def step(title: str) -> None:
    say()
    say(f"== {title}")
    if os.environ.get("XC_DEMO_TIMING"):
        say(f"  (t={time.monotonic() - STARTED:.1f}s)")


# -- 1 and 2: check and generate -----------------------------------------------------------


def check_examples() -> None:
    step("STEP 0  xcompleteness check on the bundled examples")
    specs = sorted(ROOT.glob("examples/*/openapi.yaml"))
    for spec in specs:
        proc = subprocess.run(
            [sys.executable, "-m", "xcompleteness", "check", str(spec)],
            capture_output=True,
            text=True,
            timeout=STEP_TIMEOUT_S,
        )
        lines = [ln for ln in (proc.stdout + proc.stderr).splitlines() if ln.strip()]
        summary = lines[-1].rsplit(": ", 1)[-1] if lines else "no findings"
        say(f"  {spec.relative_to(ROOT)}: exit {proc.returncode} - {summary}")
        expect(proc.returncode == 0, f"check failed on {spec}")


def generate() -> Path:
    out = CACHE / "gen"
    proc = subprocess.run(
        [sys.executable, "-m", "xcompleteness", "generate", str(SPEC), "-o", str(out)]
        + ["--package", PACKAGE],
        capture_output=True,
        text=True,
        timeout=STEP_TIMEOUT_S,
    )
    expect(proc.returncode == 0, f"generate failed:\n{proc.stdout}{proc.stderr}")
    say(f"  generated {PACKAGE} into {out.relative_to(ROOT)}")
    return out


# -- printing ------------------------------------------------------------------------------


def reason_text(reason: Any) -> str:
    if isinstance(reason, dict):
        code = reason["code"]
        details = dict(reason.get("details") or {})  # tool envelopes nest them
        skip = ("code", "message", "origin", "details")
        details.update({k: v for k, v in reason.items() if k not in skip})
        details = {k: v for k, v in details.items() if v is not None}
        origin = reason.get("origin", "server")
    else:
        code, details, origin = reason.code, dict(reason.details), reason.origin
    extra = ", ".join(f"{k}={v}" for k, v in details.items())
    return f"{code} ({origin}{', ' + extra if extra else ''})"


def show_reasons(reasons: Any) -> None:
    """One line per code (a walk keeps the reason of every page; the count says how many)."""
    seen: dict[str, list[str]] = {}
    for reason in reasons:
        code = reason["code"] if isinstance(reason, dict) else reason.code
        seen.setdefault(code, []).append(reason_text(reason))
    for texts in seen.values():
        more = f"  (x{len(texts)})" if len(texts) > 1 else ""
        say(f"  reason: {texts[0]}{more}")


def show_decision(decision: Any) -> None:
    say(f"  decide({decision.intent.value}) -> {decision.action.value}  [{decision.rule}]")
    if decision.disclose:
        say(f"    must disclose first: {', '.join(dict.fromkeys(decision.disclose))}")


# -- 4: the generated client ---------------------------------------------------------------


def client_step(base_url: str, gen: Any) -> None:
    step("STEP 1  'which service accounts have no owner?' through the generated client")
    say(f"  (shard {SLOW_SHARD} answers in {SLOW_MS} ms; the caller allows {HURRIED_MS} ms a page)")
    with gen.client.Client(base_url, headers={"Authorization": f"Bearer {TOKEN}"}) as client:
        first = client.list_service_accounts.page(limit=200, time_budget_ms=HURRIED_MS)
        result = client.list_service_accounts.collect(limit=200, time_budget_ms=HURRIED_MS)
    envelope = first.model_dump(mode="json", exclude={"items"})
    envelope["next_cursor"] = (envelope["next_cursor"] or "")[:12] + "..."
    say(f"  first page, HTTP 200, {len(first.items)} items; its envelope without the items:")
    for line in json.dumps(envelope, indent=1, sort_keys=True).splitlines():
        say(f"    {line}")
    say("  collect() follows next_cursor to the end:")
    orphans = [i.id for i in result.items if i.owner is None]
    say(f"  pages={result.pages} items={len(result.items)} without owner={len(orphans)}")
    say(f"  complete={result.complete} snapshot={result.snapshot}")
    show_reasons(result.reasons)
    say(f"  continuation: {result.continuation.kind if result.continuation else None}")
    codes = {r.code for r in result.reasons}
    expect(not result.complete, "the hurried listing should be partial")
    expect({"TIME_BUDGET_EXCEEDED", "RESULT_LIMIT_REACHED"} <= codes, f"reasons were {codes}")
    expect(result.evidence is None, "a partial listing must not carry evidence")
    decide = gen.decide.decide
    show_decision(decide(result, "absence_claim"))
    cleanup = decide(result, "destructive_on_unlisted_complement")
    show_decision(cleanup)
    expect(cleanup.action.value == "refuse_or_request_review", "a cleanup must be refused")
    say("  -> the 200 OK pages looked normal; only the envelope says the answer is not whole")


# -- 5: the generated MCP server, driven by the official MCP SDK client ---------------------


def mcp_steps(base_url: str, gen_dir: Path, gen: Any) -> None:
    import anyio
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", f"{PACKAGE}.tools.mcp_server", "--base-url", base_url]
        + ["--header", f"Authorization: Bearer {TOKEN}"],
        env={
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(gen_dir), os.environ.get("PYTHONPATH", "")]),
            "XCOMPLETENESS_MCP_SECRET": secrets.token_hex(32),
        },
        cwd=str(gen_dir),
    )

    failures: list[DemoFailed] = []

    async def run() -> None:
        with anyio.fail_after(STEP_TIMEOUT_S):
            async with Client(params) as client:
                try:
                    await agent_story(client, gen)
                except DemoFailed as exc:  # leave the MCP session cleanly, then report
                    failures.append(exc)

    anyio.run(run)
    if failures:
        raise failures[0]


async def call(client: Any, name: str, **args: Any) -> dict[str, Any]:
    result = await client.call_tool(name, args)
    data = result.structured_content
    if data is None:  # fall back to the JSON text block
        data = json.loads(result.content[0].text)
    return data


LIST_ARGS = {"status": "active", "owner": None, "max_pages": None, "continuation": None}


async def agent_story(client: Any, gen: Any) -> None:
    decide: Callable[..., Any] = gen.decide.decide
    tools = await client.list_tools()
    names = sorted(t.name for t in tools.tools)
    step("STEP 2  an agent, through the generated MCP server (stdio, official MCP SDK client)")
    say(f"  tools: {', '.join(names)}")
    args = {**LIST_ARGS, "max_pages": 1, "deadline_s": HURRIED_MS / 1000}
    hurried = await call(client, "list_service_accounts", **args)
    show_tool_result(hurried)
    expect(hurried["status"] == "partial", f"the hurried call should be partial: {hurried}")
    seen = orphans_of(hurried)
    show_decision(decide(hurried, "destructive_on_unlisted_complement"))

    step("STEP 3  the agent tries to archive the ownerless accounts anyway")
    refused = await call(
        client, "archive_service_accounts", ids=seen or ["svc-0013"], evidence=None
    )
    expect(refused["status"] == "error", "the archive without evidence must be refused")
    error, approval = refused["error"], refused.get("approval") or {}
    say(f"  refused: {error['code']} reasons={error['reasons']} decision={error['decision']}")
    say("  approval prompt:")
    say(f"    action: {approval.get('action')}")
    for why in approval.get("why", []):
        say(f"    why: {why}")
    for option in approval.get("options", []):
        say(f"    option {option['option']}: {option['description']}")
    expect(error["code"] == "EVIDENCE_REJECTED", f"unexpected refusal {error['code']}")

    step("STEP 4  retry with a longer deadline (the continuation the reasons asked for)")
    full = await call(client, "list_service_accounts", **LIST_ARGS, deadline_s=20)
    show_tool_result(full)
    expect(full["status"] == "complete" and full["evidence"], "the retry should be complete")
    targets = orphans_of(full)
    go = decide(full, "destructive_on_listed_ids", targets=targets)
    show_decision(go)
    expect(go.action.value == "proceed", "a complete listing should allow the archive")

    step("STEP 5  archive the ownerless accounts with the evidence")
    done = await call(client, "archive_service_accounts", ids=targets, evidence=full["evidence"])
    expect(done["status"] == "complete", f"the archive failed: {done.get('error')}")
    archived = done["data"]["response"]["archived"]
    say(f"  archived {len(archived)} accounts: {', '.join(archived[:6])}, ...")
    expect(sorted(archived) == sorted(targets), "the archive touched other accounts")

    step("STEP 6  replaying the same evidence")
    again = await call(client, "archive_service_accounts", ids=targets, evidence=full["evidence"])
    expect(again["status"] == "error", "a replay must be refused")
    say(f"  refused: {again['error']['code']} reasons={again['error']['reasons']}")


def orphans_of(env: dict[str, Any]) -> list[str]:
    rows = next(iter((env.get("data") or {}).values()), []) or []
    return [row["id"] for row in rows if row.get("owner") is None]


def show_tool_result(env: dict[str, Any]) -> None:
    comp = env["completeness"]
    rows = next(iter((env.get("data") or {}).values()), []) or []
    say(
        f"  status={env['status']} items={len(rows)} without owner={len(orphans_of(env))}"
        f" evidence={'yes' if env.get('evidence') else 'none'}"
    )
    show_reasons(comp["reasons"])
    if comp.get("continuation"):
        cont = dict(comp["continuation"])
        if isinstance(cont.get("cursor"), str):
            cont["cursor"] = cont["cursor"][:12] + "..."
        say(f"  continuation: {json.dumps(cont, sort_keys=True)}")


# -- 6: the service's own re-check ------------------------------------------------------------


def recheck_step(base_url: str, gen: Any, data: Path) -> None:
    from service.config import ServiceConfig
    from service.store import Store

    step("STEP 7  the service re-checks its own evidence at mutation time")
    with gen.client.Client(base_url, headers={"Authorization": f"Bearer {TOKEN}"}) as client:
        listing = client.list_service_accounts.collect(status="disabled", limit=200)
        expect(listing.complete and listing.evidence, "the disabled listing should be complete")
        targets = [i.id for i in listing.items if i.owner is None][:3]
        say(f"  complete listing of disabled accounts: {len(listing.items)} items, API evidence")
        # Another process writes to the same SQLite shards after the snapshot.
        Store(ServiceConfig(data_dir=data)).update(targets[0], owner="dara")
        say(f"  meanwhile {targets[0]} gets an owner (a write after the evidenced snapshot)")
        try:
            client.archive_service_accounts(ids=targets, evidence=listing.evidence)
        except gen.client.EvidenceRejected as exc:
            say(f"  archive {targets} -> HTTP 409 {exc.code} reason={exc.reason}")
            say(f"    {exc.message}")
            expect(exc.reason == "target_changed", f"unexpected reason {exc.reason}")
        else:
            raise DemoFailed("an archive over a changed target must be refused")
        done = client.archive_service_accounts(ids=targets[1:], evidence=listing.evidence)
        say(f"  archive {targets[1:]} -> archived {done.archived}")


# -- main ------------------------------------------------------------------------------------


def import_generated(gen_dir: Path) -> Any:
    import importlib

    sys.path.insert(0, str(gen_dir))
    importlib.invalidate_caches()
    pkg = importlib.import_module(PACKAGE)
    pkg.client = importlib.import_module(f"{PACKAGE}.client")
    pkg.decide = importlib.import_module(f"{PACKAGE}._runtime.decide")
    return pkg


def main() -> int:
    from service.runner import start_process

    try:
        check_examples()
        step("generate")
        gen_dir = generate()
        gen = import_generated(gen_dir)
    except (DemoFailed, subprocess.TimeoutExpired, ImportError) as exc:
        say(f"DEMO FAILED: {exc}")
        return 1
    data = Path(tempfile.mkdtemp(prefix="xc-demo-"))
    env = {
        "XC_SERVICE_DATA": str(data),
        "XC_SERVICE_SLOW": f"{SLOW_SHARD}={SLOW_MS}",
        "XC_SERVICE_SECRET": secrets.token_hex(32),
    }
    step("start the example service (FastAPI + 4 SQLite shards, 1600 accounts)")
    try:
        service = start_process(["--generated", str(gen_dir), "--package", PACKAGE], env)
    except RuntimeError as exc:
        say(f"DEMO FAILED: {exc}")
        shutil.rmtree(data, ignore_errors=True)
        return 1
    say(f"  listening on {service.base_url}")
    try:
        client_step(service.base_url, gen)
        mcp_steps(service.base_url, gen_dir, gen)
        recheck_step(service.base_url, gen, data)
    except DemoFailed as exc:
        say(f"DEMO FAILED: {exc}")
        return 1
    finally:
        code = service.stop()
        say()
        say(f"service stopped ({'SIGTERM, graceful' if code in (0, -15) else f'exit {code}'})")
        shutil.rmtree(data, ignore_errors=True)
    say("DEMO OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
