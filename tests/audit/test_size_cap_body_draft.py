"""audit drafts a POST search sized in its JSON body (``{"kind": K, "limit": N}``, no position)
as one answer capped by that body property, and the draft, generated and walked against a real
loopback API, reads a full answer as RESULT_LIMIT_REACHED.

The spec is tests/client/specs/size_cap_body.yaml with its declaration removed. Main drafted the
search ``style: none`` with no size: the walk sent no ``limit``, the API answered its default 2
of 9 events, and the result said complete.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml
from support.fault_server import serve
from support.gen import import_generated
from support.unseen import emitted_drafts
from xcompleteness import api
from xcompleteness.emit._generate import generate
from xcompleteness.emit._write import write_tree

CLIENT = Path(__file__).resolve().parents[1] / "client"
sys.path.insert(0, str(CLIENT))
from test_size_cap_body import Fake, make_app  # noqa: E402

BODY_LIMIT = "$request.body#/limit"


def _undeclared_spec(tmp_path: Path) -> Path:
    data = yaml.safe_load((CLIENT / "specs" / "size_cap_body.yaml").read_text("utf-8"))
    del data["paths"]["/events/search"]["post"]["x-completeness"]
    spec = tmp_path / "spec.yaml"
    spec.write_text(yaml.safe_dump(data, sort_keys=False), "utf-8")
    return spec


def test_a_body_size_is_drafted_as_the_cap_of_one_answer(tmp_path):
    spec = _undeclared_spec(tmp_path)
    decl = emitted_drafts(spec, tmp_path)["/events/search"]
    assert decl["pagination"] == {
        "style": "none",
        "request": {"size": BODY_LIMIT},
        "max-page-size": 5,  # the property's schema maximum: nothing asked
    }
    assert {"code": "RESULT_LIMIT_REACHED"} in decl["reasons"]
    assert not [t for t in decl["x-todo"] if t.startswith("pagination:")]
    result = api.check(spec, [tmp_path / "draft.yaml"])
    assert {d.code for d in result.diagnostics} == {"XC900"}, result.diagnostics


def test_the_drafted_body_size_reads_a_full_answer_as_result_limit_reached(tmp_path):
    spec = _undeclared_spec(tmp_path)
    emitted_drafts(spec, tmp_path)
    out = tmp_path / "gen"
    write_tree(out, generate(spec, (tmp_path / "draft.yaml",), "audit_body_cap").files)
    pkg = import_generated(out, "audit_body_cap")
    fake = Fake()
    with serve(make_app(fake)) as base, pkg.Client(base) as client:
        full = client.search_events.collect(kind="many")
        short = client.search_events.collect(kind="few")
    assert not full.complete and len(full.items) == 5
    assert [(r.code, r.limit) for r in full.reasons] == [("RESULT_LIMIT_REACHED", 5)]
    assert short.complete and len(short.items) == 3
    assert fake.bodies == [{"kind": "many", "limit": 5}, {"kind": "few", "limit": 5}]


def test_a_body_property_that_reads_like_a_position_keeps_the_cap_and_asks(tmp_path):
    # Search Console's searchAnalytics.query: rowLimit beside a body startRow; one capped answer
    # may be a walk by startRow, which no paging rule reads in a body: asked, cap kept
    spec = _undeclared_spec(tmp_path)
    data = yaml.safe_load(spec.read_text("utf-8"))
    body = data["paths"]["/events/search"]["post"]["requestBody"]["content"]["application/json"]
    body["schema"]["properties"]["startRow"] = {
        "type": "integer",
        "description": "Zero-based index of the first row in the response.",
    }
    spec.write_text(yaml.safe_dump(data, sort_keys=False), "utf-8")
    decl = emitted_drafts(spec, tmp_path)["/events/search"]
    assert decl["pagination"]["request"] == {"size": BODY_LIMIT}
    [todo] = [t for t in decl["x-todo"] if t.startswith("pagination:")]
    assert f"startRow beside the page size {BODY_LIMIT}" in todo
