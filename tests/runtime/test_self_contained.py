"""The runtime works as the verbatim ``NAME/_runtime/`` copy of a generated package: without the
generator importable, and on the ``_contracts.json`` the real generator writes."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import xcompleteness.runtime
from support.paths import EXAMPLES
from xcompleteness.emit._generate import generate_files
from xcompleteness.runtime.contract import contracts_from_document

RUNTIME = Path(xcompleteness.runtime.__file__).parent

# Runs in a fresh interpreter where importing xcompleteness fails, against a copy of runtime/.
SCRIPT = textwrap.dedent(
    """
    import importlib.abc, sys

    class Block(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "xcompleteness" or name.startswith("xcompleteness."):
                raise ImportError("the generated package must not need the generator")
            return None

    sys.meta_path.insert(0, Block())
    from pkg._runtime import contract, envelope, expressions, tokens

    cond = expressions.parse_condition({"gt": ["$response.body#/total_count", 1000]})
    assert cond.holds(expressions.ResponseView(200, {}, {"total_count": 1001}))
    env = envelope.Envelope.partial_page([1], reasons=["MORE_PAGES_AVAILABLE"], next_cursor="c")
    assert env.continuation().kind == "next_cursor"
    signer = tokens.TokenSigner(b"k" * 32)
    t = signer.mint_cursor(operation="op", position=1, ttl_seconds=5)
    assert signer.verify_cursor(t, operation="op").data == 1
    contracts, registry = contract.load_contracts(sys.argv[1])
    print(len(contracts))
    """
)


@pytest.fixture(scope="module")
def generated_contracts() -> dict[str, str]:
    """``_contracts.json`` of both examples as the real pipeline writes it (in memory)."""
    out: dict[str, str] = {}
    for name in ("service_accounts", "link_header_search"):
        files = generate_files(EXAMPLES / name / "openapi.yaml", (), f"rt_{name}")
        out[name] = next(text for path, text in files.items() if path.name == "_contracts.json")
    return out


@pytest.mark.parametrize("example", ["service_accounts", "link_header_search"])
def test_generated_contracts_load(generated_contracts: dict[str, str], example: str) -> None:
    document = json.loads(generated_contracts[example])
    contracts, registry = contracts_from_document(document)
    assert set(contracts) == set(document["contracts"])
    for op_id, c in contracts.items():
        raw = document["contracts"][op_id]
        assert c.kind == raw["kind"] and c.mode == raw["mode"]
        assert c.declared_codes == {r["code"] for r in raw["reasons"] or []}
        for decl in c.reasons:
            assert decl.continuation in registry.continuations
        if c.is_listing:
            assert c.items_expr is not None
    assert registry.client_codes >= {"CLIENT_PAGE_LIMIT", "CONTRACT_VIOLATION"}


def test_runtime_copy_runs_without_the_generator(
    tmp_path: Path, generated_contracts: dict[str, str]
) -> None:
    target = tmp_path / "pkg" / "_runtime"
    target.mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    for src in RUNTIME.glob("*.py"):
        shutil.copy(src, target / src.name)
    contracts = tmp_path / "_contracts.json"
    contracts.write_text(generated_contracts["service_accounts"])
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(contracts)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 0, proc.stderr
    assert int(proc.stdout.strip()) == len(
        json.loads(generated_contracts["service_accounts"])["contracts"]
    )
