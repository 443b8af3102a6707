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
  ``XC_MAX_ALIAS_NODES``) and today's date (review-by dates turn into warnings on a given day).

Runs with ``--allow-external-refs`` are never cached (the files a spec references are inputs we
do not know before loading it); neither are runs whose spec has errors (nothing is generated).

Where: ``$XDG_CACHE_HOME/xcompleteness/generate/`` (``~/.cache/xcompleteness/generate/`` when
``XDG_CACHE_HOME`` is unset or not absolute), one file per key, created with mode 0700/0600. The
newest :data:`MAX_ENTRIES` entries are kept (a hit counts as use); older ones are deleted. Nothing
here uses the network. ``generate --no-cache`` neither reads nor writes the cache.

Safety: an entry is used only when its header names this format and exactly the expected key,
its payload has the recorded length and SHA-256, and the decoded payload has the expected shape
(relative file paths without ``..``, text contents, well-formed diagnostics). Anything else (a
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
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path, PurePosixPath
from typing import Any

FORMAT = 1
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
LIMIT_VARIABLES = ("XC_MAX_SPEC_BYTES", "XC_MAX_DEPTH", "XC_MAX_ALIAS_NODES")
_SEVERITIES = frozenset({"error", "warning", "info"})
_DIAGNOSTIC_KEYS = frozenset({"file", "pointer", "code", "severity", "message", "hint", "line"})


@dataclass(frozen=True)
class Entry:
    """A cached result: files relative to OUT, diagnostics (as JSON), package and summary."""

    files: dict[PurePosixPath, str]
    diagnostics: list[dict[str, Any]]
    package: str
    summary: str


def cache_dir() -> Path:
    """``$XDG_CACHE_HOME/xcompleteness/generate`` (XDG Base Directory rules; ~/.cache default)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".cache"
    return root / "xcompleteness" / "generate"


def _hash_tree(h: Any, root: Path) -> None:
    for path in sorted(root.rglob("*")):
        if "__pycache__" in path.parts or path.suffix in (".pyc", ".pyo") or not path.is_file():
            continue
        rel = path.relative_to(root).as_posix().encode()
        data = path.read_bytes()
        h.update(b"%d:%s%d:" % (len(rel), rel, len(data)))
        h.update(data)


@cache
def generator_fingerprint() -> str:
    """A hash of the installed generator: version, files, Python and library versions."""
    from xcompleteness._version import __version__
    from xcompleteness.resources import spec_ext_dir, templates_dir

    h = hashlib.sha256()
    h.update(f"xcompleteness {__version__}\npython {sys.version}\n".encode())
    for name in LIBRARIES:
        try:
            version = metadata.version(name)
        except metadata.PackageNotFoundError:
            version = "-"
        h.update(f"{name} {version}\n".encode())
    package = Path(__file__).resolve().parent
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
    if tools:  # absent when empty: keys of runs without --tools are unchanged
        part("tools", "\n".join(tools).encode("utf-8", "surrogateescape"))
    for name in LIMIT_VARIABLES:
        part("env " + name, os.environ.get(name, "").encode("utf-8", "surrogateescape"))
    part("today", (today or _dt.date.today()).isoformat().encode())
    return h.hexdigest()


def _entry_path(key: str) -> Path:
    return cache_dir() / f"{key}{SUFFIX}"


def _safe_rel(name: object) -> PurePosixPath:
    if not isinstance(name, str) or not name or "\\" in name or "\x00" in name:
        raise ValueError(f"bad path {name!r}")
    rel = PurePosixPath(name)
    if rel.is_absolute() or ".." in rel.parts or str(rel) != name:
        raise ValueError(f"bad path {name!r}")
    return rel


def _diagnostic(raw: object) -> dict[str, Any]:
    if not isinstance(raw, dict) or set(raw) != _DIAGNOSTIC_KEYS:
        raise ValueError("bad diagnostic")
    for name in ("file", "pointer", "code", "message", "hint"):
        if not isinstance(raw[name], str):
            raise ValueError("bad diagnostic")
    line = raw["line"]
    if raw["severity"] not in _SEVERITIES or not (line is None or type(line) is int):
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
    return Entry(files, [_diagnostic(d) for d in diags_raw], package, summary)


def load(key: str) -> Entry | None:
    """The entry stored under ``key``, or None (missing, unreadable, corrupted or foreign)."""
    path = _entry_path(key)
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_ENTRY_BYTES:
            return None
        entry = _decode(key, path.read_bytes())
    except (OSError, ValueError, UnicodeDecodeError, zlib.error, RecursionError):
        return None
    try:
        os.utime(path)  # most recently used: pruned last
    except OSError:
        pass
    return entry


def store(key: str, entry: Entry) -> Path | None:
    """Write ``entry`` under ``key`` atomically and prune old entries; None when not possible."""
    ordered = sorted(entry.files.items())
    encoded = [text.encode("utf-8") for _rel, text in ordered]
    meta = {
        "files": [[str(rel), len(data)] for (rel, _), data in zip(ordered, encoded, strict=True)],
        "diagnostics": entry.diagnostics,
        "package": entry.package,
        "summary": entry.summary,
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
    folder = cache_dir()
    target = _entry_path(key)
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".xc-", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(json.dumps(header, sort_keys=True).encode() + b"\n" + body)
            os.replace(tmp, target)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
        prune(folder)
    except OSError:
        return None
    return target


def prune(folder: Path, keep: int = MAX_ENTRIES) -> None:
    """Delete all but the ``keep`` most recently used entries (and stale temporary files)."""
    entries = []
    for path in folder.iterdir():
        try:
            if path.name.endswith(SUFFIX) and not path.is_symlink():
                entries.append((path.stat().st_mtime, path.name, path))
        except OSError:
            continue
    for _mtime, _name, path in sorted(entries, reverse=True)[keep:]:
        try:
            path.unlink()
        except OSError:
            pass
