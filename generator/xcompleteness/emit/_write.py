"""The only module that touches the output folder: an all-or-nothing writer with a manifest,
and ``--check``.

Safety rules (documented in docs/generate.md and docs/security.md):

1. OUT must be missing, empty, or carry our manifest ``OUT/.xcompleteness-manifest.json``; any
   other non-empty folder is refused (``XC604``, exit 2) — we never write into someone's tree.
   Neither OUT nor a folder inside it may be one someone else can change
   (:func:`xcompleteness.safety.foreign_folder`: writable by everyone without the sticky bit,
   or another user's in a folder others can write, where anyone could have made it): what we
   write there would be theirs to replace before it is imported. The folders we create are
   never writable by everyone (``0o775`` and the files ``0o664``, less the umask).
2. The manifest is a record, never an authority: every path in it, and every path we write, is
   checked by :func:`xcompleteness.safety.checked_path` (relative, a name the generator can emit,
   no symbolic link on the way, inside OUT) before it is read, written or removed. A manifest
   that names anything else was not written by us: the run is refused (``XC604``) and nothing is
   read, printed or touched.
3. A write is all or nothing. Every check runs first; then a file that did not exist is created
   under its own name (``O_EXCL``: never through a link, never over a file that appeared since
   the check), and the new content of an existing one is staged as a temporary file beside it,
   then swapped in by ``os.replace``, the file it replaces kept aside until the manifest is
   written. Any failure removes what was created or staged and puts back what was swapped, so
   OUT is left as it was.
4. Only files listed in the manifest are ever replaced or removed. A file we generated earlier and
   no longer generate is removed only if it still has the content we wrote (a hand-edited one is
   left in place and reported). A file that exists but is not ours is never overwritten.
5. The manifest is written last, so it always describes files that are complete on disk.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import stat
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from xcompleteness.diagnostics import Diagnostic, InputError, Severity
from xcompleteness.safety import PathChecker, emittable, foreign_folder

__all__ = ["MANIFEST", "WriteReport", "diff_tree", "read_manifest", "write_tree"]

MANIFEST = ".xcompleteness-manifest.json"
_RESERVED = frozenset({MANIFEST})


@dataclass
class WriteReport:
    written: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # earlier output edited by hand: left alone


def _refuse(out: Path, message: str, hint: str) -> InputError:
    return InputError([Diagnostic(str(out), "", "XC604", Severity.ERROR, message, hint)])


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


_Checked = dict[str, tuple[Path, os.stat_result | None]]
"""name -> (its path under OUT, its ``lstat`` or None when missing), as checked a moment ago"""


def read_manifest(out: Path, checked: _Checked | None = None) -> dict[str, str] | None:
    """The ``{relative path: sha256}`` map of our earlier run, or None when OUT is not ours.

    Raises ``XC604`` when the manifest names a path the generator could never have written
    (absolute, ``..``, a dot-file such as ``.git/HEAD``, through a symbolic link): it is forged.
    ``checked`` receives what each name was checked to (the writer checks each name once).
    """
    path = out / MANIFEST
    if not path.is_file() or path.is_symlink():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        files = data["files"]
        if data.get("generator") != "xcompleteness" or not isinstance(files, dict):
            return None
        manifest = {str(k): str(v) for k, v in files.items()}
    except (OSError, ValueError, KeyError, TypeError):
        return None
    checker = PathChecker(out, reserved=_RESERVED)
    for rel in sorted(manifest):
        found = checker.check(rel)
        if checked is not None and found is not None:
            checked[rel] = found
        if found is None and not emittable(rel, reserved=_RESERVED):
            raise _refuse(
                out,
                f"the manifest {MANIFEST} names {rel[:200]!r}, which xcompleteness never writes: "
                "it was not written by us",
                "delete the manifest (and check what else changed in this folder)",
            )
        if found is None:
            raise _refuse(out, f"refusing to use {rel!r}: {checker.why}", _WAY_HINT)
    return manifest


_WAY_HINT = (
    "remove the symbolic link, or make the folder yours and writable only by you "
    "(chown, chmod o-w), or choose another -o"
)


def _safe_target(
    out: Path, rel: str, checker: PathChecker | None = None
) -> tuple[Path, os.stat_result | None]:
    checker = checker or PathChecker(out, reserved=_RESERVED)
    found = checker.check(rel)
    if found is None:
        raise _refuse(
            out,
            f"refusing to write {rel[:200]!r}: {checker.why}",
            _WAY_HINT,
        )
    return found


def _stat(path: Path) -> os.stat_result | None:
    try:
        return os.stat(path)
    except OSError:
        return None


def _ownership(out: Path, checked: _Checked | None = None) -> dict[str, str]:
    """Check rule 1 and return the earlier manifest ({} for a new or empty folder)."""
    if out.is_symlink():
        raise _refuse(out, "the output folder is a symbolic link", "pass the real folder")
    if out.exists() and not out.is_dir():
        raise _refuse(out, "the output path exists and is not a folder", "choose another -o")
    problem = foreign_folder(os.lstat(out), _stat(out.parent)) if out.exists() else None
    if problem:
        raise _refuse(
            out,
            f"the output folder is {problem}: someone else could replace the generated code",
            "generate into a folder of your own that only you can write (chown, chmod o-w)",
        )
    manifest = read_manifest(out, checked) if out.exists() else None
    if manifest is None:
        if out.exists() and any(out.iterdir()):
            raise _refuse(
                out,
                "the output folder is not empty and was not created by xcompleteness generate",
                "choose an empty or new folder; we never write into folders we do not own",
            )
        return {}
    return manifest


def _file_mode() -> int:
    """0o664 minus the process umask: what ``open()`` would give (mkstemp uses 0o600), never
    writable by everyone (rule 1)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o664 & ~umask


