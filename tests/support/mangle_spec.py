"""Structural mutations of real OpenAPI descriptions (Stripe, DigitalOcean, Kubernetes, corpus
specs): what :mod:`support.mangle` does to a declaration, done to the description itself.

One call of :func:`spec_mutation` changes a parsed spec in place and says what it did:

- ``schema``: type confusion at a schema position (``type: 5``, ``properties: []``,
  ``items: "x"``, ``required: {}``, ``enum: 5``, ``allOf: {}``, a whole schema replaced by a
  hostile value);
- ``ref-cycle``: component schemas (or parameters, responses) that only refer to each other,
  ``allOf`` of itself;
- ``ref-odd``: a ``$ref`` to an odd target (``#``, ``#/paths``, a string, a response object where
  a schema goes, an escaped or percent-encoded pointer, a URL or a file);
- ``deep``: a schema nested 50 to 300 levels (``properties``, ``items``, ``allOf``);
- ``huge``: an enum of 1,000-20,000 values (mixed types sometimes), 3,000 properties, a long
  ``required`` list;
- ``duplicate``: a key written twice (JSON and flow YAML keep both);
- ``name``: an operationId, parameter, schema, property or tag renamed to a Python keyword, a
  dunder, code (``__import__('os').system(...)``), a path (``../../x``), unicode, empty or long
  text; a schema renamed everywhere its refs point;
- ``declaration``: an ``x-completeness`` of a wrong type (or with wrong-typed keys) on an
  operation of the spec itself.

:func:`spec_text_mutation` damages the written text instead: a BOM, invalid UTF-8, a lone
surrogate (escaped in JSON, raw bytes in either), and for YAML anchors and aliases, an alias bomb
and tags (``!!python/...``, ``!!binary``, ``!!timestamp``, ``!!set``, unknown tags), and YAML 1.1
scalars that read as other types (``2020-01-01``, ``yes``, ``0x1F``, ``.nan``).
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from support.mangle import TEXT_ATTACKS, _DupMarker, _short, hostile_values

__all__ = ["CANARY", "ODD_NAMES", "spec_mutation", "spec_text_mutation"]

CANARY = "xc-pwned-canary"
"""A file the hostile names try to create: it exists after a run iff spec text ran as code."""

ODD_NAMES = [
    "class",
    "None",
    "True",
    "self",
    "cls",
    "__init__",
    "__class__",
    "__dict__",
    "__builtins__",
    "_",
    "__",
    f"__import__('os').system('touch {CANARY}')",
    f"'); __import__('os').system('touch {CANARY}') #",
    f'"""; __import__("os").system("touch {CANARY}") #',
    f"{{{{ __import__('os').system('touch {CANARY}') }}}}",
    f"${{{CANARY}}}",
    "../../../evil",
    "..",
    ".",
    "/etc/passwd",
    "a/b",
    "a\\b",
    "con",
    "NUL",
    "Ünïcödé",
    "日本語",
    "ﬁle",
    "𝔘𝔫𝔦",
    "a\u200bb",
    "a\u202eb",
    "a\nb",
    "a\x00b",
    "",
    " ",
    "1abc",
    "-",
    "a.b",
    "a-b",
    "x" * 300,
    "$ref",
    "%s%n",
    "print",
    "type",
    "list",
    "BaseModel",
    "Field",
    "httpx",
    "typing",
    "Any",
    "os",
    "models",
    "client",
]
"""Names that must stay names: keywords, builtins, dunders, code, paths, unicode, empty."""

