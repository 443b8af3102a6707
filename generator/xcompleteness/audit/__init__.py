"""``xcompleteness audit``: undeclared listings and the draft overlay.

May import: ``document`` to ``detect``, ``diagnostics``.
"""

from xcompleteness.audit._draft import draft_overlay, dump_overlay
from xcompleteness.audit._report import AuditReport, audit_document, write_draft

__all__ = ["AuditReport", "audit_document", "draft_overlay", "dump_overlay", "write_draft"]
