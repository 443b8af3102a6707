"""The guards every stage that touches the disk shares (docs/security.md).

* :func:`emittable`: the names the generator can emit. The output manifest and cache entries are
  records, never authorities: a path they name is used only if the generator itself could have
  written it (relative, plain parts, no dot-files such as ``.git``, a known suffix).
* :func:`checked_path`: such a name under a root, with no symbolic link on the way and inside
  the root once resolved; the writer, ``generate --check`` and the removal of stale files ask it
  before they read, write or remove anything.
* :func:`foreign_folder`: the one rule for a folder someone else can change (writable by everyone
  without the sticky bit, or another user's in a folder others can write, where anyone could
  have made it). The writer never writes
  into such a folder (OUT, or a folder inside it), and a cache is not used below one
  (:func:`changeable_above`: a reused entry lives long, and whoever can change a folder above the
  cache can swap the cache for theirs between the check and the read).
* :func:`private_dir` / :func:`private_file` / :func:`read_private`: a cache folder and its
  entries are trusted only when owned by the current user and not writable by group or others. A
  folder of ours with loose modes is tightened (and a note says so); anything else is refused with
  a diagnostic (:class:`Untrusted`), and the caller then runs without the cache. An entry is read
  only through :func:`read_private` (never through a symbolic link, and the file opened must be
  the file checked). Every cache goes through these functions.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path, PurePosixPath

from xcompleteness.diagnostics import Diagnostic, Severity

__all__ = [
    "CACHE_UNTRUSTED",
    "EMITTABLE_SUFFIXES",
    "PathChecker",
    "Untrusted",
    "changeable_above",
    "checked_path",
    "emittable",
    "foreign_folder",
    "private_dir",
    "private_file",
    "read_private",
]

EMITTABLE_SUFFIXES = (".py", ".json", ".md", ".toml", ".typed")
_DIR_PART = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_FILE_PART = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*")
CACHE_UNTRUSTED = "XC607"
"""A cache folder or entry that another user could have written: refused, never read."""


def emittable(rel: object, *, reserved: frozenset[str] = frozenset()) -> bool:
    """True when ``rel`` is a path the generator can emit (a ``str`` or ``PurePosixPath``)."""
    text = str(rel) if isinstance(rel, PurePosixPath) else rel
    if not isinstance(text, str) or not text or text in reserved:
        return False
    parts = text.split("/")
    if any(not _DIR_PART.fullmatch(p) for p in parts[:-1]):
        return False
    name = parts[-1]
    return bool(_FILE_PART.fullmatch(name)) and name.endswith(EMITTABLE_SUFFIXES)


def checked_path(root: Path, rel: str, *, reserved: frozenset[str] = frozenset()) -> Path | None:
    """``root / rel`` when ``rel`` is emittable, nothing on the way is a symbolic link and the
    result stays inside ``root``; None otherwise. Missing parts are fine (a file to create)."""
    found = PathChecker(root, reserved=reserved).check(rel)
    return None if found is None else found[0]


class PathChecker:
    """:func:`checked_path` for many names under one root (the writer's 700 files): each folder
    on the way is looked at once, and the file's own ``lstat`` is handed back, so the caller
    needs no other look at it (``None``: it does not exist).

    Why the walk is the whole check: an emittable name is plain parts (never empty, ``.`` or
    ``..``), so ``root / rel`` stays under ``root`` by its spelling, and it can leave ``root``
    on disk only through a symbolic link on the way; every part that exists is ``lstat``-ed and
    none may be one. Parts below the first missing one do not exist (nothing to follow).

    A folder on the way that someone else can change (:func:`foreign_folder`) is refused too:
    whatever is written into it is theirs to replace. ``why`` says what the last refusal was."""

    def __init__(self, root: Path, *, reserved: frozenset[str] = frozenset()) -> None:
        self.root = root
        self.reserved = reserved
        self._base = os.fspath(root)
        self._seen: dict[str, os.stat_result | None | bool] = {}
        """folder (its path as a string) -> its lstat, None missing, False unusable"""
        try:
            self._seen[self._base] = os.stat(self._base)  # OUT: the first folder's parent
        except OSError:
            pass
        self._why: dict[str, str] = {}
        self.why = ""
        """Why the last name :meth:`check` refused was refused."""

    def _look(self, path: str, *, folder: bool = False) -> os.stat_result | None | bool:
        try:
            st = os.lstat(path)
        except (FileNotFoundError, NotADirectoryError):
            return None  # nothing more exists on the way (the writer reports a file in the way)
        except OSError as exc:
            self._why[path] = f"cannot look at it ({exc.strerror or exc})"
            return False
        if stat.S_ISLNK(st.st_mode):
            self._why[path] = "it is a symbolic link"
            return False
        problem = None
        if folder and stat.S_ISDIR(st.st_mode):
            above = self._seen.get(os.path.dirname(path))
            problem = foreign_folder(st, above if isinstance(above, os.stat_result) else None)
        if problem:
            self._why[path] = f"a folder {problem}"
            return False
        return st

    def _refused(self, rel: str, path: str | None = None) -> None:
        if path is None:
            self.why = f"{rel[:200]!r} is not a name the generator emits"
        else:
            where = os.path.relpath(path, self._base) if path != self._base else "."
            self.why = f"{where}: {self._why.get(path, 'unusable')}"

    def check(self, rel: str) -> tuple[Path, os.stat_result | None] | None:
        """``(root / rel, its lstat or None)``, or None when ``rel`` may not be used."""
        if not emittable(rel, reserved=self.reserved):
            self._refused(rel)
            return None
        parts = rel.split("/")
        probe = self._base
        for part in parts[:-1]:  # plain strings: pathlib costs more than the lstat here
            probe = os.path.join(probe, part)
            seen = self._seen.get(probe, True)
            if seen is True:
                seen = self._seen[probe] = self._look(probe, folder=True)
            if seen is False:
                self._refused(rel, probe)
                return None
            if seen is None:  # missing: so is everything below it
                return self.root.joinpath(*parts), None
        last = os.path.join(probe, parts[-1])
        st = self._look(last)
        if st is False:
            self._refused(rel, last)
            return None
        return self.root.joinpath(*parts), st if isinstance(st, os.stat_result) else None


class Untrusted(Exception):
    """A cache folder or entry that cannot be trusted; ``diagnostic`` says which and why."""

    def __init__(self, path: Path, why: str):
        self.diagnostic = Diagnostic(
            str(path),
            "",
            CACHE_UNTRUSTED,
            Severity.WARNING,
            f"the cache is not used: {why}",
            "the cache must be owned by you and writable by nobody else (chmod go-w), "
            "or pass --no-cache",
        )
        super().__init__(self.diagnostic.message)


def _owner_problem(st: os.stat_result) -> str | None:
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return f"owned by user id {st.st_uid}, not by you ({os.getuid()})"
    return None


def foreign_folder(st: os.stat_result, parent: os.stat_result | None) -> str | None:
    """Why someone else can change the folder whose ``stat`` this is (``parent``: its parent's),
    or None.

    The rule (OpenSSH's ``StrictModes``, with the sticky-bit exception that keeps ``/tmp``
    usable): a folder everyone can write without the sticky bit; or a folder owned by another user
    (root excepted) in a parent that others than its owner can write (``/tmp``, a group's shared
    folder): anyone could have made it there before your run. A folder of another user's inside
    their own private folder is their area that you chose to write into (a checkout owned by the
    host's user, written by root in a container) and is not refused: its owner can change
    anything there anyway. Group write on the folder itself is the owner's choice (a ``umask`` of
    002 with a group of one's own is common); the cache's own folder and entries are held to
    owner-only (:func:`private_dir`)."""
    if st.st_mode & stat.S_IWOTH and not st.st_mode & stat.S_ISVTX:
        return f"writable by everyone (mode {stat.S_IMODE(st.st_mode):o}, no sticky bit)"
    foreign = hasattr(os, "getuid") and st.st_uid not in (0, os.getuid())
    if foreign and parent is not None and parent.st_mode & 0o022:
        return (
            f"owned by user id {st.st_uid}, not by you ({os.getuid()}) or root, in a folder "
            f"others can write (mode {stat.S_IMODE(parent.st_mode):o}): anyone could have made it"
        )
    return None


def changeable_above(path: Path) -> tuple[Path, str] | None:
    """The first folder above ``path`` (resolved, from the root down) that someone else can
    change (:func:`foreign_folder`), and why; None when there is none. Missing folders are
    skipped (they will be created by us)."""
    real = Path(os.path.realpath(path))
    parent: os.stat_result | None = None
    for folder in reversed(real.parents):
        try:
            st = os.stat(folder)
        except OSError:
            break  # missing: so is everything below it
        problem = foreign_folder(st, parent)
        if problem:
            return folder, problem
        parent = st
    return None


def private_dir(path: Path, *, create: bool = False) -> list[Diagnostic]:
    """Make sure ``path`` (and each folder between it and an existing ancestor we created) is a
    real folder owned by us with no group/other write bit; tighten ours, refuse anything else.

    Returns notes (what was tightened); raises :class:`Untrusted`. With ``create`` a missing
    folder is made with mode 0700.
    """
    notes: list[Diagnostic] = []
    above = changeable_above(path)
    if above is not None:
        folder, why = above
        raise Untrusted(path, f"the folder {folder} above it is {why}")
    if create:
        try:
            path.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            raise Untrusted(path, f"cannot create it ({exc.strerror or exc})") from None
    try:
        st = os.lstat(path)
    except OSError as exc:
        raise Untrusted(path, f"cannot read it ({exc.strerror or exc})") from None
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
        raise Untrusted(path, "it is a symbolic link or not a folder")
    problem = _owner_problem(st)
    if problem:
        raise Untrusted(path, f"the folder is {problem}")
    if st.st_mode & 0o022:
        try:
            os.chmod(path, stat.S_IMODE(st.st_mode) & ~0o077)
        except OSError as exc:
            raise Untrusted(
                path, f"it is writable by others and cannot be tightened ({exc})"
            ) from None
        notes.append(
            Diagnostic(
                str(path),
                "",
                CACHE_UNTRUSTED,
                Severity.INFO,
                f"the cache folder was writable by others (mode {stat.S_IMODE(st.st_mode):o}); "
                "tightened to owner-only",
                "entries that are not yours or are writable by others are still ignored",
            )
        )
    return notes


def private_file(path: Path) -> os.stat_result:
    """The ``lstat`` of a cache entry we may read: a regular file, ours, not writable by group or
    others (raises :class:`Untrusted`; such an entry is never read, whatever it holds)."""
    try:
        st = os.lstat(path)
    except OSError as exc:
        raise Untrusted(path, f"cannot read the entry ({exc.strerror or exc})") from None
    if not stat.S_ISREG(st.st_mode):
        raise Untrusted(path, "the entry is not a regular file")
    problem = _owner_problem(st)
    if problem:
        raise Untrusted(path, f"the entry is {problem}")
    if st.st_mode & 0o022:
        raise Untrusted(
            path, f"the entry is writable by others (mode {stat.S_IMODE(st.st_mode):o})"
        )
    return st


def read_private(path: Path, limit: int) -> bytes:
    """The bytes of the cache entry at ``path``: a regular file of ours that nobody else can
    write (:func:`private_file`), opened without following a symbolic link (``O_NOFOLLOW``), and
    the file opened must be the one checked (same device and inode), at most ``limit`` bytes.
    Raises :class:`Untrusted`, ``OSError`` or ``ValueError``."""
    checked = private_file(path)
    if checked.st_size > limit:
        raise ValueError("entry too large")
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        if (
            not stat.S_ISREG(st.st_mode)
            or (st.st_dev, st.st_ino) != (checked.st_dev, checked.st_ino)
            or st.st_size > limit
        ):
            raise ValueError("the entry changed between the check and the read")
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise ValueError("entry too large")
    return data
