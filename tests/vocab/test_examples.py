"""The bundled examples are valid OpenAPI, their declarations are valid, and the overlay form
(base.yaml + overlay.yaml) gives exactly the inline form (openapi.yaml)."""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml
from support.vocab import EXAMPLE_NAMES, EXAMPLES
from xcompleteness.check._validate import validate_openapi
from xcompleteness.declare._vocabulary import validate_declarations
from xcompleteness.document import iter_operations
from xcompleteness.load import load_spec
from xcompleteness.load._overlay import apply_overlays

OPERATIONS = {
    "service_accounts": {
        "listServiceAccounts": "collection",
        "searchServiceAccounts": "search",
        "getServiceAccount": "resource",
        "archiveServiceAccounts": "mutation",
    },
    "link_header_search": {"listRepositories": "collection", "searchRepositories": "search"},
}
VERSIONS = {"service_accounts": "3.1.0", "link_header_search": "3.0.3"}


def _declared(data: Any) -> dict[str, str]:
    return {
        op["operationId"]: op["x-completeness"]["kind"]
        for _, _, op, _ in iter_operations(data)
        if "x-completeness" in op
    }


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_inline_example_is_clean(name: str) -> None:
    doc = load_spec(EXAMPLES / name / "openapi.yaml")
    assert doc.data["openapi"] == VERSIONS[name]
    assert validate_openapi(doc) == []
    assert validate_declarations(doc) == []
    assert _declared(doc.data) == OPERATIONS[name]


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_base_plus_overlay_equals_inline(name: str) -> None:
    base = load_spec(EXAMPLES / name / "base.yaml")
    assert _declared(base.data) == {}
    assert "x-completeness-registry" not in base.data
    assert validate_openapi(base) == []
    merged = apply_overlays(base, [EXAMPLES / name / "overlay.yaml"])
    inline = load_spec(EXAMPLES / name / "openapi.yaml")
    assert json.dumps(merged.data, sort_keys=True) == json.dumps(inline.data, sort_keys=True)
    assert validate_declarations(merged) == []


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
@pytest.mark.parametrize("file", ["openapi.yaml", "base.yaml", "overlay.yaml"])
def test_plain_yaml_reads_the_same(name: str, file: str) -> None:
    """Other tools read these files with ordinary YAML loaders: no implicit dates or numbers."""
    text = (EXAMPLES / name / file).read_text()
    plain = yaml.safe_load(text)
    assert json.loads(json.dumps(plain)) == plain  # raises on date objects
    if file != "overlay.yaml":
        assert json.dumps(plain, sort_keys=True) == json.dumps(
            load_spec(EXAMPLES / name / file).data, sort_keys=True
        )


def test_overlay_targets_are_the_declared_operations() -> None:
    overlay = yaml.safe_load((EXAMPLES / "service_accounts" / "overlay.yaml").read_text())
    assert overlay["overlay"] == "1.0.0"
    targets = [a["target"] for a in overlay["actions"]]
    assert "$.paths['/service-accounts'].get" in targets
    assert targets[-1] == "$"


def test_adapter_reads_only_declared_native_signals() -> None:
    """Every header and body field a `when` reads is declared by the 2xx/error responses."""
    doc = load_spec(EXAMPLES / "link_header_search" / "openapi.yaml").data
    headers = doc["components"]["responses"]["RateLimited"]["headers"]
    assert {"x-ratelimit-remaining", "retry-after"} <= set(headers)
    search = doc["paths"]["/search/repositories"]["get"]["responses"]["200"]
    assert "Link" in search["headers"]
    props = search["content"]["application/json"]["schema"]["properties"]
    assert {"total_count", "incomplete_results", "items"} <= set(props)
    listing = doc["paths"]["/orgs/{org}/repos"]["get"]["responses"]["200"]
    assert "Link" in listing["headers"]
    assert listing["content"]["application/json"]["schema"]["type"] == "array"
