"""Reading untrusted input (spec, overlays) under limits, with a line map and the ``$ref`` policy.

May import: ``document``, ``diagnostics``, ``resources``.
"""

from xcompleteness.load._limits import DANGLING_REF, WORK_BUDGET, Limits
from xcompleteness.load._lines import LineMemo, line_store
from xcompleteness.load._load import documents_live_with_the_process, load_document
from xcompleteness.load._overlay import apply_overlays
from xcompleteness.load._parse import load_data, parse_store, walk_store
from xcompleteness.load._recorded import RecordedPage, Recording, load_recorded
from xcompleteness.load._source import SourceDoc, load_spec

__all__ = [
    "DANGLING_REF",
    "Limits",
    "LineMemo",
    "RecordedPage",
    "Recording",
    "SourceDoc",
    "WORK_BUDGET",
    "apply_overlays",
    "documents_live_with_the_process",
    "line_store",
    "load_data",
    "load_document",
    "load_recorded",
    "load_spec",
    "parse_store",
    "walk_store",
]
