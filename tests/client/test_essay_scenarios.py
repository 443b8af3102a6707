"""The essay's scenarios (tests/client/fixtures/essay_scenarios.json), replayed through the walk."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.fault_server import native_contract
from support.walk_helpers import scripted
from xcompleteness.runtime.decide import decide
from xcompleteness.runtime.walk import Limits, Walker

FIXTURES = json.loads((Path(__file__).parent / "fixtures" / "essay_scenarios.json").read_text())
SCENARIOS = {s["case"]: s for s in FIXTURES["scenarios"]}


@pytest.mark.parametrize("case", sorted(SCENARIOS))
def test_essay_scenario(case):
    scenario = SCENARIOS[case]
    log: list = []
    fetch = scripted([(200, {}, page) for page in scenario["pages"]], log)
    result = Walker(native_contract(), fetch).collect({}, Limits(**scenario["limits"]))
    expected = scenario["expected"]
    assert result.complete is expected["complete"]
    assert [item["id"] for item in result.items] == expected["ids"]
    assert result.codes == expected["codes"]
    assert len(log) == expected["requests"]
    if "origin" in expected:
        assert {r.origin for r in result.reasons} == {expected["origin"]}
    if "continuation" in expected:
        assert result.continuation.model_dump(exclude_none=True) == expected["continuation"]


def test_after_the_empty_first_page_the_decision_is_to_continue():
    scenario = SCENARIOS["empty first page with more pages"]
    page = Walker(native_contract(), scripted([(200, {}, scenario["pages"][0])])).page()
    assert page.items == [] and page.next_cursor == "cursor-2"
    decision = decide(page.envelope, "absence_claim")
    assert decision.action.value == scenario["expected_agent_decision_after_first_page"]
