"""Untrusted spec text never becomes code.

Each payload is placed in every string position of a small spec (title, version, descriptions,
summaries, operationIds, parameter names/enums/defaults, schema names, property names, enum
values, patterns, examples, declaration strings, custom code descriptions and detail names).
Generation either refuses with a diagnostic, or emits code that compiles, imports in a fresh
process without running anything (the canary file is never created) and round-trips the text.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from xcompleteness.diagnostics import InputError
from xcompleteness.emit._generate import GenerationRefused, generate
from xcompleteness.emit._write import write_tree

CANARY = "canary_was_created"
PAYLOADS = [
    f"'); open({CANARY!r}, 'w') #",
    f'"); open({CANARY!r}, "w") #',
    f'"""\nopen({CANARY!r}, "w")\n"""',
    f"'''\nopen({CANARY!r}, 'w')\n'''",
    "trailing backslash \\",
    f"carriage\rreturn open({CANARY!r}, 'w')",
    f"line\u2028separator\u2029open({CANARY!r}, 'w')\x85",
    f"{{open({CANARY!r}, 'w')}} {{{{ jinja }}}} {{% raw %}} %s",
    f"'); import os; os.system('touch {CANARY}') #",
    "../../etc/passwd",
    "\\N{BULLET} \\x00 \\u2028",
]


def _spec(payloads: list[str]) -> dict:
    """One spec with every payload in every string position (one generation covers them all)."""
    joined = "|".join(payloads)
    props: dict = {"id": {"type": "string", "description": joined, "example": joined}}
    props["omitted"] = {"type": "object", "additionalProperties": {"type": "string"}}
    for p in payloads:
        props[p] = {"type": "string", "description": p, "enum": [p, "plain"], "default": p}
    item = {"type": "object", "description": joined, "required": ["id"], "properties": props}
    paths: dict = {
        "/things": {
            "get": {
                "operationId": "listThings",
                "summary": joined,
                "description": joined,
                "parameters": [{"name": "cursor", "in": "query", "schema": {"type": "string"}}]
                + [
                    {
                        "name": p,
                        "in": "query",
                        "description": p,
                        "schema": {"type": "string", "enum": [p], "default": p},
                    }
                    for p in payloads
                ],
                "x-completeness": {
                    "kind": "collection",
                    "scope": {
                        "resource": joined,
                        "visibility": joined,
                        "snapshot": "none",
                        "covers": joined,
                    },
                    "id": "/id",
                    "pagination": {
                        "style": "cursor",
                        "request": {"cursor": "cursor"},
                        "ordering": joined,
                    },
                    "reasons": ["MORE_PAGES_AVAILABLE", "CUSTOM_CODE"],
                },
                "responses": {"200": _response(joined, _items_of(payloads[0]))},
            }
        }
    }
    schemas = {}
    for i, p in enumerate(payloads):
        schemas[p] = item
        paths[f"/things{i}/{{id}}"] = {
            "get": {
                "operationId": p,
                "summary": p,
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "x-completeness": {"kind": "resource", "omitted-fields": "$response.body#/omitted"},
                "responses": {"200": _response(p, {"$ref": f"#/components/schemas/{_esc(p)}"})},
            }
        }
    details = {p: {"type": "string", "description": p} for p in payloads}
    return {
        "openapi": "3.0.3",
        "info": {"title": joined, "version": joined, "description": joined},
        "paths": paths,
        "components": {"schemas": schemas},
        "x-completeness-registry": {
            "reasons": {
                "CUSTOM_CODE": {
                    "description": joined,
                    "continuation": "none",
                    "details": {"type": "object", "properties": details},
                    "owner": joined,
                    "review-by": "2099-01-01",
                }
            },
            "warnings": {},
        },
    }


def _items_of(name: str) -> dict:
    return {
        "type": "object",
        "properties": {
            "items": {"type": "array", "items": {"$ref": f"#/components/schemas/{_esc(name)}"}}
        },
    }


def _response(description: str, schema: dict) -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _esc(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")


def test_a_benign_spec_generates(tmp_path: Path) -> None:
    """The spec shape itself is valid, so a refusal would be about the payloads."""
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(_spec(["benign text", "other"])), encoding="utf-8")
    files = generate(spec, (), "inj").files
    assert any(str(p).endswith("models.py") for p in files)


PROBE = """
import json, sys, importlib, typing
pkg = importlib.import_module("inj")
models = importlib.import_module("inj.models")
items = importlib.import_module("inj._items")
out = {"title": pkg.TITLE, "version": pkg.VERSION, "aliases": [], "descriptions": [],
       "literals": []}
def lits(t):
    if typing.get_origin(t) is typing.Literal:
        out["literals"].extend(typing.get_args(t))
    for a in typing.get_args(t):
        lits(a)
for name in dir(items):
    cls = getattr(items, name)
    if isinstance(cls, type) and hasattr(cls, "model_fields") and cls.__module__.startswith(
        items.__name__ + "."
    ):
        cls.model_rebuild()
        for f in cls.model_fields.values():
            out["aliases"].append(f.alias)
            out["descriptions"].append(f.description)
            lits(f.annotation)
custom = models.CustomCodeReason
out["reason_doc"] = custom.__doc__
out["reason_aliases"] = [f.alias for f in custom.model_fields.values()]
out["pages"] = sorted(models.PAGE_MODELS)
out["results"] = sorted(models.RESULT_MODELS)
print(json.dumps(out))
"""


def test_payloads_are_inert_and_round_trip(tmp_path: Path) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(_spec(PAYLOADS)), encoding="utf-8")
    try:
        gen = generate(spec, (), "inj")
    except (GenerationRefused, InputError) as exc:  # refusing is allowed, silently is not
        assert exc.diagnostics and all(d.code for d in exc.diagnostics)
        return
    joined = "|".join(PAYLOADS)
    out = tmp_path / "out"
    write_tree(out, gen.files)
    for path in out.rglob("*.py"):
        compile(path.read_text(encoding="utf-8"), str(path), "exec")
    proc = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=out,
        env={**os.environ, "PYTHONPATH": str(out)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert not (out / CANARY).exists() and not Path(CANARY).exists()
    seen = json.loads(proc.stdout)
    assert seen["title"] == joined and seen["version"] == joined
    assert seen["reason_doc"] == joined  # custom code description -> docstring
    assert seen["pages"] == ["listThings"]
    assert seen["results"] == sorted(PAYLOADS)  # every operationId kept exactly
    for p in PAYLOADS:
        assert p in seen["aliases"]  # property name -> Field(alias=...)
        assert p in seen["descriptions"]  # description -> Field(description=...)
        assert p in seen["literals"]  # enum value -> Literal[...]
        assert p in seen["reason_aliases"]  # custom detail name -> alias
    contracts = json.loads((out / "inj" / "_contracts.json").read_text(encoding="utf-8"))
    assert contracts["contracts"]["listThings"]["scope"]["resource"] == joined
    augmented = json.loads((out / "inj" / "openapi.augmented.json").read_text(encoding="utf-8"))
    assert augmented["info"]["title"] == joined
    from openapi_spec_validator import validate

    validate(augmented)


@pytest.mark.parametrize("name", ["../evil", "a/b", "class", "x.y", ""])
def test_unsafe_package_names_are_refused(name: str, tmp_path: Path) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(_spec(["fine"])), encoding="utf-8")
    with pytest.raises(InputError) as exc:
        generate(spec, (), name)
    assert [d.code for d in exc.value.diagnostics] == ["XC601"]
    assert not (tmp_path.parent / "evil").exists()
