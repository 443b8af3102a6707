"""``--format sarif`` and ``--format github`` of check, audit and verify (docs/ci.md).

Every SARIF log is validated against the OASIS SARIF 2.1.0 JSON Schema (vendored in
tests/fixtures, see its README) and compared with the same run's ``--format json`` diagnostics:
same codes, same lines, the JSON pointer as the logical location.
"""

from __future__ import annotations

import json
import re
import socket
from pathlib import Path

import jsonschema
import pytest
from support.paths import ROOT
from xcompleteness.cli import code_catalog, main

INVALID = ROOT / "tests" / "invalid"
SCHEMA = json.loads((ROOT / "tests/fixtures/sarif-2.1.0-rtm.5.schema.json").read_text("utf-8"))
VALIDATOR = jsonschema.Draft4Validator(SCHEMA, format_checker=jsonschema.FormatChecker())
CASES = sorted(
    p.name
    for p in INVALID.iterdir()
    if p.name.startswith(("rule_XC", "input_XC0", "finding_", "vocab_")) and p.is_dir()
)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _case_args(folder: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    expected = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
    args = [str(folder / expected.get("spec", "spec.yaml")), "-q"]
    for overlay in expected.get("overlays", []):
        args += ["--overlay", str(folder / overlay)]
    if expected.get("allow_external_refs"):
        args.append("--allow-external-refs")
    for name, value in (expected.get("env") or {}).items():  # e.g. a lowered input limit
        monkeypatch.setenv(name, str(value))
    return args


def _valid(log: dict) -> None:
    errors = sorted(VALIDATOR.iter_errors(log), key=lambda e: list(e.absolute_path))
    assert errors == [], [f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]]


