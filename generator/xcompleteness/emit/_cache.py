"""The ``generate`` cache: a second run on unchanged inputs reuses the first run's result.

What is cached: the result of the pure pipeline (the files relative to OUT, the non-error
diagnostics, the package name and the summary line), never code to run: an entry is data (JSON,
zlib-compressed) that is checked before use and then handed to the same writer as a fresh result.

Key: a SHA-256 over everything that can change the result:

- the spec's bytes and the path as given (diagnostics name it), every overlay's bytes and path;
- ``--package`` and ``--tests``;
- the x-completeness version and every file of the installed generator (its Python modules, the
  runtime copied into packages, ``templates/``, ``spec_ext/``), so an edit in a source checkout
  misses too;
- the versions of Python and of the libraries the output depends on (datamodel-code-generator,
  ruff, Jinja2, PyYAML, openapi-spec-validator, jsonschema, python-jsonpath, pydantic);
- the load limits from the environment (``XC_MAX_SPEC_BYTES``, ``XC_MAX_DEPTH``,
  ``XC_MAX_ALIAS_NODES``, ``XC_MAX_SCHEMA_NODES``, ``XC_MAX_DECLARATIONS``) and today's date
  (review-by dates turn into warnings on a given day).

With ``--allow-external-refs`` the other files the refs pull in (from the spec or written by an
overlay) are inputs too, known only after loading: the entry records each one's path and SHA-256,
and a hit requires every one of them unchanged. Runs whose spec has errors are never cached
(nothing is generated).

Where: ``$XDG_CACHE_HOME/xcompleteness/generate/`` (``~/.cache/xcompleteness/generate/`` when
``XDG_CACHE_HOME`` is unset or not absolute), or the folder ``XC_CACHE_DIR`` names (an absolute
path), one file per key, created with mode 0700/0600. The newest :data:`MAX_ENTRIES` entries are
kept (a hit counts as use); older ones are deleted. Nothing here uses the network.
``generate --no-cache`` (or ``XC_NO_CACHE=1``) neither reads nor writes any cache.

Safety: the cache folder and every entry must be owned by the current user and writable by nobody
else (:func:`xcompleteness.safety.private_dir` / :func:`~xcompleteness.safety.read_private`: a
folder of ours with loose modes is tightened, anything else is not used, and a diagnostic says
which), no folder above it may be one someone else can change
(:func:`~xcompleteness.safety.changeable_above`), and an entry is read without following a symbolic
link, from the very file that was checked. An entry is used only when its header names this format
and exactly the expected key, its payload has the recorded length and SHA-256, and the decoded
payload has the expected shape (file names the generator itself can emit:
:func:`xcompleteness.safety.emittable`, text contents, well-formed diagnostics). Anything else (a
truncated, corrupted or foreign file, an older format) is ignored and replaced by a fresh run.
Failing to write the cache (read-only home, full disk) never fails ``generate``.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import sys
import tempfile
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path, PurePosixPath
from typing import Any

from xcompleteness.diagnostics import Diagnostic
from xcompleteness.reuse import library_versions
from xcompleteness.safety import Untrusted, emittable, private_dir, read_private

__all__ = [
    "Entry",
    "FORMAT",
    "LIBRARIES",
    "LIMIT_VARIABLES",
    "MAX_ENTRIES",
    "MAX_ENTRY_BYTES",
    "SUFFIX",
    "cache_dir",
    "disabled",
    "generator_fingerprint",
    "input_key",
    "load",
    "prune",
    "store",
    "write_entry",
]

FORMAT = 2
MAX_ENTRIES = 8
"""How many entries are kept (one GitHub-sized entry is ~3 MB compressed)."""
MAX_ENTRY_BYTES = 512 * 1024 * 1024
"""An entry larger than this (compressed or decoded) is ignored, never decompressed further."""
SUFFIX = ".xcgen"
LIBRARIES = (
    "datamodel-code-generator",
    "ruff",
    "jinja2",
    "pyyaml",
    "openapi-spec-validator",
    "jsonschema",
    "python-jsonpath",
    "pydantic",
)
LIMIT_VARIABLES = (
    "XC_MAX_SPEC_BYTES",
    "XC_MAX_YAML_BYTES",
    "XC_MAX_DEPTH",
    "XC_MAX_ALIAS_NODES",
    "XC_MAX_SCHEMA_NODES",
    "XC_MAX_DECLARATIONS",
)
_SEVERITIES = frozenset({"error", "warning", "info"})
_DIAGNOSTIC_KEYS = frozenset({"file", "pointer", "code", "severity", "message", "hint", "line"})


@dataclass(frozen=True)
class Entry:
    """A cached result: files relative to OUT, diagnostics (as JSON), package and summary."""

    files: dict[PurePosixPath, str]
    diagnostics: list[dict[str, Any]]
    package: str
    summary: str
    sources: tuple[tuple[str, str], ...] = ()
    """Other files the refs pulled in: (resolved path, SHA-256 hex), checked on every hit."""
    encoded: Mapping[str, bytes] | None = None
    """``files`` encoded as UTF-8, by ``str(path)``, when the caller has them already (the
    writer encodes the same texts: done once, not once each)."""


def cache_dir() -> Path:
    """``$XC_CACHE_DIR`` when set to an absolute path, else ``$XDG_CACHE_HOME/xcompleteness/
    generate`` (XDG Base Directory rules; ~/.cache default)."""
    own = os.environ.get("XC_CACHE_DIR", "")
    if own and os.path.isabs(own):
        return Path(own)
    base = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".cache"
    return root / "xcompleteness" / "generate"


def disabled() -> bool:
    """``XC_NO_CACHE`` set to anything but empty, ``0``, ``false`` or ``no``: no cache at all."""
    return os.environ.get("XC_NO_CACHE", "").strip().lower() not in ("", "0", "false", "no")


def trusted_dir(notes: list[Diagnostic], *, create: bool) -> Path | None:
    """The cache folder if it may be used (see the module docstring), else None and a note.

    The folder and, under ``XDG_CACHE_HOME``, its parent (``xcompleteness/``) must be ours and
    private; a folder named by ``XC_CACHE_DIR`` is checked alone (its parent may be shared).
    """
    folder = cache_dir()
    if not create and not folder.exists():
        return None
    own = os.environ.get("XC_CACHE_DIR", "")
    checked = (folder,) if own and os.path.isabs(own) else (folder.parent, folder)
    try:
        for path in checked:
            notes.extend(private_dir(path, create=create))
    except Untrusted as exc:
        if exc.diagnostic not in notes:
            notes.append(exc.diagnostic)
        return None
    return folder


def source_digests(paths: Sequence[Path]) -> tuple[tuple[str, str], ...]:
    """(path, SHA-256 hex) of every file a run's refs pulled in (raises OSError)."""
    return tuple((str(p), _file_digest(p).hex()) for p in paths)


