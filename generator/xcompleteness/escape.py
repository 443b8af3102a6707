"""One escaper per code context for text that comes from the spec (untrusted).

Every spec string that lands in generated Python passes through exactly one of these functions
(the templates reach them as Jinja filters of the same names). Each returns text that the Python
tokenizer reads back as the original string, and never as code: no quote, backslash, line break
(``\\r``, U+2028 ...) or brace in the input can end the literal, docstring or comment early.

- :func:`py_str`   a complete string literal (``'...'``), round-trips via ``ast.literal_eval``;
- :func:`py_doc`   a complete one-line docstring literal (``\"\"\"...\"\"\"``), round-trips;
- :func:`py_docblock` a docstring literal written as real lines (what a reader sees with
  ``help()``), stable under ruff format; its cleaned value (``inspect.cleandoc``) is the text;
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


def _doc_chars(line: str) -> str:
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


def py_docblock(text: str, indent: int = 0) -> str:
    """A docstring literal with one source line per line of ``text`` (no ``\\n`` escapes).

    ``indent`` is the column of the opening quotes. Lines are written the way ruff's docstring
    formatter leaves them (trailing whitespace dropped, later lines dedented to ``indent``,
    closing quotes on their own line), so formatting does not change the text a reader sees:
    ``inspect.cleandoc(value)`` equals ``text`` with those normalisations. Only ``\\n`` (and
    ``\\r\\n``) break lines; every other control or line-separator character, quote and
    backslash is escaped, so nothing in ``text`` can end the literal or add code.
    """
    if not isinstance(text, str):
        raise TypeError(f"py_docblock expects str, got {type(text).__name__}")
    lines = [line.rstrip(" \t") for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0].strip(" \t"):
        lines.pop(0)
    if len(lines) <= 1:
        return py_doc(lines[0].strip(" ") if lines else "")
    first = lines[0].lstrip(" ")
    rest = lines[1:]
    depth = min((len(x) - len(x.lstrip(" ")) for x in rest if x.strip(" \t")), default=0)
    pad = " " * indent
    body = [_doc_chars(first)]
    for line in rest:
        body.append(pad + _doc_chars(line[depth:]) if line.strip(" \t") else "")
    return '"""' + "\n".join(body) + "\n" + pad + '"""'


def py_comment(text: str) -> str:
    """Text safe to follow ``# `` on one source line (no line breaks survive)."""
    return "".join(ch if ch.isprintable() and ch.isascii() else _escape_char(ch) for ch in text)


def py_ident(name: str) -> str:
    """Pass through an identifier from :mod:`xcompleteness.naming`; refuse anything else."""
    if not (name.isidentifier() and name.isascii()) or keyword.iskeyword(name):
        raise ValueError(f"not a safe identifier (use xcompleteness.naming): {name!r}")
    return name
