"""One escaper per code context for text that comes from the spec (untrusted).

Every spec string that lands in generated Python passes through exactly one of these functions
(the templates reach them as Jinja filters of the same names). Each returns text that the Python
tokenizer reads back as the original string, and never as code: no quote, backslash, line break
(``\\r``, U+2028 ...) or brace in the input can end the literal, docstring or comment early.

- :func:`py_str`   a complete string literal (``'...'``), round-trips via ``ast.literal_eval``;
- :func:`py_doc`   a complete docstring literal (``\"\"\"...\"\"\"``), multi-line, round-trips;
- :func:`py_comment` the text after ``# `` on one line;
- :func:`py_ident` an identifier that the naming authority already produced (checked, not fixed).
"""

from __future__ import annotations

import keyword


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


def py_doc(text: str) -> str:
    """A one-line triple-quoted docstring literal whose value is exactly ``text``.

    Line breaks are written as ``\\n`` escapes and edge whitespace as ``\\x20``: formatters
    (ruff) re-indent and strip multi-line docstrings, which would change the text. Quotes,
    backslashes and non-printable characters are escaped.
    """
    out = []
    for ch in text:
        if ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch.isprintable() and ch.isascii():
            out.append(ch)
        else:
            out.append(_escape_char(ch))
    body = "".join(out)
    stripped = body.strip(" ")
    lead = len(body) - len(body.lstrip(" "))
    trail = len(body) - len(body.rstrip(" ")) if stripped else 0
    body = "\\x20" * lead + stripped + "\\x20" * trail
    return '"""' + body + '"""'


def py_comment(text: str) -> str:
    """Text safe to follow ``# `` on one source line (no line breaks survive)."""
    return "".join(ch if ch.isprintable() and ch.isascii() else _escape_char(ch) for ch in text)


def py_ident(name: str) -> str:
    """Pass through an identifier from :mod:`xcompleteness.naming`; refuse anything else."""
    if not (name.isidentifier() and name.isascii()) or keyword.iskeyword(name):
        raise ValueError(f"not a safe identifier (use xcompleteness.naming): {name!r}")
    return name