def _hash_tree(h: Any, root: Path) -> None:
    for path in sorted(root.rglob("*")):
        if "__pycache__" in path.parts or path.suffix in (".pyc", ".pyo") or not path.is_file():
            continue
        rel = path.relative_to(root).as_posix().encode()
        data = path.read_bytes()
        h.update(b"%d:%s%d:" % (len(rel), rel, len(data)))
        h.update(data)


def package_root() -> Path:
    """The installed ``xcompleteness`` package (every stage, the runtime copied into packages):
    the folder of its ``__init__.py``, wherever this module sits inside it."""
    import xcompleteness

    return Path(xcompleteness.__file__).resolve().parent


@cache
def generator_fingerprint() -> str:
    """A hash of the installed generator: version, files, Python and library versions."""
    from xcompleteness._version import __version__
    from xcompleteness.resources import spec_ext_dir, templates_dir

    h = hashlib.sha256()
    h.update(f"xcompleteness {__version__}\npython {sys.version}\n".encode())
    h.update(library_versions(LIBRARIES))
    package = package_root()
    h.update(b"pkg")
    _hash_tree(h, package)
    for label, folder in (("tpl", templates_dir()), ("ext", spec_ext_dir())):
        root = folder.resolve()
        if root != package and package not in root.parents:  # a source checkout: beside it
            h.update(label.encode())
            _hash_tree(h, root)
    return h.hexdigest()


def _file_digest(path: str | os.PathLike[str]) -> bytes:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.digest()


