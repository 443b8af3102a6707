"""One escaper per code context for text that comes from the spec (untrusted).

Every spec string that lands in generated Python passes through exactly one of these functions
(the templates reach them as Jinja filters of the same names). Each returns text that the Python
tokenizer reads back as the original string, and never as code: no quote, backslash, line break
(``\\r``, U+2028 ...) or brace in the input can end the literal, docstring or comment early.

- :func:`py_str`   a complete string literal (``'...'``), round-trips via ``ast.literal_eval``;
- :func:`py_doc`   a complete docstring literal (``\"\"\"...\"\"\"``), wrapped to the line length,
  round-trips;
- :func:`py_docblock` a docstring literal written as real lines (what a reader sees with
  ``help()``), stable under ruff format; its cleaned value (``inspect.cleandoc``) is the text;
- :func:`py_comment` the text after ``# `` on one line;
- :func:`py_ident` an identifier that the naming authority already produced (checked, not fixed);
- :func:`toml_str` a TOML basic string (the generated ``pyproject.toml``), round-trips via
  ``tomllib`` (lone surrogates, which TOML cannot hold, become U+FFFD).

Markdown (README.md, AGENT_RULES.md) gets spec text only through ``md_data`` in
:mod:`xcompleteness.emit.emitters.tool_schemas`: neutralised, JSON-quoted, in a code span.
"""

from __future__ import annotations

import keyword
import textwrap
from functools import lru_cache

__all__ = ["DOC_WIDTH", "py_comment", "py_doc", "py_docblock", "py_ident", "py_str", "toml_str"]


def _escape_char(ch: str) -> str:
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def py_str(text: str) -> str:
    """A Python string literal whose value is exactly ``text`` (ASCII-only output)."""
    if not isinstance(text, str):
        raise TypeError(f"py_str expects str, got {type(text).__name__}")
    return ascii(text)


DOC_WIDTH = 100
"""The line length of generated code (ruff's ``--line-length``); docstrings are wrapped to it."""


def _plain(text: str) -> bool:
    """No character of ``text`` needs an escape in a docstring: printable ASCII (so no tab, no
    line break), no backslash, no double quote. Most spec text is; it skips the loop below."""
    return text.isascii() and text.isprintable() and "\\" not in text and '"' not in text


def _doc_units(text: str) -> list[str]:
    """``text`` as escaped units, one per character (never split inside an escape)."""
    units = list(text) if _plain(text) else _escaped_units(text)
    lead = len(text) - len(text.lstrip(" "))
    trail = len(text) - len(text.rstrip(" ")) if text.strip(" ") else 0
    for i in [*range(lead), *range(len(units) - trail, len(units))]:
        units[i] = "\\x20"  # formatters strip edge whitespace of docstrings
    return units


def _escaped_units(text: str) -> list[str]:
    units = []
    for ch in text:
        if ch == "\n":
            units.append("\\n")
        elif ch == "\t":
            units.append("\\t")
        elif ch == "\\":
            units.append("\\\\")
        elif ch == '"':
            units.append('\\"')
        elif ch.isprintable() and ch.isascii():
            units.append(ch)
        else:
            units.append(_escape_char(ch))
    return units


def _wrap_units(units: list[str], first: int, rest: int, last: int) -> list[str]:
    """Greedy lines of at most ``first``/``rest`` characters (the last at most ``last``),
    broken after a space where possible and after every ``\\n`` escape."""
    lines: list[str] = []
    line: list[str] = []
    size = 0
    cut = -1  # index in ``line`` after which a break reads well
    for index, unit in enumerate(units):
        budget = first if not lines else rest
        if line and size + len(unit) > budget:
            keep = line[: cut + 1] if cut >= 0 else line
            lines.append("".join(keep))
            line = line[cut + 1 :] if cut >= 0 else []
            size = sum(len(u) for u in line)
            cut = -1
        line.append(unit)
        size += len(unit)
        if unit == "\\n" and index < len(units) - 1:  # the source mirrors the text's lines
            lines.append("".join(line))
            line, size, cut = [], 0, -1
        elif unit == " ":
            cut = len(line) - 1
    tail = "".join(line)
    limit = last if lines else min(last, first - 2)  # the closing quotes replace the backslash
    if len(tail) > limit and len(line) > 1:
        lines.extend(_wrap_units(line, limit, limit, limit))
    else:
        lines.append(tail)
    return lines


def py_doc(text: str, indent: int = 8, width: int = DOC_WIDTH) -> str:
    """A triple-quoted docstring literal whose value is exactly ``text``, in lines <= ``width``.

    ``indent`` is the column the docstring starts at. Line breaks of the text are written as
    ``\\n`` escapes and edge whitespace as ``\\x20``: formatters (ruff) re-indent and strip
    multi-line docstrings, which would change the text. A text too long for one line is wrapped
    with backslash-newline continuations (the backslash and the newline are not part of the
    value) whose lines start at column 0, where no formatter re-indents them. Quotes, backslashes
    and non-printable characters are escaped.
    """
    units = _doc_units(text)
    first = width - indent - 3
    if sum(len(u) for u in units) <= first - 3:
        return '"""' + "".join(units) + '"""'
    lines = _wrap_units(units, first - 1, width - 1, width - 3)
    return '"""' + "\\\n".join(lines) + '"""'