_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)


class _Transaction:
    """Stage files beside their targets, then swap them in; undo everything on failure."""

    def __init__(self, out: Path):
        self.out = out
        self.made_dirs: list[Path] = []
        self.folders: set[Path] = set()  # folders known to exist (made or seen)
        self.created: list[Path] = []  # files that did not exist, created under their own name
        self.staged: list[tuple[Path, Path]] = []  # (temporary file, target)
        self.swapped: list[tuple[Path, Path | None]] = []  # (target, the old file kept aside)
        self.mode = _file_mode()

    def _mkdirs(self, folder: Path) -> None:
        if folder in self.folders:
            return
        missing = []
        probe = folder
        while probe not in self.folders and not probe.exists():
            missing.append(probe)
            probe = probe.parent
        for path in reversed(missing):
            path.mkdir(0o775)  # never writable by everyone, whatever the umask (rule 1)
            self.made_dirs.append(path)
        self.folders.add(folder)

    def create(self, target: Path, data: bytes) -> None:
        """Write a file that did not exist at the check under its own name: ``O_EXCL`` refuses
        anything that appeared since (a link included), and the mode is ``open()``'s."""
        self._mkdirs(target.parent)
        fd = os.open(target, _CREATE, self.mode)
        self.created.append(target)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)

    def stage(self, target: Path, data: bytes) -> None:
        self._mkdirs(target.parent)
        fd, tmp = tempfile.mkstemp(prefix=".xc-", suffix=".tmp", dir=target.parent)
        self.staged.append((Path(tmp), target))
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, self.mode)

    def _aside(self, target: Path) -> Path | None:
        if not target.exists():
            return None
        fd, kept = tempfile.mkstemp(prefix=".xc-", suffix=".old", dir=target.parent)
        os.close(fd)
        os.replace(target, kept)
        return Path(kept)

    def swap(self) -> None:
        for tmp, target in self.staged:
            old = self._aside(target)
            self.swapped.append((target, old))
            os.replace(tmp, target)
        self.staged = []

    def remove(self, target: Path) -> None:
        self.swapped.append((target, self._aside(target)))

    def commit(self) -> None:
        for _target, old in self.swapped:
            if old is not None:
                old.unlink(missing_ok=True)
        self.swapped = []

    def rollback(self) -> None:
        for path in self.created:
            path.unlink(missing_ok=True)
        for tmp, _target in self.staged:
            tmp.unlink(missing_ok=True)
        for target, old in reversed(self.swapped):
            if old is not None:
                os.replace(old, target)
            else:
                target.unlink(missing_ok=True)
        for folder in reversed(self.made_dirs):
            try:
                folder.rmdir()
            except OSError:
                pass