@pytest.mark.parametrize("case", CASES)
def test_check_sarif_is_valid_and_matches_the_json_diagnostics(
    case: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    args = _case_args(INVALID / case, monkeypatch)
    code_json, out_json, _ = _run(capsys, "check", *args, "--format", "json")
    code_sarif, out_sarif, _ = _run(capsys, "check", *args, "--format", "sarif")
    assert code_sarif == code_json
    log = json.loads(out_sarif)
    _valid(log)
    diagnostics = json.loads(out_json)["diagnostics"]
    results = log["runs"][0]["results"]
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert len(results) == len(diagnostics) >= 1
    level = {"error": "error", "warning": "warning", "info": "note"}
    for d, r in zip(diagnostics, results, strict=True):
        assert r["ruleId"] == d["code"] == rules[r["ruleIndex"]]["id"]
        assert r["level"] == level[d["severity"]]
        assert r["message"]["text"].startswith(d["message"])
        where = r["locations"][0]
        uri = where["physicalLocation"]["artifactLocation"]["uri"]
        assert uri.endswith(Path(d["file"]).name)
        assert where["physicalLocation"].get("region", {}).get("startLine") == d["line"]
        if d["pointer"]:
            assert where["logicalLocations"][0]["fullyQualifiedName"] == d["pointer"]


def _slug(heading: str) -> str:
    """The anchor mkdocs (Python-Markdown's toc) and GitHub give a heading."""
    text = re.sub(r"[^\w\s-]", "", heading.strip().lower())
    return re.sub(r"[\s]+", "-", text)


def test_every_rule_has_help_and_a_link_to_the_page_that_documents_it() -> None:
    catalog = code_catalog()
    emitted = set()
    for path in (ROOT / "generator" / "xcompleteness").rglob("*.py"):
        emitted |= set(re.findall(r'"(XC\d{3})"', path.read_text(encoding="utf-8")))
    assert emitted - set(catalog) == set()  # every code the generator can emit has a rule
    for code, info in catalog.items():
        page, _, anchor = info.doc.partition("#")
        text = (ROOT / page).read_text(encoding="utf-8")
        anchors = {_slug(h) for h in re.findall(r"^#+ (.+)$", text, re.M)}
        assert anchor in anchors, (code, info.doc)
        assert info.summary and not info.summary.endswith(".")


def test_every_code_has_one_meaning_across_the_catalogs_sources() -> None:
    """The loading stages, the vocabulary stage and the rules each own their codes: one code
    number never means two things (XC150 once meant both an unknown --show-effective operation
    and an adapter RESULT_LIMIT_REACHED without when, and the catalog kept whichever came last)."""
    from xcompleteness.declare import VOCABULARY_CODES
    from xcompleteness.rules import RULES
    from xcompleteness.sarif import BASE_CODES

    sources = {"base": set(BASE_CODES), "vocabulary": set(VOCABULARY_CODES), "rules": set(RULES)}
    names = sorted(sources)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            assert sources[a] & sources[b] == set(), (a, b)
    assert len(code_catalog()) == sum(len(codes) for codes in sources.values())


def test_sarif_rules_carry_help_text_and_docs_link(capsys: pytest.CaptureFixture[str]) -> None:
    case = INVALID / "rule_XC103_items_missing" / "spec.yaml"
    _, out, _ = _run(capsys, "check", str(case), "-q", "--format", "sarif")
    log = json.loads(out)
    rules = {r["id"]: r for r in log["runs"][0]["tool"]["driver"]["rules"]}
    assert set(rules) == set(code_catalog())
    xc103 = rules["XC103"]
    assert "items location does not exist" in xc103["help"]["text"]
    assert "(docs/cli.md#codes-semantic-rules-xc1xx)" in xc103["help"]["markdown"]
    assert rules["XC041"]["help"]["markdown"].endswith(
        "(docs/vocabulary.md#diagnostics-of-the-vocabulary-stage)."
    )
    assert xc103["defaultConfiguration"]["level"] == "error"
    assert rules["XC100"]["defaultConfiguration"]["level"] == "warning"


def test_clean_check_is_an_empty_valid_log(capsys: pytest.CaptureFixture[str]) -> None:
    spec = ROOT / "examples" / "service_accounts" / "openapi.yaml"
    code, out, err = _run(capsys, "check", str(spec), "--format", "sarif")
    assert code == 0
    log = json.loads(out)
    _valid(log)
    assert log["runs"][0]["results"] == []
    assert "0 error(s)" in err  # the summary stays on stderr, stdout is only the log


def test_audit_sarif_reports_each_undeclared_listing(capsys: pytest.CaptureFixture[str]) -> None:
    spec = INVALID / "rule_XC100_undeclared_listing" / "spec.yaml"
    code, out, _ = _run(capsys, "audit", str(spec), "-q", "--format", "sarif")
    assert code == 1
    log = json.loads(out)
    _valid(log)
    _, report, _ = _run(capsys, "audit", str(spec), "-q", "--format", "json")
    undeclared = json.loads(report)["undeclared"]
    results = log["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["XC100"] * len(undeclared) != []
    for r in results:
        assert r["level"] == "warning"
        assert r["locations"][0]["physicalLocation"]["region"]["startLine"] >= 1
        assert r["locations"][0]["logicalLocations"][0]["fullyQualifiedName"].startswith("/paths/")


def test_verify_sarif_on_an_unreachable_api(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as s:  # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    spec = ROOT / "examples" / "service_accounts" / "openapi.yaml"
    args = ("verify", str(spec), "--base-url", f"http://127.0.0.1:{port}", "--time-limit", "5")
    code, out, _ = _run(capsys, *args, "--format", "sarif")
    assert code == 2
    log = json.loads(out)
    _valid(log)
    assert {r["ruleId"] for r in log["runs"][0]["results"]} == {"XC722"}


def test_github_annotations(capsys: pytest.CaptureFixture[str]) -> None:
    case = INVALID / "rule_XC103_items_missing" / "spec.yaml"
    code, out, _ = _run(capsys, "check", str(case), "-q", "--format", "github")
    assert code == 1
    (line,) = out.splitlines()
    match = re.fullmatch(r"::error file=([^,]+),line=(\d+),title=XC103::(.+)", line)
    assert match, line
    assert match[1].endswith("rule_XC103_items_missing/spec.yaml")
    assert int(match[2]) >= 1
    assert "%0Ahint: " in match[3] and "\n" not in match[3]  # a newline would end the command
    assert match[3].startswith("#/paths/~1things/get/x-completeness/items: ")
