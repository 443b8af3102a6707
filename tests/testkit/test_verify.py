"""``xcompleteness verify`` against the real example service (clean) and the mock with bugs.

Every deliberate contract violation the mock can serve must be reported with its stable code and
exit 1; a correct service must pass with exit 0; verify must never send anything but GET.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import httpx
import pytest
from support.fault_server import native_contract
from support.mock_proc import mock_in_thread
from support.paths import EXAMPLES
from support.walk_helpers import envelope, scripted
from xcompleteness.cli import main

SVC_SPEC = EXAMPLES / "service_accounts" / "openapi.yaml"
GH_SPEC = EXAMPLES / "link_header_search" / "openapi.yaml"


def _verify(spec, url, *extra, capsys):
    code = main(["verify", str(spec), "--base-url", url, "--format", "json", *extra])
    out = capsys.readouterr().out
    return code, json.loads(out)["diagnostics"]


def _codes(diags, severity="error"):
    return sorted(
        {(d["code"], d["message"].split(":")[0]) for d in diags if d["severity"] == severity}
    )


@pytest.fixture(scope="module")
def example_service(svc, tmp_path_factory):
    example = str(EXAMPLES / "service_accounts")
    if example not in sys.path:
        sys.path.insert(0, example)
    from service.app import create_app
    from service.config import ServiceConfig, demo_tokens
    from service.runner import start_in_thread
    from service.seed import seed
    from service.store import Store
    from service.wire import Wire

    config = ServiceConfig(
        data_dir=Path(tmp_path_factory.mktemp("vsvc")) / "data", tokens=demo_tokens()
    )
    seed(Store(config).open(), 25)
    running = start_in_thread(create_app(config, Wire.from_package("tk_svc", config.secret)))
    yield running.base_url
    running.stop()


def test_the_example_service_keeps_its_contract(example_service, capsys):
    code, diags = _verify(
        SVC_SPEC,
        example_service,
        "--auth-header",
        "Authorization: Bearer auditor-token",
        "--param",
        "q=svc",
        capsys=capsys,
    )
    assert code == 0, diags
    assert [d for d in diags if d["severity"] == "error"] == []


def test_a_team_credential_gets_declared_visibility_reasons_not_violations(example_service, capsys):
    code, diags = _verify(
        SVC_SPEC,
        example_service,
        "--auth-header",
        "Authorization: Bearer payments-token",
        "--param",
        "q=svc",
        capsys=capsys,
    )
    assert code == 0, diags


def test_without_credentials_the_401_is_reported_as_unexplained(example_service, capsys):
    code, diags = _verify(SVC_SPEC, example_service, "--param", "q=svc", capsys=capsys)
    assert code == 1
    assert ("XC717", "listServiceAccounts") in _codes(diags)


@pytest.mark.parametrize(
    ("bug", "code"),
    [
        ("undeclared-code", "XC711"),
        ("complete-with-cursor", "XC710"),
        ("missing-complete", "XC710"),
        ("repeat-cursor", "XC713"),
        ("short-page-end", "XC712"),
        ("snapshot-drift", "XC714"),
        ("duplicate-items", "XC716"),
    ],
)
def test_each_native_bug_is_reported_with_its_code(bug, code, capsys):
    plan = f"items: 12\nbugs:\n  - {{operation: listServiceAccounts, kind: {bug}}}\n"
    with mock_in_thread(SVC_SPEC, plan) as url:
        exit_code, diags = _verify(SVC_SPEC, url, "--param", "q=a", capsys=capsys)
        calls = httpx.get(f"{url}/_mock/calls").json()["calls"]
    assert exit_code == 1
    assert (code, "listServiceAccounts") in _codes(diags), diags
    # the other listing has no bug and nothing is reported against it
    assert not [d for d in diags if "searchServiceAccounts" in d["message"]]
    assert calls == []  # read-only: no mutation was ever sent


def test_the_mock_without_bugs_passes_even_with_declared_faults(capsys):
    plan = (
        "items: 12\nfaults:\n  - {operation: listServiceAccounts, kind: time-budget, page: 2}\n"
        "  - {operation: searchServiceAccounts, kind: empty-page}\n"
    )
    with mock_in_thread(SVC_SPEC, plan) as url:
        exit_code, diags = _verify(SVC_SPEC, url, "--param", "q=a", capsys=capsys)
    assert exit_code == 0, diags


def test_an_adapter_next_link_off_origin_is_reported(capsys):
    plan = "items: 12\nbugs:\n  - {operation: searchRepositories, kind: off-origin-next}\n"
    with mock_in_thread(GH_SPEC, plan) as url:
        exit_code, diags = _verify(
            GH_SPEC, url, "--param", "q=x", "--param", "org=acme", capsys=capsys
        )
    assert exit_code == 1
    assert _codes(diags) == [("XC715", "searchRepositories")], diags


def test_a_clean_adapter_mock_passes(capsys):
    with mock_in_thread(GH_SPEC, "items: 12\n") as url:
        exit_code, diags = _verify(
            GH_SPEC, url, "--param", "q=x", "--param", "org=acme", capsys=capsys
        )
    assert exit_code == 0, diags


def test_the_page_limit_is_a_warning_not_a_violation(capsys):
    with mock_in_thread(SVC_SPEC, "items: 30\n") as url:
        exit_code, diags = _verify(
            SVC_SPEC, url, "--param", "q=a", "--max-pages", "3", capsys=capsys
        )
    assert exit_code == 0
    assert {d["code"] for d in diags if d["severity"] == "warning"} == {"XC719"}


def test_a_missing_required_parameter_skips_the_operation_with_an_info(capsys):
    with mock_in_thread(SVC_SPEC, "items: 3\n") as url:
        exit_code, diags = _verify(SVC_SPEC, url, capsys=capsys)
    assert exit_code == 0
    assert [(d["code"], d["severity"]) for d in diags] == [("XC720", "info")]


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["--base-url", "ftp://x"], "XC721"),
        (["--base-url", "http://127.0.0.1:9", "--param", "q=a"], "XC722"),
    ],
)
def test_unusable_input_exits_2(args, code, capsys):
    exit_code = main(["verify", str(SVC_SPEC), *args])
    err = capsys.readouterr().err
    assert exit_code == 2 and code in err and "Traceback" not in err


def test_a_malformed_auth_header_exits_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["verify", str(SVC_SPEC), "--base-url", "http://x", "--auth-header", "nocolon"])
    assert exc.value.code == 2


@pytest.mark.parametrize(
    "body",
    [
        {"complete": "yes", "incomplete_reasons": "nope", "scope": [1], "items": 5},
        {"complete": False, "incomplete_reasons": [1, "x"], "warnings": {}, "items": []},
        [1, 2, 3],
        "not an envelope",
    ],
)
def test_a_hostile_api_gives_findings_never_a_traceback(body, capsys):
    import socket
    import threading
    import time

    import uvicorn
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def answer(request):
        return JSONResponse(body)

    app = Starlette(routes=[Route("/{path:path}", answer)])
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    try:
        url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        exit_code, diags = _verify(SVC_SPEC, url, "--param", "q=a", capsys=capsys)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
    assert exit_code == 1
    assert {d["code"] for d in diags} <= {"XC710", "XC711", "XC718"}
    assert "XC000" not in {d["code"] for d in diags}


# -- a violation is mapped by its kind, never by its wording ----------------------------------


def test_every_kind_of_walk_violation_has_its_finding():
    from xcompleteness.runtime.walk import VIOLATION_KINDS
    from xcompleteness.testkit import VIOLATION_CODES

    assert set(VIOLATION_CODES) == set(VIOLATION_KINDS)
    assert VIOLATION_CODES["repeated_cursor"] == "XC713"
    assert VIOLATION_CODES["items_not_a_list"] == "XC718"
    assert VIOLATION_CODES["refused"] == "XC715"
    assert VIOLATION_CODES["broken_page"] == "XC710"


def _more(items, cursor):
    return (200, {}, envelope(items, reasons=["MORE_PAGES_AVAILABLE"], next_cursor=cursor))


@pytest.mark.parametrize(
    ("script", "kind"),
    [
        ([_more([1], "a"), _more([2], "a")], "repeated_cursor"),
        ([(200, {}, {**envelope([1]), "items": 5})], "items_not_a_list"),
        ([(200, {}, {**envelope([1]), "complete": "yes"})], "broken_page"),
        ([_more([1], "a"), (200, {}, envelope([2]))], None),
    ],
)
def test_the_walk_core_names_the_kind_of_violation_it_ended_on(script, kind):
    """What verify maps to XC713/XC718/XC710: a rewording of the core's ``what`` changes nothing."""
    from xcompleteness.runtime.walk import Walker

    stream = Walker(native_contract(), scripted(script)).iter_pages({})
    pages = list(stream)
    assert stream.violation == kind
    assert (stream.result.reason("CONTRACT_VIOLATION") is None) == (kind is None)
    assert pages or kind is not None


