"""Renders the code tables of docs/vocabulary.md from spec_ext/codes.json (and the vocabulary
diagnostics from vocabulary.CODES), so the docs can be checked against the data."""

from __future__ import annotations

import re
from typing import Any

from xcompleteness.declare._vocabulary import CODES as DIAGNOSTIC_CODES

SECTIONS = ("reasons", "continuations", "warnings", "field_omissions", "decisions", "errors")


def _fields(schema: dict[str, Any]) -> str:
    props = schema.get("properties", {})
    required = set(schema.get("required", []))
    out = []
    for name, spec in props.items():
        if name == "kind":
            continue
        kind = spec.get("type", "")
        kind = kind if isinstance(kind, str) else "/".join(kind)
        out.append(f"`{name}`" + ("" if name in required else "?") + f" ({kind})")
    return ", ".join(out) or "—"


def render_tables(codes: dict[str, Any]) -> dict[str, str]:
    """Section name -> Markdown table."""
    t: dict[str, list[str]] = {}
    t["reasons"] = [
        "| code | origin | default continuation | details | meaning |",
        "|---|---|---|---|---|",
    ]
    for code, e in codes["reasons"].items():
        t["reasons"].append(
            f"| `{code}` | {e['origin']} | `{e['continuation']}` | {_fields(e['details'])} "
            f"| {e['description']} |"
        )
    t["continuations"] = ["| kind | fields | meaning |", "|---|---|---|"]
    for kind, e in codes["continuations"].items():
        t["continuations"].append(f"| `{kind}` | {_fields(e['fields'])} | {e['description']} |")
    t["warnings"] = ["| code | origin | details | meaning |", "|---|---|---|---|"]
    for code, e in codes["warnings"].items():
        t["warnings"].append(
            f"| `{code}` | {e['origin']} | {_fields(e['details'])} | {e['description']} |"
        )
    for section, head in (("field_omissions", "reason"), ("decisions", "decision")):
        t[section] = [f"| {head} | meaning |", "|---|---|"]
        for name, e in codes[section].items():
            t[section].append(f"| `{name}` | {e['description']} |")
    t["errors"] = ["| code | HTTP status | details | meaning |", "|---|---|---|---|"]
    for code, e in codes["errors"].items():
        t["errors"].append(
            f"| `{code}` | {e['status']} | {_fields(e['details'])} | {e['description']} |"
        )
    t["diagnostics"] = ["| code | severity | meaning |", "|---|---|---|"]
    for code, meaning in DIAGNOSTIC_CODES.items():
        severity = "warning" if code == "XC051" else "error"
        t["diagnostics"].append(f"| `{code}` | {severity} | {meaning} |")
    return {k: "\n".join(v) for k, v in t.items()}


def region(text: str, name: str) -> str | None:
    """The text between the ``codes:NAME`` markers, without the surrounding newlines."""
    match = re.search(
        rf"<!-- codes:{name}:start -->\n(.*?)<!-- codes:{name}:end -->", text, flags=re.S
    )
    return match.group(1).strip("\n") if match else None


def fill(text: str, tables: dict[str, str]) -> str:
    for name, table in tables.items():
        text = re.sub(
            rf"(<!-- codes:{name}:start -->\n).*?(<!-- codes:{name}:end -->)",
            lambda m, table=table: m.group(1) + table + "\n" + m.group(2),
            text,
            flags=re.S,
        )
    return text
