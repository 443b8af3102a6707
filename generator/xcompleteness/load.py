"""Load an OpenAPI document safely: YAML or JSON, with limits, a line map and a ``$ref`` policy.

The spec is someone else's file, so loading is defensive:

* a size cap (``XC_MAX_SPEC_BYTES``, default 64 MiB) is checked before reading;
* YAML is built from the libyaml *event stream* by an iterative builder of our own rather than
  ``yaml.safe_load``: that lets us cap nesting depth without hitting Python's recursion limit,
  count alias expansions (a "billion laughs" document is refused once aliases would add more than
  ``XC_MAX_ALIAS_NODES`` nodes), refuse recursive aliases, keep every value JSON-shaped (dates
  stay strings, integer keys such as ``200:`` become ``"200"``) and record the line of every key
  as we go, at no extra pass;
* JSON goes through ``json.loads`` (fast on 10 MB documents); its line map is computed lazily by
  a small tokenizer, only when a diagnostic asks for a line;
* ``$ref`` values are checked: local refs must not form a ref-to-ref cycle (tools would spin),
  URLs are always refused (no network), other files are refused unless ``allow_external_refs``
  and then only inside the spec's folder.

Unusable input raises :class:`~xcompleteness.diagnostics.InputError` (exit code 2); findings that
still leave a usable document (duplicate keys, dangling local refs) travel in
``SourceDoc.diagnostics``.
"""

from __future__ import annotations

import bisect
import json
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import yaml

from xcompleteness.diagnostics import Diagnostic, InputError, Severity, pointer_join

DEFAULT_MAX_BYTES = 64 * 1024 * 1024
"""Documents larger than this are refused (override with ``XC_MAX_SPEC_BYTES``)."""
DEFAULT_MAX_DEPTH = 256
"""Deeper nesting is refused (override with ``XC_MAX_DEPTH``); real specs stay below ~40."""
DEFAULT_MAX_ALIAS_NODES = 100_000
"""YAML aliases may add at most this many nodes in total (override with ``XC_MAX_ALIAS_NODES``)."""

# Input-class diagnostic codes (documented in docs/cli.md).
UNREADABLE = "XC001"
TOO_LARGE = "XC002"
SYNTAX = "XC003"
ALIAS_BOMB = "XC004"
TOO_DEEP = "XC005"
NOT_MAPPING = "XC006"
NOT_OPENAPI = "XC007"
EXTERNAL_REF = "XC008"
URL_REF = "XC009"
REF_CYCLE = "XC010"
REF_OUTSIDE = "XC011"
UNSUPPORTED_YAML = "XC012"
DUPLICATE_KEY = "XC013"
DANGLING_REF = "XC014"


@dataclass(frozen=True)
class Limits:
    """Caps applied while loading; defaults come from the environment (see module docstring)."""

    max_bytes: int = DEFAULT_MAX_BYTES
    max_depth: int = DEFAULT_MAX_DEPTH
    max_alias_nodes: int = DEFAULT_MAX_ALIAS_NODES

    @classmethod
    def from_env(cls) -> Limits:
        return cls(
            max_bytes=_env_int("XC_MAX_SPEC_BYTES", DEFAULT_MAX_BYTES),
            max_depth=_env_int("XC_MAX_DEPTH", DEFAULT_MAX_DEPTH),
            max_alias_nodes=_env_int("XC_MAX_ALIAS_NODES", DEFAULT_MAX_ALIAS_NODES),
        )


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "")
    try:
        value = int(raw)
    except ValueError:
        return default
    return value if value > 0 else default


@dataclass(frozen=True)
class SourceDoc:
    """A loaded document: plain JSON-shaped ``data`` plus where each key came from.

    ``lines`` maps a JSON pointer to the 1-based line of its key (or array item) in ``origin``;
    ``origins`` maps pointers of nodes written by an overlay to that overlay's file name (their
    ``lines`` then refer to the overlay file). Use :meth:`locate` rather than reading both.
    """

    path: Path
    data: Any
    lines: Mapping[str, int]
    origin: str
    origins: Mapping[str, str] = field(default_factory=dict)
    diagnostics: tuple[Diagnostic, ...] = ()

    def locate(self, pointer: str) -> tuple[str, int | None]:
        """File name and line for ``pointer``, falling back to the nearest ancestor we know."""
        probe = pointer
        while True:
            line = self.lines.get(probe)
            if line is not None:
                return self.origins.get(probe, self.origin), line
            if not probe:
                return self.origin, None
            probe = probe.rsplit("/", 1)[0]

    def diag(
        self, pointer: str, code: str, message: str, *, hint: str = "", severity: Severity
    ) -> Diagnostic:
        """Build a diagnostic about ``pointer`` with the right file and line filled in."""
        file, line = self.locate(pointer)
        return Diagnostic(file, pointer, code, severity, message, hint, line)


