"""What a caller of a generated client reads when a call lacks an argument: the keyword it writes.

A new user calling ``client.get_build_artifacts.collect()`` of a generated AppVeyor package read
``missing path parameter(s): jobId``, a name the method does not take (its keyword is
``job_id``). A path parameter is a required keyword of the signature, renamed or not, so the
type checker flags the call (``tests/golden/test_typing.py``) and Python's own message names the
keyword; the runtime's message (the keyword, and the spec's name beside it when they differ) is
left for a ``None`` passed where the path needs a value.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from support import jobs
from xcompleteness.emit._generate import generate
from xcompleteness.emit._write import write_tree

CALL = """
import inspect
from jobs_msg.client import Client
with Client("http://127.0.0.1:9") as client:
    for call in (lambda: client.list_artifacts.collect(kind="zip"),
                 lambda: client.list_artifacts.collect(job_id=None, kind="zip")):
        try:
            call()
        except TypeError as exc:
            print(exc)
    signature = inspect.signature(client.list_artifacts.page)
    print(signature.parameters["job_id"].default is inspect.Parameter.empty,
          signature.parameters["job_id"].annotation)
"""


def test_a_missing_path_parameter_is_named_by_the_keyword_the_caller_writes(tmp_path: Path):
    spec = tmp_path / "jobs.yaml"
    listing = jobs.listing("/jobs/{jobId}/artifacts/{kind}", "listArtifacts", "jobId", "kind")
    spec.write_text(jobs.spec(listing), encoding="utf-8")
    write_tree(tmp_path / "out", generate(spec, (), "jobs_msg").files)
    run = subprocess.run(
        [sys.executable, "-c", CALL],
        cwd=tmp_path / "out",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    signature_error, none_error, typed = run.stdout.strip().splitlines()
    # the renamed path parameter is a required keyword: Python refuses the call itself
    assert "missing 1 required keyword-only argument: 'job_id'" in signature_error
    assert none_error == "missing path parameter(s): job_id (spec name jobId)"
    assert typed == "True str"


BUILTIN_CALL = """
import sys
from jobs_builtin.client import Client
with Client(sys.argv[1]) as client:
    for kwargs in ({"id": "42"}, {"id_": "42"}):
        result = client.list_artifacts.collect(**kwargs)
        print(result.complete, len(result.items) > 0)
    try:
        client.list_artifacts.collect()
    except TypeError as exc:
        print(exc)
"""


def test_a_builtin_named_path_parameter_is_sent_under_either_keyword(tmp_path: Path):
    """``/jobs/{id}/artifacts``: ``collect(id=...)`` (the spec's name) and ``collect(id_=...)``
    (the signature's keyword) both reach the API on loopback; the overloads that make one of
    them required for a type checker change no call that worked."""
    from support.mock_proc import mock_in_thread

    spec = tmp_path / "jobs.yaml"
    spec.write_text(
        jobs.spec(jobs.listing("/jobs/{id}/artifacts", "listArtifacts", "id")), encoding="utf-8"
    )
    write_tree(tmp_path / "out", generate(spec, (), "jobs_builtin").files)
    with mock_in_thread(spec, "items: 3\n") as url:
        run = subprocess.run(
            [sys.executable, "-c", BUILTIN_CALL, url],
            cwd=tmp_path / "out",
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().splitlines() == [
        "True True",
        "True True",
        "missing path parameter(s): id_ (spec name id)",
    ]
