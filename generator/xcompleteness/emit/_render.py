"""The Jinja2 environment every emitter renders with.

Why these settings: ``StrictUndefined`` makes a missing IR attribute an error instead of an empty
string in generated code; autoescape is off because the output is Python, not HTML — escaping of
spec text is done explicitly with the ``py_str`` / ``py_doc`` / ``py_docblock`` / ``py_comment``
/ ``py_ident`` filters from :mod:`xcompleteness.emit._escape`. Templates live in ``templates/`` and
mirror the output tree (``templates/package/models.py.jinja`` renders ``NAME/models.py``);
``_``-prefixed files are partials.

Compiled ahead: Jinja2 turns each template into Python source before its first render (about
0.12 s for the 18 templates, every run). ``templates/_compiled/`` holds that Python, one module per
template as ``Environment.compile_templates`` writes it, and a manifest naming the Jinja2 version,
the environment's syntax settings and the SHA-256 of each template's source it was compiled from.
A template is rendered from its module only while all three match (its source is read and hashed
each time it is first loaded); any other template is compiled from source as before, so an edited
template is never rendered stale. The modules are the generator's own code, shipped with it like
the templates (never written by a run, never read from a cache); ``make templates`` writes them
and ``tests/generate/test_compiled_templates.py`` checks they are exactly what Jinja2 compiles.
"""

from __future__ import annotations

import hashlib
import json
import threading
from pathlib import Path
from typing import Any

import jinja2

from xcompleteness.emit._escape import py_comment, py_doc, py_docblock, py_ident, py_str
from xcompleteness.resources import templates_dir

__all__ = ["COMPILED", "Renderer", "compile_ahead"]

COMPILED = "_compiled"
"""The folder under ``templates/`` with the compiled modules and their manifest."""
_MANIFEST = "manifest.json"


def _environment(loader: jinja2.BaseLoader) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=loader,
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(
        py_str=py_str,
        py_doc=py_doc,
        py_docblock=py_docblock,
        py_comment=py_comment,
        py_ident=py_ident,
    )
    return env


def _syntax(env: jinja2.Environment) -> str:
    """What the compiled Python of a template depends on besides its source."""
    settings = (
        jinja2.__version__,
        env.block_start_string,
        env.block_end_string,
        env.variable_start_string,
        env.variable_end_string,
        env.comment_start_string,
        env.comment_end_string,
        env.line_statement_prefix,
        env.line_comment_prefix,
        env.trim_blocks,
        env.lstrip_blocks,
        env.newline_sequence,
        env.keep_trailing_newline,
        env.autoescape,
        env.optimized,
        sorted(env.extensions),
    )
    return repr(settings)


def _sha(source: str) -> str:
    return hashlib.sha256(source.encode("utf-8")).hexdigest()


class _AheadLoader(jinja2.BaseLoader):
    """A template's compiled module while its source is the one it was compiled from; else the
    template compiled from source (module doc)."""

    def __init__(self, root: Path, folder: Path, sources: dict[str, str]) -> None:
        self.files = jinja2.FileSystemLoader(str(root))
        self.modules = _module_loader(folder, sources)
        self.sources = sources

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str | None, Any]:
        return self.files.get_source(environment, template)

    def list_templates(self) -> list[str]:
        return [n for n in self.files.list_templates() if not n.startswith(COMPILED + "/")]

    def load(
        self,
        environment: jinja2.Environment,
        name: str,
        globals: Any = None,  # noqa: A002 - Jinja2's parameter name
    ) -> jinja2.Template:
        source, _filename, _uptodate = self.files.get_source(environment, name)
        if self.sources.get(name) == _sha(source):
            return self.modules.load(environment, name, globals)
        return self.files.load(environment, name, globals)


_MODULE_LOADERS: dict[tuple[str, str], jinja2.ModuleLoader] = {}
_MODULE_LOADERS_LOCK = threading.Lock()


def _module_loader(folder: Path, sources: dict[str, str]) -> jinja2.ModuleLoader:
    """The one :class:`jinja2.ModuleLoader` of ``folder`` compiled from ``sources`` (the
    manifest's source hashes) in this process.

    Why one: a ModuleLoader registers a package of its own in ``sys.modules`` (named after its
    ``id``) as a weak proxy, and each template module it imports under that package stays there.
    A loader per :class:`Renderer` would leave a library caller that generates again and again
    with a growing ``sys.modules``, dead proxies in it once a loader is collected (code that walks
    ``sys.modules`` then meets ``ReferenceError``), and, when a later loader gets a freed one's
    ``id``, that one's template modules answering for another folder. Keyed by the manifest too:
    a folder compiled again from other sources (``make templates`` while a process renders) gets
    a loader of its own, so a module imported before is never rendered for a changed source."""
    key = (str(folder.resolve()), json.dumps(sources, sort_keys=True))
    with _MODULE_LOADERS_LOCK:
        loader = _MODULE_LOADERS.get(key)
        if loader is None:
            loader = _MODULE_LOADERS[key] = jinja2.ModuleLoader(key[0])
        return loader


def _ahead(root: Path) -> dict[str, str] | None:
    """The compiled templates' source hashes, when the manifest is readable and matches."""
    try:
        manifest = json.loads((root / COMPILED / _MANIFEST).read_text("utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(manifest, dict) or manifest.get("syntax") != _syntax(_environment(None)):
        return None
    sources = manifest.get("sources")
    if not isinstance(sources, dict):
        return None
    return {str(k): str(v) for k, v in sources.items()}


class Renderer:
    """Render templates by path relative to ``templates/``."""

    def __init__(self, root: Path | None = None) -> None:
        root = root or templates_dir()
        sources = _ahead(root)
        loader: jinja2.BaseLoader = (
            jinja2.FileSystemLoader(str(root))
            if sources is None
            else _AheadLoader(root, root / COMPILED, sources)
        )
        self.env = _environment(loader)

    def render(self, template: str, **ctx: Any) -> str:
        return self.env.get_template(template).render(**ctx)


def compile_ahead(root: Path | None = None) -> None:
    """(Re)write ``templates/_compiled/``: every template compiled, and the manifest."""
    root = root or templates_dir()
    folder = root / COMPILED
    env = _environment(jinja2.FileSystemLoader(str(root)))
    names = sorted(n for n in env.list_templates() if not n.startswith(COMPILED + "/"))
    if folder.is_dir():
        for old in folder.iterdir():
            if old.is_file():
                old.unlink()
    env.compile_templates(str(folder), zip=None, filter_func=lambda n: n in names)
    sources = {n: _sha(env.loader.get_source(env, n)[0]) for n in names}  # type: ignore[union-attr]
    manifest = {"syntax": _syntax(env), "sources": sources}
    (folder / _MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", "utf-8")


if __name__ == "__main__":  # make templates
    compile_ahead()
