"""Format generated Python in memory with ruff, under an explicit configuration.

Why: generated code must be ruff-clean and byte-identical on every machine. Every file goes
through ``ruff check --select I,F401,UP --fix`` (sort imports, drop unused ones, modern
annotations such as ``X | None`` where datamodel-code-generator writes ``Optional[X]``) and then
``ruff format``, with ``--isolated`` (no user ``pyproject.toml``/``ruff.toml`` is read) and the
few settings we rely on passed on the command line. Files copied verbatim (the ``_runtime/``
package) and non-Python files are left untouched. A file ruff cannot parse is a generator bug:
:class:`FormatError` names it instead of writing broken code.

Speed: :func:`format_files` runs ruff once per step for the whole tree, not once per file (a
GitHub package has ~270 modules; two processes per module cost more than the formatting). The
files are written to a private temporary folder, each alone in a numbered sub-folder under its
own base name: ruff then sees exactly what ``--stdin-filename NAME`` shows it for one file (the
same base name, so ``__init__.py`` rules apply alike, and no sibling module or package that import
sorting could classify differently), and the bytes are the ones :func:`format_source` gives.

ruff never splits a string literal, so a line that is still longer than the line length because
of one (datamodel-code-generator's ``Field(description="...")`` holds the spec's text verbatim)
gets that literal rewritten as a parenthesised implicit concatenation of pieces, then formatted
again: the value is the same constant (checked by comparing the two ASTs; on any difference the
file is kept as it was). Docstrings are wrapped by :func:`~xcompleteness.emit._escape.py_doc`.

Reuse: formatting is a pure function of a module's text and base name (each is formatted alone),
ruff's version and settings, Python and this module's source; :func:`format_key` hashes exactly
those, and inside :func:`format_store` a store (``generate``'s cache folder:
:mod:`xcompleteness.emit._format_cache`) supplies the output of earlier runs, so only modules
whose text changed are formatted again.
"""

from __future__ import annotations

import ast
import hashlib
import io
import os
import re
import stat
import subprocess
import sys
import tempfile
import threading
import tokenize
import unicodedata
from collections.abc import Mapping
from functools import cache
from pathlib import Path, PurePosixPath
from typing import Protocol

from xcompleteness.reuse import StoreSlot, file_sha256, library_versions

__all__ = [
    "FIX_RULES",
    "FormatError",
    "FormatStore",
    "LINE_LENGTH",
    "LINT_RULES",
    "RUFF_SETTINGS",
    "VERBATIM_DIR",
    "format_files",
    "format_key",
    "format_many",
    "format_source",
    "format_store",
    "line_width",
    "needs_format",
    "split_long_strings",
]

LINE_LENGTH = 100
RUFF_SETTINGS = ("--isolated", "--line-length", str(LINE_LENGTH), "--target-version", "py310")
FIX_RULES = "I,F401,UP"
LINT_RULES = ("E", "F", "W", "I", "B", "UP")
"""The rules the generated tree is clean under (the generator's own; written into the generated
``pyproject.toml`` so ``ruff check`` in the generated project uses them)."""
VERBATIM_DIR = "_runtime"


class FormatError(RuntimeError):
    """ruff could not parse or format a generated file (a generator bug, never user input)."""


def _ruff_bin() -> str:
    from ruff.__main__ import find_ruff_bin

    return str(find_ruff_bin())


def _run(args: list[str], text: str, name: str, cwd: str) -> str:
    proc = subprocess.run(
        [_ruff_bin(), *args, *RUFF_SETTINGS, "--stdin-filename", name, "-"],
        input=text.encode("utf-8"),
        capture_output=True,
        cwd=cwd,
        timeout=120,
        check=False,
    )
    if proc.returncode not in (0, 1):
        msg = proc.stderr.decode("utf-8", "replace").strip()
        raise FormatError(f"ruff failed on generated file {name}: {msg}")
    return proc.stdout.decode("utf-8")


def _run_files(args: list[str], paths: Mapping[PurePosixPath, Path], cwd: str) -> None:
    """One ruff run rewriting ``paths`` in place; a file ruff cannot handle raises FormatError."""
    if not paths:
        return
    proc = subprocess.run(
        [_ruff_bin(), *args, *RUFF_SETTINGS, "--no-cache", *(str(p) for p in paths.values())],
        capture_output=True,
        cwd=cwd,
        timeout=600,
        check=False,
    )
    if proc.returncode not in (0, 1):
        msg = proc.stderr.decode("utf-8", "replace").strip()
        for rel, path in paths.items():  # name the generated files, not our temporary copies
            msg = msg.replace(str(path), str(rel))
            msg = msg.replace(path.relative_to(cwd).as_posix(), str(rel))
        raise FormatError(f"ruff failed on generated files: {msg}")


