"""What a caller of a generated client reads when a call lacks an argument: the keyword it writes.

A new user calling ``client.get_build_artifacts.collect()`` of a generated AppVeyor package read
``missing path parameter(s): jobId``, a name the method does not take (its keyword is
``job_id``). The message names the keyword, and the spec's name beside it when they differ.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from xcompleteness.emit._generate import generate
from xcompleteness.emit._write import write_tree

SPEC = """
openapi: 3.0.3
info: {title: Jobs, version: '1.0'}
paths:
  /jobs/{jobId}/artifacts/{kind}:
    get:
      operationId: listArtifacts
      parameters:
        - {name: jobId, in: path, required: true, schema: {type: string}}
        - {name: kind, in: path, required: true, schema: {type: string}}
      x-completeness:
        kind: collection
        mode: adapter
        scope: {resource: artifacts, visibility: the token's account, snapshot: none}
        items: $response.body#
        pagination: {style: none}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: array, items: {type: object, properties: {name: {type: string}}}}
"""

CALL = """
from jobs_msg.client import Client
with Client("http://127.0.0.1:9") as client:
    try:
        client.list_artifacts.collect(kind="zip")
    except TypeError as exc:
        print(exc)
"""


def test_a_missing_path_parameter_is_named_by_the_keyword_the_caller_writes(tmp_path: Path):
    spec = tmp_path / "jobs.yaml"
    spec.write_text(SPEC, encoding="utf-8")
    write_tree(tmp_path / "out", generate(spec, (), "jobs_msg").files)
    run = subprocess.run(
        [sys.executable, "-c", CALL],
        cwd=tmp_path / "out",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "missing path parameter(s): job_id (spec name jobId)"
