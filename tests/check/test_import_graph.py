"""``check`` never imports the audit package: the list-likeness heuristic lives in ``detect``.

Two views of the same rule: the modules a real ``check`` run loads (a fresh interpreter, so
nothing imported by another test leaks in), and the static import graph of the modules check
reaches (so a lazy import inside a rarely taken branch cannot hide one).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys

from support.paths import EXAMPLES, ROOT

PACKAGE = ROOT / "generator" / "xcompleteness"


def _is_audit(module: str) -> bool:
    return module.split(".")[1].startswith("audit") if module.count(".") >= 1 else False


def test_a_check_run_loads_no_audit_module() -> None:
    spec = EXAMPLES / "link_header_search" / "base.yaml"  # has undeclared listings: XC100 runs
    code = (
        "import json, sys\n"
        "from xcompleteness.cli import main\n"
        f"rc = main(['check', {str(spec)!r}, '--format', 'json'])\n"
        "mods = sorted(m for m in sys.modules if m.startswith('xcompleteness.'))\n"
        "print(json.dumps({'rc': rc, 'mods': mods}), file=sys.stderr)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    result = json.loads(proc.stderr.strip().splitlines()[-1])
    assert "XC100" in proc.stdout  # the shared heuristic did run
    assert "xcompleteness.detect._listlike" in result["mods"]
    assert [m for m in result["mods"] if _is_audit(m)] == []


def _imports(module: str) -> set[str]:
    path = PACKAGE / (module.removeprefix("xcompleteness.").replace(".", "/") + ".py")
    if not path.exists():
        path = path.with_suffix("") / "__init__.py"
    if not path.exists():
        return set()
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("xcompleteness"))
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "xcompleteness":
                out.update(f"xcompleteness.{a.name}" for a in node.names)
            elif node.module.startswith("xcompleteness."):
                out.add(node.module)
    return out


def test_the_static_import_graph_of_check_has_no_audit_module() -> None:
    seen: set[str] = set()
    todo = ["xcompleteness.check._pipeline"]
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        todo.extend(_imports(module) - seen)
    assert "xcompleteness.rules._run" in seen and "xcompleteness.detect._listlike" in seen
    assert sorted(m for m in seen if _is_audit(m)) == []
    # and the audit side really is separate: audit imports the shared heuristic, not vice versa
    assert "xcompleteness.detect" in _imports("xcompleteness.audit._report")
    assert {p.stem for p in (PACKAGE / "audit").glob("*.py")} == {
        "__init__",
        "_report",
        "_draft",
        "_patches",
        "_responses",
        "_size_cap",
        "_walks",
    }
