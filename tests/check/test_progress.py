"""The progress line: drawn on a terminal for long runs, never in a pipe, in CI or with --quiet.

A real pseudo-terminal (``pty``) stands in for the user's terminal; ``XC_PROGRESS_AFTER=0`` makes
every run "long" so the test does not have to wait two seconds per case.
"""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys

import pytest
from support.paths import EXAMPLES

SPEC = str(EXAMPLES / "link_header_search" / "base.yaml")


def _run(args: list[str], env: dict[str, str], tty: bool) -> tuple[int, str]:
    full = {k: v for k, v in os.environ.items() if k not in ("CI", "TERM")}
    full.update(env)
    if not tty:
        proc = subprocess.run(
            [sys.executable, "-m", "xcompleteness", *args],
            capture_output=True,
            text=True,
            env=full,
            timeout=120,
            check=False,
        )
        return proc.returncode, proc.stderr
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "xcompleteness", *args],
        stdout=subprocess.DEVNULL,
        stderr=follower,
        env=full,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 65536)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(leader)
    return proc.wait(timeout=120), b"".join(chunks).decode("utf-8", "replace")


SLOW = {"XC_PROGRESS_AFTER": "0"}


@pytest.mark.parametrize("command", [["check", SPEC], ["audit", SPEC]])
def test_a_long_run_on_a_terminal_draws_and_erases_one_line(command: list[str]) -> None:
    code, err = _run(command, SLOW, tty=True)
    assert code in (0, 1)
    assert f"\r\x1b[K{command[0]}: " in err  # drawn, naming the command and its stage
    assert re.search(r"\.\.\. \d+ s", err)  # the elapsed seconds
    assert err.count("\r\x1b[K") >= 2  # ... and erased before the command's own output


@pytest.mark.parametrize(
    ("env", "flags", "tty"),
    [
        (SLOW, [], False),  # a pipe is not a terminal
        ({**SLOW, "CI": "true"}, [], True),
        ({**SLOW, "TERM": "dumb"}, [], True),
        (SLOW, ["--quiet"], True),
        ({"XC_PROGRESS_AFTER": "60"}, [], True),  # a run shorter than the delay
    ],
    ids=["pipe", "ci", "dumb-terminal", "quiet", "short-run"],
)
def test_no_progress_line(env: dict[str, str], flags: list[str], tty: bool) -> None:
    _, err = _run(["check", SPEC, *flags], env, tty)
    assert "\x1b[K" not in err
    if "--quiet" in flags:
        assert "declaration(s) checked" not in err  # --quiet also drops the summary
    else:
        assert "declaration(s) checked" in err
