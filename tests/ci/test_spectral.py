"""spec_ext/spectral.yaml: the vocabulary's structural rules for teams that lint with Spectral.

Two tiers. Always: the ruleset embeds exactly the published JSON Schemas, and those schemas,
applied by a Python JSON Schema validator at the ruleset's ``given`` paths, accept the examples
and reject the invalid fixtures. When npm can fetch ``@stoplight/spectral-cli`` (into the
git-ignored ``.cache/spectral``, once), the real Spectral lints the same files; without npm those
tests skip and say why.
"""

from __future__ import annotations

import fcntl
import json
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator
from support import spectral_ruleset
from support.paths import EXAMPLES, ROOT

RULESET = ROOT / "spec_ext" / "spectral.yaml"
CACHE = ROOT / ".cache" / "spectral"
SPECTRAL_VERSION = "6"
CLEAN = [
    EXAMPLES / "service_accounts" / "openapi.yaml",
    EXAMPLES / "link_header_search" / "openapi.yaml",
]
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
INVALID = ROOT / "tests" / "invalid"


def _bad_documents(tmp: Path) -> dict[str, tuple[Path, str, str]]:
    """name -> (file, the rule it breaks, the path Spectral reports, dotted)."""
    base = yaml.safe_load((EXAMPLES / "service_accounts" / "openapi.yaml").read_text("utf-8"))
    out = {
        "unknown_key": (
            INVALID / "vocab_unknown_key" / "spec.yaml",
            "x-completeness-declaration",
            "paths./things.get.x-completeness",
        )
    }

    def variant(name: str, change, rule: str, path: str) -> None:
        doc = json.loads(json.dumps(base))
        change(doc)
        target = tmp / f"{name}.yaml"
        target.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
        out[name] = (target, rule, path)

    op = ("paths", "/service-accounts", "get")

    def bad_kind(doc):
        doc["paths"]["/service-accounts"]["get"]["x-completeness"]["kind"] = "listing"

    def no_operation_id(doc):
        del doc["paths"]["/service-accounts"]["get"]["operationId"]

    def bad_registry(doc):
        doc["x-completeness-registry"] = {"reasons": {"lower_case": {"description": 1}}}

    variant(
        "bad_kind",
        bad_kind,
        "x-completeness-declaration",
        ".".join((*op, "x-completeness", "kind")),
    )
    variant("no_operation_id", no_operation_id, "x-completeness-operation-id", ".".join(op))
    registry = "x-completeness-registry"
    variant("bad_registry", bad_registry, registry, f"{registry}.reasons")
    return out


# -- always: the ruleset and its schemas -------------------------------------------------------


def test_the_ruleset_embeds_the_published_schemas() -> None:
    assert RULESET.read_text(encoding="utf-8") == spectral_ruleset.text(), (
        "spec_ext/spectral.yaml is stale: python tests/support/spectral_ruleset.py"
    )
    rules = yaml.safe_load(RULESET.read_text(encoding="utf-8"))["rules"]
    assert set(rules) == {
        "x-completeness-declaration",
        "x-completeness-registry",
        "x-completeness-operation-id",
    }
    for rule in rules.values():
        assert rule["severity"] == "error" and rule["description"] and rule["given"].startswith("$")


def _declarations(document: dict) -> list[dict]:
    return [
        op["x-completeness"]
        for item in document.get("paths", {}).values()
        for method, op in item.items()
        if method in METHODS and isinstance(op, dict) and "x-completeness" in op
    ]


def _python_errors(path: Path) -> list[str]:
    rules = yaml.safe_load(RULESET.read_text(encoding="utf-8"))["rules"]
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    declaration = rules["x-completeness-declaration"]["then"]["functionOptions"]["schema"]
    registry = rules["x-completeness-registry"]["then"]["functionOptions"]["schema"]
    errors = []
    for decl in _declarations(document):
        errors += [e.message for e in Draft202012Validator(declaration).iter_errors(decl)]
    if "x-completeness-registry" in document:
        found = Draft202012Validator(registry).iter_errors(document["x-completeness-registry"])
        errors += [e.message for e in found]
    for item in document.get("paths", {}).values():
        for method, op in item.items():
            if method in METHODS and "x-completeness" in op and not op.get("operationId"):
                errors.append("a declared operation needs an operationId")
    return errors


@pytest.mark.parametrize("spec", CLEAN, ids=lambda p: p.parent.name)
def test_python_validator_accepts_the_examples(spec: Path) -> None:
    assert _python_errors(spec) == []


def test_python_validator_rejects_the_invalid_fixtures(tmp_path: Path) -> None:
    for name, (path, _, _) in _bad_documents(tmp_path).items():
        assert _python_errors(path), name


# -- the real Spectral, when npm can fetch it --------------------------------------------------


@pytest.fixture(scope="session")
def spectral() -> Path:
    exe = CACHE / "node_modules" / ".bin" / "spectral"
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / ".lock", "w") as lock:  # one install even with pytest -n
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not exe.exists():
            npm = shutil.which("npm")
            if npm is None:
                pytest.skip("npm is not installed: the real Spectral was not run")
            proc = subprocess.run(
                [npm, "install", "--no-audit", "--no-fund", "--silent", "--prefix", str(CACHE)]
                + [f"@stoplight/spectral-cli@{SPECTRAL_VERSION}"],
                capture_output=True,
                text=True,
                timeout=600,
            )
            if proc.returncode != 0 or not exe.exists():
                pytest.skip(f"npm could not install @stoplight/spectral-cli: {proc.stderr[-300:]}")
    return exe


def _lint(spectral: Path, spec: Path) -> tuple[int, list[dict]]:
    proc = subprocess.run(
        [str(spectral), "lint", str(spec), "--ruleset", str(RULESET), "-f", "json", "--quiet"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    text = proc.stdout.strip()
    return proc.returncode, json.loads(text) if text else []


@pytest.mark.parametrize("spec", CLEAN, ids=lambda p: p.parent.name)
def test_spectral_accepts_the_examples(spectral: Path, spec: Path) -> None:
    code, results = _lint(spectral, spec)
    assert (code, results) == (0, [])


def test_spectral_rejects_the_invalid_fixtures(spectral: Path, tmp_path: Path) -> None:
    for name, (path, rule, where) in _bad_documents(tmp_path).items():
        code, results = _lint(spectral, path)
        assert code == 1, name
        found = {(r["code"], ".".join(str(p) for p in r["path"])) for r in results}
        assert (rule, where) in found, (name, found)
