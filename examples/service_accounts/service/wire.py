"""From listing outcomes to wire envelopes, through the generated package.

This is the one module that touches the generated code (``service_accounts_api``): the page
models of ``models.py`` build every envelope (their builders refuse an invalid one: a cursor
without MORE_PAGES_AVAILABLE, evidence on a partial page, an undeclared code), the canonical
contracts in ``_contracts.json`` say what each operation declares, and the token helpers of
``server.py`` sign cursors and evidence. A change in the generator's surface is a change here
only.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from .listing import Page, snapshot_name
from .store import Account

NULLABLE_FIELDS = frozenset({"owner", "last_used_at"})  # the spec allows null only for these


@dataclass
class Wire:
    """Envelope building and token signing for one service instance."""

    service: Any  # the generated NAME.server.Service (token helpers, one signer)
    errors: type[Exception]  # the generated NAME.server.ServiceError (status + body())
    contracts: dict[str, dict[str, Any]]  # operationId -> canonical contract
    models: ModuleType  # the generated NAME.models

    @classmethod
    def from_package(cls, package: str, secret: bytes, *, store: str | None = None) -> Wire:
        """Load ``package`` (already importable) and bind its token helpers to ``secret``;
        ``store`` is the URL of the spent/revoked evidence store (default: this process only)."""
        root = importlib.import_module(package)
        data = json.loads((Path(root.__file__).parent / "_contracts.json").read_text("utf-8"))
        models = importlib.import_module(f"{package}.models")
        server = importlib.import_module(f"{package}.server")
        _complete_models(models)
        service = server.Service(secret, store=store)
        return cls(service, server.ServiceError, data["contracts"], models)

    # -- what the contract declares ----------------------------------------------------------

    def mints(self, operation: str) -> bool:
        evidence = self.contracts[operation].get("evidence") or {}
        return bool(evidence.get("mint"))

    def frozen(self, operation: str) -> bool:
        pagination = self.contracts[operation].get("pagination") or {}
        return (pagination.get("cursor") or {}).get("snapshot") == "frozen"

    def max_page_size(self, operation: str) -> int | None:
        return (self.contracts[operation].get("pagination") or {}).get("max_page_size")

    def ordering(self, operation: str) -> str | None:
        return (self.contracts[operation].get("pagination") or {}).get("ordering")

    # -- building ------------------------------------------------------------------------------

    def page(self, operation: str, page: Page) -> dict[str, Any]:
        """The envelope of one page, built (and so validated) by the generated page model."""
        model = self.models.PAGE_MODELS[operation]
        scope = dict(self.contracts[operation].get("scope") or {})
        scope["snapshot"] = snapshot_name(page.snapshot)
        common: dict[str, Any] = {
            "scope": scope,
            "page": {"requested_size": page.requested_size, "ordering": self.ordering(operation)},
            "work": {
                "sources_planned": page.sources_planned,
                "sources_completed": page.sources_completed,
                "elapsed_ms": page.elapsed_ms,
            },
            "warnings": page.warnings,
        }
        items = [a.public() for a in page.items]
        if page.complete:
            envelope = model.complete_page(items, evidence=page.evidence, **common)
        else:
            reasons = [r for r in page.reasons if r["code"] != "MORE_PAGES_AVAILABLE"]
            envelope = model.partial_page(
                items, reasons=reasons, next_cursor=page.next_cursor, **common
            )
        body = envelope.model_dump(mode="json")
        body["items"] = [_drop_nulls(item) for item in body["items"]]
        return body

    def item(self, account: Account, fields: set[str] | None = None) -> dict[str, Any]:
        """One account for getServiceAccount, with ``omitted_fields`` saying what is left out."""
        model = self.models.RESULT_MODELS["getServiceAccount"]
        full = account.public()
        required = {"id", "name", "status"}
        omitted: dict[str, str] = {}
        data: dict[str, Any] = {}
        for name in model.model_fields:
            if name == "omitted_fields":
                continue
            if fields is not None and name not in fields and name not in required:
                omitted[name] = "NOT_REQUESTED"
            elif name not in full or (full[name] is None and name not in NULLABLE_FIELDS):
                omitted[name] = "NOT_PRESENT"
            else:
                data[name] = full[name]
        result = model.model_validate({**data, "omitted_fields": omitted or None})
        body = result.model_dump(mode="json")
        # A field left out is absent, never null: a null owner would read as "no owner".
        return _drop_nulls({k: v for k, v in body.items() if k not in omitted})


def _complete_models(models: ModuleType) -> None:
    """Finish models whose forward references pydantic could not resolve at import time.

    Some generated result models subclass item models that name a type defined later in
    ``_items.py``; rebuilding them with that module's namespace is harmless when nothing is
    missing and makes them usable when something is.
    """
    namespace = dict(vars(models))
    for module in ("_items",):
        try:
            namespace.update(vars(importlib.import_module(f"{models.__package__}.{module}")))
        except ImportError:
            pass
    for model in [*models.PAGE_MODELS.values(), *getattr(models, "RESULT_MODELS", {}).values()]:
        if not model.__pydantic_complete__:
            model.model_rebuild(_types_namespace=namespace)


def _drop_nulls(item: dict[str, Any]) -> dict[str, Any]:
    """Leave out optional fields the spec does not allow to be null (absent, not null)."""
    return {k: v for k, v in item.items() if v is not None or k in NULLABLE_FIELDS}
