"""check_spec as a library: where findings point, what the result carries, no hangs."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import yaml
from xcompleteness.check._pipeline import check_spec
from xcompleteness.diagnostics import InputError
from xcompleteness.load import load_spec
from xcompleteness.rules._locations import Found, schema_lookup

INVALID = Path(__file__).resolve().parents[1] / "invalid"


def test_findings_in_overlay_written_nodes_point_at_the_overlay() -> None:
    case = INVALID / "overlay_ok_finding_in_overlay"
    result = check_spec(INVALID / "base.yaml", [case / "overlay.yaml"], today=dt.date(2026, 1, 1))
    (diag,) = result.diagnostics
    assert diag.code == "XC123"
    assert diag.file == str(case / "overlay.yaml")
    overlay_lines = (case / "overlay.yaml").read_text(encoding="utf-8").splitlines()
    assert "omitted-fields" in overlay_lines[diag.line - 1]
    # the overlay's reasons replaced the base ones, in the contract too
    codes = [r.code for r in result.contracts["listThings"].reasons]
    assert codes == ["MORE_PAGES_AVAILABLE", "CURSOR_EXPIRED"]


def test_findings_in_the_base_keep_base_lines() -> None:
    spec = INVALID / "rule_XC104_id_missing" / "spec.yaml"
    (diag,) = check_spec(spec).diagnostics
    assert diag.file == str(spec)
    assert diag.line is not None
    assert "id:" in spec.read_text(encoding="utf-8").splitlines()[diag.line - 1]


def test_result_carries_contracts_and_registry() -> None:
    result = check_spec(INVALID / "base.yaml", today=dt.date(2026, 1, 1))
    assert not result.has_errors
    assert set(result.contracts) == {"listThings", "searchThings", "getThing", "archiveThings"}
    assert result.registry.reason("SHARD_MOVING") is not None
    # invalid declarations are left out of the contracts, valid ones stay
    broken = check_spec(INVALID / "vocab_unknown_key" / "spec.yaml")
    assert "listThings" not in broken.contracts and "getThing" in broken.contracts


def test_location_lookup_is_three_valued_and_terminates(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "openapi: 3.1.0\ncomponents:\n  schemas:\n"
        "    Node:\n      type: object\n      properties:\n"
        "        id: {type: string}\n"
        "        kids: {type: array, items: {$ref: '#/components/schemas/Node'}}\n"
        "    Open: {type: object}\n"
        "    Map: {type: object, additionalProperties: {$ref: '#/components/schemas/Node'}}\n"
        "    Both: {allOf: [{$ref: '#/components/schemas/Node'}, {properties: {extra: {}}}]}\n"
        "    Ext: {$ref: 'other.yaml#/X'}\n",
        encoding="utf-8",
    )
    try:  # the external ref is refused by the loader; read the schemas as plain data
        load_spec(spec)
    except InputError as exc:
        assert exc.diagnostics[0].code == "XC008"
    data = yaml.safe_load(spec.read_text(encoding="utf-8"))
    s = data["components"]["schemas"]
    assert schema_lookup(data, s["Node"], ("kids", "0", "kids", "3", "id")) is Found.FOUND
    assert schema_lookup(data, s["Node"], ("kids", "0", "nope")) is Found.MISSING
    assert schema_lookup(data, s["Open"], ("anything",)) is Found.UNKNOWN
    assert schema_lookup(data, s["Map"], ("any-key", "id")) is Found.FOUND
    assert schema_lookup(data, s["Both"], ("extra",)) is Found.FOUND
    assert schema_lookup(data, s["Both"], ("id",)) is Found.FOUND
    assert schema_lookup(data, s["Ext"], ("id",)) is Found.UNKNOWN
    deep = ("kids", "0") * 3000  # a recursive schema walked very deep: bounded, no hang
    assert schema_lookup(data, s["Node"], (*deep, "id")) in (Found.FOUND, Found.UNKNOWN)