def _write_all(paths: Mapping[PurePosixPath, Path], texts: Mapping[PurePosixPath, str]) -> None:
    for rel, text in texts.items():
        paths[rel].write_bytes(text.encode("utf-8"))


def _read_all(paths: Mapping[PurePosixPath, Path]) -> dict[PurePosixPath, str]:
    return {rel: path.read_bytes().decode("utf-8") for rel, path in paths.items()}


class FormatStore(Protocol):
    """Where :func:`format_many` keeps formatted modules between runs (see :func:`format_store`)."""

    def get(self, key: str) -> str | None: ...

    def put_many(self, items: Mapping[str, str]) -> None: ...


_SLOT: StoreSlot[FormatStore] = StoreSlot("xc_format_store")
format_store = _SLOT.using
"""``with format_store(store):`` lets :func:`format_many` reuse and keep formatted modules in
``store``."""


@cache
def _salt() -> bytes:
    """Everything besides a module's name and text that its formatted bytes depend on."""
    h = hashlib.sha256()
    for part in (
        library_versions(["ruff"]).decode(),
        f"python {sys.version}",
        " ".join(RUFF_SETTINGS),
        FIX_RULES,
        str(LINE_LENGTH),
    ):
        h.update(b"%d:%s" % (len(part), part.encode()))
    h.update(file_sha256(Path(__file__)))  # the splitting, the steps
    return h.digest()


def format_key(name: str, text: str) -> str:
    """SHA-256 over what :func:`format_many` makes of module ``text`` named ``name`` (a base
    name: ``__init__.py`` is linted apart) depends on (:func:`_salt`)."""
    h = hashlib.sha256(_salt())
    raw = name.encode("utf-8", "surrogateescape")
    h.update(b"%d:%s" % (len(raw), raw))
    h.update(text.encode("utf-8", "surrogateescape"))
    return h.hexdigest()


def format_many(sources: Mapping[PurePosixPath, str]) -> dict[PurePosixPath, str]:
    """:func:`format_source` for every file of ``sources``, with one ruff run per step.

    Inside :func:`format_store`, modules the store holds are taken from it (same bytes: see
    :func:`format_key`) and the others are formatted and stored.
    """
    store = _SLOT.current()
    if store is None or not sources:
        return _format_fresh(sources)
    keys = {rel: format_key(rel.name, text) for rel, text in sources.items()}
    done: dict[PurePosixPath, str] = {}
    for rel, key in keys.items():
        hit = store.get(key)
        if hit is not None:
            done[rel] = hit
    fresh = _format_fresh({rel: text for rel, text in sources.items() if rel not in done})
    store.put_many({keys[rel]: text for rel, text in fresh.items()})
    done.update(fresh)
    return {rel: done[rel] for rel in sorted(sources)}


_MEMORY_TMP = Path("/dev/shm")


def _scratch() -> str | None:
    """The parent of the folder ruff formats in: ``/dev/shm`` (memory) when the user names no
    ``TMPDIR`` and it is a sticky folder anyone may write (like ``/tmp``; the folder made in it
    is private, 0700), else the system default. A GitHub package is ~650 one-file folders made,
    written, read and removed; on a busy disk that took longer than the formatting."""
    if os.environ.get("TMPDIR"):
        return None
    try:
        mode = _MEMORY_TMP.stat().st_mode
    except OSError:
        return None
    usable = stat.S_ISDIR(mode) and mode & stat.S_ISVTX and os.access(_MEMORY_TMP, os.W_OK)
    return str(_MEMORY_TMP) if usable else None


def _format_fresh(sources: Mapping[PurePosixPath, str]) -> dict[PurePosixPath, str]:
    if not sources:
        return {}
    scratch = _scratch()
    if scratch is not None:
        try:
            return _format_in(sources, scratch)
        except OSError:
            pass  # a memory folder too small (a container's 64 MB) or gone: the disk then
    return _format_in(sources, None)


