"""Read a document under the size cap and parse it: JSON through ``json.loads``, YAML through our
event builder (:mod:`xcompleteness.load._yaml`); one iterative pass enforces the depth cap and
collects every ``$ref`` on the way. Used for specs, overlays, mock plans and ``$ref`` targets.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from xcompleteness.diagnostics import Diagnostic, pointer_join
from xcompleteness.load._limits import (
    SYNTAX,
    TOO_LARGE,
    UNREADABLE,
    Limits,
    input_error,
    too_deep_error,
)
from xcompleteness.load._lines import LazyJsonLines
from xcompleteness.load._yaml import YamlBuilder


def load_data(
    path: Path, origin: str, limits: Limits, *, refs_out: list[tuple[str, str]] | None = None
) -> tuple[Any, Mapping[str, int], list[Diagnostic]]:
    """Read and parse ``path`` (any JSON-shaped root); used for specs, overlays and ref targets.

    With ``refs_out``, every ``$ref`` found is appended to it (saves the caller a walk).
    """
    text = _read_text(path, origin, limits)
    stripped = text.lstrip()
    if path.suffix.lower() == ".json" or stripped.startswith("{") or stripped.startswith("["):
        try:
            data = json.loads(text)
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
        else:
            refs = _walk(data, origin, limits)
            if refs_out is not None:
                refs_out.extend(refs)
            return data, LazyJsonLines(text, data), []
    data, lines, notes = YamlBuilder(origin, limits).build(text)
    if refs_out is not None:
        refs_out.extend(_walk(data, origin, limits))
    return data, lines, notes


def _read_text(path: Path, origin: str, limits: Limits) -> str:
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
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise input_error(
            origin, SYNTAX, "file is not UTF-8 text", line=line, hint="save the document as UTF-8"
        ) from None


def _walk(data: Any, origin: str, limits: Limits) -> list[tuple[str, str]]:
    """One iterative pass: enforce the depth cap and collect every string ``$ref``.

    Pointers are kept as linked ``(parent, token)`` chains and spelled out only for the
    ``$ref`` objects, so a 10 MB document is walked without building a string per node.
    """
    refs: list[tuple[str, str]] = []
    limit = limits.max_depth
    stack: list[tuple[Any, int, Any]] = [(data, 1, None)]
    while stack:
        node, depth, chain = stack.pop()
        if depth > limit:
            raise too_deep_error(origin, limits, None)
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                refs.append((_spell(chain), ref))
            for k, v in node.items():
                if isinstance(v, (dict, list)):
                    stack.append((v, depth + 1, (chain, k)))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                if isinstance(v, (dict, list)):
                    stack.append((v, depth + 1, (chain, i)))
    return refs


def _spell(chain: Any) -> str:
    tokens: list[Any] = []
    while chain is not None:
        chain, token = chain
        tokens.append(token)
    return pointer_join("", *reversed(tokens))
