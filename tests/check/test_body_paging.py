"""Issue 19: a POST search paged in its JSON body (``$request.body#/NAME``) is checked against
the request body schema (XC146), and the overlay action the hint names really fixes it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import yaml
from xcompleteness.check import check_spec

CASES = Path(__file__).resolve().parents[1] / "invalid"


def test_the_xc146_hint_is_an_overlay_action_that_fixes_the_error(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    shutil.copy(CASES / "rule_XC146_body_size_not_in_the_body_schema" / "spec.yaml", spec)
    (found,) = [d for d in check_spec(spec).diagnostics if d.code == "XC146"]
    assert found.pointer.endswith("/pagination/request/size")
    match = re.search(
        r'\{target: "(?P<target>[^"]+)", update: (?P<update>\{.*\})\} adds it', found.hint
    )
    assert match is not None, found.hint
    overlay = tmp_path / "fix.yaml"
    overlay.write_text(
        yaml.safe_dump(
            {
                "overlay": "1.0.0",
                "info": {"title": "fix", "version": "1"},
                "actions": [{"target": match["target"], "update": yaml.safe_load(match["update"])}],
            }
        ),
        encoding="utf-8",
    )
    fixed = check_spec(spec, (overlay,))
    assert [d.code for d in fixed.diagnostics if d.severity.value == "error"] == []
