"""The walk's modules are layers: each imports only the ones below it, and only the drivers may
touch anything that does I/O or waits (the sans-IO core never imports httpx or asyncio).

``runtime/walk.py`` is the public face: it re-exports the names generated code and tests import,
each the very object its owning module defines.
"""

from __future__ import annotations

from pathlib import Path

import xcompleteness.runtime
from support.imports import imports_in
from xcompleteness.runtime import walk

RUNTIME = Path(xcompleteness.runtime.__file__).parent
# Lowest first: a module may import (relatively) only walk modules listed before it.
LAYERS = (
    "walk_results",
    "walk_plan",
    "walk_continuations",
    "walk_pages",
    "walk_core",
    "walk_drivers",
    "walk",
)
SANS_IO = ("walk_results", "walk_plan", "walk_continuations", "walk_pages", "walk_core")
IO_MODULES = {"httpx", "asyncio", "socket", "ssl", "selectors", "http", "urllib", "threading"}
PURE = {"urllib.parse"}
"""String parsing only (the next-link origin rule in walk_results uses it)."""


def _imports(name: str) -> list[tuple[str, int]]:
    return imports_in(RUNTIME / f"{name}.py")


def test_every_walk_module_is_in_the_layer_list() -> None:
    on_disk = {p.stem for p in RUNTIME.glob("walk*.py")}
    assert on_disk == set(LAYERS)


def test_walk_modules_import_only_the_layers_below_them() -> None:
    bad: list[str] = []
    for index, name in enumerate(LAYERS):
        below = set(LAYERS[:index])
        for module, level in _imports(name):
            if level == 1 and module.startswith("walk") and module not in below:
                bad.append(f"{name} imports .{module}")
    assert bad == []


def test_the_sans_io_modules_import_nothing_that_does_io() -> None:
    bad = [
        f"{name} imports {module}"
        for name in SANS_IO
        for module, level in _imports(name)
        if level == 0 and module.split(".")[0] in IO_MODULES and module not in PURE
    ]
    assert bad == []


def test_no_walk_module_imports_httpx_and_only_the_drivers_wait() -> None:
    tops = {name: {m.split(".")[0] for m, level in _imports(name) if level == 0} for name in LAYERS}
    assert [name for name, mods in tops.items() if "httpx" in mods] == []
    assert [name for name, mods in tops.items() if "asyncio" in mods] == ["walk_drivers"]


def test_the_facade_re_exports_the_owning_modules_objects() -> None:
    from xcompleteness.runtime import (
        walk_continuations,
        walk_core,
        walk_drivers,
        walk_pages,
        walk_results,
    )

    assert walk.Walker is walk_drivers.Walker
    assert walk.AsyncWalker is walk_drivers.AsyncWalker
    assert walk.CollectResult is walk_results.CollectResult
    assert walk.WalkFailed is walk_results.WalkFailed
    assert walk.encode_continuation is walk_continuations.encode_continuation
    assert issubclass(walk_core._Core, walk_pages._PageReader)
    for name in walk.__all__:
        assert getattr(walk, name) is not None, name
    # Everything the generated client and _ops modules import from _runtime.walk is there.
    templates = Path(__file__).resolve().parents[2] / "templates" / "package"
    wanted: set[str] = set()
    for path in [templates / "client.py.jinja", *sorted((templates / "_ops").glob("*.jinja"))]:
        text = path.read_text(encoding="utf-8")
        for block in text.split("_runtime.walk import (")[1:]:
            wanted.update(n.strip(" ,") for n in block.split(")")[0].split() if n.strip(" ,"))
    assert wanted and wanted <= set(walk.__all__)
