"""``xcompleteness audit``: undeclared listings and the draft overlay.

May import: ``document`` to ``detect``, ``diagnostics``.
"""

from xcompleteness.audit._draft import draft_overlay, dump_overlay
from xcompleteness.audit._report import AuditReport, audit_document, write_draft
from xcompleteness.audit._responses import unmatched as unmatched_recorded
from xcompleteness.audit._walks import WalkRoles, recorded_walks, walk_starts

__all__ = [
    "AuditReport",
    "WalkRoles",
    "audit_document",
    "draft_overlay",
    "dump_overlay",
    "recorded_walks",
    "unmatched_recorded",
    "walk_starts",
    "write_draft",
]