def write_tree(
    out: Path, files: Mapping[PurePosixPath, str], *, utf8: Mapping[str, bytes] | None = None
) -> WriteReport:
    """Write ``files`` (relative to OUT) following the safety rules above: all or nothing.

    ``utf8``: the texts already encoded, by ``str(path)`` (``Generation.encoded``)."""
    out = Path(out)
    checked: _Checked = {}  # names the manifest holds, checked a moment ago
    previous = _ownership(out, checked)
    report = WriteReport()
    given = utf8 or {}
    encoded = {
        str(rel): given.get(str(rel)) or text.encode("utf-8") for rel, text in sorted(files.items())
    }
    checker = PathChecker(out, reserved=_RESERVED)
    targets = {rel: checked.get(rel) or _safe_target(out, rel, checker) for rel in encoded}
    for rel, (_target, st) in targets.items():  # rule 4: check everything before writing
        if st is not None and rel not in previous:
            raise _refuse(
                out, f"{rel} exists and was not generated by xcompleteness", "move it away"
            )
        if st is not None and stat.S_ISDIR(st.st_mode):
            raise _refuse(out, f"{rel} is a folder", "move it away")
    stale: list[tuple[str, Path]] = []
    for rel in sorted(set(previous) - set(encoded)):
        target = (checked.get(rel) or _safe_target(out, rel, checker))[0]
        if not target.is_file():
            continue
        if _sha(target.read_bytes()) != previous[rel]:
            report.kept.append(rel)
        else:
            stale.append((rel, target))
    manifest = {"generator": "xcompleteness", "files": {r: _sha(d) for r, d in encoded.items()}}
    manifest["files"].update({r: previous[r] for r in report.kept})
    manifest_data = (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode()
    tx = _Transaction(out)
    try:
        tx._mkdirs(out)
        for rel, data in encoded.items():
            target, st = targets[rel]
            if st is None:
                tx.create(target, data)
            elif (
                stat.S_ISREG(st.st_mode) and st.st_size == len(data) and target.read_bytes() == data
            ):
                report.unchanged.append(rel)
                continue
            else:
                tx.stage(target, data)
            report.written.append(rel)
        manifest_path = out / MANIFEST
        if not (manifest_path.is_file() and manifest_path.read_bytes() == manifest_data):
            tx.stage(manifest_path, manifest_data)  # staged last, so swapped in last
        for _rel, target in stale:
            tx.remove(target)
        tx.swap()
    except BaseException:
        tx.rollback()
        raise
    tx.commit()
    for rel, target in stale:
        report.removed.append(rel)
        parent = target.parent
        while parent != out and parent.is_dir() and not any(parent.iterdir()):
            parent.rmdir()
            parent = parent.parent
    return report


def diff_tree(out: Path, files: Mapping[PurePosixPath, str]) -> str:
    """Unified diff from the files on disk to ``files``; empty when nothing drifted."""
    out = Path(out)
    previous = (read_manifest(out) if out.is_dir() and not out.is_symlink() else None) or {}
    chunks: list[str] = []
    wanted = {str(rel): text for rel, text in files.items()}
    checker = PathChecker(out, reserved=_RESERVED)
    for rel in sorted(set(wanted) | set(previous)):
        target = _safe_target(out, rel, checker)[0]
        try:
            current = target.read_text(encoding="utf-8") if target.is_file() else None
        except (OSError, UnicodeDecodeError):
            current = "<unreadable>\n"
        new = wanted.get(rel)
        if current == new:
            continue
        chunks.extend(
            difflib.unified_diff(
                (current or "").splitlines(keepends=True),
                (new or "").splitlines(keepends=True),
                fromfile=f"a/{rel}" if current is not None else "/dev/null",
                tofile=f"b/{rel}" if new is not None else "/dev/null",
            )
        )
    return "".join(c if c.endswith("\n") else c + "\n" for c in chunks)