def load_spec(
    path: str | os.PathLike[str],
    *,
    allow_external_refs: bool = False,
    limits: Limits | None = None,
) -> SourceDoc:
    """Load an OpenAPI 3.0/3.1 document; raises :class:`InputError` when it cannot be used."""
    limits = limits or Limits.from_env()
    p = Path(path)
    origin = str(path)
    refs: list[tuple[str, str]] = []
    data, lines, notes = load_data(p, origin, limits, refs_out=refs)
    _require_openapi(data, origin, lines)
    doc = SourceDoc(path=p, data=data, lines=lines, origin=origin, diagnostics=tuple(notes))
    ref_notes = check_refs(doc, allow_external_refs=allow_external_refs, limits=limits, refs=refs)
    if ref_notes:
        doc = SourceDoc(p, data, lines, origin, {}, doc.diagnostics + tuple(ref_notes))
    return doc


def load_data(
    path: Path, origin: str, limits: Limits, *, refs_out: list[tuple[str, str]] | None = None
) -> tuple[Any, Mapping[str, int], list[Diagnostic]]:
    """Read and parse ``path`` (any JSON-shaped root); used for specs, overlays and ref targets.

    With ``refs_out``, every ``$ref`` found is appended to it (saves the caller a walk).
    """
    text = _read_text(path, origin, limits)
    stripped = text.lstrip()
    if path.suffix.lower() == ".json" or stripped.startswith("{") or stripped.startswith("["):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            if path.suffix.lower() == ".json":
                raise _fail(
                    origin,
                    SYNTAX,
                    f"invalid JSON: {exc.msg} (column {exc.colno})",
                    line=exc.lineno,
                    hint="fix the JSON syntax",
                ) from None
        except RecursionError:
            raise _too_deep(origin, limits, None) from None
        else:
            refs = _walk(data, origin, limits)
            if refs_out is not None:
                refs_out.extend(refs)
            return data, LazyJsonLines(text), []
    data, lines, notes = _YamlBuilder(origin, limits).build(text)
    if refs_out is not None:
        refs_out.extend(_walk(data, origin, limits))
    return data, lines, notes


def _read_text(path: Path, origin: str, limits: Limits) -> str:
    try:
        size = path.stat().st_size
        if not path.is_file():
            raise _fail(origin, UNREADABLE, "not a regular file", hint="pass the spec's file path")
        if size > limits.max_bytes:
            raise _fail(
                origin,
                TOO_LARGE,
                f"file is {size} bytes, over the {limits.max_bytes}-byte cap",
                hint="raise the cap with XC_MAX_SPEC_BYTES=<bytes> if the file is trustworthy",
            )
        with path.open("rb") as fh:
            raw = fh.read(limits.max_bytes + 1)
    except OSError as exc:
        raise _fail(origin, UNREADABLE, f"cannot read file: {exc.strerror or exc}") from None
    if len(raw) > limits.max_bytes:  # the file grew between stat and read
        raise _fail(origin, TOO_LARGE, f"file is over the {limits.max_bytes}-byte cap")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise _fail(
            origin, SYNTAX, "file is not UTF-8 text", line=line, hint="save the document as UTF-8"
        ) from None


def _fail(
    origin: str,
    code: str,
    message: str,
    *,
    pointer: str = "",
    line: int | None = None,
    hint: str = "",
) -> InputError:
    return InputError([Diagnostic(origin, pointer, code, Severity.ERROR, message, hint, line)])


def _too_deep(origin: str, limits: Limits, line: int | None) -> InputError:
    return _fail(
        origin,
        TOO_DEEP,
        f"nesting is deeper than {limits.max_depth} levels",
        line=line,
        hint="raise XC_MAX_DEPTH if the document is really this deep",
    )