def input_key(
    spec: str | os.PathLike[str],
    overlays: Sequence[str | os.PathLike[str]],
    *,
    package: str | None,
    tests: bool,
    today: _dt.date | None = None,
    external_refs: bool = False,
    tools: Sequence[str] = (),
) -> str | None:
    """The cache key of one ``generate`` run (raises OSError when an input cannot be read).

    ``None`` when an input is larger than the loader accepts (``XC_MAX_SPEC_BYTES``): the
    pipeline refuses it with its own diagnostic, and hashing it first would read a file the
    loader is there to keep out of memory. Inputs are hashed in chunks, never held whole.
    """
    from xcompleteness.load import Limits

    max_bytes = Limits.from_env().max_bytes
    paths = [("spec", spec), *(("overlay", o) for o in overlays)]
    if any(os.stat(path).st_size > max_bytes for _, path in paths):
        return None
    h = hashlib.sha256()

    def part(label: str, data: bytes) -> None:
        h.update(b"%s %d\n" % (label.encode(), len(data)))
        h.update(data)

    part("format", str(FORMAT).encode())
    part("generator", generator_fingerprint().encode())
    for label, path in paths:
        part(label + "-path", os.fspath(path).encode("utf-8", "surrogateescape"))
        part(label, _file_digest(path))
    part("package", b"\x00" if package is None else package.encode("utf-8", "surrogateescape"))
    part("tests", b"1" if tests else b"0")
    part("external-refs", b"1" if external_refs else b"0")
    if tools:  # absent when empty: keys of runs without --tools are unchanged
        part("tools", "\n".join(tools).encode("utf-8", "surrogateescape"))
    for name in LIMIT_VARIABLES:
        part("env " + name, os.environ.get(name, "").encode("utf-8", "surrogateescape"))
    part("today", (today or _dt.date.today()).isoformat().encode())
    return h.hexdigest()


def _entry_path(key: str) -> Path:
    return cache_dir() / f"{key}{SUFFIX}"


def _safe_rel(name: object) -> PurePosixPath:
    """A file name from an entry: only a name the generator itself can emit."""
    if not emittable(name):
        raise ValueError(f"bad path {name!r}")
    return PurePosixPath(str(name))


def _sources(raw: object) -> tuple[tuple[str, str], ...]:
    if not isinstance(raw, list):
        raise ValueError("bad sources")
    out = []
    for item in raw:
        if not (
            isinstance(item, list) and len(item) == 2 and all(isinstance(x, str) for x in item)
        ):
            raise ValueError("bad source record")
        out.append((item[0], item[1]))
    return tuple(out)


def _diagnostic(raw: object) -> dict[str, Any]:
    if not isinstance(raw, dict) or set(raw) != _DIAGNOSTIC_KEYS:
        raise ValueError("bad diagnostic")
    for name in ("file", "pointer", "code", "message", "hint"):
        if not isinstance(raw[name], str):
            raise ValueError("bad diagnostic")
    line, severity = raw["line"], raw["severity"]
    if not (isinstance(severity, str) and severity in _SEVERITIES):
        raise ValueError("bad diagnostic")
    if not (line is None or type(line) is int):
        raise ValueError("bad diagnostic")
    return raw


def _decode(key: str, blob: bytes) -> Entry:
    head, sep, body = blob.partition(b"\n")
    if not sep:
        raise ValueError("no header")
    header = json.loads(head)
    if not isinstance(header, dict) or header.get("generator") != "xcompleteness":
        raise ValueError("not an x-completeness cache entry")
    if header.get("format") != FORMAT or header.get("key") != key:
        raise ValueError("another format or key")
    if header.get("size") != len(body) or header.get("sha256") != hashlib.sha256(body).hexdigest():
        raise ValueError("truncated or corrupted")
    inflater = zlib.decompressobj()
    raw = inflater.decompress(body, MAX_ENTRY_BYTES)
    if inflater.unconsumed_tail or not inflater.eof:
        raise ValueError("payload too large or incomplete")
    meta_bytes, sep, contents = raw.partition(b"\n")
    meta = json.loads(meta_bytes.decode("utf-8")) if sep else None
    if not isinstance(meta, dict):
        raise ValueError("bad payload")
    files_raw, diags_raw = meta.get("files"), meta.get("diagnostics")
    package, summary = meta.get("package"), meta.get("summary")
    if not isinstance(files_raw, list) or not isinstance(diags_raw, list):
        raise ValueError("bad payload")
    if not isinstance(package, str) or not isinstance(summary, str):
        raise ValueError("bad payload")
    files: dict[PurePosixPath, str] = {}
    offset = 0
    for item in files_raw:
        if not (isinstance(item, list) and len(item) == 2 and type(item[1]) is int):
            raise ValueError("bad file record")
        name, size = item
        rel = _safe_rel(name)
        if size < 0 or offset + size > len(contents) or rel in files:
            raise ValueError(f"bad file record {name!r}")
        files[rel] = contents[offset : offset + size].decode("utf-8")
        offset += size
    if offset != len(contents):
        raise ValueError("trailing data")
    sources = _sources(meta.get("sources", []))
    return Entry(files, [_diagnostic(d) for d in diags_raw], package, summary, sources)


