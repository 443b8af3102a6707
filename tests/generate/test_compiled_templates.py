"""The templates compiled ahead (``templates/_compiled/``, emit/_render.py) are exactly what
Jinja2 compiles from the templates now, and a template whose source changed since is rendered
from its source, never from a stale module. The goldens render through the modules."""

from __future__ import annotations

import gc
import json
import shutil
import sys
from pathlib import Path

import jinja2
from xcompleteness.emit._render import COMPILED, Renderer, compile_ahead
from xcompleteness.resources import templates_dir

NAME = "package/_ops/__init__.py.jinja"


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def _module(template: jinja2.Template, root: Path) -> bool:
    return Path(template.filename or "").parent == root / COMPILED


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "templates"
    shutil.copytree(templates_dir(), root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def _manifest(root: Path) -> dict:
    return json.loads((root / COMPILED / "manifest.json").read_text("utf-8"))


def test_the_shipped_modules_are_compiled_from_todays_templates(tmp_path: Path) -> None:
    """Fails when a template was edited without ``make templates``. The modules themselves are
    compared where the Jinja2 they were compiled with is installed; a fresh install may bring a
    newer Jinja2, and then the shipped modules are never used (every template is compiled from
    its source, as before they existed): slower, never different."""
    root = _copy(tmp_path)
    compile_ahead(root)  # run `make templates` after editing a template if this fails
    shipped, fresh = _manifest(templates_dir()), _manifest(root)
    assert shipped["sources"] == fresh["sources"]
    env = Renderer().env
    used = [_module(env.get_template(n), templates_dir()) for n in env.list_templates()]
    if shipped["syntax"] == fresh["syntax"]:
        assert _files(root / COMPILED) == _files(templates_dir() / COMPILED)
        assert all(used)
    else:
        assert not any(used)


def test_every_template_is_rendered_from_its_module(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    compile_ahead(root)  # with the installed Jinja2, whichever it is
    env = Renderer(root).env
    names = env.list_templates()
    assert NAME in names and not any(n.startswith(COMPILED) for n in names)
    for name in names:  # a module, not a source file
        assert _module(env.get_template(name), root), name


def test_an_edited_template_is_compiled_from_its_source(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    path = root / NAME
    path.write_text(path.read_text("utf-8") + "# edited after compiling\n", "utf-8")
    env = Renderer(root).env
    edited = env.get_template(NAME)
    assert edited.filename == str(path)
    assert edited.render().endswith("# edited after compiling\n")
    assert _module(env.get_template("package/_items/__init__.py.jinja"), root)


def test_modules_of_another_jinja_or_syntax_are_never_used(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    manifest = root / COMPILED / "manifest.json"
    data = json.loads(manifest.read_text("utf-8"))
    data["syntax"] = data["syntax"].replace(repr(jinja2.__version__), "'0.0'", 1)
    manifest.write_text(json.dumps(data), "utf-8")
    env = Renderer(root).env
    assert env.get_template(NAME).filename == str(root / NAME)
    manifest.write_text("not json", "utf-8")
    assert Renderer(root).env.get_template(NAME).filename == str(root / NAME)


def _template_packages() -> set[str]:
    return {n for n in sys.modules if n.startswith("_jinja2_module_templates_") and "." not in n}


def test_renderers_share_one_module_loader_and_leave_no_dead_module(tmp_path: Path) -> None:
    """A library caller that generates again and again (a Renderer each time) adds one package
    to ``sys.modules`` per compiled folder, not one per Renderer, and a collection leaves no
    dead weak proxy there (which code walking ``sys.modules`` would meet as ReferenceError)."""
    root = _copy(tmp_path)
    before = _template_packages()
    texts = {Renderer(root).render(NAME) for _ in range(5)}
    gc.collect()
    added = _template_packages() - before
    assert len(texts) == 1 and len(added) == 1
    for name in added:  # alive: reading an attribute of a dead proxy raises ReferenceError
        assert sys.modules[name].__name__ == name


def test_a_folder_compiled_again_in_process_is_never_rendered_stale(tmp_path: Path) -> None:
    """``make templates`` run while a process renders: the next Renderer renders the new
    modules, not the ones the process imported from the folder before."""
    root = _copy(tmp_path)
    assert not Renderer(root).render(NAME).endswith("# recompiled\n")
    path = root / NAME
    path.write_text(path.read_text("utf-8") + "# recompiled\n", "utf-8")
    compile_ahead(root)
    env = Renderer(root).env
    template = env.get_template(NAME)
    assert _module(template, root)
    assert template.render().endswith("# recompiled\n")