def _walk(data: Any, origin: str, limits: Limits) -> list[tuple[str, str]]:
    """One iterative pass: enforce the depth cap and collect every string ``$ref``.

    Pointers are kept as linked ``(parent, token)`` chains and spelled out only for the
    ``$ref`` objects, so a 10 MB document is walked without building a string per node.
    """
    refs: list[tuple[str, str]] = []
    limit = limits.max_depth
    stack: list[tuple[Any, int, Any]] = [(data, 1, None)]
    while stack:
        node, depth, chain = stack.pop()
        if depth > limit:
            raise _too_deep(origin, limits, None)
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                refs.append((_spell(chain), ref))
            for k, v in node.items():
                if isinstance(v, (dict, list)):
                    stack.append((v, depth + 1, (chain, k)))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                if isinstance(v, (dict, list)):
                    stack.append((v, depth + 1, (chain, i)))
    return refs


def _spell(chain: Any) -> str:
    tokens: list[Any] = []
    while chain is not None:
        chain, token = chain
        tokens.append(token)
    return pointer_join("", *reversed(tokens))


def _require_openapi(data: Any, origin: str, lines: Mapping[str, int]) -> None:
    if not isinstance(data, dict):
        kind = type(data).__name__ if data is not None else "empty"
        raise _fail(
            origin,
            NOT_MAPPING,
            f"the document root is {kind}, not a mapping",
            hint="an OpenAPI document is a mapping with an 'openapi' key",
        )
    if "swagger" in data and "openapi" not in data:
        raise _fail(
            origin,
            NOT_OPENAPI,
            f"this is Swagger {data.get('swagger')}, not OpenAPI 3.x",
            pointer="/swagger",
            line=lines.get("/swagger"),
            hint="convert it first, for example with 'npx swagger2openapi'",
        )
    version = data.get("openapi")
    if version is None:
        raise _fail(
            origin,
            NOT_OPENAPI,
            "no 'openapi' key: this is not an OpenAPI document",
            hint="add 'openapi: 3.1.0' (or 3.0.x) at the top level",
        )
    if not isinstance(version, str) or not re.fullmatch(r"3\.[01]\.\d+(-.+)?", version):
        raise _fail(
            origin,
            NOT_OPENAPI,
            f"unsupported 'openapi' version {version!r}",
            pointer="/openapi",
            line=lines.get("/openapi"),
            hint="use a quoted string such as '3.1.0' or '3.0.3'",
        )


# --------------------------------------------------------------------------------------------
# YAML: an iterative builder over libyaml events.

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


