"""OpenAPI Overlay 1.0: apply ``update`` and ``remove`` actions with RFC 9535 JSONPath targets.

Adopters keep their spec untouched and add ``x-completeness`` through an overlay file, so the
overlay must be applied exactly and loudly:

* targets are RFC 9535 JSONPath evaluated with ``python-jsonpath`` in strict mode, against the
  document as changed by the previous actions (the spec's order);
* ``update`` merges into an object (objects recursively, arrays appended, everything else
  replaced) or, when the target is an array, appends the value as one entry;
* ``remove: true`` removes the target from its parent (``update`` is then ignored, per the spec);
* a target that matches nothing is an error: an overlay that silently does nothing would leave an
  operation undeclared while its author believes otherwise;
* the document after the overlays is held to the input's size cap (``XC_MAX_SPEC_BYTES``): every
  match of an ``update`` costs the update's JSON size, counted before it is copied, so one action
  that matches a thousand nodes cannot turn a 70 KB spec into 300 MB (``XC002`` at that action);
* a target's evaluation is bounded too: at most :data:`MAX_DESCENTS` descendant segment (``..``,
  counted in filters as well: each one nested in another multiplies the work by the document's
  depth: ``$..*..*`` on a 600 KB spec took 10.7 s of CPU and 509 MB; ``XC022``), and at most
  :data:`MAX_TARGET_MATCHES` matches, evaluation stopping at the first one past it (``XC002``);
  per-match refusals of one action are reported for the first :data:`MAX_MATCH_ERRORS` matches,
  then counted in one more diagnostic.

The input document is never mutated: the result shares every subtree no action writes with it,
and a container is copied (shallowly, once) only when an action writes into it or below it
(GitHub with 236 declarations: a few hundred small copies instead of a copy of 13 MB). Lines of
untouched nodes are kept; nodes an overlay writes map to the overlay file's lines
(``SourceDoc.origins`` names that file).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from itertools import islice
from pathlib import Path
from typing import Any

from xcompleteness.diagnostics import (
    Diagnostic,
    InputError,
    Severity,
    exception_text,
    pointer_join,
    shown,
)
from xcompleteness.load._copy import copy_tree
from xcompleteness.load._limits import TOO_LARGE, Limits
from xcompleteness.load._parse import load_data
from xcompleteness.load._source import SourceDoc

__all__ = [
    "BAD_OVERLAY",
    "BAD_REMOVE",
    "BAD_TARGET",
    "BAD_UPDATE",
    "NO_MATCH",
    "OverlayLines",
    "apply_overlays",
]

BAD_OVERLAY = "XC020"
NO_MATCH = "XC021"
BAD_TARGET = "XC022"
BAD_UPDATE = "XC023"
BAD_REMOVE = "XC024"

MAX_DESCENTS = 1
"""Descendant segments (``..``) a target may hold, outside its string literals."""
MAX_TARGET_MATCHES = 100_000
"""Nodes one action's target may match (on GitHub, every operation ``$.paths.*.*`` is 1,223
and every string schema ``$..[?@.type=='string']`` 28,583; ``$..*`` is over a million)."""
MAX_MATCH_ERRORS = 10
"""Per-match refusals of one action reported one by one; the rest are counted."""

_ENV: Any = None


def _descents(target: str) -> int:
    """The descendant segments (``..``) of a JSONPath target, not counting string literals."""
    count, quote, i = 0, "", 0
    while i < len(target):
        c = target[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
        elif target.startswith("..", i):
            count += 1
            i += 1
        i += 1
    return count


def _jsonpath() -> tuple[Any, Any]:
    """python-jsonpath and its strict environment, imported when an overlay is first applied
    (``check`` and ``generate`` without overlays never pay for the import)."""
    global _ENV
    import jsonpath

    if _ENV is None:
        _ENV = jsonpath.JSONPathEnvironment(strict=True)
    return jsonpath, _ENV


_ACTION_KEYS = {"target", "description", "update", "remove"}

_NAME = r"(?:\.[A-Za-z_][A-Za-z0-9_]*|\['[^'\\\x00-\x1f]*'\]|\[\"[^\"\\\x00-\x1f]*\"\])"
_SIMPLE_TARGET = re.compile(rf"\$(?:{_NAME})*")
_SEGMENT = re.compile(_NAME)


class _Match:
    """What the overlay reads of a JSONPath match: the node and its path from the root."""

    __slots__ = ("obj", "parts")

    def __init__(self, obj: Any, parts: tuple[Any, ...]):
        self.obj = obj
        self.parts = parts


def _name_path_matches(target: str, data: Any) -> list[_Match] | None:
    """The matches of a target made only of name selectors (``$.paths['/items'].get``, the form
    ``audit`` drafts and most overlays use), found without python-jsonpath (and its import);
    None for any other target (RFC 9535: a name selector selects the member of that name of an
    object, nothing otherwise; names here hold no escape, quote or control character)."""
    if not _SIMPLE_TARGET.fullmatch(target):
        return None
    node, parts = data, []
    for segment in _SEGMENT.findall(target[1:]):
        name = segment[1:] if segment[0] == "." else segment[2:-2]
        if not isinstance(node, dict) or name not in node:
            return []
        node = node[name]
        parts.append(name)
    return [_Match(node, tuple(parts))]


class OverlayLines(Mapping[str, int]):
    """A line map layered over another: removed subtrees vanish, written nodes are added."""

    def __init__(self, below: Mapping[str, int]):
        self.below = below
        self.added: dict[str, int] = {}
        self.dead: list[str] = []  # the pointer and everything under it is gone from ``below``
        self.dead_children: list[str] = []  # only what is under the pointer is gone

    def kill(self, pointer: str, *, children_only: bool = False) -> None:
        (self.dead_children if children_only else self.dead).append(pointer)
        prefix = pointer + "/"
        for key in [k for k in self.added if k.startswith(prefix)]:
            del self.added[key]
        if not children_only:
            self.added.pop(pointer, None)

    def _is_dead(self, key: str) -> bool:
        for d in self.dead:
            if key == d or key.startswith(d + "/"):
                return True
        return any(key.startswith(d + "/") for d in self.dead_children)

    def __getitem__(self, key: str) -> int:
        if key in self.added:
            return self.added[key]
        if self._is_dead(key):
            raise KeyError(key)
        return self.below[key]

    def __iter__(self) -> Iterator[str]:
        yield from self.added
        for key in self.below:
            if key not in self.added and not self._is_dead(key):
                yield key

    def __len__(self) -> int:
        return sum(1 for _ in self)


class _Overlay:
    """One overlay file being applied to a working copy of the document."""

    def __init__(self, path: Path, limits: Limits):
        self.path = path
        self.origin = str(path)
        self.data, lines, notes = load_data(path, self.origin, limits)
        self.src = SourceDoc(path, self.data, lines, self.origin, {}, tuple(notes))
        self.errors: list[Diagnostic] = []

    def error(self, pointer: str, code: str, message: str, hint: str = "") -> None:
        self.errors.append(
            self.src.diag(pointer, code, message, hint=hint, severity=Severity.ERROR)
        )

    def validate_shape(self) -> list[tuple[int, dict[str, Any]]]:
        """Check the overlay document's shape; return the usable actions with their index."""
        data = self.data
        if not isinstance(data, dict):
            self.error("", BAD_OVERLAY, "an overlay document must be a mapping")
            return []
        version = data.get("overlay")
        if not isinstance(version, str) or not re.fullmatch(r"1\.0\.\d+", version):
            self.error(
                "/overlay",
                BAD_OVERLAY,
                f"'overlay' must be a version string like '1.0.0', got {version!r}",
                "this does not look like an OpenAPI Overlay 1.0 document",
            )
        info = data.get("info")
        if not isinstance(info, dict) or not all(
            isinstance(info.get(k), str) for k in ("title", "version")
        ):
            self.error(
                "/info", BAD_OVERLAY, "'info' must be a mapping with string title and version"
            )
        if "extends" in data and not isinstance(data["extends"], str):
            self.error("/extends", BAD_OVERLAY, "'extends' must be a string (a URI)")
        for key in data:
            if key not in {"overlay", "info", "extends", "actions"} and not key.startswith("x-"):
                self.error(pointer_join("", key), BAD_OVERLAY, f"unknown overlay field {key!r}")
        actions = data.get("actions")
        if not isinstance(actions, list) or not actions:
            self.error("/actions", BAD_OVERLAY, "'actions' must be a non-empty list")
            return []
        usable = []
        for i, action in enumerate(actions):
            at = f"/actions/{i}"
            if not isinstance(action, dict):
                self.error(at, BAD_OVERLAY, "an action must be a mapping")
                continue
            ok = True
            for key in action:
                if key not in _ACTION_KEYS and not key.startswith("x-"):
                    self.error(pointer_join(at, key), BAD_OVERLAY, f"unknown action field {key!r}")
                    ok = False
            if not isinstance(action.get("target"), str):
                self.error(at, BAD_OVERLAY, "an action needs a 'target' JSONPath string")
                ok = False
            if "remove" in action and not isinstance(action["remove"], bool):
                self.error(at + "/remove", BAD_OVERLAY, "'remove' must be true or false")
                ok = False
            if "update" not in action and action.get("remove") is not True:
                self.error(at, BAD_OVERLAY, "an action needs 'update' or 'remove: true'")
                ok = False
            if "description" in action and not isinstance(action["description"], str):
                self.error(at + "/description", BAD_OVERLAY, "'description' must be a string")
                ok = False
            if ok:
                usable.append((i, action))
        return usable


