"""docs/adopting.md says what issue 19 asks a newcomer to read, and its commands are real.

Issue 19 §2-§5 ask the adoption guide for four things: the visibility paragraph a newcomer reads
first ("complete" is relative to ``scope.visibility``; never ``VISIBILITY_RESTRICTED when:
always``), the schema-patch step, recorded responses (``audit --responses``, ``verify
--recorded``, secrets never printed) and the end signals (one per API convention, the inferred
ones warned). Each test fails when its part is dropped; every ``xcompleteness`` command the page
shows is parsed by the CLI's own parser, so an option it names exists.
"""

from __future__ import annotations

import argparse
import re
import shlex

import pytest
from support.vocab import ROOT
from xcompleteness.cli import build_parser

PAGE = (ROOT / "docs" / "adopting.md").read_text("utf-8")


def _section(title: str) -> str:
    """The text under the first heading that contains ``title``, up to the next heading of the
    same or a higher level (a ``#`` line inside a fenced block is no heading)."""
    lines, fenced, start, level = PAGE.splitlines(), False, None, 0
    for n, line in enumerate(lines):
        if line.startswith("```"):
            fenced = not fenced
            continue
        heading = re.match(r"(#+) ", line) if not fenced else None
        if heading and start is None and title in line:
            start, level = n + 1, len(heading.group(1))
        elif heading and start is not None and len(heading.group(1)) <= level:
            return "\n".join(lines[start:n])
    assert start is not None, f"docs/adopting.md has no heading with {title!r}"
    return "\n".join(lines[start:])


def test_the_visibility_paragraph_comes_before_the_first_step():
    intro = PAGE[: PAGE.index("\n## ")]
    paragraph = next(p for p in intro.split("\n\n") if "scope.visibility" in p)
    assert paragraph.startswith("**Read this first")
    for words in (
        "relative to what the caller may see",
        "VISIBILITY_RESTRICTED",
        "when: always",
        "`complete: true` would be unreachable",
    ):
        assert words in paragraph, words


def test_the_end_signals_are_one_per_api_convention():
    ends = _section("Where the listing ends")
    for declared in (
        "response.last",
        "end: empty-page",
        "end: short-page",
        "response.total",
        "MORE_PAGES_AVAILABLE",
        "END_INFERRED",
        "XC141",
    ):
        assert declared in ends, declared
    for signal in (
        "HTTP_ERROR",
        "DUPLICATE_ITEMS",
        "ITEMS_SEEN_TWICE",
        "invalidated-by",
        "first-page: 0",
        "$request.body#/marker",
    ):
        assert signal in _section("Wrapping an API"), signal


def test_the_schema_patch_step_shows_its_commands():
    step = _section("does not describe a field")
    assert "--emit-overlay schema-patch.yaml" in step
    assert "--overlay schema-patch.yaml --strict" in step
    assert "x-drafted-from" in step and "XC103" in step


def test_recorded_responses_are_a_step_and_secrets_stay_out():
    step = _section("responses you recorded")
    assert "--responses session.har" in step and "--recorded session.har" in step
    assert "never printed" in step and "request bodies" in step
    assert "XC71x" in step


def _commands() -> list[list[str]]:
    out = []
    for block in re.findall(r"```sh\n(.*?)```", PAGE, flags=re.S):
        for line in block.splitlines():
            line = line.split(" #", 1)[0].strip()
            if line.startswith("xcompleteness "):
                out.append(shlex.split(line)[1:])
    return out


@pytest.mark.parametrize("argv", _commands(), ids=lambda a: " ".join(a)[:60])
def test_every_command_on_the_page_parses(argv):
    parser = build_parser()
    parser.exit_on_error = False
    for action in parser._actions:  # the subcommands' parsers raise too
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                sub.exit_on_error = False
    parser.parse_args(argv)


def test_the_page_shows_every_command_of_the_steps():
    verbs = {argv[0] for argv in _commands()}
    assert {"audit", "check", "generate", "verify"} <= verbs
