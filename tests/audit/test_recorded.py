"""Issue 19 §5: `audit --responses` and `verify --recorded` on three real-shaped recordings.

recorded/ holds an Asana-shaped HAR (tasks.har: the next token's location is in no schema), a
Slack-shaped folder (chat/: the schema says the cursor is null at the end, the API sends "")
and a Twilio-shaped folder (voice/: a "string" that is a next URL, and an `id` that is the
record's kind, not its identity). Each recording resolves a TODO or catches a wrong draft the
description alone could not, and `verify --recorded` tells the drafts apart with XC71x codes.
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from support.har import audit_outputs
from xcompleteness import api

HERE = Path(__file__).parent
REC = HERE / "recorded"
TASKS = HERE / "specs" / "patch" / "tasks.yaml"
SECRETS = ("NEVER_PRINT_ME",)


def _draft(spec: Path, out: Path, responses: Path | None = None) -> dict:
    result = api.audit(spec, emit_overlay=out, responses=responses)
    assert result.report is not None, result.diagnostics
    return yaml.safe_load(out.read_text("utf-8"))


def _decl(overlay: dict) -> dict:
    return next(
        a["update"]["x-completeness"] for a in overlay["actions"] if "x-completeness" in a["update"]
    )


def _codes(result: api.VerifyResult) -> set[str]:
    return {d.code for d in result.diagnostics}


def test_har_resolves_the_next_token_location_and_drafts_the_schema_patch(tmp_path: Path) -> None:
    plain = _decl(_draft(TASKS, tmp_path / "plain.yaml"))
    assert "pagination" not in plain
    assert any(t.startswith("pagination: cursor parameter offset") for t in plain["x-todo"])

    overlay = _draft(TASKS, tmp_path / "draft.yaml", REC / "tasks.har")
    decl = _decl(overlay)
    assert decl["pagination"]["response"] == {"next": "$response.body#/next_page/offset"}
    assert not any(t.startswith("pagination:") for t in decl["x-todo"])
    assert any("tasks.har entry 1 -> tasks.har entry 2" in e for e in decl["x-evidence"])
    patch = next(
        a for a in overlay["actions"] if a["target"] == "$['components']['schemas']['TaskList']"
    )
    assert "offset" in patch["update"]["properties"]["next_page"]["properties"]
    # the drafted declaration plus its patch check clean but for the review TODOs
    codes = {d.code for d in api.check(TASKS, [tmp_path / "draft.yaml"]).diagnostics}
    assert codes == {"XC900"}


def test_secrets_in_a_har_are_never_printed_or_copied(tmp_path: Path) -> None:
    raw = (REC / "tasks.har").read_text("utf-8")
    assert all(s in raw for s in SECRETS)  # the recording does carry them
    outputs = audit_outputs(TASKS, REC / "tasks.har", tmp_path / "draft.yaml")
    for text in outputs:
        for secret in SECRETS + ("Bearer", "sk_live"):
            assert secret not in text


def test_verify_recorded_walks_the_har_offline(tmp_path: Path) -> None:
    declare, schema = (
        HERE / "specs" / "patch" / "tasks.declare.yaml",
        HERE / "specs" / "patch" / "tasks.schema.yaml",
    )
    ok = api.verify(TASKS, "", [declare, schema], recorded=REC / "tasks.har")
    assert ok.exit_code == 0, ok.diagnostics
    assert ok.summary == ("listTasks: ok (2 walk(s), 6 page(s), 5 item(s))",)
    # a next location that is not the token the API reads: the walk leaves the recording
    wrong = tmp_path / "wrong.yaml"
    text = declare.read_text("utf-8").replace("next_page/offset", "next_page/path")
    wrong.write_text(text, "utf-8")
    schema_text = schema.read_text("utf-8").replace(
        "offset: {type: string}", "path: {type: string}"
    )
    (tmp_path / "schema.yaml").write_text(schema_text, "utf-8")
    bad = api.verify(TASKS, "", [wrong, tmp_path / "schema.yaml"], recorded=REC / "tasks.har")
    assert "XC717" in _codes(bad) and bad.exit_code == 1
    assert any("NOT_RECORDED" in d.message for d in bad.diagnostics)


def test_folder_catches_a_cursor_sent_as_empty_string(tmp_path: Path) -> None:
    spec = REC / "conversations.yaml"
    plain = _draft(spec, tmp_path / "plain.yaml")
    expr = "$response.body#/response_metadata/next_cursor"
    assert _decl(plain)["reasons"][0]["when"] == {"present": expr}  # the description says null
    fixed = _draft(spec, tmp_path / "fixed.yaml", REC / "chat")
    assert _decl(fixed)["reasons"][0]["when"] == {
        "all": [{"present": expr}, {"not-equals": [expr, ""]}]
    }
    assert any("conversations_list.2.json" in e for e in _decl(fixed)["x-evidence"])

    before = api.verify(spec, "", [tmp_path / "plain.yaml"], recorded=REC / "chat")
    assert _codes(before) == {"XC710"} and before.exit_code == 1
    after = api.verify(spec, "", [tmp_path / "fixed.yaml"], recorded=REC / "chat")
    assert after.exit_code == 0 and not after.diagnostics


def test_folder_resolves_the_id_and_catches_a_next_url_drafted_as_cursor(tmp_path: Path) -> None:
    spec = REC / "calls.yaml"
    plain = _decl(_draft(spec, tmp_path / "plain.yaml"))
    assert plain["pagination"]["style"] == "cursor" and plain["id"] == "/id"
    assert any(t.startswith("id:") for t in plain["x-todo"])
    fixed = _decl(_draft(spec, tmp_path / "fixed.yaml", REC / "voice"))
    assert fixed["id"] == "/uuid" and not any(t.startswith("id:") for t in fixed["x-todo"])
    assert fixed["pagination"] == {
        "style": "next-url",
        "request": {"size": "PageSize"},
        "response": {"next": "$response.body#/next_page"},
    }
    before = api.verify(spec, "", [tmp_path / "plain.yaml"], recorded=REC / "voice")
    assert {"XC716", "XC717"} <= _codes(before)
    after = api.verify(spec, "", [tmp_path / "fixed.yaml"], recorded=REC / "voice")
    assert after.exit_code == 0 and not after.diagnostics


def test_unreadable_recordings_are_located_diagnostics(tmp_path: Path) -> None:
    bad = tmp_path / "notes.har"
    bad.write_text(json.dumps({"not": "a har"}), "utf-8")
    result = api.audit(TASKS, responses=bad)
    assert result.exit_code == 2 and [d.code for d in result.diagnostics] == ["XC017"]
    result = api.verify(TASKS, "", recorded=tmp_path / "missing")
    assert result.exit_code == 2 and [d.code for d in result.diagnostics] == ["XC017"]


def test_har_link_headers_resolve_a_walk_the_spec_states_only_in_prose(tmp_path: Path) -> None:
    spec, har = REC / "timeline.yaml", REC / "timeline.har"
    plain = _decl(_draft(spec, tmp_path / "plain.yaml"))
    # the prose says "Paginated with the Link header": drafted, with a TODO to confirm it
    assert plain["pagination"]["style"] == "link-header"
    assert any(t.startswith("pagination:") and "Link" in t for t in plain["x-todo"])
    overlay = _draft(spec, tmp_path / "draft.yaml", har)
    decl = _decl(overlay)
    assert decl["pagination"] == {
        "style": "link-header",
        "request": {"size": "limit"},
        "response": {"next": "$response.link.next"},
    }
    assert not any(t.startswith("pagination:") for t in decl["x-todo"])
    [patch] = [a for a in overlay["actions"] if "headers" in a["update"]]
    assert patch["target"].endswith("['responses']['200']") and "Link" in patch["update"]["headers"]
    assert {d.code for d in api.check(spec, [tmp_path / "draft.yaml"]).diagnostics} == {"XC900"}
    walked = api.verify(spec, "", [tmp_path / "draft.yaml"], recorded=har)
    assert walked.exit_code == 0 and walked.summary == (
        "getHomeTimeline: ok (2 walk(s), 4 page(s), 3 item(s))",
    )
    assert "NEVER_PRINT_ME" not in (tmp_path / "draft.yaml").read_text("utf-8")


def test_verify_recorded_replays_headers_that_are_not_ascii(tmp_path: Path) -> None:
    """A HAR holds header names and values as text, and a recording (or an attacker) may put
    non-ASCII there: the replay sends them as bytes (httpx refuses non-ASCII text, which was a
    UnicodeEncodeError out of ``verify``, found by tests/support/fuzz_surfaces.py)."""
    har = json.loads((REC / "tasks.har").read_text("utf-8"))
    for entry in har["log"]["entries"]:
        entry["response"]["headers"] += [
            {"name": "X-Note", "value": "Ünïcödé ✓"},
            {"name": "X-Ünï", "value": "café"},
        ]
    odd = tmp_path / "tasks.har"
    odd.write_text(json.dumps(har), "utf-8")
    declare, schema = (
        HERE / "specs" / "patch" / "tasks.declare.yaml",
        HERE / "specs" / "patch" / "tasks.schema.yaml",
    )
    ok = api.verify(TASKS, "", [declare, schema], recorded=odd)
    assert ok.exit_code == 0, ok.diagnostics
    assert ok.summary == ("listTasks: ok (2 walk(s), 6 page(s), 5 item(s))",)
