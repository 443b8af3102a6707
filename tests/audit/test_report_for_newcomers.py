"""What a newcomer reads from ``xcompleteness audit`` on an API nobody here had used.

Found walking App Store Connect (72 listings), AppVeyor and Google Tasks as a new user would:
the text output repeated the same 300-character visibility question under every listing (72
times), and nothing said how to answer it once; the id question named a JSON pointer into the
response but not the item's fields, the value to pick; drafts with nothing left to ask carried
an ``x-todo: []`` to delete, and their action read "none pagination".
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import yaml
from support.cli import xc

SPEC = """
openapi: 3.0.3
info: {title: Newcomer, version: '1.0'}
paths:
""" + "".join(
    f"""
  /{name}:
    get:
      operationId: list{name.title()}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: array
                items: {{type: object, properties: {{{fields}}}}}
"""
    for name, fields in (
        ("projects", "id: {type: string}, name: {type: string}"),
        ("roles", "id: {type: string}, name: {type: string}"),
        ("invitations", "email: {type: string}, roleName: {type: string}"),
    )
)

DEFAULTS = """
overlay: 1.0.0
info: {title: defaults, version: '1'}
actions:
  - target: $
    update:
      x-completeness-defaults:
        scope: {visibility: objects of the account the token belongs to, snapshot: none}
        drafts: {unpaginated: complete}
"""


def _audit(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    spec = tmp_path / "newcomer.yaml"
    spec.write_text(SPEC, encoding="utf-8")
    (tmp_path / "defaults.yaml").write_text(DEFAULTS, encoding="utf-8")
    return xc("audit", str(spec), *args, cwd=tmp_path)


def test_a_question_every_draft_asks_is_printed_once_and_says_how_to_answer_it_once(tmp_path):
    run = _audit(tmp_path)
    assert run.returncode == 1, run.stderr
    full = [line for line in run.stdout.splitlines() if line.startswith("    TODO visibility: say")]
    assert len(full) == 1  # not once per listing
    assert run.stdout.count("    TODO visibility: the question 3 drafts ask (below)") == 3
    assert "asked of 3 drafts:\n    TODO visibility: say in scope.visibility" in run.stdout
    assert (
        "3 drafts ask the same visibility question: answer it once for every listing in an "
        "x-completeness-defaults overlay (docs/adopting.md, 'Answer the common questions once')"
    ) in run.stderr


def test_answered_in_defaults_the_question_and_the_advice_are_gone(tmp_path):
    run = _audit(tmp_path, "--overlay", "defaults.yaml")
    assert "visibility" not in run.stdout and "visibility question" not in run.stderr


def test_the_id_question_names_the_items_fields(tmp_path):
    run = _audit(tmp_path, "--overlay", "defaults.yaml")
    (todo,) = [line for line in run.stdout.splitlines() if line.startswith("    TODO id:")]
    assert "its fields are email, roleName: set id to the one unique per item (id: /<field>)" in (
        todo
    )


def test_a_draft_with_nothing_left_to_ask_carries_no_empty_todo_list(tmp_path):
    run = _audit(tmp_path, "--overlay", "defaults.yaml", "--emit-overlay", "draft.yaml")
    assert run.returncode == 1, run.stderr
    text = (tmp_path / "draft.yaml").read_text(encoding="utf-8")
    assert "x-todo: []" not in text
    actions = yaml.safe_load(text)["actions"]
    by_target = {a["target"]: a for a in actions}
    projects = by_target["$.paths['/projects'].get"]
    assert projects["description"] == "listProjects: collection, no pagination, 0 TODO(s)"
    assert "x-todo" not in projects["update"]["x-completeness"]
    assert by_target["$.paths['/invitations'].get"]["update"]["x-completeness"]["x-todo"]
    check = xc(
        "check",
        "newcomer.yaml",
        "--overlay",
        "defaults.yaml",
        "--overlay",
        "draft.yaml",
        cwd=tmp_path,
    )
    assert check.returncode == 0 and "XC900" in check.stderr, check.stderr  # only the TODOs


# A defaults block with a mistake answered questions anyway: ``{visibility: a, b, ...}`` (a comma
# inside the flow mapping cut the value) silenced every draft's visibility question with "a", and
# ``unpaginated: complete`` claimed one response is everything. audit now validates the block
# as check does; an invalid one answers nothing, and audit says so.
BROKEN_DEFAULTS = """
overlay: 1.0.0
info: {title: defaults, version: '1'}
actions:
  - target: $
    update:
      x-completeness-defaults:
        scope: {visibility: objects of the account, of its users, snapshot: none}
        drafts: {unpaginated: complete}
