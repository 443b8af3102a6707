"""The typed models of the codes the client raises itself: reasons with ``origin: client``
(client limits, contract violations, HTTP errors, duplicates) and the client warnings
(``ITEM_SCHEMA_MISMATCH``, ``END_INFERRED`` ...).

Why a module of their own: a server never sends these codes and no generated envelope declares
them, so a first ``page()`` that ends well needs none of them; pydantic makes a model class in
about half a millisecond even with ``defer_build``, so :mod:`.envelope` imports this module on
first use (its ``STANDARD_REASON_MODELS`` / ``STANDARD_WARNING_MODELS`` look a client code up
here, and ``from .envelope import ClientPageLimit`` still works, PEP 562).

pydantic only: copied verbatim into generated packages.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from .envelope import _Typed, _TypedWarning

__all__ = [
    "ClientAnswerLimit",
    "ClientDeadlineExceeded",
    "ClientItemLimit",
    "ClientPageLimit",
    "ContractViolation",
    "DuplicateCheckStopped",
    "DuplicateItems",
    "DuplicatesUnchecked",
    "EndInferred",
    "EvidenceWithheld",
    "HttpError",
    "ItemSchemaMismatch",
    "ItemsSeenTwice",
]


class ClientPageLimit(_Typed):
    code: Literal["CLIENT_PAGE_LIMIT"] = "CLIENT_PAGE_LIMIT"
    origin: Literal["client"] = "client"
    max_pages: int = Field(ge=0)


class ClientItemLimit(_Typed):
    code: Literal["CLIENT_ITEM_LIMIT"] = "CLIENT_ITEM_LIMIT"
    origin: Literal["client"] = "client"
    max_items: int = Field(ge=0)


class ClientAnswerLimit(_Typed):
    code: Literal["CLIENT_ANSWER_LIMIT"] = "CLIENT_ANSWER_LIMIT"
    origin: Literal["client"] = "client"
    max_items: int | None = Field(
        default=None, ge=1, description="the most items one answer holds (None: no item bound)"
    )
    max_bytes: int | None = Field(
        default=None, ge=1, description="the most bytes of compact JSON one answer's items hold"
    )


class ClientDeadlineExceeded(_Typed):
    code: Literal["CLIENT_DEADLINE_EXCEEDED"] = "CLIENT_DEADLINE_EXCEEDED"
    origin: Literal["client"] = "client"
    deadline_s: float = Field(ge=0)


class ContractViolation(_Typed):
    code: Literal["CONTRACT_VIOLATION"] = "CONTRACT_VIOLATION"
    origin: Literal["client"] = "client"
    what: str


class HttpError(_Typed):
    code: Literal["HTTP_ERROR"] = "HTTP_ERROR"
    origin: Literal["client"] = "client"
    status: int = Field(ge=100, le=599, description="the HTTP status of the failed request")
    error: str | None = Field(default=None, description="the error code of the response body")


class DuplicateItems(_Typed):
    code: Literal["DUPLICATE_ITEMS"] = "DUPLICATE_ITEMS"
    origin: Literal["client"] = "client"
    ids: list[str] = Field(max_length=20, description="the ids seen more than once")
    count: int = Field(ge=1, description="how many items repeated an id already seen")


class DuplicatesUnchecked(_Typed):
    code: Literal["DUPLICATES_UNCHECKED"] = "DUPLICATES_UNCHECKED"
    origin: Literal["client"] = "client"
    limit: int = Field(ge=1, description="how many distinct ids the walk remembered")
    after: int = Field(ge=0, description="how many items had been read when it stopped")


class ItemSchemaMismatch(_TypedWarning):
    """A client warning: an item did not match its declared schema and was kept as received."""

    code: Literal["ITEM_SCHEMA_MISMATCH"] = "ITEM_SCHEMA_MISMATCH"
    index: int = Field(ge=0)
    errors: list[dict[str, Any]] = Field(max_length=3)
    more: int | None = Field(default=None, ge=1)


class EndInferred(_TypedWarning):
    """A client warning: the walk ended on an empty or short page (``pagination.end``)."""

    code: Literal["END_INFERRED"] = "END_INFERRED"
    end: Literal["empty-page", "short-page"]
    page: int = Field(ge=1)


class ItemsSeenTwice(_TypedWarning):
    """A client warning: a live listing returned the same id more than once."""

    code: Literal["ITEMS_SEEN_TWICE"] = "ITEMS_SEEN_TWICE"
    ids: list[str] = Field(max_length=20)
    count: int = Field(ge=1)


class EvidenceWithheld(_TypedWarning):
    """A client warning: a complete result carries no evidence because its end was inferred or
    doubted (``because``: END_INFERRED, ITEMS_SEEN_TWICE, DUPLICATE_CHECK_STOPPED)."""

    code: Literal["EVIDENCE_WITHHELD"] = "EVIDENCE_WITHHELD"
    because: list[Literal["END_INFERRED", "ITEMS_SEEN_TWICE", "DUPLICATE_CHECK_STOPPED"]] = Field(
        min_length=1
    )


class DuplicateCheckStopped(_TypedWarning):
    """A client warning: the walk stopped remembering ids (``limit`` distinct ids, after
    ``after`` items); an id repeated later is not detected."""

    code: Literal["DUPLICATE_CHECK_STOPPED"] = "DUPLICATE_CHECK_STOPPED"
    limit: int = Field(ge=1)
    after: int = Field(ge=0)
