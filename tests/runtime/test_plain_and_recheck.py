"""runtime/plain.py (ids inside items, shared by decide and the tool layer) and runtime/recheck.py
(the per-target pass/fail rule), tested directly; the MCP path is in tests/tools/test_recheck.py."""

from __future__ import annotations

from pydantic import BaseModel
from xcompleteness.runtime.contract import Contract
from xcompleteness.runtime.decide import Intent, decide
from xcompleteness.runtime.plain import item_id
from xcompleteness.runtime.recheck import read_failure, recheck_targets, target_param

OMITTED = "$response.body#/omitted_fields"


class Item(BaseModel):
    id: str
    meta: dict[str, object] = {}


def test_item_id_reads_dicts_models_and_escaped_pointers_and_rejects_non_ids() -> None:
    assert item_id({"a/b": {"~k": 7}}, "/a~1b/~0k") == "7"
    assert item_id(Item(id="x"), "/id") == "x"
    assert item_id({"list": ["p", "q"]}, "/list/1") == "q"
    for bad in ({"id": None}, {"id": True}, {"id": {"n": 1}}, {}, {"list": []}):
        assert item_id(bad, "/id") is None


def test_decide_and_the_tool_layer_agree_that_a_boolean_is_no_id() -> None:
    env = {"status": "complete", "completeness": {"complete": True, "reasons": []}}
    env["data"] = {"items": [{"id": True}]}
    decision = decide(env, Intent.DESTRUCTIVE_ON_LISTED_IDS, targets=["True"])
    assert decision.rule == "destructive.listed.outside" and decision.outside == ("True",)


def _read(path: str) -> Contract:
    return Contract.from_dict({"operation_id": "getItem", "kind": "resource", "path": path})


def test_target_param_needs_exactly_one_path_parameter() -> None:
    assert target_param(_read("/items/{id}")) == "id"
    assert target_param(_read("/orgs/{org}/items/{id}")) is None
    assert target_param(_read("/items")) is None


def test_targets_come_from_the_parameter_or_a_plural_body_array() -> None:
    assert recheck_targets("id", {"id": 5}, params=("id",), body=()) == (["5"], None)
    assert recheck_targets("id", {"ids": ["a"]}, params=(), body=("ids",)) == (["a"], "ids")
    assert recheck_targets("sku", {"skus": ["a"]}, params=(), body=("skus",)) == (["a"], "skus")
    assert recheck_targets("id", {"names": ["a"]}, params=(), body=("names",)) == (None, None)


def test_a_read_passes_only_when_it_exists_and_nothing_was_withheld() -> None:
    ok = read_failure("a", lambda: {"id": "a", "omitted_fields": {"x": "NOT_PRESENT"}}, OMITTED)
    assert ok is None
    assert read_failure("a", lambda: Item(id="a"), None) is None
    hidden = read_failure("a", lambda: {"omitted_fields": {"x": "SOURCE_FAILED"}}, OMITTED)
    assert hidden is not None and hidden.code == "TARGET_INCOMPLETE"


def test_unreadable_omission_maps_and_failed_reads_fail_closed() -> None:
    class NotFound(Exception):
        status = 404

    def missing() -> object:
        raise NotFound

    def broken() -> object:
        raise OSError("reset")

    assert read_failure("a", missing, OMITTED).code == "TARGET_NOT_FOUND"
    assert read_failure("a", broken, OMITTED).detail == "OSError"
    assert read_failure("a", lambda: {"omitted_fields": ["x"]}, OMITTED).code == "TARGET_INCOMPLETE"
    header = read_failure("a", lambda: {}, "$response.header.X-Omitted")
    assert header is not None and header.code == "TARGET_INCOMPLETE"