def _format_in(
    sources: Mapping[PurePosixPath, str], scratch: str | None
) -> dict[PurePosixPath, str]:
    with tempfile.TemporaryDirectory(prefix="xc-ruff-", dir=scratch) as tmp:
        paths: dict[PurePosixPath, Path] = {}
        for i, rel in enumerate(sorted(sources)):
            folder = Path(tmp, f"f{i:05d}")
            folder.mkdir()
            paths[rel] = folder / rel.name
        _write_all(paths, sources)
        _run_files(["check", "--select", FIX_RULES, "--fix", "--exit-zero", "--quiet"], paths, tmp)
        _run_files(["format"], paths, tmp)
        out = _read_all(paths)
        pending = sorted(out)
        for _ in range(3):  # a split string can move right once more when reformatted
            split = {rel: split_long_strings(out[rel]) for rel in pending}
            changed = {rel: text for rel, text in split.items() if text != out[rel]}
            if not changed:
                break
            moved = {rel: paths[rel] for rel in changed}
            _write_all(moved, changed)
            _run_files(["format"], moved, tmp)
            out.update(_read_all(moved))
            pending = sorted(changed)
        return out


def format_source(text: str, name: str = "generated.py") -> str:
    """Return ``text`` with imports fixed, ruff formatting applied and long strings split."""
    with tempfile.TemporaryDirectory(prefix="xc-ruff-") as cwd:
        fixed = _run(
            ["check", "--select", FIX_RULES, "--fix", "--exit-zero", "--quiet"], text, name, cwd
        )
        out = _run(["format", "--quiet"], fixed, name, cwd)
        for _ in range(3):  # a split string can move right once more when reformatted
            split = split_long_strings(out)
            if split == out:
                break
            out = _run(["format", "--quiet"], split, name, cwd)
        return out


_AST_LOCK = threading.Lock()
"""CPython 3.11 (before 3.11.8) can fail ``ast.parse`` run in two threads at once
("AST constructor recursion depth mismatch", gh-106905); formatting itself is single-threaded
now, but a host may call ``xcompleteness.api.generate`` from several threads."""

_PIECE = re.compile(r"\S+\s*|\s+")


def _pieces(value: str, budget: int) -> list[str]:
    """``value`` in pieces whose ``ascii`` form fits ``budget``, cut at word ends if possible."""
    out: list[str] = []
    current = ""
    for word in _PIECE.findall(value):
        for ch in [word] if len(ascii(word)) <= budget else list(word):
            if current and len(ascii(current + ch)) > budget:
                out.append(current)
                current = ""
            current += ch
    if current:
        out.append(current)
    return out


_Edit = tuple[tuple[int, int], tuple[int, int], str]


def line_width(line: str) -> int:
    """The width ruff's E501 measures: a wide or full-width character (CJK) takes two columns.

    A literal of 60 Japanese characters is 120 columns wide; counted in characters it looked
    short and was left unsplit (shop-pro.jp's descriptions). Other characters count one (a
    combining mark, which ruff counts zero, only makes a literal split a little early)."""
    if line.isascii():
        return len(line)
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)


def _string_edits(text: str, lines: list[str], width: int, first_row: int) -> list[_Edit]:
    """The splits for the literals of ``text`` (whose row 1 is row ``first_row`` of ``lines``)."""
    tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    skip = {tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT}
    significant = [t for t in tokens if t.type not in skip]
    shift = first_row - 1
    edits: list[_Edit] = []
    for i, tok in enumerate(significant):
        row = tok.start[0] + shift
        if tok.type != tokenize.STRING or tok.start[0] != tok.end[0]:
            continue
        if line_width(lines[row - 1]) <= width:
            continue
        if tok.string[0] not in "'\"" or tok.string[:3] in ('"""', "'''"):
            continue
        before = significant[i - 1] if i else None
        after = significant[i + 1] if i + 1 < len(significant) else None
        if before is None or before.type in (tokenize.NEWLINE, tokenize.STRING):
            continue  # a docstring or an expression statement, or a concatenation already
        if after is not None and after.type == tokenize.STRING:
            continue
        indent = len(lines[row - 1]) - len(lines[row - 1].lstrip())
        if "\\" in tok.string:
            with _AST_LOCK:
                value = ast.literal_eval(tok.string)
        else:  # a one-line plain literal without escapes: its value is the text between quotes
            value = tok.string[1:-1]
        pieces = _pieces(value, max(width - indent - 12, 20))
        new = "(" + "\n".join(map(ascii, pieces)) + ")"
        edits.append(((row, tok.start[1]), (row, tok.end[1]), new))
    return edits


