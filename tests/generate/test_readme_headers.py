"""The generated README names every header the API requires, and its MCP command works as shown.

The tools never offer a header parameter to the model, so the MCP server's host sends them
(``--header``). The README showed one credential header at most: Data2CRM requires two keys
(``X-API2CRM-USER-KEY`` and ``X-API2CRM-APPLICATION-KEY``) and its README named the second only;
Walmart's Item API requires ``WM_CONSUMER.ID``, ``WM_SEC.AUTH_SIGNATURE``, ``WM_SVC.NAME``...
(none named like a key) and its README said ``Authorization: Bearer ...``. Every call made as
the README said answered 401. ``tests/client/specs/path_delete_204.yaml`` has the three shapes:
two keys and one header that names no credential, all required; a loopback uvicorn fake refuses
a request without any of them.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path, PurePosixPath

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from support.fault_server import serve
from support.gen import import_generated
from support.walks import call_tools
from xcompleteness.emit._generate import generate
from xcompleteness.emit._write import write_tree

SPEC = Path(__file__).parents[1] / "client" / "specs" / "path_delete_204.yaml"
PACKAGE = "gen_area_readme_headers"
NEEDED = ("X-CRM-User-Key", "X-CRM-Application-Key", "WM_SVC.NAME")


def _fake() -> FastAPI:
    app = FastAPI()

    @app.get("/contacts/list")
    def contacts(request: Request):
        if any(not request.headers.get(h) for h in NEEDED):
            return JSONResponse({"message": "missing a required header"}, 401)
        return {"content": [{"contactId": "c1"}], "page": {"totalPages": 1, "page": 1}}

    return app


def _readme_headers(readme: str) -> dict[str, str]:
    """The ``--header`` values of the README's first MCP command, as a host would copy them."""
    line = next(s for s in readme.splitlines() if s.startswith("gen-area-readme-headers-mcp"))
    words = shlex.split(line)
    values = [words[i + 1] for i, w in enumerate(words) if w == "--header"]
    return dict(v.split(": ", 1) for v in values)


def test_the_readme_names_every_required_header_and_its_mcp_command_works(tmp_path: Path) -> None:
    files = generate(SPEC, (), PACKAGE, cache=False).files
    readme = files[PurePosixPath("README.md")]
    headers = _readme_headers(readme)
    assert set(headers) == set(NEEDED)
    client_line = next(s for s in readme.splitlines() if "with Client(" in s)
    assert set(re.findall(r'"([^"]+)": "\.\.\."', client_line)) == set(NEEDED)
    assert "Authorization" not in readme and "wm_svc_name=" not in readme
    write_tree(tmp_path, files)
    import_generated(tmp_path, PACKAGE)
    with serve(_fake()) as base:
        (answer,) = call_tools(
            PACKAGE, base, [("list_contacts", {})], headers={k: "x" for k in headers}
        )
    assert answer["status"] == "complete", answer.get("error")
