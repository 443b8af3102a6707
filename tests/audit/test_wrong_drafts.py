"""Issue 11's wrong drafts, reproduced on cut-down copies of the real operations.

specs/wrong_drafts.yaml holds them. Each case asserts what the draft now says (or that the
operation is no listing, or is excluded with its reason); the same cases on the real Stripe,
Kubernetes and DigitalOcean specs are in test_corpus_drafts.py (corpus marker).
"""

from __future__ import annotations

from pathlib import Path

import yaml
from xcompleteness.audit._draft import draft_declaration
from xcompleteness.audit._report import audit_document
from xcompleteness.detect._listlike import scan_all, undeclared_listings

SPEC = yaml.safe_load((Path(__file__).parent / "specs" / "wrong_drafts.yaml").read_text("utf-8"))
FOUND, EXCLUDED = scan_all(SPEC)
BY_PATH = {f.path: f for f in FOUND}


def test_stripe_search_text_page_is_a_cursor_fed_from_next_page() -> None:
    decl = draft_declaration(BY_PATH["/v1/charges/search"])
    assert decl["kind"] == "search"
    assert decl["pagination"] == {
        "style": "cursor",
        "request": {"cursor": "page", "size": "limit"},
        # totals2: total_count beside the next page token is the total the walk compares with
        "response": {"next": "$response.body#/next_page", "total": "$response.body#/total_count"},
    }


def test_a_noun_containing_query_is_no_search() -> None:
    decl = draft_declaration(BY_PATH["/v1/sigma/scheduled_query_runs"])
    assert decl["kind"] == "collection"
    assert decl["pagination"]["response"] == {"next": {"last-item": "/id"}}


def test_a_timestamp_start_is_no_offset() -> None:
    f = BY_PATH.get("/v2/monitoring/metrics/droplet/cpu")
    assert f is None or (f.style != "offset" and "offset" not in f.request)


def test_single_reads_ending_in_a_path_parameter_are_no_listings() -> None:
    for path in (
        "/v1/files/{file}",
        "/v2/volumes/{volume_id}/actions/{action_id}",
        "/apis/rbac.authorization.k8s.io/v1/namespaces/{namespace}/roles/{name}",
    ):
        assert path not in BY_PATH, path
        assert not any(path in p for p in map(str, undeclared_listings(SPEC)))


def test_streams_are_excluded_with_a_reason_and_lists_that_can_stream_are_not() -> None:
    excluded = {e.path: e for e in EXCLUDED}
    assert sorted(excluded) == ["/api/v1/watch/namespaces/{namespace}/pods", "/events"]
    assert all(e.source == "stream" for e in excluded.values())
    assert (
        "x-kubernetes-action: watchlist"
        in excluded["/api/v1/watch/namespaces/{namespace}/pods"].why
    )
    assert "text/event-stream" in excluded["/events"].why
    pods = draft_declaration(BY_PATH["/api/v1/namespaces/{namespace}/pods"])
    assert pods["pagination"]["response"] == {"next": "$response.body#/metadata/continue"}


def test_audit_reports_exclusions_in_text_and_json() -> None:
    report = audit_document(SPEC, origin="wrong_drafts.yaml")
    assert [e["source"] for e in report.to_json()["excluded"]] == ["stream", "stream"]
    assert "excluded GET /events  streamEvents  (stream: streaming response" in report.to_text()


def test_an_item_id_cursor_is_only_assumed_for_item_id_parameter_names() -> None:
    doc = yaml.safe_load(yaml.safe_dump(SPEC))
    op = doc["paths"]["/v1/sigma/scheduled_query_runs"]["get"]
    op["parameters"][1]["name"] = "page_token"  # a token cursor: has_more alone cannot feed it
    f = {x.path: x for x in scan_all(doc)[0]}["/v1/sigma/scheduled_query_runs"]
    decl = draft_declaration(f)
    assert "pagination" not in decl
    assert any(t.startswith("pagination: cursor parameter page_token") for t in decl["x-todo"])