def load(key: str, notes: list[Diagnostic] | None = None) -> Entry | None:
    """The entry stored under ``key``, or None (missing, unreadable, corrupted, foreign, or in a
    folder or file someone else could have written: then ``notes`` gets a diagnostic)."""
    notes = notes if notes is not None else []
    if trusted_dir(notes, create=False) is None:
        return None
    path = _entry_path(key)
    try:
        if not path.exists() and not path.is_symlink():
            return None
        entry = _decode(key, read_private(path, MAX_ENTRY_BYTES))
        if entry.sources and source_digests([Path(p) for p, _ in entry.sources]) != entry.sources:
            return None  # a file the refs pulled in has changed
    except Untrusted as exc:
        notes.append(exc.diagnostic)
        return None
    except (OSError, ValueError, UnicodeDecodeError, zlib.error, RecursionError):
        return None
    try:
        os.utime(path, follow_symlinks=False)  # most recently used: pruned last
    except (OSError, NotImplementedError):
        pass
    return entry


def store(key: str, entry: Entry, notes: list[Diagnostic] | None = None) -> Path | None:
    """Write ``entry`` under ``key`` atomically and prune old entries; None when not possible
    (or when the folder cannot be trusted: ``notes`` then gets a diagnostic)."""
    folder = trusted_dir(notes if notes is not None else [], create=True)
    return None if folder is None else _packed_and_written(folder, key, entry)


def store_later(key: str, entry: Entry, notes: list[Diagnostic]) -> Callable[[], None]:
    """:func:`store` with the packing and writing on a thread (zlib and SHA-256 release the
    GIL, so it overlaps with writing OUT); the folder is checked now, so ``notes`` is complete
    on return. Call the function returned to wait for the entry (it never raises)."""
    folder = trusted_dir(notes, create=True)
    if folder is None:
        return lambda: None
    import threading

    worker = threading.Thread(
        target=_packed_and_written, args=(folder, key, entry), name="xc-cache-store"
    )
    worker.start()
    return worker.join


def _packed_and_written(folder: Path, key: str, entry: Entry) -> Path | None:
    ordered = sorted(entry.files.items())
    given = entry.encoded or {}
    encoded = [given.get(str(rel)) or text.encode("utf-8") for rel, text in ordered]
    meta = {
        "files": [[str(rel), len(data)] for (rel, _), data in zip(ordered, encoded, strict=True)],
        "diagnostics": entry.diagnostics,
        "package": entry.package,
        "summary": entry.summary,
        "sources": [list(s) for s in entry.sources],
    }
    packer = zlib.compressobj(1)
    chunks = [packer.compress(json.dumps(meta, ensure_ascii=False).encode("utf-8") + b"\n")]
    chunks.extend(packer.compress(data) for data in encoded)
    chunks.append(packer.flush())
    body = b"".join(chunks)
    header = {
        "generator": "xcompleteness",
        "format": FORMAT,
        "key": key,
        "size": len(body),
        "sha256": hashlib.sha256(body).hexdigest(),
    }
    target = _entry_path(key)
    try:
        write_entry(target, header, body)
        prune(folder)
    except OSError:
        return None
    return target


def write_entry(target: Path, header: Mapping[str, Any], body: bytes) -> None:
    """Write one cache entry (a JSON header line, then ``body``) atomically: a temporary file in
    the same folder, then ``os.replace``; the temporary file never outlives a failure."""
    fd, tmp = tempfile.mkstemp(prefix=".xc-", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(json.dumps(header, sort_keys=True).encode() + b"\n" + body)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def prune(folder: Path, keep: int = MAX_ENTRIES, suffix: str = SUFFIX) -> None:
    """Delete all but the ``keep`` most recently used entries named ``*suffix``."""
    entries = []
    for path in folder.iterdir():
        try:
            if path.name.endswith(suffix) and not path.is_symlink():
                entries.append((path.stat().st_mtime, path.name, path))
        except OSError:
            continue
    for _mtime, _name, path in sorted(entries, reverse=True)[keep:]:
        try:
            path.unlink()
        except OSError:
            pass