def apply_overlays(
    doc: SourceDoc,
    paths: Sequence[str | os.PathLike[str]],
    *,
    limits: Limits | None = None,
) -> SourceDoc:
    """Apply overlay files in order; raises :class:`InputError` on any unusable overlay."""
    if not paths:
        return doc
    limits = limits or Limits.from_env()
    data = _shallow(doc.data)
    fresh = _Copies()
    if data is not doc.data:
        fresh.made(doc.data, data)
    lines = OverlayLines(doc.lines)
    origins = dict(doc.origins)
    errors: list[Diagnostic] = []
    notes = list(doc.diagnostics)
    try:
        budget = _Budget(limits.max_bytes, doc.path.stat().st_size)
    except OSError:
        budget = _Budget(limits.max_bytes, 0)
    for raw in paths:
        ov = _Overlay(Path(raw), limits)
        notes.extend(ov.src.diagnostics)
        for index, action in ov.validate_shape():
            data = _apply_action(ov, index, action, data, lines, origins, budget, fresh)
            if budget.exceeded:
                raise InputError(ov.errors)
        errors.extend(ov.errors)
    if errors:
        raise InputError(errors)
    return SourceDoc(doc.path, data, lines, doc.origin, origins, tuple(notes))


class _Budget:
    """The size budget of the document after overlays: the input cap, less the spec's size."""

    def __init__(self, max_bytes: int, used: int):
        self.max_bytes = max_bytes
        self.used = used
        self.exceeded = False

    def spend(self, ov: _Overlay, at: str, cost: int, count: int) -> bool:
        self.used += cost * count
        if self.used > self.max_bytes:
            self.exceeded = True
            ov.error(
                at,
                TOO_LARGE,
                f"this action's update ({cost} bytes as JSON) on {count} match(es) would make the "
                f"document larger than the {self.max_bytes}-byte cap",
                "narrow the target, or raise XC_MAX_SPEC_BYTES if the result is really this big",
            )
        return not self.exceeded


