"""The one naming authority: every identifier, class, tool and package name the generator emits.

Why one module: names derived from untrusted spec text (operationIds, schema names, parameter
names) must be valid Python, must not shadow keywords or builtins, must not escape the output
folder, and must be stable between runs. Deciding that in one place (like Smithy's
``SymbolProvider``) keeps every emitter consistent and makes collisions visible: a
:class:`NameRegistry` resolves a clash deterministically (``name_2``, ``Name2``) and records a
diagnostic (``XC602``) instead of silently renaming.

Rules, in order: Unicode is NFKD-folded to ASCII; characters with no ASCII form become ``uXXXX``;
camelCase and punctuation split words; a leading digit gets a prefix (``n_`` / ``N``); a Python
keyword, soft keyword or builtin gets a trailing underscore.
"""

from __future__ import annotations

import builtins
import hashlib
import keyword
import re
import sys
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

from xcompleteness.diagnostics import Diagnostic, Severity
from xcompleteness.document import overlay_target

__all__ = [
    "ATTR_NAME_MAX",
    "CLASS_NAME_MAX",
    "NameRegistry",
    "PACKAGE_NAME",
    "RESERVED",
    "TOOL_NAME",
    "TOOL_NAME_MAX",
    "attr_name",
    "check_package_name",
    "default_package_name",
    "module_name",
    "component_rename_hint",
    "operation_rename_hint",
    "pascal",
    "snake",
    "tool_name",
    "wire_name_hint",
]

RESERVED: frozenset[str] = frozenset(
    set(keyword.kwlist)
    | set(keyword.softkwlist)
    | {n for n in dir(builtins) if not n.startswith("_")}
)
"""Words that never become a bare identifier (a trailing ``_`` is added)."""

SHADOWING: frozenset[str] = frozenset(sys.stdlib_module_names) | frozenset(
    {
        # what the generated package imports, and what those import (httpx, pydantic, mcp)
        "annotated_types",
        "anyio",
        "certifi",
        "h11",
        "h2",
        "httpcore",
        "httpx",
        "httpx_sse",
        "idna",
        "jsonschema",
        "mcp",
        "multipart",
        "pydantic",
        "pydantic_core",
        "pydantic_settings",
        "redis",
        "sniffio",
        "sse_starlette",
        "starlette",
        "typing_extensions",
        "typing_inspection",
        "uvicorn",
        # what the generator and the generated tests run beside it
        "jinja2",
        "markupsafe",
        "pytest",
        "ruff",
        "xcompleteness",
        "yaml",
    }
)
"""Module names a generated package must not take: ``import httpx`` (or ``json``) in the same
environment would load the generated package instead of the real module."""

TOOL_NAME_MAX = 64
"""The longest tool name every target takes (OpenAI and Anthropic: ``^[a-zA-Z0-9_-]{1,64}$``)."""
TOOL_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
PACKAGE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_NON_WORD = re.compile(r"[^A-Za-z0-9]+")


def _ascii_words(text: str) -> list[str]:
    """Split arbitrary text into ASCII words (camelCase, punctuation and non-ASCII aware)."""
    folded = []
    for ch in unicodedata.normalize("NFKD", text):
        if ch.isascii():
            folded.append(ch)
        elif unicodedata.combining(ch):
            continue  # accents dropped: "café" -> "cafe"
        elif ch.isalnum():
            folded.append(f" u{ord(ch):04x} ")
        else:
            folded.append(" ")
    spaced = _CAMEL.sub(" ", "".join(folded))
    return [w for w in _NON_WORD.split(spaced) if w]


def snake(text: str) -> str:
    """``listServiceAccounts`` -> ``list_service_accounts``; always a safe Python identifier."""
    words = [w.lower() for w in _ascii_words(text)]
    name = "_".join(words) or "x"
    if name[0].isdigit():
        name = "n_" + name
    if name in RESERVED:
        name += "_"
    return name


CLASS_NAME_MAX = 72
"""Longer class names are cut and given a short stable hash: ``class <name><suffix>(`` must fit
the generated code's line length (100) with the suffixes the generator adds (``Page``,
``Response`` ...)."""


