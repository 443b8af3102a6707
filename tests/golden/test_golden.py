"""Golden output trees: generation is deterministic, clean, compilable and importable.

For every case in ``refresh.CASES`` the CLI generates the example twice, in fresh processes with
``PYTHONHASHSEED=0`` and ``=1``; both trees must be byte-identical, equal the stored golden tree
(``make golden`` refreshes it), pass ruff, compile, and import in a fresh interpreter.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
import refresh  # noqa: E402

CASES = sorted(refresh.CASES)


def _generate_all(base: Path, seed: str) -> None:
    """Every case through the real CLI, in one fresh interpreter with ``PYTHONHASHSEED=seed``."""
    runs = [
        ["generate", str(ROOT / spec), "-o", str(base / case), "--package", package]
        for case, (spec, package) in sorted(refresh.CASES.items())
    ]
    code = (
        "import sys\nfrom xcompleteness.cli import main\n"
        f"sys.exit(max(main(args) for args in {runs!r}))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONHASHSEED": seed},
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr


@pytest.fixture(scope="module")
def seeds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = {}
    for seed in ("0", "1"):
        out[seed] = tmp_path_factory.mktemp(f"seed{seed}")
        _generate_all(out[seed], seed)
    return out


def _tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


@pytest.fixture(params=CASES)
def generated(request: pytest.FixtureRequest, seeds: dict[str, Path]):
    case = request.param
    return case, refresh.CASES[case][1], [seeds["0"] / case, seeds["1"] / case]


def test_byte_identical_across_hash_seeds(generated) -> None:
    _, _, (a, b) = generated
    assert _tree(a) == _tree(b)


def test_matches_the_golden_tree(generated) -> None:
    case, _, (out, _) = generated
    produced = {
        k: v.decode("utf-8")
        for k, v in _tree(out).items()
        if refresh.SKIPPED_DIR not in k.split("/") and not k.startswith(".xcompleteness")
    }
    stored = refresh.stored_files(case)
    assert sorted(produced) == sorted(stored), "run `make golden` and review the diff"
    for rel in stored:
        assert produced[rel] == stored[rel], f"{rel} drifted; run `make golden` and review"


def test_runtime_is_copied_verbatim(generated) -> None:
    _, package, (out, _) = generated
    runtime = ROOT / "generator" / "xcompleteness" / "runtime"
    for src in runtime.glob("*.py"):
        assert (out / package / "_runtime" / src.name).read_bytes() == src.read_bytes()


def test_ruff_clean_and_compiles(generated) -> None:
    _, package, (out, _) = generated
    from ruff.__main__ import find_ruff_bin

    pkg = out / package
    proc = subprocess.run(
        [
            find_ruff_bin(),
            "check",
            "--isolated",
            "--select",
            "E,F,W,I,B,UP",  # E501 included: docstrings wrap, long strings are split
            "--line-length",
            "100",
            "--target-version",
            "py310",
            "--exclude",
            "_runtime",
            str(pkg),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for path in pkg.rglob("*.py"):
        compile(path.read_text(encoding="utf-8"), str(path), "exec")
        ast.parse(path.read_text(encoding="utf-8"))


def test_imports_in_a_fresh_process(generated) -> None:
    _, package, (out, _) = generated
    modules = sorted(
        ".".join(p.relative_to(out).with_suffix("").parts)
        for p in (out / package).rglob("*.py")
        if p.name != "__main__.py"
    )
    code = f"import importlib\nfor m in {modules!r}:\n    importlib.import_module(m)\nprint('ok')"
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=out,
        env={**os.environ, "PYTHONPATH": str(out)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr


def test_public_modules_have_a_sorted_complete_all(generated) -> None:
    _, package, (out, _) = generated
    for name in ("__init__.py", "models.py", "server.py"):
        tree = ast.parse((out / package / name).read_text(encoding="utf-8"))
        exported = next(
            ast.literal_eval(node.value)
            for node in tree.body
            if isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
        )
        assert exported == sorted(exported), name
        defined = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
        assert defined <= set(exported), f"{name} defines {sorted(defined - set(exported))}"


def test_augmented_document_is_valid_openapi(generated) -> None:
    from openapi_spec_validator import validate

    _, package, (out, _) = generated
    doc = json.loads((out / package / "openapi.augmented.json").read_text(encoding="utf-8"))
    validate(doc)
    envelopes = [name for name in doc["components"]["schemas"] if name.endswith("Page")]
    assert envelopes, "every listing's envelope is in components"


@pytest.mark.parametrize("case", CASES)
def test_client_docstrings_are_real_lines_not_escapes(case: str) -> None:
    """Issue 10 item 8: ``help(Client)`` shows lines; the source has no literal ``\\n``."""
    package = refresh.CASES[case][1]
    tree = HERE / case / package
    for path in [tree / "client.py", *sorted((tree / "_ops").glob("[!_]*.py"))]:
        source = path.read_text()
        assert "\\n" not in source, path
        module = ast.parse(source)
        docs = [
            ast.get_docstring(node)
            for node in ast.walk(module)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
        ]
        assert any(d and "\n" in d for d in docs), path  # multi-line docstrings exist