SCHEMA_KEYS = [
    "type",
    "properties",
    "items",
    "required",
    "enum",
    "allOf",
    "oneOf",
    "anyOf",
    "additionalProperties",
    "nullable",
    "format",
    "pattern",
    "minimum",
    "maxItems",
    "discriminator",
    "default",
    "$ref",
    "description",
    "title",
    "example",
    "readOnly",
    "const",
    "not",
]
CONFUSED = [
    5,
    -1,
    None,
    True,
    1.5,
    "",
    "x",
    "object",
    "array",
    ["string", "null"],
    ["object", 5],
    [],
    {},
    [5],
    [None],
    [{}],
    {"type": 5},
    {"a": {"type": "nope"}},
    {"$ref": "#"},
    "(a+)+$",
    "[",
    "\x1b[2J\x00",
    10**40,
]
ODD_REFS = [
    "#",
    "#/",
    "#/paths",
    "#/info",
    "#/info/title",
    "#/openapi",
    "#/components",
    "#/components/schemas",
    "#/components/schemas/",
    "#/components/schemas/%41",
    "#/components/schemas/a~2b",
    "#/components/schemas/a b",
    "#/components/schemas/Ünïcödé",
    "#/components/schemas/../schemas",
    "#//",
    "#x",
    "#/x-completeness-defaults",
    "#/components/schemas/A/enum/99999999999999999999",
    "",
    " ",
    "schemas.yaml",
    "./missing.json#/x",
    "file:///etc/passwd",
    "http://127.0.0.1:9/x.json",
    "data:application/json,{}",
    "C:\\x.json",
    "\x00",
    5,
    None,
    [],
]