def pascal(text: str) -> str:
    """``list-service accounts`` -> ``ListServiceAccounts``; always a safe class name."""
    words = _ascii_words(text)
    name = "".join(w[:1].upper() + w[1:] for w in words) or "X"
    if name[0].isdigit():
        name = "N" + name
    if len(name) > CLASS_NAME_MAX:
        digest = hashlib.sha256(name.encode()).hexdigest()[:8].upper()
        name = name[: CLASS_NAME_MAX - 8] + digest  # no "_": model libraries would drop it
    if name in RESERVED:
        name += "_"
    return name


ATTR_NAME_MAX = 64


def attr_name(text: str, limit: int = ATTR_NAME_MAX) -> str:
    """An operation's attribute and module name: :func:`snake`, long names cut and hashed.

    ``self.<name> = ...`` and ``from ._ops.<name> import (`` must fit the line length (100).
    ``limit``: a shorter bound, for a name that gets a prefix (:func:`module_name`).
    """
    name = snake(text)
    if len(name) > limit:
        digest = hashlib.sha256(name.encode()).hexdigest()[:8]
        name = name[: limit - 9].rstrip("_") + "_" + digest
    return name


def module_name(text: str, prefix: str = "") -> str:
    """A generated module's base name made from spec text: ``prefix`` + :func:`attr_name`, at
    most :data:`ATTR_NAME_MAX` characters in all, so ``from .._items.<name> import (`` fits the
    line length wherever it is written (an item module shared by several listings is named after
    a schema, and schema names run to 90 characters)."""
    return prefix + attr_name(text, ATTR_NAME_MAX - len(prefix))


def argument_name(py_name: str) -> str:
    """A tool argument's name: the client's keyword name for the same parameter or body field
    (``AccountSid`` -> ``account_sid``; collisions resolved as the client resolved them), less
    the trailing ``_`` that only Python needs (``id_`` -> ``id``): arguments are JSON keys."""
    if py_name.endswith("_") and py_name[:-1] in RESERVED:
        return py_name[:-1]
    return py_name


def tool_name(text: str) -> str:
    """A tool name valid for MCP, OpenAI and Anthropic (``^[A-Za-z_][A-Za-z0-9_]{0,63}$``).

    Long names are cut and given a short stable hash so two long names stay distinct.
    """
    name = snake(text).rstrip("_") or "x"
    if len(name) > TOOL_NAME_MAX:
        digest = hashlib.sha256(name.encode()).hexdigest()[:8]
        name = name[:55].rstrip("_") + "_" + digest
    assert TOOL_NAME.match(name), name
    return name


def check_package_name(name: str) -> str | None:
    """Return why ``name`` cannot be a package folder name, or None when it can.

    A package name becomes a folder under OUT: path separators, ``..``, dots, keywords and
    non-identifiers are refused outright (never "fixed"), since silently writing elsewhere
    would be worse than stopping.
    """
    if not name:
        return "the package name is empty"
    if "/" in name or "\\" in name or ".." in name or "\x00" in name:
        return "the package name contains a path separator or '..'"
    if not PACKAGE_NAME.match(name) or not name.isascii():
        return "the package name is not an ASCII Python identifier"
    if keyword.iskeyword(name) or name in RESERVED:
        return "the package name is a Python keyword or builtin"
    if name in SHADOWING or name.lower() in SHADOWING:
        return (
            "the package name is a standard-library module or a module the generated package "
            "depends on; importing that module would load the generated package instead"
        )
    return None


def default_package_name(title: str) -> str:
    """The package name used when ``--package`` is absent: snake case of the spec's title."""
    name = snake(title).rstrip("_")
    if not name or name in RESERVED or name in SHADOWING:
        name = (name or "api") + "_api"
    return name


