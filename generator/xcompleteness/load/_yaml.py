"""YAML: an iterative builder over libyaml events, instead of ``yaml.safe_load``.

Building from the event stream lets us cap nesting depth without hitting Python's recursion
limit, count alias expansions (a "billion laughs" document is refused once aliases would add more
than ``XC_MAX_ALIAS_NODES`` nodes), refuse recursive aliases, keep every value JSON-shaped (dates
stay strings, integer keys such as ``200:`` become ``"200"``) and record the line of every key as
we go, at no extra pass. Duplicate keys are warnings (``XC013``), the later value wins.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import yaml

from xcompleteness.diagnostics import Diagnostic, Severity, exception_text, pointer_join, shown
from xcompleteness.load._copy import copy_tree
from xcompleteness.load._limits import (
    ALIAS_BOMB,
    DUPLICATE_KEY,
    NOT_MAPPING,
    SYNTAX,
    UNSUPPORTED_YAML,
    Limits,
    input_error,
    too_deep_error,
)

__all__ = ["YamlBuilder"]

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_RESOLVER = yaml.resolver.Resolver()
_CONSTRUCTOR = yaml.constructor.SafeConstructor()
_T = "tag:yaml.org,2002:"
_STR_TAGS = {_T + "str", _T + "timestamp", _T + "value"}


class _Frame:
    __slots__ = ("obj", "pointer", "key", "anchor", "size", "merges", "line")

    def __init__(self, obj: Any, pointer: str, anchor: str | None, line: int):
        self.obj = obj
        self.pointer = pointer
        self.key: str | None = None
        self.anchor = anchor
        self.size = 1
        self.merges: list[Any] | None = None
        self.line = line


_MERGE = object()


class YamlBuilder:
    """Builds plain Python data from YAML events with depth, alias and tag checks."""

    def __init__(self, origin: str, limits: Limits):
        self.origin = origin
        self.limits = limits
        self.lines: dict[str, int] = {}
        self.notes: list[Diagnostic] = []
        self.anchors: dict[str, tuple[Any, int] | None] = {}
        self.alias_nodes = 0

    def build(self, text: str) -> tuple[Any, dict[str, int], list[Diagnostic]]:
        try:
            return self._build(yaml.parse(text, Loader=_Loader)), self.lines, self.notes
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            line = mark.line + 1 if mark else None
            col = f" (column {mark.column + 1})" if mark else ""
            problem = exc.problem or exc.context or "invalid YAML"
            if "nesting depth" in problem:  # libyaml's own cap (1000) is above ours
                raise too_deep_error(self.origin, self.limits, line) from None
            raise input_error(
                self.origin,
                SYNTAX,
                f"invalid YAML: {problem}{col}",
                line=line,
                hint="fix the YAML syntax",
            ) from None
        except yaml.YAMLError as exc:
            raise input_error(self.origin, SYNTAX, f"invalid YAML: {exception_text(exc)}") from None

    def _build(self, events: Iterator[yaml.Event]) -> Any:
        stack: list[_Frame] = []
        root: Any = None
        documents = 0
        for ev in events:
            line = ev.start_mark.line + 1
            if isinstance(ev, yaml.ScalarEvent):
                if stack and isinstance(stack[-1].obj, dict) and stack[-1].key is None:
                    self._key(stack[-1], ev, line)
                    continue
                value, size = self._scalar(ev, line), 1
                if ev.anchor:
                    self.anchors[ev.anchor] = (value, 1)
            elif isinstance(ev, yaml.AliasEvent):
                if stack and isinstance(stack[-1].obj, dict) and stack[-1].key is None:
                    raise input_error(
                        self.origin, UNSUPPORTED_YAML, "an alias cannot be a mapping key", line=line
                    )
                value, size = self._alias(ev, line)
            elif isinstance(ev, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                is_map = isinstance(ev, yaml.MappingStartEvent)
                self._collection_tag(ev, is_map, line)
                if len(stack) + 1 > self.limits.max_depth:
                    raise too_deep_error(self.origin, self.limits, line)
                pointer = self._child_pointer(stack, line) if stack else ""
                if stack and isinstance(stack[-1].obj, dict) and stack[-1].key is None:
                    raise input_error(
                        self.origin,
                        UNSUPPORTED_YAML,
                        "complex (mapping or sequence) keys are not supported",
                        line=line,
                    )
                frame = _Frame({} if is_map else [], pointer, ev.anchor, line)
                if ev.anchor:
                    self.anchors[ev.anchor] = None  # in progress: an alias to it is recursive
                stack.append(frame)
                continue
            elif isinstance(ev, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                frame = stack.pop()
                if frame.merges is not None:
                    self._merge(frame)
                value, size = frame.obj, frame.size
                if frame.anchor:
                    self.anchors[frame.anchor] = (value, size)
            elif isinstance(ev, yaml.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    raise input_error(
                        self.origin,
                        NOT_MAPPING,
                        "the file holds more than one YAML document",
                        line=line,
                        hint="keep one OpenAPI document per file",
                    )
                continue
            else:
                continue
            if not stack:
                root = value
                continue
            self._attach(stack[-1], value, size, line)
        return root

    def _attach(self, parent: _Frame, value: Any, size: int, line: int) -> None:
        parent.size += size
        obj = parent.obj
        if isinstance(obj, list):
            obj.append(value)
            return
        key = parent.key
        parent.key = None
        if key is _MERGE:
            merges = value if isinstance(value, list) else [value]
            if not all(isinstance(m, dict) for m in merges):
                raise input_error(
                    self.origin,
                    UNSUPPORTED_YAML,
                    "a '<<' merge key needs a mapping or a list of mappings",
                    line=line,
                )
            parent.merges = (parent.merges or []) + [merges]
            return
        assert isinstance(key, str)
        obj[key] = value

    def _key(self, frame: _Frame, ev: yaml.ScalarEvent, line: int) -> None:
        if ev.tag is None and ev.implicit[0] and ev.value == "<<":
            frame.key = _MERGE  # type: ignore[assignment]
            return
        value = self._scalar(ev, line)
        key = value if isinstance(value, str) else ev.value
        if key in frame.obj:
            pointer = pointer_join(frame.pointer, key)
            self.notes.append(
                Diagnostic(
                    self.origin,
                    pointer,
                    DUPLICATE_KEY,
                    Severity.WARNING,
                    f"duplicate key {shown(key)}: the later value wins",
                    "remove one of the two",
                    line,
                )
            )
        frame.key = key
        self.lines[pointer_join(frame.pointer, key)] = line

    def _child_pointer(self, stack: list[_Frame], line: int) -> str:
        parent = stack[-1]
        if isinstance(parent.obj, list):
            pointer = f"{parent.pointer}/{len(parent.obj)}"
            self.lines[pointer] = line
            return pointer
        key = "<<" if parent.key is _MERGE else parent.key
        return pointer_join(parent.pointer, key)

    def _scalar(self, ev: yaml.ScalarEvent, line: int) -> Any:
        tag = ev.tag
        if tag is None or tag == "!":
            if not ev.implicit[0]:
                return ev.value
            tag = _RESOLVER.resolve(yaml.ScalarNode, ev.value, ev.implicit)
        if tag in _STR_TAGS:
            return ev.value
        if tag == _T + "null":
            return None
        if tag in (_T + "bool", _T + "int", _T + "float"):
            node = yaml.ScalarNode(tag, ev.value)
            try:
                return _CONSTRUCTOR.yaml_constructors[tag](_CONSTRUCTOR, node)
            except (ValueError, yaml.YAMLError):
                raise input_error(
                    self.origin, SYNTAX, f"invalid {tag[len(_T) :]} {shown(ev.value)}", line=line
                ) from None
        raise input_error(
            self.origin,
            UNSUPPORTED_YAML,
            f"unsupported YAML tag {shown(tag)}",
            line=line,
            hint="OpenAPI documents use plain JSON-shaped YAML only",
        )

    def _collection_tag(self, ev: Any, is_map: bool, line: int) -> None:
        tag = ev.tag
        if tag in (None, "!", _T + ("map" if is_map else "seq")):
            return
        raise input_error(
            self.origin,
            UNSUPPORTED_YAML,
            f"unsupported YAML tag {shown(tag)}",
            line=line,
            hint="OpenAPI documents use plain JSON-shaped YAML only",
        )

    def _alias(self, ev: yaml.AliasEvent, line: int) -> tuple[Any, int]:
        if ev.anchor not in self.anchors:
            raise input_error(self.origin, SYNTAX, f"unknown YAML alias *{ev.anchor}", line=line)
        entry = self.anchors[ev.anchor]
        if entry is None:
            raise input_error(
                self.origin,
                ALIAS_BOMB,
                f"recursive YAML alias *{ev.anchor}",
                line=line,
                hint="a node cannot contain an alias to itself",
            )
        value, size = entry
        self.alias_nodes += size
        if self.alias_nodes > self.limits.max_alias_nodes:
            raise input_error(
                self.origin,
                ALIAS_BOMB,
                f"YAML aliases expand past {self.limits.max_alias_nodes} nodes",
                line=line,
                hint="this looks like an alias bomb; raise XC_MAX_ALIAS_NODES if not",
            )
        return copy_tree(value), size

    def _merge(self, frame: _Frame) -> None:
        merged: dict[str, Any] = {}
        for group in reversed(frame.merges or []):
            for mapping in reversed(group):
                merged.update(mapping)
        for key, value in merged.items():
            if key not in frame.obj:
                frame.obj[key] = copy_tree(value)
                self.lines.setdefault(pointer_join(frame.pointer, key), frame.line)
