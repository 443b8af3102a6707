"""One diagnostic record for every stage, and the documented exit codes.

A diagnostic names a stable rule ``code`` (tests assert on codes, never on prose), a JSON
``pointer`` into the document it is about, the source ``line`` where known, a ``message`` and a
``hint``. Stages collect diagnostics instead of stopping at the first one. Input that cannot be
used at all (not parseable, too large, not OpenAPI) raises :class:`InputError`, which the CLI turns
into exit code 2.
"""

from __future__ import annotations

import enum
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, fields

__all__ = [
    "Diagnostic",
    "ExitCode",
    "InputError",
    "Severity",
    "exception_text",
    "exit_code_for",
    "has_errors",
    "library_failure",
    "pointer_join",
    "render_json",
    "render_text",
]

MAX_TEXT = 1000
"""A diagnostic's message or hint is cut to this many characters: a spec's value quoted in a
message (a 10^6-digit number, a long key) never floods the terminal or the JSON report."""
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class ExitCode(enum.IntEnum):
    OK = 0
    """No errors (and, with ``--strict``, no warnings); for ``generate --check``: no drift."""
    FINDINGS = 1
    """Errors found (or warnings under ``--strict``); ``generate --check``: files drifted."""
    UNUSABLE = 2
    """The input could not be used at all: unreadable, too large, not OpenAPI, bad arguments."""


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One finding. ``pointer`` is an RFC 6901 JSON pointer ("" is the document root)."""

    file: str
    pointer: str
    code: str
    severity: Severity
    message: str
    hint: str = ""
    line: int | None = None

    def __post_init__(self) -> None:
        for name in ("message", "hint"):
            value = getattr(self, name)
            if isinstance(value, str) and len(value) > MAX_TEXT:
                object.__setattr__(self, name, value[: MAX_TEXT - 3] + "...")

    def render(self) -> str:
        """One located line (and a hint line) for a terminal: control characters from the
        spec (``ESC[2J``, OSC sequences, carriage returns) are shown escaped, never sent raw."""
        loc = f"{terminal_safe(self.file)}#{terminal_safe(self.pointer)}"
        if self.line is not None:
            loc += f" (line {self.line})"
        text = f"{loc}: {self.severity.value} {self.code}: {terminal_safe(self.message)}"
        if self.hint:
            text += f"\n    hint: {terminal_safe(self.hint)}"
        return text

    def to_json(self) -> dict[str, object]:
        # ``asdict`` without its deep copy (every field is a str, an int, None or the severity)
        data = {name: getattr(self, name) for name in _FIELDS}
        data["severity"] = self.severity.value
        return data


_FIELDS = tuple(f.name for f in fields(Diagnostic))


class InputError(Exception):
    """The input is unusable; carries the diagnostics that say why (exit code 2)."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = tuple(diagnostics)
        super().__init__("; ".join(d.render() for d in self.diagnostics))


def terminal_safe(text: str) -> str:
    """``text`` with C0/C1 control characters (but tab and newline) written as ``\\xNN`` escapes."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def shown(value: object, limit: int = 80) -> str:
    """``repr(value)`` cut to ``limit`` characters: how a message quotes a value from the input."""
    text = repr(value) if not isinstance(value, int) or value.bit_length() < 4000 else "<integer>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def exception_text(exc: BaseException, *, first_line: bool = False) -> str:
    """What an exception says, for a message: the one way the text of another library's
    exception (a JSONPath, YAML or validator error) enters a diagnostic. Never raises: such an
    exception's ``str()`` is the library's code, and one that fails on odd input (jsonpath on
    an empty target) or says nothing gives the exception's type name instead."""
    try:
        text = str(exc)
    except Exception:  # noqa: BLE001 - a library's __str__ failing is not our input's fault
        text = ""
    if first_line:
        text = next(iter(text.splitlines()), "")
    return text.strip() or type(exc).__name__


def library_failure(exc: BaseException) -> bool:
    """Whether ``exc`` is another library's failure, for the handlers that turn one into a
    diagnostic: any ``Exception``, and a Rust extension's panic. pyo3's ``PanicException``
    derives from ``BaseException``, so ``except Exception`` lets it out as a traceback
    (``referencing``'s rpds maps panic when jsonschema recurses without end inside them: a
    schema whose ``not`` is itself, with a ``default`` to validate). Interrupts and exits are
    not failures."""
    if isinstance(exc, Exception):
        return True
    return type(exc).__name__ == "PanicException"


def pointer_join(base: str, *parts: object) -> str:
    """Append reference tokens to a JSON pointer, escaping ``~`` and ``/`` per RFC 6901."""
    out = base
    for part in parts:
        token = part if type(part) is str else str(part)
        if "~" in token or "/" in token:
            token = token.replace("~", "~0").replace("/", "~1")
        out += "/" + token
    return out


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    return any(d.severity is Severity.ERROR for d in diagnostics)


def exit_code_for(diagnostics: Iterable[Diagnostic], *, strict: bool = False) -> ExitCode:
    items = list(diagnostics)
    if has_errors(items):
        return ExitCode.FINDINGS
    if strict and any(d.severity is Severity.WARNING for d in items):
        return ExitCode.FINDINGS
    return ExitCode.OK


def render_text(diagnostics: Iterable[Diagnostic]) -> str:
    return "\n".join(d.render() for d in sorted(diagnostics, key=_sort_key))


def render_json(diagnostics: Iterable[Diagnostic]) -> str:
    items = [d.to_json() for d in sorted(diagnostics, key=_sort_key)]
    return json.dumps({"diagnostics": items}, indent=2, sort_keys=True)


def _sort_key(d: Diagnostic) -> tuple[str, int, str, str]:
    return (d.file, d.line if d.line is not None else 0, d.pointer, d.code)
