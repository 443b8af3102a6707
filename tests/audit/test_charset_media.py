"""A response written under two JSON media types is read through the one with a schema.

Zuora's Billing description (``tests/audit/specs/charset_media.yaml`` keeps its shape) gives
``application/json`` examples only and ``application/json; charset=utf-8`` the schema, and
types its next-page URL ``format: URL``. Audit drafted such a listing with no items, no id and
"style not recognised" (47 of Zuora's listings, 11 more missed), and ``generate`` modelled its
items from no schema; now audit drafts the walk the schema describes, ``check --strict`` passes
it, and the generated item model has the schema's fields.
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from support.unseen import emitted_drafts
from xcompleteness import api
from xcompleteness.emit._generate import generate

SPEC = Path(__file__).parent / "specs" / "charset_media.yaml"


def test_the_draft_reads_the_schema_of_the_charset_entry_and_its_next_url(tmp_path: Path) -> None:
    (decl,) = emitted_drafts(SPEC, tmp_path).values()
    assert decl["items"] == "$response.body#/creditmemos"
    assert decl["id"] == "/id"
    assert decl["pagination"]["style"] == "next-url"
    assert decl["pagination"]["response"] == {"next": "$response.body#/nextPage"}
    assert not [t for t in decl.get("x-todo", []) if not t.startswith("visibility:")]
    overlay = tmp_path / "answered.yaml"
    draft = yaml.safe_load((tmp_path / "draft.yaml").read_text("utf-8"))
    for action in draft["actions"]:
        action["update"]["x-completeness"].pop("x-todo", None)
        action["update"]["x-completeness"]["scope"]["visibility"] = "the tenant's credit memos"
    overlay.write_text(yaml.safe_dump(draft), encoding="utf-8")
    report = api.check(SPEC, overlays=[overlay], strict=True)
    assert report.exit_code == 0, [(d.code, d.pointer, d.message) for d in report.diagnostics]
    files = generate(SPEC, (overlay,), "charset_media", cache=False).files
    items = next(
        text for path, text in files.items() if path.parts[-2:] == ("_items", "get_credit_memos.py")
    )
    assert "number:" in items and "id:" in items, items
    spec = json.loads(next(t for p, t in files.items() if p.name == "openapi.augmented.json"))
    assert spec["paths"]["/v1/creditmemos"]["get"]["x-completeness"]["items"].endswith(
        "creditmemos"
    )
