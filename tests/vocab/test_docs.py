"""docs/vocabulary.md lists every code of spec_ext/codes.json, in tables equal to the data.

Refresh after changing codes.json:
    XC_UPDATE_GOLDEN=1 .venv/bin/python -m pytest -q tests/vocab/test_docs.py
"""

from __future__ import annotations

import json
import os
import re

import pytest
from support.vocab import ROOT
from support.vocab_docs import fill, region, render_tables
from xcompleteness.declare._vocabulary import CODES as DIAGNOSTIC_CODES

DOC = ROOT / "docs" / "vocabulary.md"
CODES = json.loads((ROOT / "spec_ext" / "codes.json").read_text())
TABLES = render_tables(CODES)

if os.environ.get("XC_UPDATE_GOLDEN") == "1":
    DOC.write_text(fill(DOC.read_text(), TABLES))


@pytest.mark.parametrize("name", sorted(TABLES))
def test_table_equals_the_data(name: str) -> None:
    assert region(DOC.read_text(), name) == TABLES[name]


def test_every_code_is_listed() -> None:
    text = DOC.read_text()
    names = [n for section in ("reasons", "continuations", "warnings", "field_omissions",
                               "decisions", "errors") for n in CODES[section]]  # fmt: skip
    missing = [n for n in [*names, *DIAGNOSTIC_CODES] if f"| `{n}` |" not in text]
    assert missing == []


def test_every_schema_key_is_documented() -> None:
    """Each property name of the operation-level schema appears in the reference as `key`."""
    schema = json.loads((ROOT / "spec_ext" / "x-completeness.schema.json").read_text())
    keys: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            props = node.get("properties")
            if isinstance(props, dict):
                keys.update(props)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    walk(json.loads((ROOT / "spec_ext" / "x-completeness-registry.schema.json").read_text()))
    text = DOC.read_text()
    undocumented = sorted(
        k for k in keys if not re.search(rf"`[^`]*\b{re.escape(k)}\b[^`]*`", text)
    )
    assert undocumented == []


def _yaml_blocks(text: str) -> list[object]:
    import textwrap

    import yaml

    blocks = re.findall(r"```yaml\n(.*?)```", text, flags=re.S)
    return [yaml.safe_load(textwrap.dedent(b)) for b in blocks]


def _find(node: object, key: str) -> list[object]:
    found: list[object] = []
    if isinstance(node, dict):
        for k, v in node.items():
            found.extend([v] if k == key else _find(v, key))
    elif isinstance(node, list):
        for v in node:
            found.extend(_find(v, key))
    return found


@pytest.mark.parametrize("page", ["vocabulary.md", "adopting.md"])
def test_declarations_in_the_docs_are_valid(page: str) -> None:
    from support.vocab import codes_at

    blocks = _yaml_blocks((ROOT / "docs" / page).read_text())
    decls = [d for b in blocks for d in _find(b, "x-completeness")]
    registries = [r for b in blocks for r in _find(b, "x-completeness-registry")]
    assert decls, "the page shows declarations"
    for decl in decls:
        assert codes_at(decl) == set(), decl
    for registry in registries:
        assert codes_at({"kind": "resource"}, registry=registry) == set(), registry