class _Copies:
    """The containers of the working copy made by copying one of the input's (safe to change),
    each with the container it copies; both kept alive, so ids stay unique."""

    def __init__(self) -> None:
        self.own: dict[int, Any] = {}
        self.of: dict[int, tuple[Any, Any]] = {}

    def made(self, original: Any, copy: Any) -> None:
        self.own[id(copy)] = copy
        self.of[id(original)] = (original, copy)

    def copy_of(self, original: Any) -> Any:
        return self.of.get(id(original), (None, None))[1]


def _shallow(node: Any) -> Any:
    """A copy of one container (its children shared); anything else as it is."""
    if isinstance(node, dict):
        return dict(node)
    if isinstance(node, list):
        return list(node)
    return node


def _apply_action(
    ov: _Overlay,
    index: int,
    action: dict[str, Any],
    data: Any,
    lines: OverlayLines,
    origins: dict[str, str],
    budget: _Budget,
    fresh: _Copies,
) -> Any:
    at = f"/actions/{index}"
    target = action["target"]
    simple = _name_path_matches(target, data)
    if simple is not None:
        matches: list[Any] = simple
    else:
        descents = _descents(target)
        if descents > MAX_DESCENTS:
            ov.error(
                at + "/target",
                BAD_TARGET,
                f"target {shown(target)} holds {descents} descendant segments ('..'); at most "
                f"{MAX_DESCENTS} is evaluated (each one inside another multiplies the work by "
                "the document's depth)",
                "select with one '..' and a filter, e.g. $..[?@.operationId=='listItems'], "
                "or with a path",
            )
            return data
        jsonpath, env = _jsonpath()
        try:
            matches = list(islice(env.finditer(target, data), MAX_TARGET_MATCHES + 1))
        except jsonpath.JSONPathError as exc:
            ov.error(
                at + "/target",
                BAD_TARGET,
                f"invalid JSONPath {shown(target)}: {exception_text(exc, first_line=True)}",
                "targets are RFC 9535 JSONPath expressions, e.g. $.paths['/items'].get",
            )
            return data
        if len(matches) > MAX_TARGET_MATCHES:
            ov.error(
                at + "/target",
                TOO_LARGE,
                f"target {shown(target)} matches more than {MAX_TARGET_MATCHES} nodes; "
                "nothing of this action was applied",
                "narrow the target (a path, or a filter that selects what this action is for)",
            )
            return data
    if not matches:
        ov.error(
            at + "/target",
            NO_MATCH,
            f"target {target!r} matches nothing",
            "an action that changes nothing is refused; fix the path or drop the action",
        )
        return data
    writer = _Writer(ov, lines, origins, fresh)
    if action.get("remove") is True:
        # Remove deepest-last-index first so earlier removals do not shift later list indices.
        for match in sorted(matches, key=lambda m: _sort_parts(m.parts), reverse=True):
            if not match.parts:
                ov.error(at + "/target", BAD_REMOVE, "the document root cannot be removed")
                continue
            writer.remove(data, list(match.parts))
        return data
    update = action["update"]
    cost = len(json.dumps(update, separators=(",", ":"), ensure_ascii=False).encode())
    if not budget.spend(ov, at + "/update", cost, len(matches)):
        return data
    refused = 0
    for match in matches:
        pointer = _pointer(match.parts)
        node = writer.own(data, match.parts, match.obj)
        if isinstance(node, dict) and isinstance(update, dict):
            writer.merge(node, update, pointer, at + "/update")
        elif isinstance(node, list):
            writer.append(node, update, pointer, at + "/update")
        else:
            refused += 1
            if refused > MAX_MATCH_ERRORS:
                continue  # counted below
            if isinstance(node, dict):
                ov.error(
                    at + "/update",
                    BAD_UPDATE,
                    f"target {target!r} selects an object, so 'update' must be an object",
                    "wrap the value in a mapping with the key to set",
                )
            else:
                ov.error(
                    at + "/target",
                    BAD_UPDATE,
                    f"target {target!r} selects a {type(node).__name__} at {pointer!r}; "
                    "'update' needs an object or an array",
                    "target the object that holds the value and update its key",
                )
    if refused > MAX_MATCH_ERRORS:
        ov.error(
            at + "/target",
            BAD_UPDATE,
            f"and {refused - MAX_MATCH_ERRORS} more match(es) of target {shown(target)} "
            "that 'update' cannot apply to (the first "
            f"{MAX_MATCH_ERRORS} are reported above)",
            "narrow the target to the objects or arrays this action is for",
        )
    return data


