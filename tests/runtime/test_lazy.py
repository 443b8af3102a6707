"""``LazyModels`` (``models.PAGE_MODELS``): each model is imported when its key is looked up."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from xcompleteness.runtime.lazy import LazyModels


@pytest.fixture
def pkg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    root = tmp_path / "lazy_pkg_probe"
    (root / "_models").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "_models" / "__init__.py").write_text("")
    for name in ("a", "b"):
        (root / "_models" / f"{name}.py").write_text(f"class Model{name.upper()}:\n    pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "lazy_pkg_probe"
    for mod in [m for m in sys.modules if m.startswith("lazy_pkg_probe")]:
        del sys.modules[mod]


def test_a_lookup_imports_only_that_model(pkg: str) -> None:
    table = LazyModels(pkg, {"opA": ("._models.a", "ModelA"), "opB": ("._models.b", "ModelB")})
    assert sorted(table) == ["opA", "opB"] and len(table) == 2 and "opA" in table
    assert f"{pkg}._models.a" not in sys.modules  # keys, len and `in` import nothing
    model = table["opA"]
    assert model.__name__ == "ModelA" and table["opA"] is model
    assert f"{pkg}._models.a" in sys.modules and f"{pkg}._models.b" not in sys.modules
    assert dict(table)["opB"].__name__ == "ModelB"  # asking for every value imports every model
    with pytest.raises(KeyError):
        table["missing"]
    assert table.get("missing") is None