"""


def _audit_broken(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "broken.yaml").write_text(BROKEN_DEFAULTS, encoding="utf-8")
    return _audit(tmp_path, "--overlay", "broken.yaml", *args)


def test_an_invalid_defaults_block_answers_nothing_and_audit_says_where_it_is_wrong(tmp_path):
    run = _audit_broken(tmp_path, "--emit-overlay", "draft.yaml")
    assert run.returncode == 1, run.stderr
    # located in the overlay that wrote it, on the line of the broken flow mapping
    assert (
        "broken.yaml#/x-completeness-defaults/scope/of its users (line 8): error XC041"
    ) in run.stderr
    assert "x-completeness-defaults is not valid (1 error(s)" in run.stderr
    assert "none of its answers were used: every draft asks again" in run.stderr
    assert "answered what it covers" not in run.stderr
    actions = yaml.safe_load((tmp_path / "draft.yaml").read_text(encoding="utf-8"))["actions"]
    for action in actions:
        decl = action["update"]["x-completeness"]
        assert "objects of the account" not in str(decl.get("scope"))  # the cut value not used
        assert any(t.startswith("visibility:") for t in decl["x-todo"]), decl
    projects = {a["target"]: a for a in actions}["$.paths['/projects'].get"]
    # unpaginated: complete was not taken: one response is not claimed to be everything unasked
    assert projects["description"] != "listProjects: collection, no pagination, 0 TODO(s)"


def test_the_json_report_carries_the_defaults_errors(tmp_path):
    run = _audit_broken(tmp_path, "--format", "json")
    assert run.returncode == 1, run.stderr
    out = json.loads(run.stdout)
    (diag,) = out["diagnostics"]
    assert (diag["code"], diag["pointer"], diag["line"]) == (
        "XC041",
        "/x-completeness-defaults/scope/of its users",
        8,
    )
    assert diag["file"].endswith("broken.yaml")


def test_a_valid_defaults_block_still_answers(tmp_path):
    run = _audit(tmp_path, "--overlay", "defaults.yaml")
    assert "error" not in run.stderr and "not valid" not in run.stderr
    assert "x-completeness-defaults answered what it covers" in run.stderr


def test_every_listing_declared_but_the_defaults_invalid_is_not_a_clean_audit(tmp_path):
    spec = tmp_path / "declared.yaml"
    spec.write_text(
        """
openapi: 3.0.3
info: {title: Declared, version: '1.0'}
x-completeness-defaults:
  scope: {visibility: all of it, colour: blue}
paths:
  /things:
    get:
      operationId: listThings
      x-completeness: {kind: none, why: a fixed menu of three things}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: array, items: {type: object, properties: {id: {type: string}}}}
""",
        encoding="utf-8",
    )
    run = xc("audit", str(spec), cwd=tmp_path)
    assert run.returncode == 1, (run.stdout, run.stderr)
    assert "declared.yaml#/x-completeness-defaults/scope/colour (line 5): error XC041" in (
        run.stderr
    )


def test_the_library_report_leaves_an_invalid_block_unused():
    from xcompleteness.audit import audit_document

    data = yaml.safe_load(SPEC)
    data["x-completeness-defaults"] = {"scope": {"visibility": "v", "b": None}}
    report = audit_document(data, origin="mem")
    assert report.defaults is None
    assert [(d.code, d.pointer) for d in report.defaults_errors] == [
        ("XC041", "/x-completeness-defaults/scope/b")
    ]
    data["x-completeness-defaults"] = {"scope": {"visibility": "v"}}
    report = audit_document(data, origin="mem")
    assert report.defaults == {"scope": {"visibility": "v"}} and report.defaults_errors == ()
