"""From listing outcomes to wire envelopes, through the generated package.

This is the one module that touches the generated code (``service_accounts_api.models`` and
``.server``): the envelope builders make an invalid envelope unconstructable, and the token
helpers sign cursors and evidence. Keeping it in one place means a change in the generator's
surface is a change here only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .listing import ORDERING, Page, Signer
from .store import Account


@dataclass
class Wire:
    """Envelope building and token signing for one service instance."""

    signer: Signer
    contracts: dict[str, dict[str, Any]]  # operationId -> canonical contract

    def mints(self, operation: str) -> bool:
        evidence = self.contracts.get(operation, {}).get("evidence") or {}
        return bool(evidence.get("mint"))

    def page(self, operation: str, page: Page) -> dict[str, Any]:
        scope = dict(self.contracts[operation].get("scope") or {})
        scope["snapshot"] = f"v{page.snapshot}"
        return {
            "items": [self.item(a) for a in page.items],
            "complete": page.complete,
            "incomplete_reasons": page.reasons,
            "next_cursor": page.next_cursor,
            "scope": scope,
            "page": {
                "returned": len(page.items),
                "requested_size": page.requested_size,
                "ordering": ORDERING,
            },
            "work": {
                "sources_planned": page.sources_planned,
                "sources_completed": page.sources_completed,
                "elapsed_ms": page.elapsed_ms,
            },
            "warnings": page.warnings,
            "evidence": page.evidence,
        }

    def item(self, account: Account) -> dict[str, Any]:
        return account.public()
