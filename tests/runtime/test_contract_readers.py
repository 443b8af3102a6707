"""Every reader takes the typed Contract, and continuation/origin come from one place.

- ``_contracts.json`` is read only through ``runtime/contract.load_contracts`` (or
  ``contracts_from_document``): a grep over generator/ and templates/ pins it.
- A reason's continuation and origin agree by construction between ``normalize`` (generator), the
  IR's code models and the walk's plan: all three answer from the contract, which ``normalize``
  filled from ``Registry.continuation_for`` / ``origin_for``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from support.paths import EXAMPLE_IDS, EXAMPLE_SPECS
from xcompleteness.check._pipeline import check_spec
from xcompleteness.ir._build import build_ir
from xcompleteness.runtime.codes import CLIENT_CODES, REASON_CODES
from xcompleteness.runtime.contract import STANDARD_REGISTRY, Contract
from xcompleteness.runtime.walk_plan import _Plan

ROOT = Path(__file__).resolve().parents[2]
GENERATOR = ROOT / "generator" / "xcompleteness"
TEMPLATES = ROOT / "templates"
FILE = "_contracts.json"
READERS = {"load_contracts", "contracts_from_document"}
WRITER = GENERATOR / "emit" / "emitters" / "package.py"
"""The one place that writes the file (from ``Contract.to_dict``)."""


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                out.add(id(value))
    return out


def _python_offenders(path: Path) -> list[str]:
    """String literals naming the file outside docstrings and outside a reader call."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    allowed: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in READERS or path == WRITER:
                allowed.update(id(n) for n in ast.walk(node))
    return [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and FILE in node.value
        and id(node) not in docs
        and id(node) not in allowed
    ]


def _template_offenders(path: Path) -> list[str]:
    """Lines that name the file as a string literal, not inside a ``load_contracts(...)`` call."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out = []
    for number, line in enumerate(lines, 1):
        if not re.search(r"""["']_contracts\.json["']""", line):
            continue
        before = "\n".join(lines[max(0, number - 3) : number])
        if not any(f"{r}(" in before for r in READERS):
            out.append(f"{path.relative_to(ROOT)}:{number}")
    return out


def test_contracts_json_is_read_only_through_load_contracts() -> None:
    offenders = []
    for path in sorted(GENERATOR.rglob("*.py")):
        offenders += _python_offenders(path)
    # every template file, and the modules compiled from them (templates/_compiled); their
    # bytecode (written by `make bench` or an install) is not text
    for path in sorted(
        p for p in TEMPLATES.rglob("*") if p.is_file() and "__pycache__" not in p.parts
    ):
        offenders += _template_offenders(path)
    assert offenders == []
    # and nothing subscripts a raw document's "contracts" outside runtime/contract.py
    raw = [
        str(p.relative_to(ROOT))
        for p in [*GENERATOR.rglob("*.py"), *TEMPLATES.rglob("*.jinja")]
        if p.name != "contract.py" and '["contracts"]' in p.read_text(encoding="utf-8")
    ]
    assert raw == []


def test_the_pin_catches_a_raw_reader(tmp_path: Path) -> None:
    """The grep is not vacuous: a template reading the file with json.loads is reported."""
    bad = tmp_path / "reader.py.jinja"
    bad.write_text('CONTRACTS = json.loads(Path("_contracts.json").read_text())["contracts"]\n')
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        assert _template_offenders(bad) == ["reader.py.jinja:1"]
    finally:
        ROOT = saved


def test_continuation_logic_lives_only_in_the_registry() -> None:
    """No module but codes.py and contract.py maps a reason code to its default continuation or
    origin for a contract (decide.py reads the code table for results, not contracts)."""
    pattern = re.compile(r"\b(STANDARD_CONTINUATIONS|STANDARD_ORIGINS|REASON_CODES)\b")
    users = sorted(
        p.name for p in GENERATOR.rglob("*.py") if pattern.search(p.read_text(encoding="utf-8"))
    )
    assert users == ["codes.py", "contract.py", "decide.py"]
    ir = (GENERATOR / "ir" / "_build.py").read_text(encoding="utf-8")
    assert '.get("continuation")' not in ir and '.get("origin")' not in ir
    normalize = (GENERATOR / "declare" / "_contract.py").read_text(encoding="utf-8")
    assert "registry.continuation_for(code)" in normalize
    assert "registry.origin_for(code)" in normalize
    assert ".continuation if info" not in normalize and "registry.reason(" not in normalize


@pytest.mark.parametrize(("spec", "overlays"), EXAMPLE_SPECS, ids=EXAMPLE_IDS)
def test_normalize_ir_and_walk_agree_on_continuation_and_origin(
    spec: Path, overlays: tuple[Path, ...]
) -> None:
    result = check_spec(spec, overlays)
    registry = result.registry
    ir = build_ir(result, "pkg")
    checked = 0
    for op in ir.operations:
        contract = result.contracts[op.operation_id]
        assert isinstance(contract, Contract) and op.contract is contract
        plan = _Plan.from_contract(contract) if contract.is_listing else None
        for decl, code_ir in zip(contract.reasons, op.reasons, strict=True):
            assert decl.origin == registry.origin_for(decl.code) == code_ir.origin
            assert decl.continuation == code_ir.continuation
            assert decl.continuation == contract.continuation_of(decl.code)
            if plan is not None:
                assert plan.continuation_of(decl.code) == decl.continuation
            checked += 1
        for code in CLIENT_CODES:  # never declared: the walk asks the standard registry
            if plan is not None and contract.reason(code) is None:
                assert plan.continuation_of(code) == STANDARD_REGISTRY.continuation_for(code)
                assert plan.continuation_of(code) == REASON_CODES[code][1]
    assert checked > 0