def _apply(lines: list[str], edits: list[_Edit], first_row: int = 1) -> list[str]:
    out = list(lines)
    for (r0, c0), (_, c1), new in reversed(edits):
        i = r0 - first_row
        out[i] = out[i][:c0] + new + out[i][c1:]
    return out


def _blocks(tree: ast.Module) -> list[tuple[int, int, list[ast.stmt]]]:
    """Row ranges (first, last) of the top-level statements, merged where they share a row."""
    blocks: list[tuple[int, int, list[ast.stmt]]] = []
    for node in tree.body:
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        last = node.end_lineno or node.lineno
        if blocks and first <= blocks[-1][1]:
            b_first, b_last, nodes = blocks[-1]
            blocks[-1] = (b_first, max(b_last, last), [*nodes, node])
        else:
            blocks.append((first, last, [node]))
    return blocks


def _split_by_statement(text: str, lines: list[str], width: int) -> str | None:
    """:func:`split_long_strings` one top-level statement at a time (None: use the whole file).

    Tokenizes only the statements that have a long line and compares the ASTs of only the ones
    it edits; a module's AST is the list of its statements', so this decides exactly what the
    whole-file comparison decides.
    """
    with _AST_LOCK:
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            return None
    edits: list[_Edit] = []
    checks: list[tuple[int, int, list[ast.stmt], list[_Edit]]] = []
    for first, last, nodes in _blocks(tree):
        if all(line_width(lines[r - 1]) <= width for r in range(first, last + 1)):
            continue
        fragment = "\n".join(lines[first - 1 : last]) + "\n"
        try:
            found = _string_edits(fragment, lines, width, first)
        except (tokenize.TokenError, SyntaxError):
            return None
        if found:
            edits.extend(found)
            checks.append((first, last, nodes, found))
    if not edits:
        return text
    for first, last, nodes, found in checks:
        new_block = "\n".join(_apply(lines[first - 1 : last], found, first)) + "\n"
        with _AST_LOCK:
            try:
                same = [ast.dump(n) for n in ast.parse(new_block).body] == [
                    ast.dump(n) for n in nodes
                ]
            except SyntaxError:
                same = False
        if not same:
            return text
    return "\n".join(_apply(lines, edits)) + ("\n" if text.endswith("\n") else "")


def split_long_strings(text: str, width: int = LINE_LENGTH) -> str:
    """Rewrite plain one-line string literals on too-long lines as ``("piece" "piece" ...)``.

    Only non-docstring literals without a prefix (no f-, b-, r-strings), not already part of an
    implicit concatenation, are touched; the result must parse to the same AST, else ``text`` is
    returned unchanged.
    """
    lines = text.splitlines()
    if all(line_width(line) <= width for line in lines):
        return text  # nothing to split: skip the (slow) tokenizer
    plain = text.split("\n")
    if text.endswith("\n"):
        plain.pop()
    if plain == lines:  # only \n line breaks: rows of the tokenizer, ast and lines agree
        result = _split_by_statement(text, lines, width)
        if result is not None:
            return result
    return _split_whole(text, lines, width)


def _split_whole(text: str, lines: list[str], width: int) -> str:
    """The whole-file form of :func:`split_long_strings` (any line breaks)."""
    try:
        edits = _string_edits(text, lines, width, 1)
    except (tokenize.TokenError, SyntaxError):
        return text
    if not edits:
        return text
    result = "\n".join(_apply(lines, edits)) + ("\n" if text.endswith("\n") else "")
    try:
        with _AST_LOCK:
            same = ast.dump(ast.parse(result)) == ast.dump(ast.parse(text))
    except SyntaxError:
        return text
    return result if same else text


def needs_format(path: PurePosixPath) -> bool:
    return path.suffix == ".py" and VERBATIM_DIR not in path.parts


def format_files(files: Mapping[PurePosixPath, str]) -> dict[PurePosixPath, str]:
    """Format every generated ``.py`` file (one ruff run per step); other files pass through."""
    done = format_many({p: files[p] for p in files if needs_format(p)})
    return {p: done.get(p, files[p]) for p in sorted(files)}