class _YamlBuilder:
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
                raise _too_deep(self.origin, self.limits, line) from None
            raise _fail(
                self.origin,
                SYNTAX,
                f"invalid YAML: {problem}{col}",
                line=line,
                hint="fix the YAML syntax",
            ) from None
        except yaml.YAMLError as exc:
            raise _fail(self.origin, SYNTAX, f"invalid YAML: {exc}") from None

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
                    raise _fail(
                        self.origin, UNSUPPORTED_YAML, "an alias cannot be a mapping key", line=line
                    )
                value, size = self._alias(ev, line)
            elif isinstance(ev, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                is_map = isinstance(ev, yaml.MappingStartEvent)
                self._collection_tag(ev, is_map, line)
                if len(stack) + 1 > self.limits.max_depth:
                    raise _too_deep(self.origin, self.limits, line)
                pointer = self._child_pointer(stack, line) if stack else ""
                if stack and isinstance(stack[-1].obj, dict) and stack[-1].key is None:
                    raise _fail(
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
                    raise _fail(
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
                raise _fail(
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
                    f"duplicate key {key!r}: the later value wins",
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
                raise _fail(
                    self.origin, SYNTAX, f"invalid {tag[len(_T) :]} {ev.value!r}", line=line
                ) from None
        raise _fail(
            self.origin,
            UNSUPPORTED_YAML,
            f"unsupported YAML tag {tag!r}",
            line=line,
            hint="OpenAPI documents use plain JSON-shaped YAML only",
        )

    def _collection_tag(self, ev: Any, is_map: bool, line: int) -> None:
        tag = ev.tag
        if tag in (None, "!", _T + ("map" if is_map else "seq")):
            return
        raise _fail(
            self.origin,
            UNSUPPORTED_YAML,
            f"unsupported YAML tag {tag!r}",
            line=line,
            hint="OpenAPI documents use plain JSON-shaped YAML only",
        )

    def _alias(self, ev: yaml.AliasEvent, line: int) -> tuple[Any, int]:
        if ev.anchor not in self.anchors:
            raise _fail(self.origin, SYNTAX, f"unknown YAML alias *{ev.anchor}", line=line)
        entry = self.anchors[ev.anchor]
        if entry is None:
            raise _fail(
                self.origin,
                ALIAS_BOMB,
                f"recursive YAML alias *{ev.anchor}",
                line=line,
                hint="a node cannot contain an alias to itself",
            )
        value, size = entry
        self.alias_nodes += size
        if self.alias_nodes > self.limits.max_alias_nodes:
            raise _fail(
                self.origin,
                ALIAS_BOMB,
                f"YAML aliases expand past {self.limits.max_alias_nodes} nodes",
                line=line,
                hint="this looks like an alias bomb; raise XC_MAX_ALIAS_NODES if not",
            )
        return _copy(value), size

    def _merge(self, frame: _Frame) -> None:
        merged: dict[str, Any] = {}
        for group in reversed(frame.merges or []):
            for mapping in reversed(group):
                merged.update(mapping)
        for key, value in merged.items():
            if key not in frame.obj:
                frame.obj[key] = _copy(value)
                self.lines.setdefault(pointer_join(frame.pointer, key), frame.line)


def _copy(value: Any) -> Any:
    """Copy an aliased subtree so the result is a tree (overlays may then edit one place)."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


# --------------------------------------------------------------------------------------------
# JSON line map, computed on first use.

_JSON_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"(\s*:)?|[{}\[\]]|[^\s{}\[\],:"]+')


class LazyJsonLines(Mapping[str, int]):
    """JSON pointer -> line of a key, found on demand by walking the text along the pointer.

    ``json.loads`` gives no positions. Instead of tokenizing the whole document up front, a
    lookup indexes only the containers on the pointer's path: each key of such a container is
    recorded with its line and the position of its value, and sibling values are skipped by
    the C JSON scanner. Indexed containers are cached, so a few hundred diagnostics cost about
    one extra parse of the document, and a clean check pays nothing. Iterating the mapping
    (rare) falls back to a full tokenizer pass.
    """

    def __init__(self, text: str):
        self._text = text
        self._children: dict[str, dict[str, tuple[int, int]]] = {}
        self._newlines: list[int] | None = None
        self._full: dict[str, int] | None = None

    def __getitem__(self, pointer: str) -> int:
        if not pointer.startswith("/"):
            raise KeyError(pointer)
        current, pos, line = "", _skip_ws(self._text, 0), 0
        for raw in pointer[1:].split("/"):
            token = raw.replace("~1", "/").replace("~0", "~")
            children = self._index(current, pos)
            if token not in children:
                raise KeyError(pointer)
            line, pos = children[token]
            current = f"{current}/{raw}"
        return line

    def _line_at(self, pos: int) -> int:
        if self._newlines is None:
            self._newlines = [m.start() for m in re.finditer("\n", self._text)]
        return bisect.bisect_left(self._newlines, pos) + 1

    def _index(self, pointer: str, pos: int) -> dict[str, tuple[int, int]]:
        """Keys (or indexes) of the container at ``pos`` -> (line, position of the value)."""
        cached = self._children.get(pointer)
        if cached is not None:
            return cached
        text = self._text
        out: dict[str, tuple[int, int]] = {}
        opener = text[pos : pos + 1]
        if opener in ("{", "["):
            try:
                self._fill(out, text, pos, opener == "[")
            except (ValueError, IndexError, StopIteration):
                pass  # the text parsed once already; stay silent rather than guess
        self._children[pointer] = out
        return out

    def _fill(self, out: dict[str, tuple[int, int]], text: str, pos: int, is_list: bool) -> None:
        close = "]" if is_list else "}"
        pos = _skip_ws(text, pos + 1)
        index = 0
        while text[pos] != close:
            if is_list:
                key, key_pos = str(index), pos
                index += 1
            else:
                m = _JSON_STRING.match(text, pos)
                if m is None:
                    return
                raw = m.group()[1:-1]
                key = json.loads(m.group()) if "\\" in raw else raw
                key_pos = pos
                pos = _skip_ws(text, m.end())
                pos = _skip_ws(text, pos + 1)  # the colon
            out[key] = (self._line_at(key_pos), pos)
            _, end = _SCAN(text, pos)
            pos = _skip_ws(text, end)
            if text[pos] == ",":
                pos = _skip_ws(text, pos + 1)

    def _all(self) -> dict[str, int]:
        if self._full is None:
            self._full = _scan_json_lines(self._text)
        return self._full

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_WS = re.compile(r"[ \t\n\r]*")
_SCAN = json.JSONDecoder().scan_once


def _skip_ws(text: str, pos: int) -> int:
    return _WS.match(text, pos).end()  # type: ignore[union-attr]


def _scan_json_lines(text: str) -> dict[str, int]:
    out: dict[str, int] = {}
    # stack entries: [pointer, is_list, next_index]
    stack: list[list[Any]] = []
    line, seen = 1, 0  # line of position ``seen``; advanced with str.count (fast, in C)
    pending: str | None = None  # pointer of the value about to start
    for m in _JSON_TOKEN.finditer(text):
        tok = m.group()
        ch = tok[0]
        if ch == '"' and m.group(1) is not None and stack and not stack[-1][1]:
            pos = m.start()
            line += text.count("\n", seen, pos)
            seen = pos
            raw = tok[1 : tok.rfind('"')]
            key = json.loads(f'"{raw}"') if "\\" in raw else raw
            if "~" in key or "/" in key:
                key = key.replace("~", "~0").replace("/", "~1")
            pending = stack[-1][0] + "/" + key
            out[pending] = line
            continue
        if ch in "]}":
            if stack:
                stack.pop()
            continue
        pointer = pending
        if pointer is None and stack and stack[-1][1]:  # a list item starts here
            pos = m.start()
            line += text.count("\n", seen, pos)
            seen = pos
            frame = stack[-1]
            pointer = f"{frame[0]}/{frame[2]}"
            frame[2] += 1
            out[pointer] = line
        pending = None
        if ch in "{[":
            stack.append([pointer if pointer is not None else "", ch == "[", 0])
    return out


# --------------------------------------------------------------------------------------------
# $ref policy.

_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def iter_refs(data: Any) -> Iterator[tuple[str, str]]:
    """Yield ``(pointer of the $ref key's object, ref value)`` for every string ``$ref``."""
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        node, pointer = stack.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                yield pointer, ref
            for k, v in node.items():
                if isinstance(v, (dict, list)):
                    stack.append((v, pointer + "/" + k.replace("~", "~0").replace("/", "~1")))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                if isinstance(v, (dict, list)):
                    stack.append((v, f"{pointer}/{i}"))


def ref_pointer(ref: Any) -> str | None:
    """The JSON pointer a local ``$ref`` names, None for an external (or non-text) reference.

    A ``$ref`` is a URI reference, so its fragment is percent-decoded before it is read as an
    RFC 6901 pointer (RFC 6901 section 6): ``#/components/schemas/A%20B`` names ``/components/
    schemas/A B``. This is the one reading of a reference: check, its location rules, the audit's
    schema walker, the IR, verify and the tool schemas all resolve through it.
    """
    if not isinstance(ref, str) or not ref.startswith("#"):
        return None
    return unquote(ref[1:])


def pointer_tokens(pointer: str) -> tuple[str, ...] | None:
    """An RFC 6901 pointer split into unescaped tokens (``~1`` -> ``/``, then ``~0`` -> ``~``)."""
    if pointer == "":
        return ()
    if not pointer.startswith("/"):
        return None
    return tuple(raw.replace("~1", "/").replace("~0", "~") for raw in pointer[1:].split("/"))


def resolve_ref(data: Any, ref: Any) -> tuple[bool, Any]:
    """Resolve a local ``$ref`` (:func:`ref_pointer`) in ``data``; returns ``(found, value)``."""
    pointer = ref_pointer(ref)
    if pointer is None:
        return False, None
    return resolve_pointer(data, pointer)


def follow_refs(data: Any, node: Any, limit: int = 32) -> tuple[bool, Any]:
    """Follow a chain of local ``$ref``s from ``node``; ``(False, None)`` when one is external or
    dangling or the chain is longer than ``limit`` (a cycle). A node without ``$ref`` is found."""
    for _ in range(limit + 1):
        if not (isinstance(node, Mapping) and isinstance(node.get("$ref"), str)):
            return True, node
        found, node = resolve_ref(data, node["$ref"])
        if not found:
            return False, None
    return False, None


def ref_component(ref: Any, section: str = "schemas") -> str | None:
    """The component name a ``$ref`` of the form ``#/components/<section>/<name>`` names."""
    pointer = ref_pointer(ref)
    tokens = pointer_tokens(pointer) if pointer is not None else None
    if tokens is not None and len(tokens) == 3 and tokens[:2] == ("components", section):
        return tokens[2]
    return None


def resolve_pointer(data: Any, pointer: str) -> tuple[bool, Any]:
    """Resolve an RFC 6901 pointer; returns ``(found, value)``."""
    tokens = pointer_tokens(pointer)
    if tokens is None:
        return False, None
    node = data
    for token in tokens:
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return False, None
    return True, node


def check_refs(
    doc: SourceDoc,
    *,
    allow_external_refs: bool = False,
    limits: Limits | None = None,
    refs: list[tuple[str, str]] | None = None,
) -> list[Diagnostic]:
    """Apply the ``$ref`` policy; raises :class:`InputError` for refused or cyclic refs."""
    limits = limits or Limits.from_env()
    fatal: list[Diagnostic] = []
    notes: list[Diagnostic] = []
    local: dict[str, str] = {}
    checked_files: set[Path] = set()
    base = doc.path.resolve().parent
    resolvable: dict[str, bool] = {}
    for pointer, ref in refs if refs is not None else iter_refs(doc.data):
        at = pointer_join(pointer, "$ref")
        if ref.startswith("#"):
            local[pointer] = ref
            if ref not in resolvable:
                resolvable[ref] = resolve_ref(doc.data, ref)[0]
            if not resolvable[ref]:
                notes.append(
                    doc.diag(
                        at,
                        DANGLING_REF,
                        f"$ref {ref!r} points at nothing",
                        hint="fix the pointer or add the target",
                        severity=Severity.ERROR,
                    )
                )
            continue
        if _URL.match(ref) or ref.startswith("//"):
            fatal.append(
                doc.diag(
                    at,
                    URL_REF,
                    f"$ref {ref!r} is a URL; the network is never used",
                    hint="download the file next to the spec and refer to it relatively",
                    severity=Severity.ERROR,
                )
            )
            continue
        if not allow_external_refs:
            fatal.append(
                doc.diag(
                    at,
                    EXTERNAL_REF,
                    f"$ref {ref!r} points at another file",
                    hint="bundle the spec, or pass --allow-external-refs",
                    severity=Severity.ERROR,
                )
            )
            continue
        problem = _check_external(base, doc.path, ref, limits, checked_files)
        if problem:
            fatal.append(
                doc.diag(
                    at,
                    REF_OUTSIDE,
                    problem,
                    hint="external refs must stay inside the spec's folder",
                    severity=Severity.ERROR,
                )
            )
    fatal.extend(_ref_cycles(doc, local))
    if fatal:
        raise InputError(fatal)
    return notes


def _check_external(
    base: Path, source: Path, ref: str, limits: Limits, seen: set[Path]
) -> str | None:
    """Check one relative file ref (and, once per file, the refs inside that file)."""
    file_part, _, fragment = ref.partition("#")
    target = (source.resolve().parent / unquote(file_part)).resolve()
    if not target.is_relative_to(base):
        return f"$ref {ref!r} leaves the spec's folder"
    if not target.is_file():
        return f"$ref {ref!r} names a file that does not exist"
    if target not in seen:
        seen.add(target)
        try:
            data, _, _ = load_data(target, str(target), limits)
        except InputError as exc:
            return f"$ref {ref!r}: {exc.diagnostics[0].message}"
        for _, inner in iter_refs(data):
            if inner.startswith("#"):
                continue
            if _URL.match(inner) or inner.startswith("//"):
                return f"$ref {ref!r}: the file refers to a URL ({inner!r})"
            problem = _check_external(base, target, inner, limits, seen)
            if problem:
                return problem
        seen_data = data
    else:
        seen_data = None
    if fragment and seen_data is not None and not resolve_ref(seen_data, "#" + fragment)[0]:
        return f"$ref {ref!r} points at nothing inside that file"
    return None


def _ref_cycles(doc: SourceDoc, local: dict[str, str]) -> list[Diagnostic]:
    """Find chains of local refs that only lead to more refs and come back (never a schema)."""
    out: list[Diagnostic] = []
    done: set[str] = set()
    for start in sorted(local):
        if start in done:
            continue
        chain: list[str] = []
        node = start
        while node in local and node not in chain and node not in done:
            chain.append(node)
            node = ref_pointer(local[node]) or ""
        if node in chain:
            cycle = chain[chain.index(node) :]
            out.append(
                doc.diag(
                    pointer_join(node, "$ref"),
                    REF_CYCLE,
                    "$ref cycle with no schema in between: " + " -> ".join(cycle + [node]),
                    hint="one of these refs must point at a real object",
                    severity=Severity.ERROR,
                )
            )
            done.update(cycle)
        done.update(chain)
    return out