@dataclass
class NameRegistry:
    """Hands out unique names inside one namespace (a module, a class, a tool list).

    ``claim(wanted, origin=...)`` returns ``wanted`` when free, else the first free
    ``wanted_2``/``Wanted2`` ... and records an ``XC602`` warning naming both origins. Callers must
    claim in a deterministic order (sorted pointers), which makes the suffixes stable.

    ``limit``: the longest name the namespace allows (tool names: 64, the OpenAI and Anthropic
    limit). A suffixed name that would pass it is made from ``wanted`` cut short enough for the
    suffix to fit (``..._2`` of a 64-character name is still 64 characters), so a name cut to the
    limit and then disambiguated never exceeds it.

    Names are never given back, so the search for a free suffix resumes where the last one for
    the same name stopped: n claims of one name cost O(n), not O(n^2) (20,000 operations, fields
    or parameters whose names clash took minutes of probing before).
    """

    namespace: str
    file: str = ""
    limit: int | None = None
    taken: dict[str, str] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    _suffix: dict[tuple[str, str], int] = field(default_factory=dict, repr=False, compare=False)

    def reserve(self, *names: str) -> None:
        """Mark names the emitter itself uses (imports, base classes) as taken."""
        for name in names:
            self.taken.setdefault(name, "<generator>")

    def claim(
        self,
        wanted: str,
        *,
        origin: str,
        style: str = "snake",
        report: bool = True,
        hint: Callable[[str], str] | None = None,
    ) -> str:
        """``report=False``: a name the generator invents (no spec name to rename) takes the
        first free suffix without an ``XC602``. ``hint(candidate)`` says what fixes the clash
        for the kind of name claimed (:func:`operation_rename_hint` ...): the generic advice
        would send the consumer of a spec they cannot edit to edit it."""
        if wanted not in self.taken:
            self.taken[wanted] = origin
            return wanted
        n = self._suffix.get((wanted, style), 2)
        while True:
            candidate = self._suffixed(wanted, n, style)
            if candidate not in self.taken:
                break
            n += 1
        self._suffix[(wanted, style)] = n + 1
        self.taken[candidate] = origin
        if not report:
            return candidate
        self.diagnostics.append(
            Diagnostic(
                file=self.file,
                pointer=origin,
                code="XC602",
                severity=Severity.WARNING,
                message=(
                    f"name {wanted!r} in {self.namespace} is already used by "
                    f"{self.taken[wanted]}; this one is named {candidate!r}"
                ),
                hint=hint(candidate) if hint is not None else GENERIC_RENAME_HINT,
            )
        )
        return candidate

    def _suffixed(self, wanted: str, n: int, style: str) -> str:
        suffix = f"_{n}" if style == "snake" else str(n)
        if self.limit is not None and len(wanted) + len(suffix) > self.limit:
            wanted = wanted[: self.limit - len(suffix)]
            if style == "snake":
                wanted = wanted.rstrip("_") or "x"
        return wanted + suffix


GENERIC_RENAME_HINT = (
    "nothing breaks: the later name got a suffix; to choose the names, rename one of the two "
    "in the spec (an operationId also through an overlay: update: {operationId: ...})"
)


def operation_rename_hint(operation_pointer: str) -> Callable[[str], str]:
    """The XC602 hint of a name made from an operationId (the client attribute, the operation
    and model classes, the tool name): the overlay action that renames this operation's
    operationId, which a consumer of a spec they cannot edit can apply (``--overlay``)."""
    target = overlay_target(operation_pointer)

    def hint(candidate: str) -> str:
        return (
            f"nothing breaks: this one is {candidate!r}. To choose the name in a spec you do not "
            f'edit, rename its operationId with an overlay: the action {{target: "{target}", '
            "update: {operationId: NEW_NAME}} (--overlay FILE); then use NEW_NAME where your "
            "declarations name the operation (evidence.from, recheck.each-target)"
        )

    return hint


def wire_name_hint(name: str) -> Callable[[str], str]:
    """The XC602 hint of a parameter or body-field keyword: the spec's name is what goes on
    the wire, so renaming it (in the spec or by an overlay) would change the request; the
    spec's own name is accepted beside the suffixed keyword."""

    def hint(candidate: str) -> str:
        return (
            f"nothing to fix: the keyword is {candidate!r}, and the spec's name {name!r} works "
            f"too (params={{{name!r}: ...}}, or **{{{name!r}: ...}}); do not rename it in the "
            "spec or by an overlay: the name is what is sent to the API"
        )

    return hint


def component_rename_hint(candidate: str) -> str:
    """The XC602 hint of a component schema's class: only the spec's owner can rename a
    component (its name is the key every ``$ref`` points at; an overlay cannot rename a key)."""
    return (
        f"nothing to fix: the class is {candidate!r} in models.py. An overlay cannot rename a "
        "component schema (its name is the key its $refs point at); in a spec you do not edit, "
        "import the class under its generated name"
    )
