"""``x-completeness-defaults``: merged into every listing, the operation wins, reasons union.

specs/defaults.yaml carries the block inline; the same block applied by an overlay gives the same
contracts. ``check --show-effective`` prints the merge.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from xcompleteness.check._pipeline import check_spec
from xcompleteness.declare import defaulted_keys, effective_declaration

SPECS = Path(__file__).parent / "specs"
SPEC = SPECS / "defaults.yaml"


def test_listings_inherit_what_they_leave_out() -> None:
    result = check_spec(SPEC)
    assert [d for d in result.diagnostics if d.severity.value == "error"] == []
    things = result.contracts["listThings"].to_dict()
    assert things["mode"] == "adapter"
    assert things["scope"] == {
        "resource": "things",
        "visibility": "what the key can read",
        "snapshot": "request",
        "covers": None,
    }
    assert [r["code"] for r in things["reasons"]] == [
        "MORE_PAGES_AVAILABLE",
        "VISIBILITY_RESTRICTED",
    ]
    assert things["reasons"][1]["when"] == {"equals": ["$statusCode", 206]}
    assert things["warnings"] == ["STALE_INDEX"]


def test_the_operation_wins_and_reasons_are_a_union_by_code() -> None:
    others = check_spec(SPEC).contracts["listOthers"].to_dict()
    assert others["mode"] == "native"  # its own mode, so the default's adapter `when` is not added
    assert others["scope"]["visibility"] == "every other"
    assert others["scope"]["snapshot"] == "none"
    assert [(r["code"], r["when"]) for r in others["reasons"]] == [("VISIBILITY_RESTRICTED", None)]
    assert others["warnings"] == ["STALE_INDEX"]


def test_non_listings_take_no_defaults() -> None:
    thing = check_spec(SPEC).contracts["getThing"].to_dict()
    assert thing["mode"] == "native" and thing["reasons"] == [] and thing["warnings"] == []
    decl = {"kind": "mutation", "recheck": {"each-target": "getThing"}}
    defaults = {"reasons": ["VISIBILITY_RESTRICTED"], "mode": "adapter"}
    assert effective_declaration(decl, defaults) == decl


def test_merge_reports_what_came_from_the_defaults() -> None:
    decl = {"kind": "search", "scope": {"resource": "x", "snapshot": "none"}}
    defaults = {"scope": {"visibility": "v", "snapshot": "token"}, "warnings": ["STALE_INDEX"]}
    merged = effective_declaration(decl, defaults)
    assert merged["scope"] == {"resource": "x", "snapshot": "none", "visibility": "v"}
    assert defaulted_keys(decl, merged) == ["scope.visibility", "warnings"]
    assert decl == {"kind": "search", "scope": {"resource": "x", "snapshot": "none"}}  # unchanged


def test_the_block_can_come_from_an_overlay(tmp_path: Path) -> None:
    doc = yaml.safe_load(SPEC.read_text(encoding="utf-8"))
    block = doc.pop("x-completeness-defaults")
    bare = tmp_path / "bare.yaml"
    bare.write_text(yaml.safe_dump(doc), encoding="utf-8")
    overlay = tmp_path / "defaults.overlay.yaml"
    overlay.write_text(
        yaml.safe_dump(
            {
                "overlay": "1.0.0",
                "info": {"title": "defaults", "version": "1"},
                "actions": [{"target": "$", "update": {"x-completeness-defaults": block}}],
            }
        ),
        encoding="utf-8",
    )
    assert check_spec(bare, [overlay]).contracts == check_spec(SPEC).contracts
    without = check_spec(bare)  # listThings relies on the default adapter mode for its `when`
    assert "listThings" not in without.contracts
    assert "XC050" in {d.code for d in without.diagnostics}


@pytest.mark.parametrize(
    ("block", "code", "pointer"),
    [
        ({"scope": {"resource": "x"}}, "XC041", "/x-completeness-defaults/scope/resource"),
        ({"reasons": ["not a code"]}, "XC044", "/x-completeness-defaults/reasons/0"),
        (
            {"drafts": {"unpaginated": "maybe"}},
            "XC043",
            "/x-completeness-defaults/drafts/unpaginated",
        ),
    ],
)
def test_a_bad_block_is_reported_at_its_pointer_and_builds_no_contract(
    tmp_path: Path, block: dict, code: str, pointer: str
) -> None:
    doc = yaml.safe_load(SPEC.read_text(encoding="utf-8"))
    doc["x-completeness-defaults"] = {"mode": "adapter", **block}
    spec = tmp_path / "spec.yaml"
    spec.write_text(yaml.safe_dump(doc), encoding="utf-8")
    result = check_spec(spec)
    errors = [(d.code, d.pointer) for d in result.diagnostics if d.severity.value == "error"]
    assert errors[0] == (code, pointer)
    assert all(p.startswith(("/x-completeness-defaults", "/paths/")) for _, p in errors)
    assert result.contracts == {}


def test_a_default_reason_is_checked_on_every_listing_it_reaches(tmp_path: Path) -> None:
    doc = yaml.safe_load(SPEC.read_text(encoding="utf-8"))
    doc["x-completeness-defaults"] = {"mode": "adapter", "reasons": ["NOT_A_KNOWN_CODE"]}
    spec = tmp_path / "spec.yaml"
    spec.write_text(yaml.safe_dump(doc), encoding="utf-8")
    xc110 = [d for d in check_spec(spec).diagnostics if d.code == "XC110"]
    assert len(xc110) == 2  # listThings and listOthers, not the single read


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "xcompleteness", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_show_effective_prints_the_merge_in_text_and_json() -> None:
    text = _cli("check", str(SPEC), "--show-effective", "listThings")
    assert text.returncode == 0, text.stderr
    shown = yaml.safe_load(text.stdout)
    assert shown["from_defaults"] == [
        "mode",
        "scope.visibility",
        "scope.snapshot",
        "reasons",
        "warnings",
    ]
    assert shown["effective"]["scope"]["visibility"] == "what the key can read"
    assert shown["contract"]["warnings"] == ["STALE_INDEX"]
    assert "x-completeness-defaults merged into 2 listing(s)" in text.stderr
    js = _cli("check", str(SPEC), "--show-effective", "listThings", "--format", "json")
    out = json.loads(js.stdout)
    assert out["diagnostics"] == [] and out["effective"]["effective"] == shown["effective"]


def test_show_effective_of_an_unknown_operation_is_unusable_input() -> None:
    proc = _cli("check", str(SPEC), "--show-effective", "noSuchOperation")
    assert proc.returncode == 2
    assert "XC150" in proc.stderr and "noSuchOperation" in proc.stderr
    assert "Traceback" not in proc.stderr


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda kids: (
        st.lists(kids, max_size=4)
        | st.dictionaries(
            st.sampled_from(["kind", "scope", "reasons", "warnings", "mode", "visibility", "code"])
            | st.text(max_size=4),
            kids,
            max_size=5,
        )
    ),
    max_leaves=25,
)


@settings(max_examples=200, deadline=None)
@given(_JSON, _JSON, st.sampled_from(["collection", "search", "resource", "none", 3]))
def test_the_merge_never_raises_and_never_changes_its_inputs(
    decl: object, defaults: object, kind: object
) -> None:
    import copy

    if isinstance(decl, dict):
        decl = {**decl, "kind": kind}
    before = (copy.deepcopy(decl), copy.deepcopy(defaults))
    merged = effective_declaration(decl, defaults)  # type: ignore[arg-type]
    defaulted_keys(decl, merged)
    assert (decl, defaults) == before
    if not isinstance(decl, dict) or kind not in ("collection", "search"):
        assert merged == decl
