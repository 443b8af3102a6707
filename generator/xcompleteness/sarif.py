"""Diagnostics for code-scanning tools: SARIF 2.1.0 logs and GitHub workflow annotation lines.

``render_sarif`` writes one SARIF run: the tool's driver lists one rule per code of the catalog it
is given (its one-line meaning, help text and the docs page that documents the code), and each
diagnostic becomes a result with its level, message (and hint), a physical location (the file,
relative to the working folder when inside it, and the start line where known) and the JSON
pointer as a logical location. ``render_github`` writes ``::error file=...,line=...`` lines that
a GitHub Actions runner turns into annotations on the pull request.

The catalog of codes is composed by the command line (rules and vocabulary codes come from their
stages); :data:`BASE_CODES` holds the codes of the loading, generating and testing stages.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from xcompleteness.diagnostics import Diagnostic, Severity

__all__ = [
    "BASE_CODES",
    "CodeHelp",
    "SARIF_SCHEMA",
    "SARIF_VERSION",
    "TOOL_NAME",
    "render_github",
    "render_sarif",
    "sarif_log",
]


SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
TOOL_NAME = "xcompleteness"

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
_GITHUB = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


@dataclass(frozen=True)
class CodeHelp:
    """What a code means (one line), its default severity and the docs page that documents it."""

    summary: str
    severity: Severity = Severity.ERROR
    doc: str = "docs/cli.md"


def _codes(doc: str, severity: Severity, table: Mapping[str, str]) -> dict[str, CodeHelp]:
    return {code: CodeHelp(text, severity, doc) for code, text in table.items()}


_E, _W, _I = Severity.ERROR, Severity.WARNING, Severity.INFO
BASE_CODES: dict[str, CodeHelp] = {
    **_codes(
        "docs/cli.md#codes-unusable-input-exit-2",
        _E,
        {
            "XC000": "internal error (a bug in xcompleteness; please report it)",
            "XC001": "the file cannot be read (missing, a folder, no permission)",
            "XC002": "the file is larger than the size cap",
            "XC003": "invalid YAML or JSON, or not UTF-8",
            "XC004": "YAML aliases expand past the alias budget, or an alias refers to itself",
            "XC005": "nesting deeper than the depth cap",
            "XC006": "the document root is not a mapping, or the file holds several documents",
            "XC007": "not OpenAPI 3.0/3.1",
            "XC008": "a $ref to another file without --allow-external-refs",
            "XC009": "a $ref to a URL (never fetched)",
            "XC010": "a $ref cycle with no schema in between",
            "XC011": "an external $ref that leaves the spec's folder or points at nothing",
            "XC012": "unsupported YAML: tags, complex keys, aliases as keys, bad merge keys",
            "XC015": "the schemas the declarations reach take more than the work budget to model",
            "XC017": "the recorded responses cannot be read",
            "XC018": "recorded entries or files were not read (no body, not JSON, undecodable)",
            "XC019": "recorded answers match no operation of the spec (nothing checked with them)",
            "XC020": "an overlay file is not an Overlay 1.0 document",
            "XC021": "an overlay action's target matches nothing",
            "XC022": "an overlay target is not valid RFC 9535 JSONPath",
            "XC023": "an overlay update that cannot apply to its target",
            "XC024": "an overlay tries to remove the document root",
            "XC025": "the document holds more x-completeness declarations than the cap",
        },
    ),
    **_codes(
        "docs/cli.md#codes-findings-in-a-usable-document",
        _E,
        {
            "XC014": "a local $ref points at nothing",
            "XC030": "the document is not valid OpenAPI 3.0/3.1",
            "XC031": "the OpenAPI validator could not finish",
            "XC032": "a schema applies itself to the same value (a $ref cycle through "
            "not/allOf/anyOf/oneOf with no property or item in between)",
            "XC150": "--show-effective names an operationId the document does not have",
        },
    ),
    "XC016": CodeHelp(
        "an enum mixes value types: the generated model also accepts values outside it",
        _W,
        "docs/cli.md#codes-findings-in-a-usable-document",
    ),
    "XC013": CodeHelp(
        "a YAML mapping or JSON object has the same key twice (the later value wins)",
        _W,
        "docs/cli.md#codes-findings-in-a-usable-document",
    ),
    "XC900": CodeHelp(
        "a TODO left in a declaration (drafts written by audit --emit-overlay)",
        _W,
        "docs/cli.md#codes-findings-in-a-usable-document",
    ),
    "XC901": CodeHelp("the draft overlay cannot be written", _E, "docs/cli.md#xcompleteness-audit"),
    **_codes(
        "docs/cli.md#xcompleteness-generate",
        _E,
        {
            "XC601": "bad package name",
            "XC604": "the output folder cannot be written safely",
            "XC605": "a declared operation was not found",
            "XC609": "a --tools selector matches no declared operation, tool name or tag",
        },
    ),
    **_codes(
        "docs/cli.md#xcompleteness-generate",
        _W,
        {
            "XC602": "a generated name collided and was renamed",
            "XC607": "the cache folder or an entry is not yours or is writable by others, or "
            "led a run astray: not used",
            "XC608": "the title's package name would shadow a module and got an _api suffix",
            "XC603": "a schema modelled as Any (unsupported $ref, too deep, no item schema)",
        },
    ),
    **_codes(
        "docs/generate.md#which-class-models-a-schema-renames-xc610-xc611",
        _I,
        {
            "XC610": "datamodel-code-generator gave a schema's class name to another schema "
            "(the right class is bound under the schema's name: nothing to do)",
            "XC611": "datamodel-code-generator renamed a schema's class by its own rules "
            "(the right class is bound under the schema's name: nothing to do)",
        },
    ),
    **_codes(
        "docs/cli.md#xcompleteness-mock",
        _E,
        {
            "XC701": "the fault plan does not match its schema",
            "XC702": "a plan entry names an operation that is not a declared listing",
            "XC703": "a fault would serve a reason code the operation does not declare",
            "XC704": "an adapter reason the mock cannot express in the native response",
            "XC705": "uvicorn/starlette not installed",
            "XC706": "the address cannot be bound",
            "XC707": "the spec declares no listing",
        },
    ),
    **_codes(
        "docs/cli.md#xcompleteness-verify",
        _E,
        {
            "XC710": "a page breaks an envelope invariant",
            "XC711": "a page carries an undeclared reason or warning code",
            "XC712": "a short page was taken as the end of the listing",
            "XC713": "a cursor repeated",
            "XC714": "the snapshot drifted during one walk",
            "XC715": "a next link leaves the API's origin",
            "XC716": "an item appeared twice in one walk",
            "XC717": "an unexplained error status or a non-JSON answer",
            "XC718": "the items location is not a list",
            "XC721": "bad arguments",
            "XC722": "the API cannot be reached",
        },
    ),
    "XC719": CodeHelp("the walk stopped at a bound", _W, "docs/cli.md#xcompleteness-verify"),
    "XC720": CodeHelp("a listing was skipped", _I, "docs/cli.md#xcompleteness-verify"),
}
"""Codes outside the semantic rules (``XC1xx``) and the vocabulary stage (``XC040``-``XC057``)."""


def _relative(file: str) -> str | None:
    """The file relative to the working folder (POSIX) when inside it, else None."""
    try:
        return Path(file).resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return None


def _uri(file: str) -> str:
    """The file relative to the working folder when inside it (code scanning resolves it against
    the repository's root), else an absolute file:// URI."""
    return _relative(file) or Path(file).resolve().as_uri()


def _message(d: Diagnostic) -> str:
    return f"{d.message}\nhint: {d.hint}" if d.hint else d.message


def _rule(code: str, info: CodeHelp) -> dict[str, object]:
    link = f"[{info.doc.split('#')[0]}]({info.doc})"
    return {
        "id": code,
        "name": code,
        "shortDescription": {"text": info.summary},
        "fullDescription": {"text": f"{code}: {info.summary}. Documented in {info.doc}."},
        "help": {
            "text": f"{info.summary}. See {info.doc}.",
            "markdown": f"**{code}**: {info.summary}. See {link}.",
        },
        "defaultConfiguration": {"level": _LEVEL[info.severity]},
        "properties": {"docs": info.doc},
    }


def _location(d: Diagnostic) -> dict[str, object]:
    physical: dict[str, object] = {"artifactLocation": {"uri": _uri(d.file)}}
    if d.line is not None and d.line >= 1:
        physical["region"] = {"startLine": d.line}
    location: dict[str, object] = {"physicalLocation": physical}
    if d.pointer:  # the RFC 6901 pointer into the document, as written in the diagnostic
        location["logicalLocations"] = [{"fullyQualifiedName": d.pointer, "kind": "element"}]
    return location


def sarif_log(
    diagnostics: Iterable[Diagnostic], catalog: Mapping[str, CodeHelp], *, version: str
) -> dict[str, object]:
    """The SARIF 2.1.0 log (one run) as a JSON-ready dict; see the module docstring."""
    items = sorted(diagnostics, key=lambda d: (d.file, d.line or 0, d.pointer, d.code))
    codes = sorted(set(catalog) | {d.code for d in items})
    index = {code: i for i, code in enumerate(codes)}
    unknown = CodeHelp("a finding of xcompleteness")
    rules = [_rule(code, catalog.get(code, unknown)) for code in codes]
    results = []
    for d in items:
        result: dict[str, object] = {
            "ruleId": d.code,
            "ruleIndex": index[d.code],
            "level": _LEVEL[d.severity],
            "message": {"text": _message(d)},
        }
        if d.file:
            result["locations"] = [_location(d)]
        results.append(result)
    driver = {"name": TOOL_NAME, "version": version, "semanticVersion": version, "rules": rules}
    return {
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [
            {"tool": {"driver": driver}, "results": results, "columnKind": "unicodeCodePoints"}
        ],
    }


def render_sarif(
    diagnostics: Iterable[Diagnostic], catalog: Mapping[str, CodeHelp], *, version: str
) -> str:
    return json.dumps(sarif_log(diagnostics, catalog, version=version), indent=2, sort_keys=True)


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(diagnostics: Iterable[Diagnostic]) -> str:
    """One ``::error|warning|notice file=F,line=N,title=CODE::message`` line per diagnostic."""
    lines = []
    for d in sorted(diagnostics, key=lambda d: (d.file, d.line or 0, d.pointer, d.code)):
        props = []
        if d.file:
            props.append(f"file={_escape_property(_relative(d.file) or d.file)}")
        if d.line is not None:
            props.append(f"line={d.line}")
        props.append(f"title={_escape_property(d.code)}")
        text = _escape_data((f"#{d.pointer}: " if d.pointer else "") + _message(d))
        lines.append(f"::{_GITHUB[d.severity]} {','.join(props)}::{text}")
    return "\n".join(lines)
