"""What a newcomer reads from ``xcompleteness audit`` on an API nobody here had used.

Found walking App Store Connect (72 listings), AppVeyor and Google Tasks as a new user would:
the text output repeated the same 300-character visibility question under every listing (72
times), and nothing said how to answer it once; the id question named a JSON pointer into the
response but not the item's fields, the value to pick; drafts with nothing left to ask carried
an ``x-todo: []`` to delete, and their action read "none pagination".
"""

from __future__ import annotations

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
