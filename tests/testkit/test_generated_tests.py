"""``generate --tests``: the suite written into the generated project passes against the mock,
and fails when a bug is injected into the generated package.

The suite is run the way a user runs it (``python -m pytest tests`` in the generated folder, a
separate process); the bug is the dangerous one the essay names: a layer that drops the server's
reason when the page it came on was empty, so an empty partial page reads as "none left".
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from support.paths import EXAMPLES
from xcompleteness.emit._generate import generate
from xcompleteness.emit._write import write_tree

WALK_LINE = (
    "        for r in reasons:\n            if r.code != MORE:\n                self._add(r)\n"
)
WALK_BUG = WALK_LINE.replace("if r.code != MORE:", "if r.code != MORE and items:")


def _generate(name: str, out: Path, package: str) -> dict:
    gen = generate(EXAMPLES / name / "openapi.yaml", (), package, tests=True)
    write_tree(out, gen.files)
    return gen.files


def _run_suite(out: Path, *select: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "tests",
            *select,
            "-q",
            "-p",
            "no:cacheprovider",
            "-rf",
        ],
        cwd=out,
        # the generated suite needs core pytest only: skip loading this venv's plugins (startup)
        env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"},
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_the_generated_suite_passes_and_catches_a_dropped_reason_on_empty_pages(tmp_path):
    out = tmp_path / "gen"
    files = _generate("service_accounts", out, "tk_gen_svc")
    module = next(
        text for path, text in files.items() if path.name == "test_completeness_contract.py"
    )
    names = re.findall(r"^def (test_\w+)", module, re.M)
    assert (
        "test_list_service_accounts_time_budget_exceeded_empty_partial_page_refuses_archive_service_accounts"
        in names
    )
    assert "test_list_service_accounts_complete_listing_allows_archive_service_accounts" in names
    assert (
        "test_search_service_accounts_shard_rebalancing_empty_partial_page_stays_partial" in names
    )
    passed = _run_suite(out)
    assert passed.returncode == 0, passed.stdout[-4000:] + passed.stderr[-2000:]
    assert f"{len(names)} passed" in passed.stdout

    walk = out / "tk_gen_svc" / "_runtime" / "walk_core.py"  # where the core folds in a page
    text = walk.read_text(encoding="utf-8")
    assert WALK_LINE in text
    walk.write_text(text.replace(WALK_LINE, WALK_BUG), encoding="utf-8")
    failed = _run_suite(out, "-k", "partial_page")  # the cases a page-level bug can reach
    assert failed.returncode == 1, failed.stdout[-4000:]
    failing = set(re.findall(r"FAILED tests/test_completeness_contract.py::(\w+)", failed.stdout))
    empty = {n for n in names if "_empty_partial_page_" in n}
    assert empty and len(empty) < len([n for n in names if "partial_page" in n])
    assert failing == empty, (sorted(failing), sorted(empty))


def test_the_adapter_suite_passes_and_generation_is_deterministic(tmp_path):
    first = _generate("link_header_search", tmp_path / "a", "tk_gen_gh")
    again = generate(EXAMPLES / "link_header_search" / "openapi.yaml", (), "tk_gen_gh", tests=True)
    assert first == again.files
    assert not any(
        k.parts[0] == "tests"
        for k in generate(EXAMPLES / "link_header_search" / "openapi.yaml", (), "tk_gen_gh").files
    )
    result = _run_suite(tmp_path / "a")
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "test_search_repositories_time_budget_exceeded_empty_partial_page_stays_partial" in (
        tmp_path / "a" / "tests" / "test_completeness_contract.py"
    ).read_text(encoding="utf-8")


SNAPSHOT_CHECK = "        if self.snapshot_seen and snapshot != self.snapshot:\n"
REPEAT_CHECK = (
    "        if str(nxt) in self.seen or (position is not None and str(nxt) == str(position)):\n"
)


def test_the_suite_catches_a_walk_that_misses_a_snapshot_change_or_a_repeated_cursor(tmp_path):
    """Mutation test: with either detection of the walk switched off, exactly the generated cases
    for it fail (and they pass with the walk as generated: the first test runs the whole suite)."""
    out = tmp_path / "gen"
    files = _generate("service_accounts", out, "tk_gen_mut")
    module = next(t for p, t in files.items() if p.name == "test_completeness_contract.py")
    names = re.findall(r"^def (test_\w+)", module, re.M)
    walk = out / "tk_gen_mut" / "_runtime" / "walk_core.py"
    original = walk.read_text(encoding="utf-8")
    for check, word in ((SNAPSHOT_CHECK, "snapshot_change"), (REPEAT_CHECK, "repeated_cursor")):
        cases = {n for n in names if word in n}
        assert len(cases) == 2, names  # both listings of the example
        assert original.count(check) == 1, check
        walk.write_text(original.replace(check, "        if False:\n"))
        failed = _run_suite(out, "-k", word)
        failing = set(
            re.findall(r"FAILED tests/test_completeness_contract.py::(\w+)", failed.stdout)
        )
        assert failing == cases, failed.stdout[-3000:]
        walk.write_text(original, encoding="utf-8")
    passed = _run_suite(out, "-k", "snapshot_change or repeated_cursor")
    assert passed.returncode == 0 and "4 passed" in passed.stdout, passed.stdout[-3000:]


def test_the_generated_suite_passes_on_post_searches_paged_in_their_body(tmp_path):
    """A listing paged in its JSON request body: the mock reads the cursor and size from the
    body, and the cases hand the search's required body fields (not the walk's) to the client
    and the tool (without them the tool refuses the call: the suite would fail)."""
    spec = Path(__file__).parents[1] / "client" / "specs" / "body_paging.yaml"
    out = tmp_path / "gen"
    write_tree(out, generate(spec, (), "tk_gen_body", tests=True).files)
    cases = (out / "tests" / "xc_cases.json").read_text(encoding="utf-8")
    assert '"folder": "docs"' in cases and '"cursor"' not in cases
    passed = _run_suite(out)
    assert passed.returncode == 0, passed.stdout[-4000:] + passed.stderr[-2000:]
    assert "test_search_files_cursor_expired_stays_partial" in (
        out / "tests" / "test_completeness_contract.py"
    ).read_text(encoding="utf-8")


def test_the_generated_suite_runs_in_importlib_mode_beside_another_projects_conftest(tmp_path):
    """A user runs the suite inside their own repository: pytest's ``--import-mode=importlib``
    (which many projects set) registers conftest.py under another name, and their own tests
    folder may hold a ``conftest`` module on ``sys.path``. The tests reach ``run_case`` as a
    fixture, so neither breaks collection (``from conftest import run_case`` did)."""
    out = tmp_path / "gen"
    _generate("link_header_search", out, "tk_gen_importlib")
    decoy = tmp_path / "their_tests"
    decoy.mkdir()
    (decoy / "conftest.py").write_text("VALUE = 'their own conftest'\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "tests", "-q", "-p", "no:cacheprovider"]
        + ["--import-mode=importlib"],
        cwd=out,
        env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", "PYTHONPATH": str(decoy)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert re.search(r"\d+ passed", result.stdout) and "error" not in result.stdout.lower()


def test_the_generated_suite_asks_nothing_the_declaration_rules_out(tmp_path):
    """Adapter offset and page walks compute their own position (an empty page while more follow
    is a contract violation there, and no cursor can come back), a declared ``end`` makes the
    empty or short page the end: the suite has no "empty first page is not the end" or "repeated
    cursor" case for them, and passes. Before, 22 of end_signals.yaml's 29 cases failed against
    a correct package."""
    spec = Path(__file__).parents[1] / "client" / "specs" / "end_signals.yaml"
    out = tmp_path / "gen"
    write_tree(out, generate(spec, (), "tk_gen_ends", tests=True).files)
    module = (out / "tests" / "test_completeness_contract.py").read_text(encoding="utf-8")
    names = re.findall(r"^def (test_\w+)", module, re.M)
    assert "test_list_native_tickets_repeated_cursor_stops_the_walk_stays_partial" in names
    for adapter in ("list_events", "list_events_short", "list_users", "search_issues"):
        assert not any(
            n.startswith(f"test_{adapter}_") and ("repeated_cursor" in n or "first_page" in n)
            for n in names
        ), adapter
    passed = _run_suite(out)
    assert passed.returncode == 0, passed.stdout[-4000:] + passed.stderr[-2000:]
    assert f"{len(names)} passed" in passed.stdout


def test_every_listing_gets_a_complete_walk_case_and_the_suite_passes_on_newcomer_shapes(tmp_path):
    """On AppVeyor's declarations the suite had no case at all (pytest exit 5: no listing
    declared a reason besides MORE_PAGES_AVAILABLE), and once it had, its tool calls sent
    ``jobId`` for ``job_id``, a walk-owned ``recordsNumber`` the tool refuses, and ``"x"`` for an
    array filter; the mock served a ``style: none`` listing a page of it. Every listing now gets
    "reads every item and says complete", and it passes."""
    spec = Path(__file__).parent / "specs" / "newcomer_suite.yaml"
    out = tmp_path / "gen"
    write_tree(out, generate(spec, (), "tk_gen_newcomer", tests=True).files)
    module = (out / "tests" / "test_completeness_contract.py").read_text(encoding="utf-8")
    names = re.findall(r"^def (test_\w+)", module, re.M)
    assert names == [
        "test_get_build_artifacts_reads_every_item_and_says_complete",
        "test_get_project_history_reads_every_item_and_says_complete",
    ]
    cases = (out / "tests" / "xc_cases.json").read_text(encoding="utf-8")
    assert '"job_id": "x"' in cases and '"filter_kind": [' in cases
    passed = _run_suite(out)
    assert passed.returncode == 0, passed.stdout[-4000:] + passed.stderr[-2000:]
    assert "2 passed" in passed.stdout


CAP_LINE = "full = plan.capped and len(raw_items) >= self.page_size"


@pytest.mark.parametrize(
    ("spec_name", "attr"),
    [("size_cap.yaml", "list_recent_events"), ("size_cap_body.yaml", "search_events")],
)
def test_the_suite_of_a_capped_unpaged_listing_asks_a_full_and_a_short_answer(
    tmp_path, spec_name, attr
):
    """An unpaged listing capped by its size (style none with request.size; a query parameter,
    or a property of a POST search's JSON body): the suite asks a full answer
    (RESULT_LIMIT_REACHED, never complete) and a short one (complete), keeps its complete
    controls below the cap, and fails on a walk that reads a full answer as complete."""
    spec = Path(__file__).resolve().parents[1] / "client" / "specs" / spec_name
    out = tmp_path / "gen"
    files = generate(spec, (), "tk_gen_cap", tests=True).files
    write_tree(out, files)
    module = next(
        text for path, text in files.items() if path.name == "test_completeness_contract.py"
    )
    names = set(re.findall(r"^def (test_\w+)", module, re.M))
    assert {
        f"test_{attr}_full_answer_is_result_limit_reached_stays_partial",
        f"test_{attr}_short_answer_says_complete",
        f"test_{attr}_reads_every_item_and_says_complete",
    } <= names
    passed = _run_suite(out)
    assert passed.returncode == 0, passed.stdout[-4000:] + passed.stderr[-2000:]
    assert f"{len(names)} passed" in passed.stdout

    walk = out / "tk_gen_cap" / "_runtime" / "walk_pages.py"
    text = walk.read_text(encoding="utf-8")
    assert CAP_LINE in text
    walk.write_text(text.replace(CAP_LINE, "full = False"), encoding="utf-8")
    failed = _run_suite(out)
    assert failed.returncode == 1, failed.stdout[-4000:]
    failing = set(re.findall(r"FAILED tests/test_completeness_contract.py::(\w+)", failed.stdout))
    assert failing == {f"test_{attr}_full_answer_is_result_limit_reached_stays_partial"}


TOTAL_LINE = "            reasons.extend(self._short_of_total(view, len(raw_items)))\n"


def test_the_generated_suite_checks_a_next_url_walk_against_its_total(tmp_path):
    """A next URL with a total beside it (App Store Connect's ``meta.paging.total``): the suite
    serves a walk the API ends short of its total (the mock's short-page-end) and expects it
    partial; a package whose walk no longer compares the two fails exactly that case."""
    spec = Path(__file__).parents[1] / "client" / "specs" / "next_url_total.yaml"
    out = tmp_path / "gen"
    files = generate(spec, (), "tk_gen_total", tests=True).files
    write_tree(out, files)
    module = next(
        text for path, text in files.items() if path.name == "test_completeness_contract.py"
    )
    case = "test_builds_get_collection_end_short_of_the_declared_total_is_partial_stays_partial"
    assert case in re.findall(r"^def (test_\w+)", module, re.M)
    passed = _run_suite(out)
    assert passed.returncode == 0, passed.stdout[-4000:] + passed.stderr[-2000:]

    pages = out / "tk_gen_total" / "_runtime" / "walk_pages.py"
    text = pages.read_text(encoding="utf-8")
    assert TOTAL_LINE in text
    pages.write_text(text.replace(TOTAL_LINE, "            pass\n"), encoding="utf-8")
    failed = _run_suite(out)
    assert failed.returncode == 1, failed.stdout[-4000:]
    failing = set(re.findall(r"FAILED tests/test_completeness_contract.py::(\w+)", failed.stdout))
    assert failing == {case}, failed.stdout[-4000:]


def test_the_generated_suite_checks_cursor_and_link_walks_against_their_total(tmp_path):
    """A cursor or a Link header with a total beside it (GitHub search's ``total_count``): the
    suite serves each such listing without a declared cap a walk the API ends short of its total
    and expects it partial; without the comparison exactly those cases fail."""
    spec = Path(__file__).parents[1] / "client" / "specs" / "cursor_total.yaml"
    out = tmp_path / "gen"
    files = generate(spec, (), "tk_gen_ctotal", tests=True).files
    write_tree(out, files)
    module = next(
        text for path, text in files.items() if path.name == "test_completeness_contract.py"
    )
    cases = {
        f"test_{op}_end_short_of_the_declared_total_is_partial_stays_partial"
        for op in ("search_plain", "list_things")
    }
    found = set(re.findall(r"^def (test_\w+)", module, re.M))
    assert cases <= found
    # a declared cap may explain a short end (RESULT_LIMIT_REACHED): no such case there
    assert not any(name.startswith("test_search_things_end_short") for name in found)
    passed = _run_suite(out)
    assert passed.returncode == 0, passed.stdout[-4000:] + passed.stderr[-2000:]

    pages = out / "tk_gen_ctotal" / "_runtime" / "walk_pages.py"
    text = pages.read_text(encoding="utf-8")
    assert TOTAL_LINE in text
    pages.write_text(text.replace(TOTAL_LINE, "            pass\n"), encoding="utf-8")
    failed = _run_suite(out)
    assert failed.returncode == 1, failed.stdout[-4000:]
    failing = set(re.findall(r"FAILED tests/test_completeness_contract.py::(\w+)", failed.stdout))
    assert failing == cases, failed.stdout[-4000:]


def test_the_suite_sends_neither_a_host_credential_nor_the_walks_own_parameters(tmp_path):
    """A required credential parameter (a header such as Listen Notes' ``X-ListenAPI-Key``, a
    query ``api_key``) is the MCP host's, never a tool argument: the suite's tool calls leave it
    out. They sent it, and the tool refused every call as an unknown argument (14 of Listen
    Notes' 14 cases failed); the client still gets it (a keyword of the method). A required
    position or page size the walk sets (Postmark's ``Offset``/``Count``) is given to neither:
    ``collect(Offset=1)`` resumes at 1 and read 5 of 6 items (17 of Postmark's 19 failed)."""
    spec = Path(__file__).parent / "specs" / "required_params_suite.yaml"
    out = tmp_path / "gen"
    write_tree(out, generate(spec, (), "tk_gen_cred", tests=True).files)
    cases = json.loads((out / "tests" / "xc_cases.json").read_text(encoding="utf-8"))["cases"]
    genres = [c for c in cases if c["operation"] == "getGenres"]
    templates = [c for c in cases if c["operation"] == "listTemplates"]
    assert genres and all(c["params"] == {"top_level_only": 0} for c in genres), genres
    want = {"x_listen_api_key", "api_key", "top_level_only"}
    assert all(set(c["kwargs"]) == want for c in genres), genres
    assert templates and all(c["params"] == {} for c in templates), templates
    assert all(c["kwargs"] == {"x_postmark_server_token": "x"} for c in templates), templates
    passed = _run_suite(out)
    assert passed.returncode == 0, passed.stdout[-4000:] + passed.stderr[-2000:]
    assert f"{len(cases)} passed" in passed.stdout


def test_a_delete_named_by_its_path_gets_its_refusal_and_control_cases(tmp_path):
    """A destructive mutation whose target is a path parameter (Velo's ``DELETE
    /v4/payees/{payeeId}``, Data2CRM's ``DELETE .../contact/{contact_id}``: ``evidence.ids:
    $request.path.NAME``) had no case at all (body ids only), so a 204 delete that failed every
    agent call went unnoticed by the suite. It now gets the refusal after each partial case and
    the control after a complete listing, with the target read at the listing's declared ``id``
    (``/contactId``: the suite read a field named ``id``)."""
    spec = Path(__file__).parents[1] / "client" / "specs" / "path_delete_204.yaml"
    out = tmp_path / "gen"
    write_tree(out, generate(spec, (), "tk_gen_path_delete", tests=True).files)
    cases = json.loads((out / "tests" / "xc_cases.json").read_text(encoding="utf-8"))["cases"]
    passed = _run_suite(out)
    assert passed.returncode == 0, passed.stdout[-4000:] + passed.stderr[-2000:]
    assert f"{len(cases)} passed" in passed.stdout, passed.stdout[-4000:]
    assert {
        "test_list_contacts_result_limit_reached_nonempty_partial_page_refuses_delete_contact",
        "test_list_contacts_result_limit_reached_empty_partial_page_refuses_delete_contact",
        "test_list_contacts_complete_listing_allows_delete_contact",
    } <= {c["name"] for c in cases}
