"""Hostile mutations of the bundled examples (specs and overlays) and the runs that judge them.

Shared by the bounded property in ``tests/security/test_mangled_generate.py`` (``make test``) and
the campaign driver ``tests/support/fuzz_generate.py`` (run by hand, for tens of minutes).

A *case* is one bundled example copied into a folder: a spec and its overlays. A *mutation*
changes one node of the spec or of an overlay: a value replaced by a value of another type
(``5``, ``-1``, ``None``, ``""``, a 10,000-character string, nested lists and dicts, a
``$ref`` to nowhere or to itself), a key deleted, renamed to a non-string key (YAML only), or
written twice (duplicate keys, in YAML and JSON). :func:`outcome` runs ``generate`` in-process
and reduces it to what must not depend on the cache or on a second process: the exit code, the
error codes and the files.
"""

from __future__ import annotations

import copy
import json
import os
import random
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from support.paths import EXAMPLES

__all__ = [
    "CASES",
    "Case",
    "Mutation",
    "Outcome",
    "cache_folder",
    "hostile_values",
    "jobs",
    "load_case",
    "mutate",
    "outcome",
    "random_mutation",
    "text_mutation",
    "write_case",
]

CASES: dict[str, tuple[str, tuple[str, ...]]] = {
    # name -> (spec, overlays), relative to examples/
    "link_header_search": ("link_header_search/base.yaml", ("link_header_search/overlay.yaml",)),
    "service_accounts": ("service_accounts/base.yaml", ("service_accounts/overlay.yaml",)),
    "github": ("github/excerpt.yaml", ("github/overlay.yaml",)),
    "service_accounts_inline": ("service_accounts/openapi.yaml", ()),
    "link_header_inline": ("link_header_search/openapi.yaml", ()),
    # a second overlay: x-completeness-defaults merged into every declaration
    "link_header_defaults": (
        "link_header_search/base.yaml",
        ("link_header_search/overlay.yaml", "defaults.overlay.yaml"),
    ),
}

SYNTHETIC: dict[str, Any] = {
    "defaults.overlay.yaml": {
        "overlay": "1.0.0",
        "info": {"title": "defaults for every listing", "version": "1"},
        "actions": [
            {
                "target": "$",
                "update": {
                    "x-completeness-defaults": {
                        "scope": {"visibility": "what the token can see", "snapshot": "none"},
                        "reasons": [
                            {"code": "RATE_LIMITED", "when": {"equals": ["$statusCode", 429]}}
                        ],
                    }
                },
            }
        ],
    }
}
"""Overlays no example folder holds, by the name :data:`CASES` gives them."""


@dataclass
class Case:
    """One example as data: the spec and each overlay (parsed), by file name."""

    name: str
    spec: Any
    overlays: list[Any]
    spec_name: str
    overlay_names: list[str]


def load_case(name: str) -> Case:
    spec, overlays = CASES[name]
    return Case(
        name,
        yaml.safe_load((EXAMPLES / spec).read_text("utf-8")),
        [
            copy.deepcopy(SYNTHETIC[o])
            if o in SYNTHETIC
            else yaml.safe_load((EXAMPLES / o).read_text("utf-8"))
            for o in overlays
        ],
        Path(spec).name,
        [Path(o).name for o in overlays],
    )


# ---------------------------------------------------------------------------------------------
# values and mutations


class Dup:
    """A mapping written with one key twice: ``first`` pairs, then ``key: value`` again."""

    def __init__(self, pairs: dict[Any, Any], key: Any, value: Any) -> None:
        self.pairs, self.key, self.value = pairs, key, value


HOSTILE_STRINGS = [
    "class",
    "__init__",
    "import os",
    "a-b c",
    "Ünïcödé ✓",
    "'''\"\"\"",
    "\n# comment\n",
    "{{ x }}{% raw %}",
    "${{ secrets.X }}",
    "(a+)+$",
    "[",
    "$..*",
    "$.paths.*.*",
    "$..[?@.x]",
    "#/components/schemas/../../x",
    "PT-1S",
    "9999-99-99",
    "../../etc/passwd",
]
"""Strings that must stay text: keywords, quotes, template and workflow syntax, regexes,
JSONPath that matches everything, paths out of the folder, malformed durations and dates."""


