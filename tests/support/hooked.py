"""The loader's reference reading of a JSON text: ``json.loads`` with the duplicate-key hook,
then the walk (``XC013`` and mixed-enum notes, ``$ref``s), as ``load_data`` read every JSON text
before it had cheaper ways (the string count, the canonical reading); tests hold those to it."""

from __future__ import annotations

import json
from typing import Any

from xcompleteness.load import Limits
from xcompleteness.load._lines import LazyJsonLines
from xcompleteness.load._parse import _pairs_hook, _walk, mixed_enum_notes

__all__ = ["hooked_reading"]


def hooked_reading(text: str, origin: str, limits: Limits) -> tuple[Any, Any, list, list, bool]:
    """(data, lines, notes, refs, whether a key repeats) of ``text`` read with the hook."""
    duplicates: list[tuple[dict[str, Any], list[str]]] = []
    data = json.loads(text, object_pairs_hook=_pairs_hook(duplicates))
    lines = LazyJsonLines(text, data, unique_keys=not duplicates)
    notes: list[Any] = []
    enums: list[str] = []
    found = {id(obj): keys for obj, keys in duplicates}
    refs = _walk(data, origin, limits, found or None, notes, lines, enums)
    notes.extend(mixed_enum_notes(origin, enums, lines))
    return data, lines, notes, refs, bool(duplicates)
