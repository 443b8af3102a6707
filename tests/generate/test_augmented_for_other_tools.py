"""The augmented OpenAPI document is valid input for other tools (docs/generate.md).

For every example with a spec in the repository (and so every golden case): every array schema
has ``items``; the document passes openapi-spec-validator; and openapi-python-client, a generator
we do not control, generates each listing's page model and returns it from the listing's
function (it drops a schema it cannot read, such as an array without ``items`` in a union).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from openapi_spec_validator import validate
from support.paths import EXAMPLES
from xcompleteness import api

BIN = Path(sys.executable).parent
CASES = {
    "service_accounts": (EXAMPLES / "service_accounts" / "openapi.yaml", ()),
    "link_header_search": (EXAMPLES / "link_header_search" / "openapi.yaml", ()),
    "github": (EXAMPLES / "github" / "excerpt.yaml", (EXAMPLES / "github" / "overlay.yaml",)),
}
LISTING_KINDS = {"collection", "search", "aggregate"}


@pytest.fixture(scope="module")
def augmented(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = {}
    for case, (spec, overlays) in CASES.items():
        dest = tmp_path_factory.mktemp(case)
        result = api.generate(spec, dest, overlays, package=f"aug_{case}", cache=False)
        assert result.exit_code == 0, result.diagnostics
        out[case] = dest / f"aug_{case}" / "openapi.augmented.json"
    return out


def _arrays_without_items(node: Any, pointer: str = "") -> list[str]:
    found = []
    if isinstance(node, dict):
        if node.get("type") == "array" and "items" not in node:
            found.append(pointer)
        for key, value in node.items():
            if not key.startswith("x-"):  # extensions are not schemas
                found += _arrays_without_items(value, f"{pointer}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += _arrays_without_items(value, f"{pointer}/{i}")
    return found


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_array_has_items_and_the_document_validates(
    case: str, augmented: dict[str, Path]
) -> None:
    document = json.loads(augmented[case].read_text(encoding="utf-8"))
    assert _arrays_without_items(document) == []
    validate(document)  # raises on an invalid OpenAPI document


def _listings(document: dict[str, Any]) -> dict[str, tuple[str, bool]]:
    """operationId -> (its page component, whether the 200 response is that page), per listing.

    A native listing's 200 response is the page; an adapter listing keeps the API's own response
    and names the page the client computes in ``x-completeness-envelope``.
    """
    out = {}
    for item in document["paths"].values():
        for op in item.values():
            decl = op.get("x-completeness") if isinstance(op, dict) else None
            if isinstance(decl, dict) and decl.get("kind", "collection") in LISTING_KINDS:
                schema = op["responses"]["200"]["content"]["application/json"]["schema"]
                ref = schema.get("$ref") or op["x-completeness-envelope"]["$ref"]
                out[op["operationId"]] = (ref.rsplit("/", 1)[-1], "$ref" in schema)
    return out


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


@pytest.mark.parametrize("case", sorted(CASES))
def test_openapi_python_client_generates_every_listing_model(
    case: str, augmented: dict[str, Path], tmp_path: Path
) -> None:
    document = json.loads(augmented[case].read_text(encoding="utf-8"))
    listings = _listings(document)
    assert listings
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    proc = subprocess.run(
        [str(BIN / "openapi-python-client"), "generate", "--path", str(augmented[case])]
        + ["--meta", "none", "--output-path", str(tmp_path / "client")],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    report = proc.stdout + proc.stderr
    assert proc.returncode == 0, report
    assert "Unable to process schema" not in report, report
    assert "Warning" not in report, report
    models = tmp_path / "client" / "models"
    api_dir = tmp_path / "client" / "api"
    for operation_id, (component, returned) in listings.items():
        assert (models / f"{_snake(component)}.py").is_file(), (operation_id, component)
        if returned:
            function = next(api_dir.rglob(f"{_snake(operation_id)}.py"))
            text = function.read_text(encoding="utf-8")
            assert f"{component}.from_dict(response.json())" in text, (operation_id, component)