def _walk(node: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    yield path, node
    if isinstance(node, dict):
        for k, v in list(node.items()):
            yield from _walk(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _walk(v, (*path, i))


def _pointer(path: tuple) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def _at(root: Any, path: tuple) -> Any:
    for p in path:
        root = root[p]
    return root


SCHEMA_PARENTS = {"schema", "items", "additionalProperties", "not"}
SCHEMA_LISTS = {"allOf", "oneOf", "anyOf"}


def _is_schema_position(path: tuple) -> bool:
    if not path:
        return False
    last, parent = path[-1], path[-2] if len(path) > 1 else None
    if last in SCHEMA_PARENTS and parent not in ("properties",):
        return True
    if parent == "properties" and len(path) > 2:
        return True
    if isinstance(last, int) and parent in SCHEMA_LISTS:
        return True
    return len(path) == 3 and path[:2] == ("components", "schemas")


def _schemas(spec: Any, limit: int = 20000) -> list[tuple]:
    out = []
    for path, node in _walk(spec):
        if isinstance(node, dict) and _is_schema_position(path):
            out.append(path)
            if len(out) >= limit:
                break
    return out


def _operations(spec: Any) -> list[tuple]:
    paths = spec.get("paths") if isinstance(spec, dict) else None
    out = []
    for p, item in (paths or {}).items() if isinstance(paths, dict) else ():
        for m, op in item.items() if isinstance(item, dict) else ():
            if m in ("get", "put", "post", "delete", "patch") and isinstance(op, dict):
                out.append(("paths", p, m))
    return out


def _near_declarations(spec: Any, rng: random.Random, paths: list[tuple]) -> list[tuple]:
    """Schemas and operations a declaration reaches (list-like GETs) get picked more often:
    that is where the generator reads the most."""
    gets = [p for p in paths if "get" in p[:3] and len(p) > 3]
    return gets if gets and rng.random() < 0.6 else paths


def _pick_schema(spec: Any, rng: random.Random) -> tuple | None:
    """A schema position, near a declaration more often than not (None: the spec has none)."""
    paths = _near_declarations(spec, rng, _schemas(spec))
    return rng.choice(paths) if paths else None


def _mut_schema(spec: Any, rng: random.Random) -> str:
    path = _pick_schema(spec, rng)
    if path is None:
        return "schema: none"
    node = _at(spec, path)
    if rng.random() < 0.2:
        value = copy.deepcopy(rng.choice(CONFUSED))
        _at(spec, path[:-1])[path[-1]] = value
        return f"schema {_pointer(path)} = {_short(value)}"
    key = rng.choice(SCHEMA_KEYS)
    value = copy.deepcopy(rng.choice(CONFUSED))
    node[key] = value
    return f"schema {_pointer(path)}/{key} = {_short(value)}"


def _components(spec: Any, section: str) -> dict[str, Any]:
    comps = spec.get("components") if isinstance(spec, dict) else None
    found = comps.get(section) if isinstance(comps, dict) else None
    return found if isinstance(found, dict) else {}


def _mut_ref_cycle(spec: Any, rng: random.Random) -> str:
    section = rng.choice(["schemas", "schemas", "schemas", "parameters", "responses"])
    table = _components(spec, section)
    names = sorted(table)
    if not names:
        return f"ref-cycle: no {section}"
    ring = rng.sample(names, min(len(names), rng.choice([1, 2, 3])))
    how = rng.choice(["ring", "allOf", "items"]) if section == "schemas" else "ring"
    for a, b in zip(ring, ring[1:] + ring[:1], strict=True):
        ref = {"$ref": f"#/components/{section}/{b}"}
        if how == "ring":
            table[a] = ref
        elif how == "allOf":
            table[a] = {"allOf": [ref, {"type": "object"}]}
        else:
            table[a] = {"type": "array", "items": ref}
    return f"ref-cycle {how} {section}: {ring}"


def _mut_ref_odd(spec: Any, rng: random.Random) -> str:
    refs = [p for p, n in _walk(spec) if isinstance(n, dict) and "$ref" in n]
    target = rng.choice(ODD_REFS)
    if isinstance(target, str) and rng.random() < 0.3:  # a schema where a response goes, etc.
        others = [f"#/components/{s}/{n}" for s in ("responses", "parameters", "examples",
                                                   "securitySchemes", "headers")
                  for n in _components(spec, s)]  # fmt: skip
        target = rng.choice(others) if others else target
    if refs:
        path = rng.choice(_near_declarations(spec, rng, refs))
        _at(spec, path)["$ref"] = copy.deepcopy(target)
        return f"ref-odd {_pointer(path)} -> {target!r}"[:200]
    paths = _schemas(spec)
    if not paths:
        return "ref-odd: none"
    path = rng.choice(paths)
    _at(spec, path[:-1])[path[-1]] = {"$ref": target}
    return f"ref-odd {_pointer(path)} -> {target!r}"[:200]


def _mut_deep(spec: Any, rng: random.Random) -> str:
    path = _pick_schema(spec, rng)
    if path is None:
        return "deep: none"
    depth = rng.choice([50, 120, 250, 300])
    how = rng.choice(["properties", "items", "allOf"])
    node: Any = {"type": "string"}
    for _ in range(depth):
        if how == "properties":
            node = {"type": "object", "properties": {"d": node}}
        elif how == "items":
            node = {"type": "array", "items": node}
        else:
            node = {"allOf": [node]}
    _at(spec, path[:-1])[path[-1]] = node
    return f"deep {_pointer(path)} {how} x{depth}"


def _mut_huge(spec: Any, rng: random.Random) -> str:
    path = _pick_schema(spec, rng)
    if path is None:
        return "huge: none"
    node = _at(spec, path)
    n = rng.choice([1000, 5000, 20000])
    how = rng.choice(["enum", "enum-mixed", "properties", "required"])
    if how == "enum":
        node.clear()
        node.update(type="string", enum=[f"v{i}" for i in range(n)])
    elif how == "enum-mixed":
        node.clear()
        node["enum"] = [rng.choice([i, f"v{i}", None, True, 1.5, [i], {"k": i}]) for i in range(n)]
    elif how == "properties":
        n = min(n, 3000)
        node.clear()
        node.update(type="object", properties={f"p{i}": {"type": "integer"} for i in range(n)})
    else:
        node["required"] = [f"r{i}" for i in range(n)]
    return f"huge {_pointer(path)} {how} x{n}"


def _mut_duplicate(spec: Any, rng: random.Random) -> str:
    maps = [
        p
        for p, n in _walk(spec)
        if p and isinstance(n, (dict, list, str, int)) and isinstance(_at(spec, p[:-1]), dict)
    ]
    path = rng.choice(_near_declarations(spec, rng, maps))
    parent = _at(spec, path[:-1])
    value = rng.choice([parent[path[-1]], *CONFUSED[:10]])
    parent[path[-1]] = _DupMarker(parent[path[-1]], copy.deepcopy(value))
    return f"duplicate {_pointer(path)} then {_short(value)}"


def _rename_key(table: dict, old: Any, new: Any) -> None:
    items = list(table.items())
    table.clear()
    for k, v in items:
        table[new if k == old else k] = v


def _rewrite_refs(spec: Any, old: str, new: str) -> None:
    for _path, node in _walk(spec):
        if isinstance(node, dict) and node.get("$ref") == old:
            node["$ref"] = new


def _mut_name(spec: Any, rng: random.Random) -> str:
    name = rng.choice(ODD_NAMES)
    what = rng.choice(["operationId", "operationId", "parameter", "schema", "property", "tag"])
    ops = _operations(spec)
    if what == "schema" and _components(spec, "schemas"):
        table = _components(spec, "schemas")
        old = rng.choice(sorted(table))
        if name in table:
            return f"name: schema {name!r} exists"
        _rename_key(table, old, name)
        escaped = name.replace("~", "~0").replace("/", "~1")
        _rewrite_refs(spec, f"#/components/schemas/{old}", f"#/components/schemas/{escaped}")
        return f"name: schema {old!r} -> {name!r}"
    if what == "property":
        props = [
            p for p, n in _walk(spec)
            if p and p[-1] == "properties" and isinstance(n, dict) and n
        ]  # fmt: skip
        if props:
            path = rng.choice(_near_declarations(spec, rng, props))
            table = _at(spec, path)
            old = rng.choice(sorted(map(str, table)))
            if name not in table:
                _rename_key(table, old, name)
            return f"name: property {_pointer(path)}/{old} -> {name!r}"
    if not ops:
        return "name: no operations"
    op_path = rng.choice(ops)
    op = _at(spec, op_path)
    if what == "parameter" and isinstance(op.get("parameters"), list) and op["parameters"]:
        i = rng.randrange(len(op["parameters"]))
        param = op["parameters"][i]
        if isinstance(param, dict) and "name" in param:
            param["name"] = name
            return f"name: {_pointer(op_path)}/parameters/{i}/name = {name!r}"
    if what == "tag":
        op["tags"] = [name]
        return f"name: {_pointer(op_path)}/tags = [{name!r}]"
    op["operationId"] = name
    return f"name: {_pointer(op_path)}/operationId = {name!r}"


def _mut_declaration(spec: Any, rng: random.Random) -> str:
    ops = _operations(spec)
    if not ops:
        return "declaration: no operations"
    op = _at(spec, rng.choice(ops))
    if rng.random() < 0.4:
        value = copy.deepcopy(rng.choice(hostile_values()[:-1]))
    else:
        value = {"kind": rng.choice(["collection", "search", 5, None, ["collection"]])}
        for key in rng.sample(["items", "id", "scope", "pagination", "reasons", "mode",
                               "warnings", "evidence", "limits"], rng.randint(1, 4)):  # fmt: skip
            value[key] = copy.deepcopy(rng.choice(hostile_values()[:-1]))
    op["x-completeness"] = value
    return f"declaration x-completeness = {_short(value)}"


MUTATIONS = {
    "schema": (_mut_schema, 4),
    "ref-cycle": (_mut_ref_cycle, 2),
    "ref-odd": (_mut_ref_odd, 3),
    "deep": (_mut_deep, 1),
    "huge": (_mut_huge, 1),
    "duplicate": (_mut_duplicate, 1),
    "name": (_mut_name, 6),
    "declaration": (_mut_declaration, 2),
}


def spec_mutation(spec: Any, rng: random.Random) -> str:
    """Mutate ``spec`` (a parsed OpenAPI description) in place, once; returns what was done."""
    names = list(MUTATIONS)
    name = rng.choices(names, weights=[MUTATIONS[n][1] for n in names])[0]
    return MUTATIONS[name][0](spec, rng)


# ---------------------------------------------------------------------------------------------
# text-level damage of a written spec

YAML_TAGS = [
    "!!python/object/apply:os.system ['touch " + CANARY + "']",
    "!!python/name:os.system",
    "!!binary aGVsbG8=",
    "!!timestamp 2001-12-14t21:59:43.10-05:00",
    "!!set {a, b}",
    "!!omap [a: 1, b: 2]",
    "!!float nan",
    "!!int 0x1F",
    "!!str 5",
    "!!null ''",
    "!custom {a: 1}",
    "!<tag:example.com,2000:x> 5",
    "2020-01-01",
    "yes",
    "off",
    "0x1F",
    "0o17",
    ".nan",
    "-.inf",
    "~",
    "1_000",
    "12:30:45",
]
"""YAML values that are not what they look like (or that a full loader would run)."""


def spec_text_mutation(path: Path, rng: random.Random) -> str:
    """Damage the text of the written spec ``path``; returns what was done."""
    data = path.read_bytes()
    is_yaml = data.lstrip()[:1] not in (b"{", b"[")
    hows = ["BOM", "bad UTF-8", "surrogate bytes", "surrogate escape"]
    if is_yaml:
        hows += ["tag", "tag", "tag", "anchors", "alias bomb", "key tag"]
    how = rng.choice(hows)
    if how == "BOM":
        path.write_bytes(TEXT_ATTACKS["BOM"] + data)
    elif how in ("bad UTF-8", "surrogate bytes"):
        bad = b"\xff\xfe\xc3(" if how == "bad UTF-8" else b"\xed\xa0\x80"
        at = _string_spot(data, rng)
        path.write_bytes(data[:at] + bad + data[at:])
    elif how == "surrogate escape":  # JSON "\ud800" (and YAML double-quoted) is a lone surrogate
        text = data.decode("utf-8", "replace")
        keys = r'"(description|summary|title|operationId|name)": ?"|(description|summary|name): "'
        spots = [m.end() for m in re.finditer(keys, text)]
        if not spots:
            return "surrogate escape: no spot"
        at = rng.choice(spots)
        path.write_text(text[:at] + "\\ud800" + text[at:], "utf-8")
    elif how in ("tag", "key tag"):
        lines = data.decode("utf-8", "replace").split("\n")
        spots = [i for i, line in enumerate(lines) if re.match(r"^\s*[^\s#:-][^:]*: \S", line)]
        if not spots:
            return "tag: no spot"
        i = rng.choice(spots)
        tag = rng.choice(YAML_TAGS)
        key, _, _value = lines[i].partition(": ")
        if how == "key tag":  # a key that is not a string once read
            indent = key[: len(key) - len(key.lstrip())]
            lines[i] = f"{indent}{tag.split(' ')[0] if tag.startswith('!') else tag}: {_value}"
        else:
            lines[i] = f"{key}: {tag}"
        path.write_text("\n".join(lines), "utf-8")
        return f"{path.name}: {how} {lines[i].strip()[:120]!r} at line {i + 1}"
    elif how == "anchors":  # a mapping anchored and aliased elsewhere (shared, maybe cyclic)
        lines = data.decode("utf-8", "replace").split("\n")
        spots = [i for i, line in enumerate(lines) if re.match(r"^\s*[^\s#:-][^:]*:\s*$", line)]
        if len(spots) < 2:
            return "anchors: no spot"
        a, b = sorted(rng.sample(spots, 2))
        lines[a] = lines[a].rstrip() + " &xa"
        key = lines[b].split(":")[0]
        if rng.random() < 0.5:  # the alias replaces a later block's value (its lines stay)
            lines[b] = f"{key}: *xa"
            end = b + 1
            indent = len(lines[b]) - len(lines[b].lstrip())
            while end < len(lines) and (
                not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) > indent
            ):
                end += 1
            del lines[b + 1 : end]
        else:  # a merge key
            indent = " " * (len(lines[b]) - len(lines[b].lstrip()) + 2)
            lines.insert(b + 1, f"{indent}<<: *xa")
        path.write_text("\n".join(lines), "utf-8")
        return f"{path.name}: anchors at lines {a + 1}, {b + 1}"
    else:  # alias bomb
        levels = [b"a0: &a0 [x, x, x, x, x, x, x, x, x]"]
        for i in range(1, 9):
            refs = ", ".join([f"*a{i - 1}"] * 9).encode()
            levels.append(b"a%d: &a%d [%s]" % (i, i, refs))
        path.write_bytes(b"x-bomb:\n" + b"\n".join(b"  " + line for line in levels) + b"\n" + data)
    return f"{path.name}: {how}"


def _string_spot(data: bytes, rng: random.Random) -> int:
    """A byte offset inside a string value (after a ``description`` key), else anywhere."""
    spots = [m.end() for m in re.finditer(rb'(description"?: ?"?)', data[:2_000_000])]
    return rng.choice(spots) if spots else rng.randint(0, len(data))
