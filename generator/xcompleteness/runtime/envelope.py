"""The completeness envelope as pydantic v2 models, shared by every generated package.

The models make an invalid envelope unconstructable: the invariants 1-5 of DESIGN.md section 5 are
checked by validators, so they hold whether an envelope is built by a service (``Envelope(...)``,
the builders) or parsed from the wire (``model_validate``/``model_validate_json``):

1. ``complete`` is required and strictly boolean (``"true"`` or ``1`` are rejected).
2. ``complete`` is true exactly when ``incomplete_reasons`` is empty.
3. ``MORE_PAGES_AVAILABLE`` appears (once) exactly when ``next_cursor`` is set.
4. Reason and warning codes are limited to the codes the operation declares (the ClassVars
   ``declared_reasons`` / ``declared_warnings`` of a generated subclass); an undeclared code fails
   with the error type ``contract_violation`` (see :func:`is_contract_violation`).
5. Warnings never change ``complete``: nothing reads them when deciding it.

Also: ``evidence`` only on a complete envelope (invariant 9), ``page.returned`` equals the number
of items. Violations of 1-3 and these fail with the error type ``envelope_invariant``.

A generated operation envelope subclasses :class:`Envelope`, narrows ``items`` to its item model,
narrows ``incomplete_reasons``/``warnings`` to a discriminated union of the typed code models below
(:func:`code_union`), and sets the two ClassVars. Reasons carry their details as siblings of
``code`` on the wire (``{"code": "RESULT_LIMIT_REACHED", "limit": 1000}``); :attr:`Reason.details`
collects them for programs. The agent tool result (:class:`ToolResult`,
in :mod:`.tool_models`, re-exported here) nests details instead, the shape of DESIGN.md section 4
and of the generated tool output schemas.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, TypeVar, Union

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    ValidationError,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    field_serializer,
    field_validator,
    model_serializer,
    model_validator,
)
from pydantic_core import PydanticCustomError

from .codes import CLIENT_CODES
from .contract import Registry
from .plain import escape_token

__all__ = [
    "ClientAnswerLimit",
    "ClientDeadlineExceeded",
    "ClientItemLimit",
    "ClientPageLimit",
    "Continuation",
    "ContractViolation",
    "CursorExpired",
    "DefaultScopeApplied",
    "DuplicateItems",
    "DuplicatesUnchecked",
    "EndInferred",
    "Envelope",
    "HttpError",
    "ITEM_MISMATCHES",
    "ITEM_SCHEMA_MISMATCH",
    "ItemSchemaMismatch",
    "ItemsSeenTwice",
    "MorePagesAvailable",
    "Page",
    "PartialFieldSet",
    "RateLimited",
    "Reason",
    "ResultLimitReached",
    "STANDARD_REASON_MODELS",
    "STANDARD_WARNING_MODELS",
    "Scope",
    "SnapshotChanged",
    "SourceUnavailable",
    "StaleIndex",
    "TimeBudgetExceeded",
    "ToolCompleteness",
    "ToolError",
    "ToolReason",
    "ToolResult",
    "ToolWarning",
    "VisibilityRestricted",
    "Warning",
    "Work",
    "code_union",
    "continuation_for",
    "is_contract_violation",
    "item_mismatch_warning",
    "make_reason",
    "make_warning",
    "new_list",
]

Origin = Literal["server", "client"]
ContinuationKind = Literal[
    "next_cursor", "retry_after", "narrow_query", "retry_with_deadline", "restart", "none"
]
MORE_PAGES = "MORE_PAGES_AVAILABLE"
CONTRACT_VIOLATION = "contract_violation"
ENVELOPE_INVARIANT = "envelope_invariant"

_E = TypeVar("_E", bound="Envelope")


def new_list() -> list[Any]:
    """A new empty list: the ``default_factory`` of the envelopes' list fields.

    Not the builtin ``list``: pydantic reads a default factory's signature when it builds a
    model, and ``inspect.signature(list)`` parses the builtin's text signature with
    :mod:`tokenize`, whose pattern takes about 4 ms to compile, once per process, in the middle
    of a first ``page()``. The JSON schema is the same (a default factory is never shown).
    """
    return []


def is_contract_violation(error: ValidationError) -> bool:
    """True when a validation failure is an undeclared code (invariant 4), not bad data."""
    return any(e["type"] == CONTRACT_VIOLATION for e in error.errors())


def _invariant(message: str) -> PydanticCustomError:
    return PydanticCustomError(ENVELOPE_INVARIANT, message)


# ------------------------------------------------------------------------------------------
# reasons and warnings

_REASON_KEYS = frozenset({"code", "origin", "message"})


class Reason(BaseModel):
    """One incomplete reason: a stable ``code``, who raised it, optional prose, details as siblings.

    The base class accepts any details (custom codes); the typed subclasses below fix them.
    Programs branch on ``code`` only, never on ``message``.
    """

    model_config = ConfigDict(defer_build=True, extra="allow", frozen=True)

    code: str = Field(min_length=1)
    origin: Origin = "server"
    message: str | None = None

    @property
    def details(self) -> dict[str, Any]:
        """The detail fields (everything but code, origin and message; unset optionals dropped)."""
        data = self.model_dump(mode="json", exclude=set(_REASON_KEYS))
        return {k: v for k, v in data.items() if v is not None}


class _Typed(Reason):
    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)


class MorePagesAvailable(_Typed):
    code: Literal["MORE_PAGES_AVAILABLE"] = "MORE_PAGES_AVAILABLE"


class ResultLimitReached(_Typed):
    code: Literal["RESULT_LIMIT_REACHED"] = "RESULT_LIMIT_REACHED"
    limit: int = Field(ge=0, description="the cap that was reached")


class TimeBudgetExceeded(_Typed):
    code: Literal["TIME_BUDGET_EXCEEDED"] = "TIME_BUDGET_EXCEEDED"
    budget_ms: int = Field(ge=0, description="the budget that applied")
    elapsed_ms: int | None = Field(default=None, ge=0, description="time spent before stopping")


class SourceUnavailable(_Typed):
    code: Literal["SOURCE_UNAVAILABLE"] = "SOURCE_UNAVAILABLE"
    source: str = Field(description="the name of the missing source")


class VisibilityRestricted(_Typed):
    code: Literal["VISIBILITY_RESTRICTED"] = "VISIBILITY_RESTRICTED"
    excluded: str | None = Field(
        default=None, description="what was excluded, described; never the hidden names"
    )


class RateLimited(_Typed):
    code: Literal["RATE_LIMITED"] = "RATE_LIMITED"
    retry_after_s: float = Field(ge=0, description="seconds to wait before retrying")


class CursorExpired(_Typed):
    code: Literal["CURSOR_EXPIRED"] = "CURSOR_EXPIRED"


class SnapshotChanged(_Typed):
    code: Literal["SNAPSHOT_CHANGED"] = "SNAPSHOT_CHANGED"


# The client's own codes -> their model's name in client_codes.py (imported on first lookup).
_CLIENT_REASONS: Mapping[str, str] = {
    "CLIENT_PAGE_LIMIT": "ClientPageLimit",
    "CLIENT_ITEM_LIMIT": "ClientItemLimit",
    "CLIENT_DEADLINE_EXCEEDED": "ClientDeadlineExceeded",
    "CONTRACT_VIOLATION": "ContractViolation",
    "HTTP_ERROR": "HttpError",
    "DUPLICATE_ITEMS": "DuplicateItems",
    "DUPLICATES_UNCHECKED": "DuplicatesUnchecked",
    "CLIENT_ANSWER_LIMIT": "ClientAnswerLimit",
}
_CLIENT_WARNINGS: Mapping[str, str] = {
    "ITEM_SCHEMA_MISMATCH": "ItemSchemaMismatch",
    "END_INFERRED": "EndInferred",
    "ITEMS_SEEN_TWICE": "ItemsSeenTwice",
    "EVIDENCE_WITHHELD": "EvidenceWithheld",
    "DUPLICATE_CHECK_STOPPED": "DuplicateCheckStopped",
}

_M = TypeVar("_M", bound=BaseModel)


class _StandardModels(Mapping[str, type[_M]]):
    """code -> typed model: the server codes' models defined here, the client codes' imported
    from :mod:`.client_codes` when first looked up (a first ``page()`` that ends well needs
    none). Iteration, ``len`` and ``in`` import nothing."""

    def __init__(self, here: Sequence[type[_M]], client: Mapping[str, str]) -> None:
        self._here = {cls.model_fields["code"].default: cls for cls in here}
        self._client = client

    def __getitem__(self, code: str) -> type[_M]:
        found = self._here.get(code)
        if found is not None:
            return found
        name = self._client[code]  # KeyError as a dict's
        from . import client_codes

        model: type[_M] = getattr(client_codes, name)
        return model

    def __contains__(self, code: object) -> bool:
        return code in self._here or code in self._client

    def __iter__(self) -> Iterator[str]:
        yield from self._here
        yield from self._client

    def __len__(self) -> int:
        return len(self._here) + len(self._client)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self)})"


STANDARD_REASON_MODELS: Mapping[str, type[Reason]] = _StandardModels(
    (
        MorePagesAvailable,
        ResultLimitReached,
        TimeBudgetExceeded,
        SourceUnavailable,
        VisibilityRestricted,
        RateLimited,
        CursorExpired,
        SnapshotChanged,
    ),
    _CLIENT_REASONS,
)


class Warning(BaseModel):  # noqa: A001 - the vocabulary's name; never the builtin in this module
    """A fact about the result that does not change ``complete`` (invariant 5)."""

    model_config = ConfigDict(defer_build=True, extra="allow", frozen=True)

    code: str = Field(min_length=1)
    message: str | None = None

    @property
    def details(self) -> dict[str, Any]:
        data = self.model_dump(mode="json", exclude={"code", "message"})
        return {k: v for k, v in data.items() if v is not None}


class _TypedWarning(Warning):
    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)


class StaleIndex(_TypedWarning):
    code: Literal["STALE_INDEX"] = "STALE_INDEX"
    source: str
    observed_at: str | None = None
    observed_version: str | None = None


class PartialFieldSet(_TypedWarning):
    code: Literal["PARTIAL_FIELD_SET"] = "PARTIAL_FIELD_SET"
    fields: list[str]
    requestable: bool | None = None


class DefaultScopeApplied(_TypedWarning):
    code: Literal["DEFAULT_SCOPE_APPLIED"] = "DEFAULT_SCOPE_APPLIED"
    scope: str


STANDARD_WARNING_MODELS: Mapping[str, type[Warning]] = _StandardModels(
    (StaleIndex, PartialFieldSet, DefaultScopeApplied),
    _CLIENT_WARNINGS,
)


ITEM_SCHEMA_MISMATCH = "ITEM_SCHEMA_MISMATCH"
ITEM_MISMATCHES = "xcompleteness.item_mismatches"
"""Validation-context key: a list that collects ``(index, ValidationError)`` for items kept as
received instead of failing the whole page (see :meth:`Envelope._lenient_items`)."""
_MAX_WARNING_MESSAGE = 500


def _pointer(loc: Sequence[Any]) -> str:
    return "".join("/" + escape_token(str(p)) for p in loc)


def item_mismatch_warning(
    index: int, error: Exception, *, more: int | None = None, loc_offset: int = 0
) -> ItemSchemaMismatch:
    """The ``ITEM_SCHEMA_MISMATCH`` warning of the item at ``index`` (its first three errors,
    each as ``{loc: JSON pointer inside the item, type, msg}``; the message at most 500 chars).

    ``loc_offset`` drops leading location parts that are not inside the item (the list index
    of :meth:`Envelope._lenient_items`' one-item validation)."""
    raw = error.errors() if isinstance(error, ValidationError) else []
    errors = [
        {
            "loc": _pointer(tuple(e.get("loc") or ())[loc_offset:]),
            "type": str(e.get("type", "")),
            "msg": str(e.get("msg", ""))[:200],
        }
        for e in raw[:3]
    ] or [{"loc": "", "type": type(error).__name__, "msg": str(error)[:200]}]
    count = len(raw) or 1
    first = errors[0]
    message = (
        f"item {index} does not match its declared schema ({count} error(s); first at "
        f"'{first['loc'] or '/'}': {first['msg']}); it is kept as received"
    )
    if more:
        message += f"; {more} more item(s) did not match either (not listed one by one)"
    from .client_codes import ItemSchemaMismatch

    return ItemSchemaMismatch(
        index=index, errors=errors, more=more, message=message[:_MAX_WARNING_MESSAGE]
    )


def code_union(models: Sequence[type[BaseModel]]) -> Any:
    """The type of one list element for a set of typed code models, discriminated by ``code``.

    One model is returned as is (a discriminated union needs two members). Use it as
    ``incomplete_reasons: list[code_union([...])]`` in a generated envelope.
    """
    if not models:
        raise ValueError("code_union needs at least one model")
    if len(models) == 1:
        return models[0]
    return Annotated[Union[tuple(models)], Field(discriminator="code")]  # noqa: UP007


def make_reason(data: Reason | Mapping[str, Any] | str, *, origin: Origin | None = None) -> Reason:
    """A reason as its typed model when the details fit, else the open :class:`Reason`.

    For adapter mode, where the client knows a code but not always its details (GitHub's
    ``incomplete_results`` says a time budget ran out but not which), a standard code whose
    details are incomplete falls back to the open model instead of failing.
    """
    raw = _as_dict(data)
    if origin is not None:
        raw["origin"] = origin
    model = STANDARD_REASON_MODELS.get(str(raw.get("code")))
    if model is not None:
        try:
            return model.model_validate(raw)
        except ValidationError:
            pass
    return Reason.model_validate(raw)


def make_warning(data: Warning | Mapping[str, Any] | str) -> Warning:
    """A warning as its typed model when the details fit, else the open :class:`Warning`."""
    raw = _as_dict(data)
    model = STANDARD_WARNING_MODELS.get(str(raw.get("code")))
    if model is not None:
        try:
            return model.model_validate(raw)
        except ValidationError:
            pass
    return Warning.model_validate(raw)


def _as_dict(data: Any) -> dict[str, Any]:
    if isinstance(data, str):
        return {"code": data}
    if isinstance(data, BaseModel):
        return data.model_dump(mode="python")
    if isinstance(data, Mapping):
        return dict(data)
    raise TypeError(f"expected a code, a mapping or a model, got {type(data).__name__}")


# ------------------------------------------------------------------------------------------
# continuation, scope, page, work

_CONTINUATION_FIELDS: Mapping[str, frozenset[str]] = {
    "next_cursor": frozenset({"cursor"}),
    "retry_after": frozenset({"seconds"}),
    "narrow_query": frozenset(),
    "retry_with_deadline": frozenset({"minimum_seconds"}),
    "restart": frozenset(),
    "none": frozenset(),
}


class Continuation(BaseModel):
    """How to make a partial result more complete; only the fields of its ``kind`` are set."""

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)

    kind: ContinuationKind
    cursor: str | None = Field(default=None, min_length=1)
    seconds: float | None = Field(default=None, ge=0)
    minimum_seconds: float | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _fields_fit_kind(self) -> Continuation:
        allowed = _CONTINUATION_FIELDS[self.kind]
        for name in ("cursor", "seconds", "minimum_seconds"):
            if getattr(self, name) is not None and name not in allowed:
                raise _invariant(f"a {self.kind} continuation has no {name}")
        if self.kind == "next_cursor" and self.cursor is None:
            raise _invariant("a next_cursor continuation needs its cursor")
        return self

    @model_serializer(mode="wrap")
    def _only_kind_fields(self, handler: SerializerFunctionWrapHandler):  # type: ignore[no-untyped-def]
        # No return annotation on purpose: with one, pydantic would publish the serialization
        # schema as a bare object; without, it keeps the field schema (FastAPI, augmented spec).
        data = handler(self)
        allowed = _CONTINUATION_FIELDS[self.kind]
        return {k: v for k, v in data.items() if k == "kind" or k in allowed}


