"""check reuses the ``$ref`` list of the loader's one walk (``SourceDoc.refs``) instead of walking
a large document again; that list must be exactly what a fresh walk finds, with or without
overlays, and the OpenAPI verdict must not depend on which of the two the keyword walk reads."""

from __future__ import annotations

from pathlib import Path

import pytest
from xcompleteness.check._validate import validate_openapi
from xcompleteness.document import iter_refs
from xcompleteness.load import load_document, load_spec

ROOT = Path(__file__).resolve().parents[2]
CASES = [
    ("examples/service_accounts/base.yaml", ()),
    ("examples/service_accounts/base.yaml", ("examples/service_accounts/overlay.yaml",)),
    ("examples/link_header_search/base.yaml", ("examples/link_header_search/overlay.yaml",)),
    ("examples/github/excerpt.yaml", ("examples/github/overlay.yaml",)),
]


@pytest.mark.parametrize(("spec", "overlays"), CASES)
def test_the_loader_lists_every_ref_a_fresh_walk_finds(spec: str, overlays: tuple[str, ...]):
    doc = load_document(ROOT / spec, [ROOT / o for o in overlays])
    assert doc.refs is not None
    assert sorted(doc.refs) == sorted(iter_refs(doc.data))
    assert doc.refs  # the cases do use refs: an empty list would prove nothing


def test_the_verdict_is_the_same_with_and_without_the_loaders_list(tmp_path: Path) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text(
        '{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/a": {"get": '
        '{"parameters": [{"$ref": "#/components/parameters/P"}, {"$ref": '
        '"#/components/parameters/P"}], "responses": {"200": {"description": "ok"}}}}}, '
        '"components": {"parameters": {"P": {"name": "p", "in": "query", "schema": '
        '{"type": "string"}}}}}',
        encoding="utf-8",
    )
    doc = load_spec(spec)
    assert doc.refs
    with_list = validate_openapi(doc)
    without = validate_openapi(type(doc)(doc.path, doc.data, doc.lines, doc.origin))
    assert [d.code for d in with_list] == ["XC030"]  # the duplicate parameter
    assert with_list == without