def hostile_values(pointer: str = "") -> list[Any]:
    """Values of every type that a field of a declaration or a spec may be confused with."""
    rng_strings = HOSTILE_STRINGS
    deep: Any = "bottom"
    for i in range(300):  # deeper than the loader's depth cap (256)
        deep = [deep] if i % 2 else {"d": deep}
    return [
        5,
        -1,
        0,
        None,
        True,
        False,
        1.5,
        10**40,
        "",
        "x",
        "x" * 10000,
        "\x1b[2J\r\x00",
        *rng_strings,
        "MORE_PAGES_AVAILABLE",
        "$response.body#/nowhere",
        "$response.link.next",
        "/id",
        "$request.body#/ids",
        [],
        {},
        [5],
        [None],
        [[]],
        [{}],
        {"code": 5},
        {"code": "MORE_PAGES_AVAILABLE", "when": 5},
        {"code": None, "limit": "x"},
        {"a": {"b": {"c": [1, {"d": None}]}}},
        [[[[["x"]]]]],
        {"$ref": "#/components/schemas/Nowhere"},
        {"$ref": "#" + pointer},  # to itself
        {"$ref": 5},
        {"$ref": "other.yaml#/x"},
        {"$ref": "http://127.0.0.1:9/x"},
        {"$ref": "#/"},
        {"$ref": "#/paths"},
        deep,
    ]


KEYS = [5, None, True, 1.5, "", "x-completeness", "$ref", "code", "kind"]
"""Keys a mapping is given: non-string ones exist only in YAML."""


@dataclass
class Mutation:
    """What one mutation did, to say in a finding (``where``: file and JSON pointer)."""

    file: str
    pointer: str
    how: str
    value: str = ""

    def __str__(self) -> str:
        return f"{self.file}#{self.pointer} {self.how} {self.value}".rstrip()


def _escape(part: Any) -> str:
    return str(part).replace("~", "~0").replace("/", "~1")