def _sort_parts(parts: tuple[Any, ...]) -> tuple[tuple[int, Any], ...]:
    return tuple((1, p) if isinstance(p, int) else (0, str(p)) for p in parts)


def _pointer(parts: Sequence[Any]) -> str:
    return pointer_join("", *parts)


class _Writer:
    """Edits the working copy and keeps the line map and origins in step.

    The working copy shares untouched subtrees with the input document: a container is written
    only after :meth:`_child` replaced it by a shallow copy of its own (``fresh``)."""

    def __init__(self, ov: _Overlay, lines: OverlayLines, origins: dict[str, str], fresh: _Copies):
        self.ov = ov
        self.lines = lines
        self.origins = origins
        self.fresh = fresh

    def _child(self, parent: Any, key: Any) -> Any:
        """``parent[key]``, made a container of the working copy if it is one (``parent`` is)."""
        child = parent[key]
        if isinstance(child, dict | list) and id(child) not in self.fresh.own:
            copy = _shallow(child)
            parent[key] = copy
            self.fresh.made(child, copy)
            return copy
        return child

    def own(self, data: Any, parts: Sequence[Any], matched: Any) -> Any:
        """The writable node at ``parts`` of the working copy, which is ``matched`` (the node the
        target selected when the action started) or a copy of it. When an earlier match of the
        same action replaced ``matched`` (a target selecting a node and one inside it), it is no
        longer in the document and changing it changed nothing: a throwaway copy stands in."""
        node = data
        for part in parts:
            node = self._child(node, part)
        if node is matched or node is self.fresh.copy_of(matched) or not parts:
            return node
        return copy_tree(matched)

    def _mark(self, pointer: str, source_pointer: str, value: Any) -> None:
        """Note that ``value`` (at ``pointer``) came from ``source_pointer`` in the overlay."""
        stack = [(pointer, source_pointer, value)]
        # an overlay on one line (JSON written by a program): every node of it is on line 1
        one_line = getattr(self.ov.src.lines, "one_line", False)
        while stack:
            ptr, src, val = stack.pop()
            _, line = (None, 1) if one_line else self.ov.src.locate(src)
            if line is not None:
                self.lines.added[ptr] = line
                self.origins[ptr] = self.ov.origin
            if isinstance(val, dict):
                for k, v in val.items():
                    stack.append((pointer_join(ptr, k), pointer_join(src, k), v))
            elif isinstance(val, list):
                for i, v in enumerate(val):
                    stack.append((f"{ptr}/{i}", f"{src}/{i}", v))

    def _forget(self, pointer: str) -> None:
        self.lines.kill(pointer)
        prefix = pointer + "/"
        for key in [k for k in self.origins if k == pointer or k.startswith(prefix)]:
            del self.origins[key]

    def merge(self, node: dict[str, Any], update: dict[str, Any], pointer: str, src: str) -> None:
        for key, value in update.items():
            child = pointer_join(pointer, key)
            child_src = pointer_join(src, key)
            current = node.get(key)
            if key in node and isinstance(current, dict) and isinstance(value, dict):
                self.merge(self._child(node, key), value, child, child_src)
            elif key in node and isinstance(current, list) and isinstance(value, list):
                target = self._child(node, key)
                for i, item in enumerate(value):
                    self.append(target, item, child, f"{child_src}/{i}")
            else:
                if key in node:  # an absent key has no lines or origins left to forget
                    self._forget(child)
                node[key] = copy_tree(value)
                self._mark(child, child_src, value)

    def append(self, node: list[Any], value: Any, pointer: str, src: str) -> None:
        node.append(copy_tree(value))
        self._mark(f"{pointer}/{len(node) - 1}", src, value)

    def remove(self, data: Any, parts: list[Any]) -> None:
        parent = data
        for part in parts[:-1]:
            parent = self._child(parent, part)
        last = parts[-1]
        pointer = _pointer(parts)
        if isinstance(parent, list):
            del parent[last]
            # later items shift: their old line entries no longer match their pointers
            self._forget_children(_pointer(parts[:-1]))
        else:
            del parent[last]
            self._forget(pointer)

    def _forget_children(self, pointer: str) -> None:
        self.lines.kill(pointer, children_only=True)
        prefix = pointer + "/"
        for key in [k for k in self.origins if k.startswith(prefix)]:
            del self.origins[key]