def test_a_next_url_walk_ended_short_of_its_total_is_reported_from_one_walk(capsys):
    """A next URL with a total beside it: the mock's short-page-end (a short page, no next URL,
    while the total counts more) is XC712 from the walk itself, naming both counts."""
    spec = Path(__file__).parents[1] / "client" / "specs" / "next_url_total.yaml"
    plan = "items: 12\nbugs:\n  - {operation: builds_getCollection, kind: short-page-end}\n"
    with mock_in_thread(spec, plan) as url:
        exit_code, diags = _verify(spec, url, capsys=capsys)
    assert exit_code == 1
    assert ("XC712", "builds_getCollection") in _codes(diags), diags
    assert any("but the declared total is 12" in d["message"] for d in diags), diags
    with mock_in_thread(spec, "items: 12\n") as url:
        assert _verify(spec, url, capsys=capsys)[0] == 0


def test_cursor_and_link_walks_ended_short_of_their_total_are_reported(capsys):
    """A cursor and a Link header with a total beside each (GitHub search's ``total_count``):
    the mock's short-page-end is XC712 from one walk of each; a clean mock verifies clean."""
    spec = Path(__file__).parents[1] / "client" / "specs" / "cursor_total.yaml"
    plan = (
        "items: 12\nbugs:\n  - {operation: listThings, kind: short-page-end}\n"
        "  - {operation: searchPlain, kind: short-page-end}\n"
    )
    with mock_in_thread(spec, plan) as url:
        exit_code, diags = _verify(spec, url, capsys=capsys)
    assert exit_code == 1
    found = _codes(diags)
    assert ("XC712", "listThings") in found and ("XC712", "searchPlain") in found, diags
    assert ("XC712", "searchThings") not in found, diags
    assert any("(no next cursor)" in d["message"] for d in diags), diags
    with mock_in_thread(spec, "items: 12\n") as url:
        assert _verify(spec, url, capsys=capsys)[0] == 0
