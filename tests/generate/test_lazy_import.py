"""The first call of one operation imports and builds only that operation's models.

Checked on the golden service_accounts tree in a fresh interpreter against a real uvicorn server
on 127.0.0.1: ``import NAME``, the server module and ``Client(...)`` load no model module;
``client.list_service_accounts.page()`` loads exactly that operation's modules (its ``_ops`` and
``_models`` module and the item module it reaches) and builds its envelope, while the other
operations' modules stay out of ``sys.modules``; a model imported but not used is not built; the
public names (``from NAME.models import ...``, ``PAGE_MODELS``, ``RESULT_MODELS``) still resolve.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from support.fault_server import serve

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "service_accounts"
RUNTIME = Path(__file__).resolve().parents[2] / "generator" / "xcompleteness" / "runtime"

PAGE = {
    "items": [{"id": "svc-1", "name": "deploy bot", "status": "active"}],
    "complete": True,
    "incomplete_reasons": [],
    "next_cursor": None,
    "scope": {"resource": "service_accounts", "snapshot": "s1"},
    "warnings": [],
}


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """GET /service-accounts answers one complete page; anything else is a 404."""
    if scope["type"] != "http":
        return
    found = scope["path"] == "/service-accounts"
    raw = json.dumps(PAGE if found else {"error": "not found"}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(raw))]
    await send({"type": "http.response.start", "status": 200 if found else 404, "headers": headers})
    await send({"type": "http.response.body", "body": raw})


PROBE = """
import json, shutil, sys
from pathlib import Path
root = Path(sys.argv[1])
shutil.copytree(sys.argv[2], root / "service_accounts" / "_runtime", dirs_exist_ok=True)
sys.path.insert(0, str(root))
from pydantic import BaseModel

def loaded():
    return sorted(m for m in sys.modules if m.startswith("service_accounts."))

def models_in_memory():
    out = {}
    for name in loaded():
        if "._runtime" in name:
            continue
        for value in vars(sys.modules[name]).values():
            if isinstance(value, type) and issubclass(value, BaseModel):
                if value.__module__ == name:
                    out[value.__qualname__] = bool(value.__dict__.get("__pydantic_complete__"))
    return out

import service_accounts, service_accounts.models, service_accounts.server
client = service_accounts.Client(sys.argv[3])
after_import = loaded()
op = client.list_service_accounts
page = op.page()
after_call = loaded()
models_after_call = models_in_memory()
first_item = page.items[0]
after_read = loaded()
models_after_read = models_in_memory()
same = client.list_service_accounts is op
from service_accounts.models import SearchServiceAccountsPage
search_built = bool(SearchServiceAccountsPage.__dict__.get("__pydantic_complete__"))
after_search_import = loaded()
from service_accounts.models import (
    GetServiceAccountResult, ListServiceAccountsPage, ServiceAccount, ShardRebalancingReason,
)
from service_accounts import models
pages, results = models.PAGE_MODELS, models.RESULT_MODELS
print(json.dumps({
    "after_import": after_import,
    "after_call": after_call,
    "models_after_call": models_after_call,
    "after_read": after_read,
    "models_after_read": models_after_read,
    "after_search_import": after_search_import,
    "search_built": search_built,
    "same": same,
    "op_class": type(op).__name__,
    "page_type": type(page).__name__,
    "item_type": type(page.items[0]).__name__,
    "page_is_listed": ListServiceAccountsPage is pages["listServiceAccounts"],
    "search_is_listed": SearchServiceAccountsPage is pages["searchServiceAccounts"],
    "result_is_listed": GetServiceAccountResult is results["getServiceAccount"],
    "result_base": GetServiceAccountResult.__mro__[1].__name__,
    "page_keys": sorted(pages), "result_keys": sorted(results),
    "item_is_page_item": page.items[0].__class__ is ServiceAccount,
    "custom_code": ShardRebalancingReason(shard="s-1").code,
    "all_resolve": all(hasattr(models, n) for n in models.__all__),
    "dir_has_all": set(models.__all__) <= set(dir(models)),
}))
"""


def _probe(tmp_path: Path) -> dict[str, Any]:
    shutil.copytree(GOLDEN, tmp_path, dirs_exist_ok=True)
    with serve(app) as base:
        proc = subprocess.run(
            [sys.executable, "-c", PROBE, str(tmp_path), str(RUNTIME), base],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_one_call_imports_and_builds_only_its_models(tmp_path: Path) -> None:
    out = _probe(tmp_path)
    pkg = "service_accounts."
    model_modules = ("_models", "_items", "_codes", "_ops")
    assert not [m for m in out["after_import"] if m.removeprefix(pkg).startswith(model_modules)]
    assert out["page_type"] == "ListServiceAccountsPage"
    assert out["item_type"] == "ServiceAccount" and out["item_is_page_item"] is True
    # exactly the called operation's modules; its items are validated on first read
    # (docs/client.md#what-is-validated-when), so no item module yet
    loaded = {m.removeprefix(pkg) for m in out["after_call"]}
    assert {m for m in loaded if m.startswith(model_modules)} == {
        "_models",
        "_models.list_service_accounts",
        "_ops",
        "_ops.list_service_accounts",
    }
    # the other operations' models are neither imported nor built
    in_memory = out["models_after_call"]
    for other in ("SearchServiceAccountsPage", "GetServiceAccountResult", "ShardRebalancingReason"):
        assert other not in in_memory
    assert "Owner" not in in_memory and "ServiceAccount" not in in_memory
    # reading the items imports the shared item module they live in, and builds their model
    read = {m.removeprefix(pkg) for m in out["after_read"]} - loaded
    assert {m for m in read if m.startswith(model_modules)} == {"_items", "_items._shared_owner"}
    assert out["models_after_read"]["ServiceAccount"] is True
    # importing a model does not build it; its own operation's modules come with it, no others
    assert out["search_built"] is False
    extra = set(out["after_search_import"]) - set(out["after_read"])
    assert extra == {pkg + "_models.search_service_accounts", pkg + "_codes"}
    assert out["same"] is True and out["op_class"] == "ListServiceAccountsOperation"


def test_public_names_still_resolve_after_the_split(tmp_path: Path) -> None:
    out = _probe(tmp_path)
    assert out["page_is_listed"] and out["search_is_listed"] and out["result_is_listed"]
    assert out["result_base"] == "GetServiceAccountResponse"
    assert out["page_keys"] == ["listServiceAccounts", "searchServiceAccounts"]
    assert out["result_keys"] == ["getServiceAccount"]
    assert out["custom_code"] == "SHARD_REBALANCING"
    assert out["all_resolve"] is True and out["dir_has_all"] is True