class Scope(BaseModel):
    """What "complete" covers: resource, visibility rule and the snapshot the page was read at."""

    model_config = ConfigDict(defer_build=True, extra="allow", frozen=True)

    resource: str | None = None
    visibility: str | None = None
    snapshot: str | None = None
    covers: str | None = None


class Page(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="allow", frozen=True)

    returned: int = Field(ge=0)
    requested_size: int | None = Field(default=None, ge=0)
    ordering: str | None = None


class Work(BaseModel):
    """How much of the planned work was done (e.g. shards answered out of shards asked)."""

    model_config = ConfigDict(defer_build=True, extra="allow", frozen=True)

    sources_planned: int | None = Field(default=None, ge=0)
    sources_completed: int | None = Field(default=None, ge=0)
    elapsed_ms: int | None = Field(default=None, ge=0)


# ------------------------------------------------------------------------------------------
# the envelope


class Envelope(BaseModel):
    """One page of a collection, search or aggregate result with its completeness (DESIGN §4)."""

    model_config = ConfigDict(defer_build=True, frozen=True)

    declared_reasons: ClassVar[frozenset[str] | None] = None
    """Reason codes this operation may return; None (the base class) accepts any code."""
    declared_warnings: ClassVar[frozenset[str] | None] = None
    """Warning codes this operation may return; None accepts any code."""
    client_codes_allowed: ClassVar[bool] = False
    """Whether client codes (origin client) may appear; true only for client-side results."""

    items: list[Any]
    complete: bool = Field(strict=True)
    incomplete_reasons: list[Reason] = Field(default_factory=new_list)
    next_cursor: str | None = Field(default=None, min_length=1)
    scope: Scope | None = None
    page: Page | None = None
    work: Work | None = None
    warnings: list[Warning] = Field(default_factory=new_list)
    evidence: str | None = Field(default=None, min_length=1)

    @field_validator("items", mode="wrap")
    @classmethod
    def _lenient_items(
        cls, value: Any, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> Any:
        """Items are data, not contract: when the validation context carries an
        :data:`ITEM_MISMATCHES` list, an item that fails its model is kept as received (the
        plain JSON value) and ``(index, error)`` is appended there; everything else about the
        envelope stays strictly checked. Without that context (``strict_items``) a bad item
        fails the page as before. Dumping such a page writes the kept item as it came, with
        pydantic's serializer warning for it (``model_dump(warnings=False)`` silences it); no
        custom serializer, which would cost every page's dump about twice its time."""
        context = info.context
        sink = context.get(ITEM_MISMATCHES) if isinstance(context, dict) else None
        if sink is None or not isinstance(value, list):
            return handler(value)
        try:
            return handler(value)
        except ValidationError:
            pass
        out: list[Any] = []
        for index, item in enumerate(value):
            try:
                out.extend(handler([item]))
            except ValidationError as exc:
                sink.append((index, exc))
                out.append(item)
        return out

    @field_serializer("items", "warnings", mode="wrap")
    def _settled_lists(self, value: Any, handler: SerializerFunctionWrapHandler):  # type: ignore[no-untyped-def]
        """A page from the client's ``page()`` validates its items when they are first read
        (``_runtime/page_items.py``); a dump reads them, so they are settled first (iterating
        the list does it). Plain lists pass straight through. No return annotation on purpose:
        with one, pydantic would publish it as the fields' serialization schema."""
        if isinstance(value, list) and type(value) is not list:
            value = list(value)
        return handler(value)

    @field_validator("incomplete_reasons", mode="before")
    @classmethod
    def _declared_reasons_only(cls, value: Any) -> Any:
        """Invariant 4, checked on the raw input so an undeclared code is reported as such (a
        typed union would otherwise only say the tag did not match). A field validator, not a
        model one: a model-level "before" validator makes pydantic build the whole page as
        Python objects before validating it, which cost 70% on a 200-item page."""
        cls._check_codes(value, None)
        return value

    @field_validator("warnings", mode="before")
    @classmethod
    def _declared_warnings_only(cls, value: Any) -> Any:
        cls._check_codes(None, value)
        return value

    @model_validator(mode="after")
    def _invariants(self) -> Envelope:
        self._check_codes(self.incomplete_reasons, self.warnings)
        codes = [r.code for r in self.incomplete_reasons]
        if self.complete and codes:
            raise _invariant(f"complete is true but incomplete_reasons carries {sorted(codes)}")
        if not self.complete and not codes:
            raise _invariant("complete is false but no incomplete reason says why")
        more = codes.count(MORE_PAGES)
        if more > 1:
            raise _invariant("MORE_PAGES_AVAILABLE appears more than once")
        if more and self.next_cursor is None:
            raise _invariant("MORE_PAGES_AVAILABLE needs a next_cursor")
        if self.next_cursor is not None and not more:
            raise _invariant("a next_cursor needs the reason MORE_PAGES_AVAILABLE")
        if self.evidence is not None and not self.complete:
            raise _invariant("evidence can only come with a complete result")
        if self.page is not None and self.page.returned != len(self.items):
            raise _invariant(
                f"page.returned is {self.page.returned} but the page has {len(self.items)} items"
            )
        return self

    @classmethod
    def _check_codes(cls, reasons: Any, warnings: Any) -> None:
        skip = CLIENT_CODES if cls.client_codes_allowed else frozenset()
        _reject_undeclared(reasons, cls.declared_reasons, skip, "incomplete reason")
        _reject_undeclared(warnings, cls.declared_warnings, frozenset(), "warning")

    # -- reading ---------------------------------------------------------------------------

    @property
    def reason_codes(self) -> tuple[str, ...]:
        return tuple(r.code for r in self.incomplete_reasons)

    def continuation(self, registry: Registry | None = None) -> Continuation | None:
        """How to continue from this page (None when complete); see :func:`continuation_for`."""
        if self.complete:
            return None
        return continuation_for(
            self.incomplete_reasons, next_cursor=self.next_cursor, registry=registry
        )

    # -- builders --------------------------------------------------------------------------

    @classmethod
    def complete_page(
        cls: type[_E],
        items: Iterable[Any],
        *,
        scope: Scope | Mapping[str, Any] | None = None,
        page: Page | Mapping[str, Any] | None = None,
        work: Work | Mapping[str, Any] | None = None,
        warnings: Iterable[Warning | Mapping[str, Any] | str] = (),
        evidence: str | None = None,
    ) -> _E:
        """The last page of a listing that covered its whole scope (no reasons, no cursor)."""
        rows = list(items)
        return cls.model_validate(
            {
                "items": rows,
                "complete": True,
                "incomplete_reasons": [],
                "next_cursor": None,
                "scope": _plain(scope),
                "page": _page(page, len(rows)),
                "work": _plain(work),
                "warnings": [_as_dict(w) for w in warnings],
                "evidence": evidence,
            }
        )

    @classmethod
    def partial_page(
        cls: type[_E],
        items: Iterable[Any],
        *,
        reasons: Iterable[Reason | Mapping[str, Any] | str] = (),
        next_cursor: str | None = None,
        scope: Scope | Mapping[str, Any] | None = None,
        page: Page | Mapping[str, Any] | None = None,
        work: Work | Mapping[str, Any] | None = None,
        warnings: Iterable[Warning | Mapping[str, Any] | str] = (),
    ) -> _E:
        """A page that is not the whole answer. A ``next_cursor`` adds MORE_PAGES_AVAILABLE
        when the caller did not list it; a partial page without any reason is refused."""
        rows = list(items)
        reason_list = [_as_dict(r) for r in reasons]
        if next_cursor is not None and not any(r.get("code") == MORE_PAGES for r in reason_list):
            reason_list.insert(0, {"code": MORE_PAGES})
        return cls.model_validate(
            {
                "items": rows,
                "complete": False,
                "incomplete_reasons": reason_list,
                "next_cursor": next_cursor,
                "scope": _plain(scope),
                "page": _page(page, len(rows)),
                "work": _plain(work),
                "warnings": [_as_dict(w) for w in warnings],
                "evidence": None,
            }
        )


def _reject_undeclared(
    entries: Any, allowed: frozenset[str] | None, skip: frozenset[str], what: str
) -> None:
    """Invariant 4: raise a CONTRACT_VIOLATION for the first code outside ``allowed``."""
    if allowed is None or not isinstance(entries, (list, tuple)):
        return
    for entry in entries:
        code = _code_of(entry)
        if code is not None and code not in skip and code not in allowed:
            raise PydanticCustomError(
                CONTRACT_VIOLATION,
                "undeclared " + what + " code {code}; declared: {declared}",
                {"code": code, "declared": ", ".join(sorted(allowed)) or "none"},
            )


def _code_of(entry: Any) -> str | None:
    code = entry.get("code") if isinstance(entry, Mapping) else getattr(entry, "code", None)
    return code if isinstance(code, str) else None


def _plain(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="python")
    if isinstance(value, Mapping):
        return dict(value)
    return value


def _page(page: Any, returned: int) -> dict[str, Any]:
    data = _plain(page) or {}
    return {**data, "returned": returned}


# ------------------------------------------------------------------------------------------
# continuation from reasons

#: When reasons resolve to different kinds, the first kind in this order wins. ``restart`` first:
#: pages read across a changed snapshot or an expired cursor cannot be continued at all. Then the
#: kinds that finish the same question with more work (follow the cursor, allow more time, wait),
#: then ``narrow_query`` (changes the question), then ``none``.
CONTINUATION_PRIORITY: tuple[ContinuationKind, ...] = (
    "restart",
    "next_cursor",
    "retry_with_deadline",
    "retry_after",
    "narrow_query",
    "none",
)

#: A deadline that ran out did not suffice; the next attempt asks for at least twice as much.
DEADLINE_GROWTH = 2.0


def continuation_for(
    reasons: Iterable[Reason | Mapping[str, Any] | str],
    *,
    next_cursor: str | None = None,
    registry: Registry | None = None,
) -> Continuation:
    """The one continuation a caller should follow for a set of reasons (DESIGN.md §3.4 table).

    Each reason maps to its code's continuation kind (the registry's, or the standard default);
    the kind chosen is the first of :data:`CONTINUATION_PRIORITY` present. ``next_cursor`` kinds
    need the cursor to resume from; without one that kind is skipped. Seconds come from the
    details: ``retry_after_s`` (largest wins) and ``budget_ms``/``deadline_s`` (times 2).
    """
    reg = registry or Registry()
    kinds: set[str] = set()
    seconds: float | None = None
    minimum: float | None = None
    for entry in reasons:
        raw = _as_dict(entry)
        code = str(raw.get("code"))
        kinds.add(reg.continuation_for(code))
        retry = _number(raw.get("retry_after_s"))
        if retry is not None:
            seconds = retry if seconds is None else max(seconds, retry)
        tried = _number(raw.get("deadline_s"))
        budget = _number(raw.get("budget_ms"))
        if budget is not None:
            tried = max(tried or 0.0, budget / 1000.0)
        if tried is not None:
            minimum = max(minimum or 0.0, tried * DEADLINE_GROWTH)
    for kind in CONTINUATION_PRIORITY:
        if kind not in kinds:
            continue
        if kind == "next_cursor":
            if next_cursor:
                return Continuation(kind="next_cursor", cursor=next_cursor)
            continue
        if kind == "retry_after":
            return Continuation(kind="retry_after", seconds=seconds)
        if kind == "retry_with_deadline":
            return Continuation(kind="retry_with_deadline", minimum_seconds=minimum)
        return Continuation(kind=kind)  # type: ignore[arg-type]
    return Continuation(kind="none")


def _number(value: Any) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0:
        return float(value)
    return None


if TYPE_CHECKING:  # re-exported lazily at run time (below): both import this module
    from .client_codes import (
        ClientAnswerLimit,
        ClientDeadlineExceeded,
        ClientItemLimit,
        ClientPageLimit,
        ContractViolation,
        DuplicateItems,
        DuplicatesUnchecked,
        EndInferred,
        HttpError,
        ItemSchemaMismatch,
        ItemsSeenTwice,
    )
    from .tool_models import ToolCompleteness, ToolError, ToolReason, ToolResult, ToolWarning

_CLIENT_MODEL_NAMES = frozenset({*_CLIENT_REASONS.values(), *_CLIENT_WARNINGS.values()})
_TOOL_MODELS = frozenset(
    {"ToolCompleteness", "ToolError", "ToolReason", "ToolResult", "ToolWarning"}
)


def __getattr__(name: str) -> Any:
    """The tool result models live in :mod:`.tool_models` and the client codes' models in
    :mod:`.client_codes` (both build on this module), so they are re-exported lazily (PEP 562):
    ``from .envelope import ToolResult`` or ``ClientPageLimit`` keeps working."""
    if name in _TOOL_MODELS:
        from . import tool_models

        return getattr(tool_models, name)
    if name in _CLIENT_MODEL_NAMES:
        from . import client_codes

        return getattr(client_codes, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
