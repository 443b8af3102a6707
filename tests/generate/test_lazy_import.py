"""Importing a generated package builds no model and no operation class a caller has not touched.

Checked on the golden service_accounts tree in a fresh interpreter: ``import NAME``, the server
module and ``Client(...)`` leave ``_models`` / ``_items`` / ``_ops`` unloaded; the first use of an
operation loads exactly that operation's module; ``from NAME.models import <Op>Page`` still works.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "service_accounts"
RUNTIME = Path(__file__).resolve().parents[2] / "generator" / "xcompleteness" / "runtime"

PROBE = """
import json, shutil, sys
from pathlib import Path
root = Path(sys.argv[1])
shutil.copytree(sys.argv[2], root / "service_accounts" / "_runtime", dirs_exist_ok=True)
sys.path.insert(0, str(root))

def loaded():
    return sorted(m for m in sys.modules if m.startswith("service_accounts."))

import service_accounts, service_accounts.models, service_accounts.server
client = service_accounts.Client("http://127.0.0.1:9")
after_import = loaded()
op = client.list_service_accounts
after_op = loaded()
same = client.list_service_accounts is op
from service_accounts.models import ListServiceAccountsPage
pages = service_accounts.server.PAGE_MODELS
print(json.dumps({
    "after_import": after_import,
    "after_op": after_op,
    "same": same,
    "op_class": type(op).__name__,
    "page_is_model": ListServiceAccountsPage is pages["listServiceAccounts"],
    "page_module": ListServiceAccountsPage.__module__,
}))
"""


def test_import_and_client_build_nothing_until_used(tmp_path: Path) -> None:
    shutil.copytree(GOLDEN, tmp_path, dirs_exist_ok=True)
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, str(tmp_path), str(RUNTIME)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    lazy = ("service_accounts._models", "service_accounts._items")
    assert not [m for m in out["after_import"] if m in lazy or "._ops." in m]
    ops = [m for m in out["after_op"] if "._ops." in m]
    assert ops == ["service_accounts._ops.list_service_accounts"]
    assert "service_accounts._models" in out["after_op"]
    assert out["same"] is True
    assert out["op_class"] == "ListServiceAccountsOperation"
    assert out["page_is_model"] is True
    assert out["page_module"] == "service_accounts._models"