def py_comment(text: str, limit: int | None = None) -> str:
    """Text safe to follow ``# `` on one source line (no line breaks survive), cut to ``limit``
    characters (ending in ``...``) when given, so the comment fits the line length."""
    out = "".join(ch if ch.isprintable() and ch.isascii() else _escape_char(ch) for ch in text)
    if limit is not None and len(out) > limit:
        out = out[: max(limit - 3, 0)] + "..."
    return out


def _doc_chars(line: str) -> str:
    if _plain(line):
        return line
    out = []
    for ch in line:
        if ch == "\t":
            out.append("\\t")
        elif ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch.isprintable() and ch.isascii():
            out.append(ch)
        else:
            out.append(_escape_char(ch))
    return "".join(out)


def _wrap_line(line: str, room: int) -> list[str]:
    """``line`` broken at spaces into parts of at most ``room`` characters (leading spaces kept)."""
    if len(line) <= room:
        return [line]
    lead = line[: len(line) - len(line.lstrip(" "))]
    parts = textwrap.wrap(
        line.strip(" "),
        room,
        initial_indent=lead,
        subsequent_indent=lead,
        break_long_words=True,
        break_on_hyphens=False,
    )
    return parts or [line]


def py_docblock(text: str, indent: int = 0, width: int = DOC_WIDTH) -> str:
    """A docstring literal with one source line per line of ``text`` (no ``\\n`` escapes).

    ``indent`` is the column of the opening quotes. Lines are written the way ruff's docstring
    formatter leaves them (trailing whitespace dropped, later lines dedented to ``indent``,
    closing quotes on their own line), so formatting does not change the text a reader sees:
    ``inspect.cleandoc(value)`` equals ``text`` with those normalisations. Only ``\\n`` (and
    ``\\r\\n``) break lines; every other control or line-separator character, quote and
    backslash is escaped, so nothing in ``text`` can end the literal or add code. Lines longer
    than ``width`` are broken at spaces (a reader's text, not a value); where escapes still make
    a line too long, the literal falls back to :func:`py_doc` (exact value, wrapped source).
    """
    if not isinstance(text, str):
        raise TypeError(f"py_docblock expects str, got {type(text).__name__}")
    return _docblock(text, indent, width)


@lru_cache(maxsize=4096)
def _docblock(text: str, indent: int, width: int) -> str:
    """:func:`py_docblock` of a str (the emitters write one description several times: the
    client, the tools and the models each quote an operation's text; a pure function)."""
    lines = [line.rstrip(" \t") for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0].strip(" \t"):
        lines.pop(0)
    if len(lines) <= 1:
        return py_doc(lines[0].strip(" ") if lines else "", indent, width)
    first = lines[0].lstrip(" ")
    rest = lines[1:]
    depth = min((len(x) - len(x.lstrip(" ")) for x in rest if x.strip(" \t")), default=0)
    pad = " " * indent
    room = max(width - indent, 20)
    head = _wrap_line(first, room - 3)
    body = [_doc_chars(head[0])] + [pad + _doc_chars(part) for part in head[1:]]
    for line in rest:
        if not line.strip(" \t"):
            body.append("")
            continue
        body.extend(pad + _doc_chars(part) for part in _wrap_line(line[depth:], room))
    if len(body[0]) + indent + 3 > width or any(len(line) > width for line in body[1:]):
        return py_doc(text, indent, width)
    return '"""' + "\n".join(body) + "\n" + pad + '"""'


def py_ident(name: str) -> str:
    """Pass through an identifier from :mod:`xcompleteness.ir._naming`; refuse anything else."""
    if not (name.isidentifier() and name.isascii()) or keyword.iskeyword(name):
        raise ValueError(f"not a safe identifier (use xcompleteness.ir._naming): {name!r}")
    return name


def toml_str(text: str) -> str:
    """A TOML basic string whose value is ``text`` (ASCII-only output, one line)."""
    if not isinstance(text, str):
        raise TypeError(f"toml_str expects str, got {type(text).__name__}")
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif 0x20 <= code < 0x7F:
            out.append(ch)
        elif 0xD800 <= code <= 0xDFFF:
            out.append("\\uFFFD")  # not a Unicode scalar value: TOML cannot hold it
        elif code < 0x10000:
            out.append(f"\\u{code:04X}")
        else:
            out.append(f"\\U{code:08X}")
    out.append('"')
    return "".join(out)