def _nodes(node: Any, path: tuple = ()) -> Iterator[tuple]:
    yield path
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _nodes(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _nodes(v, (*path, i))


def _weight(path: tuple) -> int:
    """Declarations and the overlay actions are where the edit path differs: mutate them most."""
    text = "/".join(map(str, path))
    if "x-completeness" in text:
        return 8
    if path and path[0] == "actions":
        return 4
    if "schema" in text or "parameters" in text or "responses" in text:
        return 2
    return 1


def _resolve(root: Any, path: tuple) -> Any:
    node = root
    for part in path:
        node = node[part]
    return node


def mutate(
    case: Case,
    rng: random.Random,
    count: int = 1,
    *,
    overlays_only: bool = False,
    declarations: bool = False,
) -> tuple[Case, list[Mutation]]:
    """A copy of ``case`` with ``count`` random mutations, and what each did."""
    out = copy.deepcopy(case)
    done = []
    for _ in range(count):
        done.append(
            random_mutation(out, rng, overlays_only=overlays_only, declarations=declarations)
        )
    return out, done


def _near_declaration(path: tuple) -> bool:
    """A declaration's (or the defaults block's) own keys and their direct children: where
    a type confusion reaches the most code (the merge, the schema check, the checker child)."""
    keys = [i for i, p in enumerate(path) if p in ("x-completeness", "x-completeness-defaults")]
    return bool(keys) and 1 <= len(path) - keys[-1] <= 3


def random_mutation(
    case: Case, rng: random.Random, *, overlays_only: bool = False, declarations: bool = False
) -> Mutation:
    """Mutate ``case`` in place, once (``overlays_only``: an overlay, never the spec;
    ``declarations``: a declaration's keys and their children when the file has any)."""
    docs = [("spec", case.spec_name, None)] + [
        ("overlay", name, i) for i, name in enumerate(case.overlay_names)
    ]
    # an overlay most of the time when there is one (the edit path is an overlay edit)
    overlay = len(docs) > 1 and (overlays_only or rng.random() < 0.6)
    _kind, fname, index = rng.choice(docs[1:]) if overlay else docs[0]
    root = case.spec if index is None else case.overlays[index]
    paths = [p for p in _nodes(root) if p]
    near = [p for p in paths if _near_declaration(p)] if declarations else []
    paths = near or paths
    path = rng.choices(paths, weights=[_weight(p) for p in paths])[0]
    parent = _resolve(root, path[:-1])
    last = path[-1]
    pointer = "".join("/" + _escape(p) for p in path)
    ops = ["value"] * 5 + ["transplant"] * 3 + ["delete"] * 2 + ["duplicate", "rename"]
    op = rng.choice(ops)
    if isinstance(parent, list):
        if op == "delete":
            del parent[last]
            return Mutation(fname, pointer, "deleted")
        op = "value"
    if op == "transplant":  # a value from elsewhere in the same file: often still valid
        other = rng.choice(paths)
        value = copy.deepcopy(_resolve(root, other))
        if path[: len(other)] != other:  # never a node into itself
            parent[last] = value
            return Mutation(
                fname, pointer, "= the value at", "".join("/" + _escape(p) for p in other)
            )
        op = "value"
    if op == "value":
        value = rng.choice(hostile_values(pointer))
        parent[last] = copy.deepcopy(value)
        return Mutation(fname, pointer, "=", _short(value))
    if op == "delete":
        del parent[last]
        return Mutation(fname, pointer, "deleted")
    if op == "duplicate":
        value = rng.choice([parent[last], *hostile_values(pointer)[:20]])
        parent[last] = _DupMarker(parent[last], copy.deepcopy(value))
        return Mutation(fname, pointer, "written twice, then", _short(value))
    key = rng.choice(KEYS)
    value = parent.pop(last)
    parent[key] = value
    return Mutation(fname, pointer, "key renamed to", repr(key))


class _DupMarker:
    """In a mapping: this key is written with ``first``, then again with ``second``."""

    def __init__(self, first: Any, second: Any) -> None:
        self.first, self.second = first, second


def _short(value: Any) -> str:
    text = json.dumps(value, default=repr)
    return text if len(text) <= 60 else text[:57] + "..."


# ---------------------------------------------------------------------------------------------
# writing: block YAML, or flow text (JSON, or YAML with duplicate / non-string keys)


def _has(node: Any, what: Any) -> bool:
    if isinstance(node, _DupMarker):
        return True if what is _DupMarker else _has(node.first, what) or _has(node.second, what)
    if isinstance(node, dict):
        if what is str and any(not isinstance(k, str) for k in node):
            return True
        return any(_has(v, what) for v in node.values())
    if isinstance(node, list):
        return any(_has(v, what) for v in node)
    return False


def _flow(node: Any, yaml_keys: bool) -> str:
    """JSON text, with duplicate keys as written and (``yaml_keys``) YAML scalars as keys."""
    if isinstance(node, dict):
        parts = []
        for k, v in node.items():
            if isinstance(k, str) or not yaml_keys:
                key = json.dumps(str(k) if not isinstance(k, str) else k)
            else:
                key = yaml.safe_dump(k, default_flow_style=True).strip().removesuffix("...").strip()
            if isinstance(v, _DupMarker):
                parts.append(f"{key}: {_flow(v.first, yaml_keys)}")
                parts.append(f"{key}: {_flow(v.second, yaml_keys)}")
            else:
                parts.append(f"{key}: {_flow(v, yaml_keys)}")
        return "{" + ", ".join(parts) + "}"
    if isinstance(node, list):
        return "[" + ", ".join(_flow(v, yaml_keys) for v in node) + "]"
    if isinstance(node, _DupMarker):  # in a list: the second value wins
        return _flow(node.second, yaml_keys)
    if isinstance(node, float) and node != node:
        return "0"
    return json.dumps(node)


def _text(data: Any, as_json: bool) -> str:
    if as_json:
        return _flow(data, yaml_keys=False) + "\n"
    if _has(data, _DupMarker) or _has(data, str):
        return "# flow YAML\n" + _flow(data, yaml_keys=True) + "\n"
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


def write_case(case: Case, folder: Path, *, as_json: bool = False) -> tuple[Path, list[Path]]:
    """Write ``case`` into ``folder`` (overwriting): (spec path, overlay paths). A spec written
    as JSON keeps its file name (the loader reads text starting with ``{`` as JSON)."""
    folder.mkdir(parents=True, exist_ok=True)
    spec = folder / case.spec_name
    spec.write_text(_text(case.spec, as_json), "utf-8")
    overlays = []
    for name, data in zip(case.overlay_names, case.overlays, strict=True):
        path = folder / name
        path.write_text(_text(data, as_json), "utf-8")
        overlays.append(path)
    return spec, overlays


# ---------------------------------------------------------------------------------------------
# running


@dataclass(frozen=True)
class Outcome:
    """What a generate run must give whatever the cache holds and however many processes ran:
    the exit code, the error codes (refusals) and the files."""

    exit_code: int
    errors: tuple[tuple[str, str], ...]
    files: dict[str, str] = field(compare=True, hash=False)
    warnings: tuple[tuple[str, str], ...] = field(default=(), compare=False)
    cached: bool = field(default=False, compare=False)
    astray: bool = field(default=False, compare=False)
    """The run was made again without the cache: a cache entry led it astray (XC607)."""


@contextmanager
def cache_folder(folder: Path | None) -> Iterator[None]:
    """Runs in this block use ``folder`` as the generate cache (None: no cache at all)."""
    saved = {k: os.environ.get(k) for k in ("XC_CACHE_DIR", "XC_NO_CACHE")}
    try:
        if folder is None:
            os.environ["XC_NO_CACHE"] = "1"
        else:
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            os.environ["XC_CACHE_DIR"] = str(folder)
            os.environ.pop("XC_NO_CACHE", None)
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@contextmanager
def jobs(two: bool) -> Iterator[None]:
    """``two``: the two-process paths forced on (a core counted idle, the side emitters and the
    models' early child whatever the spec's size); else ``XC_JOBS=1``."""
    from xcompleteness.emit import _generate

    saved_env = os.environ.get("XC_JOBS")
    saved = (_generate._idle_core, _generate.SIDE_MIN_OPERATIONS, _generate.PREPARE_MIN_BYTES)
    try:
        if two:
            os.environ.pop("XC_JOBS", None)
            _generate._idle_core = lambda: True
            _generate.SIDE_MIN_OPERATIONS = 0
            _generate.PREPARE_MIN_BYTES = 0
        else:
            os.environ["XC_JOBS"] = "1"
        yield
    finally:
        _generate._idle_core, _generate.SIDE_MIN_OPERATIONS, _generate.PREPARE_MIN_BYTES = saved
        if saved_env is None:
            os.environ.pop("XC_JOBS", None)
        else:
            os.environ["XC_JOBS"] = saved_env


def outcome(
    spec: Path, overlays: list[Path], cache: Path | None, *, two: bool, tests: bool = False
) -> Outcome:
    """``api.generate`` in this process (no OUT: the files in memory; ``tests``: with the
    contract test suite). Raises only what the API must never raise (a bug); bad input is an
    exit code and diagnostics."""
    from xcompleteness import api

    with cache_folder(cache), jobs(two):
        result = api.generate(
            spec, None, overlays, package="mangled", cache=cache is not None, tests=tests
        )
    errors = tuple(sorted({(d.code, d.pointer) for d in result.diagnostics if _error(d)}))
    warnings = tuple(sorted({(d.code, d.pointer) for d in result.diagnostics if not _error(d)}))
    files = {str(k): v for k, v in result.files.items()}
    astray = any(d.code == "XC607" and "astray" in d.message for d in result.diagnostics)
    return Outcome(int(result.exit_code), errors, files, warnings, result.cached, astray)


def _error(d: Any) -> bool:
    return str(getattr(d.severity, "value", d.severity)) == "error"


def copy_cache(src: Path, dst: Path) -> Path:
    """A copy of a warm cache folder (modes kept: the copy is as private as the original)."""
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(src, dst)
    return dst


def _mutated_json(value: Any, rng: random.Random) -> Any:
    """``value`` with one node replaced by a hostile value or another node of it."""
    paths = list(_nodes(value))
    path = rng.choice(paths)
    choice = rng.random()
    if choice < 0.5:
        new = copy.deepcopy(rng.choice(hostile_values()[:-1]))  # the deep one: too slow to JSON
    else:
        new = copy.deepcopy(_resolve(value, rng.choice(paths)))
    if not path:
        return new
    parent = _resolve(value, path[:-1])
    if isinstance(parent, dict) and rng.random() < 0.2:
        del parent[path[-1]]
    else:
        parent[path[-1]] = new
    return value


def forge_entry(entry: Path, rng: random.Random) -> str:
    """Rewrite a cache entry as someone with the user's own account could: its header intact
    (kind, format, key) and its checksum right, its JSON payload changed (type confusion,
    another part of itself). Returns what was done, or "" when the entry is not JSON inside."""
    import hashlib
    import zlib

    blob = entry.read_bytes()
    head, sep, body = blob.partition(b"\n")
    try:
        header = json.loads(head)
        raw = zlib.decompress(body)
    except (ValueError, zlib.error):
        return ""
    if not isinstance(header, dict):
        return ""
    if entry.suffix == ".xcgen":  # one meta JSON line, then the files' bytes
        meta, nl, contents = raw.partition(b"\n")
        value = _mutated_json(json.loads(meta), rng)
        raw = json.dumps(value).encode() + nl + contents
    else:
        try:
            value = json.loads(raw)
        except ValueError:
            return ""
        raw = json.dumps(_mutated_json(value, rng)).encode()
    body = zlib.compress(raw, 1)
    header.update(size=len(body), sha256=hashlib.sha256(body).hexdigest())
    entry.write_bytes(json.dumps(header, sort_keys=True).encode() + b"\n" + body)
    return f"forged {entry.suffix}: {_short(value)}"


TEXT_ATTACKS: dict[str, bytes] = {
    "python tag": b"!!python/object/apply:os.system ['true']",
    "unknown tag": b"!custom {a: 1}",
    "alias bomb": b"&a [x, x, x, x, x, x, x, x, x]",
    "NUL": b"\x00",
    "bad UTF-8": b"\xff\xfe\xc3(",
    "BOM": b"\xef\xbb\xbf",
    "tab": b"\t",
    "unclosed": b'{["',
    "long number": b"1" * 5000,
    "merge key": b"<<: {kind: collection}",
}


def text_mutation(path: Path, rng: random.Random) -> str:
    """Damage the text of ``path`` (a byte-level attack at a random place, or a cut); returns
    what was done."""
    data = path.read_bytes()
    at = rng.randint(0, len(data))
    how = rng.choice([*TEXT_ATTACKS, "cut", "bytes"])
    if how == "cut":
        path.write_bytes(data[:at])
    elif how == "bytes":
        path.write_bytes(data[:at] + bytes(rng.randrange(256) for _ in range(8)) + data[at:])
    elif how == "alias bomb":  # a billion laughs in one key: each level nine times the last
        levels = [b"a0: &a0 [x, x, x, x, x, x, x, x, x]"]
        for i in range(1, 9):
            refs = ", ".join([f"*a{i - 1}"] * 9).encode()
            levels.append(b"a%d: &a%d [%s]" % (i, i, refs))
        path.write_bytes(b"x-bomb:\n" + b"\n".join(b"  " + line for line in levels) + b"\n" + data)
    elif how == "BOM":
        path.write_bytes(TEXT_ATTACKS["BOM"] + data)
    else:
        path.write_bytes(data[:at] + TEXT_ATTACKS[how] + data[at:])
    return f"{path.name}: text {how} at byte {at}"
