"""runtime/codes.py is the one copy of the code tables; it equals spec_ext/codes.json exactly."""

from __future__ import annotations

import ast
from pathlib import Path

from xcompleteness.resources import load_json, runtime_dir
from xcompleteness.runtime import codes

CODES = load_json("codes.json")
SCHEMA = load_json("x-completeness.schema.json")
GENERATOR = Path(codes.__file__).resolve().parents[1]


def test_reasons_equal_codes_json_in_order() -> None:
    expected = {c: (e["origin"], e["continuation"]) for c, e in CODES["reasons"].items()}
    assert list(codes.REASON_CODES.items()) == list(expected.items())
    assert dict(codes.STANDARD_CONTINUATIONS) == {c: e[1] for c, e in expected.items()}
    assert dict(codes.STANDARD_ORIGINS) == {c: e[0] for c, e in expected.items()}
    assert codes.CLIENT_CODES == {c for c, e in expected.items() if e[0] == "client"}


def test_warnings_continuations_errors_equal_codes_json() -> None:
    assert dict(codes.WARNING_ORIGINS) == {c: e["origin"] for c, e in CODES["warnings"].items()}
    assert list(codes.WARNING_ORIGINS) == list(CODES["warnings"])
    assert codes.CLIENT_WARNING_CODES == {
        c for c, e in CODES["warnings"].items() if e["origin"] == "client"
    }
    assert codes.CONTINUATION_KINDS == tuple(CODES["continuations"])
    assert dict(codes.ERROR_STATUS) == {c: e["status"] for c, e in CODES["errors"].items()}


def test_the_envelope_names_the_continuation_table_by_value() -> None:
    """``ContinuationKind`` (the envelope's type) and ``CONTINUATION_PRIORITY`` (the order the
    walk and ``continuation_for`` pick in) spell the one continuation table again under other
    names: they must hold exactly its values, the priority each kind once."""
    from typing import get_args

    from xcompleteness.runtime.envelope import CONTINUATION_PRIORITY, ContinuationKind

    assert get_args(ContinuationKind) == codes.CONTINUATION_KINDS
    assert sorted(CONTINUATION_PRIORITY) == sorted(codes.CONTINUATION_KINDS)
    assert len(set(CONTINUATION_PRIORITY)) == len(CONTINUATION_PRIORITY)
    assert CONTINUATION_PRIORITY[0] == "restart" and CONTINUATION_PRIORITY[-1] == "none"


def test_listing_kinds_are_schema_kinds() -> None:
    kinds = SCHEMA["properties"]["kind"]["enum"]
    assert codes.LISTING_KINDS < set(kinds)
    assert codes.LISTING_KINDS == {"collection", "search", "aggregate"}


def test_deadline_default_is_retry_with_deadline() -> None:
    # The one rule (docs/client.md "The continuation"): the registry default of a client deadline
    # is retry_with_deadline; a walk that holds a position still resumes with next_cursor.
    assert codes.STANDARD_CONTINUATIONS["CLIENT_DEADLINE_EXCEEDED"] == "retry_with_deadline"
    assert CODES["reasons"]["CLIENT_DEADLINE_EXCEEDED"]["continuation"] == "retry_with_deadline"


def test_the_module_is_shipped_and_imports_only_stdlib() -> None:
    assert (runtime_dir() / "codes.py").is_file()
    tree = ast.parse((runtime_dir() / "codes.py").read_text(encoding="utf-8"))
    roots = {
        (n.module or "").split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
    } | {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert roots <= {"__future__", "collections", "types", "typing"}


_TABLE_NAMES = {
    "CLIENT_CODES",
    "CLIENT_WARNING_CODES",
    "CONTINUATION_KINDS",
    "LISTING_KINDS",
    "STANDARD_CONTINUATIONS",
    "STANDARD_ORIGINS",
}


def test_no_other_module_defines_a_code_table() -> None:
    """Every other module imports the tables; a second literal copy could drift."""
    offenders = []
    for path in sorted(GENERATOR.rglob("*.py")):
        if path.name == "codes.py" and path.parent.name == "runtime":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            targets = []
            if isinstance(node, ast.Assign):
                targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                targets = [node.target.id]
            bad = [t for t in targets if t in _TABLE_NAMES or t == "_DEFAULT_CONTINUATION"]
            if bad and not _is_reexport(node):
                offenders.append(f"{path.relative_to(GENERATOR)}: {bad}")
            if isinstance(node, ast.ClassDef) and node.name == "ContractError":
                if path.name != "contract.py" or path.parent.name != "runtime":
                    offenders.append(f"{path.relative_to(GENERATOR)}: class ContractError")
    assert offenders == []


def _is_reexport(node: ast.stmt) -> bool:
    value = getattr(node, "value", None)
    return isinstance(value, (ast.Name, ast.Attribute))
