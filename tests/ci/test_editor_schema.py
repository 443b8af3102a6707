"""spec_ext/x-completeness.editor.schema.json: the schema editors apply to a whole OpenAPI file.

Resolved the way yaml-language-server resolves it (relative references against the file's own
location, no network): the examples validate, and a broken declaration or registry does not, with
the error at the declaration's path.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from support.paths import EXAMPLES, SPEC_EXT

EDITOR = SPEC_EXT / "x-completeness.editor.schema.json"


def _validator() -> Draft202012Validator:
    resources = []
    for name in ("x-completeness.schema.json", "x-completeness-registry.schema.json"):
        path = SPEC_EXT / name
        contents = json.loads(path.read_text(encoding="utf-8"))
        resources.append((path.as_uri(), Resource.from_contents(contents)))
    registry = Registry().with_resources(resources)
    schema = json.loads(EDITOR.read_text(encoding="utf-8"))
    assert "$id" not in schema  # resolves next to the file, never from the network
    return Draft202012Validator({**schema, "$id": EDITOR.as_uri()}, registry=registry)


@pytest.mark.parametrize("name", ["service_accounts", "link_header_search"])
def test_the_examples_validate(name: str) -> None:
    document = yaml.safe_load((EXAMPLES / name / "openapi.yaml").read_text(encoding="utf-8"))
    assert [e.message for e in _validator().iter_errors(document)] == []


def test_github_excerpt_without_declarations_validates() -> None:
    document = yaml.safe_load((EXAMPLES / "github" / "excerpt.yaml").read_text(encoding="utf-8"))
    assert list(_validator().iter_errors(document)) == []


def test_broken_declarations_fail_at_their_path() -> None:
    path = EXAMPLES / "service_accounts" / "openapi.yaml"
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    document["paths"]["/service-accounts"]["get"]["x-completeness"]["colour"] = "red"
    document["x-completeness-registry"] = {"reasons": {"lower_case": {}}}
    errors = list(_validator().iter_errors(document))
    where = {tuple(e.absolute_path) for e in errors}
    assert ("paths", "/service-accounts", "get", "x-completeness") in where
    assert any(p[:1] == ("x-completeness-registry",) for p in where)


def test_documented_in_ci_md() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "ci.md").read_text(encoding="utf-8")
    assert "yaml-language-server: $schema=" in text and '"yaml.schemas"' in text
    assert EDITOR.name in text
