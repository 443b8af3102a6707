"""``xcompleteness mock``: a real loopback server the generated clients walk, fault by fault.

Each test starts the mock as a child process (the CLI, real uvicorn) with a fault plan and drives
the generated client of the example spec against it: the reason the plan injects must come out of
``collect`` with its continuation, and a plan without faults must give a complete listing.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from support.mock_proc import mock_in_thread, mock_server
from support.paths import EXAMPLES

SVC_SPEC = EXAMPLES / "service_accounts" / "openapi.yaml"
GH_SPEC = EXAMPLES / "link_header_search" / "openapi.yaml"


def _collect(pkg, url, op="list_service_accounts", **params):
    client = importlib.import_module(f"{pkg.__name__}.client")
    with client.Client(url) as c:
        return getattr(c, op).collect(max_pages=50, deadline=20, **params)


def _codes(result):
    return [r.code for r in result.reasons]


def test_without_faults_every_listing_is_complete_deterministic_and_typed(svc):
    with mock_server(SVC_SPEC, "seed: 4\nitems: 23\n") as url:
        first = _collect(svc, url, limit=5)
        again = _collect(svc, url, limit=7)
        search = _collect(svc, url, "search_service_accounts", q="x")
    assert first.complete and list(first.reasons) == [] and first.pages == 5
    assert len(first.items) == 23 and first.evidence  # the listing declares evidence: mint
    assert [i.id for i in first.items] == [i.id for i in again.items]
    assert len({i.id for i in first.items}) == 23
    assert first.items[0].status.root in ("active", "disabled", "archived")  # enum of the schema
    assert search.complete and len(search.items) == 23


@pytest.mark.parametrize(
    ("fault", "code", "continuation"),
    [
        ("{kind: cap, limit: 15, page: 2}", "RESULT_LIMIT_REACHED", "narrow_query"),
        ("{kind: time-budget, page: 2}", "TIME_BUDGET_EXCEEDED", "retry_with_deadline"),
        ("{kind: source-down}", "SOURCE_UNAVAILABLE", "retry_after"),
        ("{kind: visibility, page: 3}", "VISIBILITY_RESTRICTED", None),
        ("{kind: expired-cursor}", "CURSOR_EXPIRED", "restart"),
        ("{kind: snapshot-change}", "SNAPSHOT_CHANGED", "restart"),
        ("{kind: rate-limit, retry-after: 3600}", "RATE_LIMITED", "retry_after"),
    ],
)
def test_each_native_fault_reaches_the_client_as_its_reason(svc, fault, code, continuation):
    plan = f"items: 30\nfaults:\n  - {fault[:-1]}, operation: listServiceAccounts}}\n"
    with mock_in_thread(SVC_SPEC, plan) as url:
        result = _collect(svc, url, limit=10)
    assert not result.complete and code in _codes(result), _codes(result)
    assert result.evidence is None
    if continuation:
        kinds = {result.continuation.kind} if result.continuation else set()
        assert (
            continuation in kinds
            or continuation == "retry_after"
            and "retry_after" in str(result.continuation)
        ), result.continuation


def test_an_empty_first_page_with_more_pages_is_not_the_end(svc):
    plan = "items: 12\nfaults:\n  - {operation: listServiceAccounts, kind: empty-page}\n"
    with mock_in_thread(SVC_SPEC, plan) as url:
        page = httpx.get(f"{url}/service-accounts", params={"limit": 5}).json()
        result = _collect(svc, url, limit=5)
    assert page["items"] == [] and page["complete"] is False and page["next_cursor"]
    assert result.complete and len(result.items) == 12  # the client walked on


def test_a_short_rate_limit_is_retried_after_its_retry_after(svc):
    plan = (
        "items: 12\nfaults:\n"
        "  - {operation: listServiceAccounts, kind: rate-limit, retry-after: 0, times: 1}\n"
    )
    with mock_in_thread(SVC_SPEC, plan) as url:
        raw = httpx.get(f"{url}/service-accounts")
        result = _collect(svc, url, limit=5)
    assert raw.status_code == 429 and raw.headers["retry-after"] == "0"
    assert result.complete and len(result.items) == 12


def test_inserts_between_pages_shift_a_live_offset_and_repeat_an_item(svc):
    plan = "items: 20\nfaults:\n  - {operation: listServiceAccounts, kind: insert, page: 2}\n"
    with mock_in_thread(SVC_SPEC, plan) as url:
        one = httpx.get(f"{url}/service-accounts", params={"limit": 5}).json()
        two = httpx.get(
            f"{url}/service-accounts", params={"limit": 5, "cursor": one["next_cursor"]}
        ).json()
    ids = [i["id"] for i in one["items"] + two["items"]]
    assert len(ids) != len(set(ids))  # the last item of page 1 comes again on page 2


def test_inserts_under_a_frozen_cursor_make_the_walk_incomplete_with_the_duplicate_ids(svc):
    """issue 19: the generated client said complete=True with an item twice; now it says why."""
    plan = "items: 25\nfaults:\n  - {operation: listServiceAccounts, kind: insert, page: 2}\n"
    with mock_in_thread(SVC_SPEC, plan) as url:
        result = _collect(svc, url, limit=5)
    ids = [i.id for i in result.items]
    assert len(ids) == 26 and len(set(ids)) == 25  # every item kept as received
    assert result.complete is False and _codes(result) == ["DUPLICATE_ITEMS"]
    (dup,) = [i for i in set(ids) if ids.count(i) == 2]
    assert result.reasons[0].details == {"ids": [dup], "count": 1}
    assert result.continuation.kind == "restart" and result.evidence is None


def test_a_custom_declared_code_is_served_on_an_empty_page(svc):
    plan = (
        "faults:\n  - {operation: searchServiceAccounts, kind: reason, code: SHARD_REBALANCING,"
        " details: {shard: s-3}, empty: true}\n"
    )
    with mock_in_thread(SVC_SPEC, plan) as url:
        result = _collect(svc, url, "search_service_accounts", q="a")
        first = httpx.get(f"{url}/service-accounts/search", params={"q": "a"}).json()
    assert first["items"] == [] and first["complete"] is False
    assert [r for r in first["incomplete_reasons"] if r["code"] == "SHARD_REBALANCING"] == [
        {"code": "SHARD_REBALANCING", "shard": "s-3", "message": "mock fault reason on page 1"}
    ]
    assert "SHARD_REBALANCING" in _codes(result) and not result.complete


# -- adapter mode: the native shape ----------------------------------------------------------


def test_adapter_listing_pages_by_link_header_to_complete(gh):
    with mock_in_thread(GH_SPEC, "items: 17\n") as url:
        raw = httpx.get(f"{url}/orgs/acme/repos", params={"per_page": 5})
        result = _collect(gh, url, "list_repositories", org="acme", per_page=5)
    assert 'rel="next"' in raw.headers["link"] and isinstance(raw.json(), list)
    assert len(result.items) == 17 and result.pages == 4
    # what the token may see is scope.visibility; no reason holds, so the listing is complete
    assert result.complete and _codes(result) == []


@pytest.mark.parametrize(
    ("fault", "code", "native"),
    [
        ("{kind: time-budget}", "TIME_BUDGET_EXCEEDED", ("incomplete_results", True)),
        ("{kind: cap, page: 2}", "RESULT_LIMIT_REACHED", ("total_count", 1001)),
    ],
)
def test_adapter_faults_are_served_as_the_declared_native_signals(gh, fault, code, native):
    plan = f"items: 30\nfaults:\n  - {fault[:-1]}, operation: searchRepositories}}\n"
    with mock_in_thread(GH_SPEC, plan) as url:
        pages = []
        page = httpx.get(f"{url}/search/repositories", params={"q": "x", "per_page": 10})
        pages.append(page.json())
        if "next" in page.links:
            pages.append(httpx.get(page.links["next"]["url"]).json())
        result = _collect(gh, url, "search_repositories", q="x", per_page=10)
    key, value = native
    assert any(p.get(key) == value for p in pages)
    assert all(key in p for p in pages)  # required by the native schema, on every page
    assert code in _codes(result)


def test_adapter_rate_limit_is_a_403_with_remaining_zero_or_a_429(gh):
    plan = "faults:\n  - {operation: listRepositories, kind: rate-limit, retry-after: 600}\n"
    with mock_in_thread(GH_SPEC, plan) as url:
        raw = httpx.get(f"{url}/orgs/acme/repos")
        result = _collect(gh, url, "list_repositories", org="acme")
    assert raw.status_code in (403, 429) and raw.headers["retry-after"] == "600"
    assert "RATE_LIMITED" in _codes(result)


# -- bad input -------------------------------------------------------------------------------


def _run(*args, plan=None, tmp_path=None):
    """``xcompleteness mock ...`` through the CLI entry point, in process: every input problem is
    refused before anything is served, so ``main`` returns (the happy path runs as a real child
    process above)."""
    import contextlib
    import io

    from xcompleteness.cli import main

    argv = ["mock", *map(str, args)]
    if plan is not None:
        path = tmp_path / "plan.yaml"
        path.write_text(plan, encoding="utf-8")
        argv += ["--faults", str(path)]
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(argv)
    return subprocess.CompletedProcess(argv, code, "", err.getvalue())


@pytest.mark.parametrize(
    ("plan", "code", "where"),
    [
        ("faults:\n  - {kind: explode}\n", "XC701", "#/faults/0/kind (line 2)"),
        ("items: -1\n", "XC701", "#/items (line 1)"),
        ("faults:\n  - {operation: nope, kind: cap}\n", "XC702", "#/faults/0/operation"),
        (
            "faults:\n  - {operation: getServiceAccount, kind: cap}\n",
            "XC702",
            "#/faults/0/operation",
        ),
        (
            "faults:\n  - {operation: listServiceAccounts, kind: reason, code: STALE_THING}\n",
            "XC703",
            "#/faults/0",
        ),
        ("faults: [\n", "XC003", "plan.yaml"),
    ],
)
def test_a_bad_plan_exits_2_with_a_located_diagnostic_and_no_traceback(tmp_path, plan, code, where):
    proc = _run(SVC_SPEC, "--port", "0", plan=plan, tmp_path=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert code in proc.stderr and where in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_port_in_use_exits_2_with_xc706(tmp_path):
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(1)
        port = sock.getsockname()[1]
        proc = _run(SVC_SPEC, "--port", port)
    assert proc.returncode == 2 and "XC706" in proc.stderr, proc.stderr


def test_check_stays_importable_without_the_mock_dependencies():
    code = (
        "import sys; sys.modules['uvicorn'] = None; sys.modules['starlette'] = None\n"
        "from xcompleteness.cli import main\n"
        f"raise SystemExit(main(['check', {str(SVC_SPEC)!r}]))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    code = code.replace("['check', ", "['mock', '--port', '0', ")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 2 and "XC705" in proc.stderr, proc.stderr


def test_deletes_between_pages_make_a_live_offset_skip_items(svc):
    plan = (
        "items: 20\nfaults:\n"
        "  - {operation: listServiceAccounts, kind: delete, count: 2, page: 2}\n"
    )
    with mock_in_thread(SVC_SPEC, plan) as url:
        one = httpx.get(f"{url}/service-accounts", params={"limit": 5}).json()
        two = httpx.get(
            f"{url}/service-accounts", params={"limit": 5, "cursor": one["next_cursor"]}
        ).json()
    first, second = [i["id"] for i in one["items"]], [i["id"] for i in two["items"]]
    # two rows behind the position vanished, so the live offset now lands two rows further on
    assert second[0] == "service-accounts-00007" and first[-1] == "service-accounts-00004"


def test_an_adapter_condition_the_mock_cannot_make_hold_is_refused_with_xc704(tmp_path):
    original = (
        "{code: TIME_BUDGET_EXCEEDED, when: {equals: [$response.body#/incomplete_results, true]}}"
    )
    changed = (
        "{code: TIME_BUDGET_EXCEEDED, when: {equals: [$response.body#/incomplete_results,"
        " $response.body#/total_count]}}"
    )
    text = GH_SPEC.read_text(encoding="utf-8")
    assert original in text
    spec = tmp_path / "openapi.yaml"
    spec.write_text(text.replace(original, changed), encoding="utf-8")
    plan = "faults:\n  - {operation: searchRepositories, kind: time-budget}\n"
    proc = _run(spec, "--port", "0", plan=plan, tmp_path=tmp_path)
    assert proc.returncode == 2 and "XC704" in proc.stderr and "#/faults/0" in proc.stderr


# -- adapter end signals (issue 19): isLast, an empty last page, inserts under offset paging ----

END_SPEC = EXAMPLES.parent / "tests" / "client" / "specs" / "end_signals.yaml"


@pytest.fixture(scope="module")
def ends(tmp_path_factory):
    from support.gen import import_generated
    from xcompleteness.emit._generate import generate
    from xcompleteness.emit._write import write_tree

    out = tmp_path_factory.mktemp("tk_ends")
    write_tree(out, generate(END_SPEC, (), "tk_ends").files)
    return import_generated(out, "tk_ends")


def test_the_mock_serves_is_last_empty_last_pages_and_inserts(ends):
    plan = (
        "items: 8\n"
        "faults:\n  - {operation: listTickets, kind: insert, page: 2}\n"
        "  - {operation: listTicketsFrozen, kind: insert, page: 2}\n"
    )
    with mock_in_thread(END_SPEC, plan) as url:
        raw = httpx.get(f"{url}/rest/api/3/search", params={"maxResults": 5}).json()
        issues = _collect(ends, url, "search_issues", jql="x", maxResults=5)
        events = _collect(ends, url, "list_events")
        live = _collect(ends, url, "list_tickets", limit=3)
        frozen = _collect(ends, url, "list_tickets_frozen", limit=3)
    assert raw["isLast"] is False and len(raw["issues"]) == 5
    assert issues.complete and len(issues.items) == 8 and issues.warnings == ()
    assert events.complete and len(events.items) == 8
    assert [w.code for w in events.warnings] == ["END_INFERRED"]
    assert live.complete and [w.code for w in live.warnings] == ["ITEMS_SEEN_TWICE"]
    assert not frozen.complete and _codes(frozen) == ["DUPLICATE_ITEMS"]


@pytest.mark.parametrize(
    ("query", "budget"),
    [("?time_budget_ms=500", 500), ("?time_budget_ms=12000", 12000), ("", 2000)],
)
def test_the_time_budget_fault_reports_the_budget_the_request_sent(query, budget):
    """``deadline: {param: time_budget_ms, unit: ms, default: 2000}``: the answer ran just past
    the budget this request asked for (the declared default when it sent none)."""
    plan = "items: 30\nfaults:\n  - {operation: listServiceAccounts, kind: time-budget}\n"
    with mock_in_thread(SVC_SPEC, plan) as url:
        body = httpx.get(f"{url}/service-accounts{query}").json()
    (reason,) = [r for r in body["incomplete_reasons"] if r["code"] == "TIME_BUDGET_EXCEEDED"]
    assert reason["budget_ms"] == budget
    assert reason["elapsed_ms"] > budget


def test_a_plan_budget_wins_over_the_request():
    plan = (
        "items: 30\nfaults:\n"
        "  - {operation: listServiceAccounts, kind: time-budget, details: {budget_ms: 7}}\n"
    )
    with mock_in_thread(SVC_SPEC, plan) as url:
        body = httpx.get(f"{url}/service-accounts?time_budget_ms=500").json()
    (reason,) = [r for r in body["incomplete_reasons"] if r["code"] == "TIME_BUDGET_EXCEEDED"]
    assert reason["budget_ms"] == 7


# -- a cursor in a request header (DLx's dlx-continuation, both ways) --------------------------

HEADER_SPEC = EXAMPLES.parent / "tests" / "client" / "specs" / "header_cursor.yaml"


def test_a_cursor_declared_as_a_header_parameter_is_read_from_the_request_headers(tmp_path):
    """The mock read paging values from the URL query only: a walk that sends its cursor in a
    request header got the first page again and ended in CONTRACT_VIOLATION (a repeated cursor),
    so every generated contract test of such an API failed."""
    from support.gen import generate_and_import

    pkg = generate_and_import(HEADER_SPEC, tmp_path, "tk_hdr")
    with mock_in_thread(HEADER_SPEC, "items: 25\n") as url:
        first = httpx.get(f"{url}/languages", headers={"dlx-max-item-count": "10"})
        token = first.headers["dlx-continuation"]
        second = httpx.get(f"{url}/languages", headers={"DLX-Continuation": token})
        bad = httpx.get(f"{url}/languages", headers={"dlx-continuation": "not-a-token"})
        result = _collect(pkg, url, "get_languages", **{"dlx-max-item-count": "10"})
    assert [i["id"] for i in second.json()] != [i["id"] for i in first.json()]
    assert bad.status_code == 400
    assert result.complete and len(result.items) == 25 and result.pages == 3, result.reasons
    # the walk owns both headers: the MCP tool offers neither to the model
    tools = json.loads((Path(pkg.__file__).parent / "tools" / "mcp.json").read_text("utf-8"))
    (tool,) = [t for t in tools["tools"] if t["name"] == "get_languages"]
    assert not [p for p in tool["inputSchema"]["properties"] if p.startswith("dlx")]


# -- one answer capped by a size carried in the JSON request body ------------------------------

BODY_CAP_SPEC = EXAMPLES.parent / "tests" / "client" / "specs" / "size_cap_body.yaml"


def test_a_capped_answer_holds_the_size_asked_for_in_the_request_body():
    """style none with request.size $request.body#/limit: the mock answers at most the size the
    body asks for (at most max-page-size 5; 5 when none is sent), never a next page, whatever
    the query says."""
    with mock_in_thread(BODY_CAP_SPEC, "items: 9\n") as url:
        asked = httpx.post(f"{url}/events/search", json={"kind": "x", "limit": 3}).json()
        unsized = httpx.post(f"{url}/events/search", json={"kind": "x"}).json()
        above = httpx.post(f"{url}/events/search", json={"kind": "x", "limit": 50}).json()
        queried = httpx.post(f"{url}/events/search?limit=1", json={"kind": "x", "limit": 4}).json()
    assert [len(a["events"]) for a in (asked, unsized, above, queried)] == [3, 5, 5, 4]
    assert not any("next_cursor" in a or "next" in a for a in (asked, unsized, above, queried))
