"""Schemathesis against the running service: every answer conforms to the augmented spec.

The augmented document (written by ``xcompleteness generate``) carries the envelope schemas, so
this checks on the wire that the service really returns the declared envelope, the declared
status codes and no 5xx, for generated requests to all four operations.
"""

from __future__ import annotations

import json
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

CHECKS = [
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
    content_type_conformance,
]


def test_every_operation_answers_as_the_augmented_spec_says(service, generated):
    raw = json.loads((Path(generated.__file__).parent / "openapi.augmented.json").read_text())
    schema = schemathesis.openapi.from_dict(raw)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) == 4
    calls: dict[str, set[int]] = {}

    def exercise(op) -> None:
        @given(case=op.as_strategy())
        @settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
        def run(case):
            case.headers = {**(case.headers or {}), "Authorization": "Bearer auditor-token"}
            response = case.call(base_url=service.base_url, timeout=30)
            calls.setdefault(op.label, set()).add(response.status_code)
            case.validate_response(response, checks=CHECKS)

        run()

    for op in operations:
        exercise(op)
    assert set(calls) == {op.label for op in operations}
    assert 200 in calls["GET /service-accounts"]
