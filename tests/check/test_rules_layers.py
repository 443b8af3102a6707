"""The semantic rules are one entry point over one module per rule family.

``rules/_run.py`` (``run_rules``) composes the families; a family imports only the shared layer
(``_catalog``, ``_context``, ``_locations``), never another family or ``_run``;
every rule code of ``RULES`` is raised by a family or the shared layer.
"""

from __future__ import annotations

import ast
import re

from support.paths import ROOT
from xcompleteness.rules import _context as rules_context
from xcompleteness.rules import _run as rules

PACKAGE = ROOT / "generator" / "xcompleteness" / "rules"
SHARED = {"_catalog", "_context", "_locations"}
FAMILIES = {"_document", "_codes", "_fields", "_pagination", "_mutations"}
OTHERS = {"__init__", "_run", "_todo"}  # the package, the entry point, XC900 (run by check alone)


def _rule_imports(name: str) -> set[str]:
    tree = ast.parse((PACKAGE / f"{name}.py").read_text(encoding="utf-8"))
    return {
        node.module.removeprefix("xcompleteness.rules.")
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        and node.module
        and node.module.startswith("xcompleteness.rules.")
    }


def test_every_rules_module_is_accounted_for() -> None:
    assert {p.stem for p in PACKAGE.glob("*.py")} == SHARED | FAMILIES | OTHERS


def test_families_import_only_the_shared_layer() -> None:
    assert {f: _rule_imports(f) - SHARED for f in sorted(FAMILIES)} == {f: set() for f in FAMILIES}
    assert {s: _rule_imports(s) & (FAMILIES | OTHERS) for s in SHARED} == {s: set() for s in SHARED}
    assert FAMILIES <= _rule_imports("_run")


def test_run_rules_composes_every_family() -> None:
    bases = {cls.__module__.removeprefix("xcompleteness.rules.") for cls in rules._Context.__mro__}
    assert FAMILIES | {"_context"} <= bases
    assert all(issubclass(cls, rules_context.RuleContext) for cls in rules._Context.__bases__)


def test_each_rule_code_is_raised_by_a_rules_module() -> None:
    where: dict[str, set[str]] = {code: set() for code in rules.RULES}
    for name in (SHARED | FAMILIES | {"_run"}) - {"_catalog"}:
        text = (PACKAGE / f"{name}.py").read_text(encoding="utf-8")
        for code in re.findall(r'"(XC1\d\d)"', text):
            where.setdefault(code, set()).add(name)
    unraised = sorted(code for code, names in where.items() if not names)
    assert unraised == []
    # A bad expression (XC108), the wrong side read (XC109) and an unknown warning code (XC111)
    # are found both by the shared helpers and by one family; every other code lives in one module.
    assert {c for c, names in where.items() if len(names) > 1} <= {"XC108", "XC109", "XC111"}
