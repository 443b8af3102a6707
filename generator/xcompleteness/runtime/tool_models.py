"""The agent tool result models (DESIGN.md section 4): what a tool returns to a model.

:class:`ToolResult` nests reason details (``{"code", "origin", "details", "message"}``), the
shape of the generated tool output schemas; its validators keep ``status`` honest (never
"complete" for partial data, evidence only with a complete result). Beside :mod:`.tool_result`,
which builds these envelopes from walk results and API failures; the wire envelope itself is
:mod:`.envelope`'s (which re-exports these names).

pydantic only: copied verbatim into generated packages.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .contract import Registry
from .envelope import (
    Continuation,
    Envelope,
    Origin,
    Reason,
    Warning,
    _invariant,
    make_reason,
    make_warning,
    new_list,
)

__all__ = ["ToolCompleteness", "ToolError", "ToolReason", "ToolResult", "ToolWarning"]


class ToolReason(BaseModel):
    """A reason as a tool hands it to a model: details nested, origin always spelled out."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    code: str = Field(min_length=1)
    origin: Origin
    details: dict[str, Any] = Field(default_factory=dict)
    message: str | None = None

    @classmethod
    def from_reason(cls, reason: Reason | Mapping[str, Any] | str) -> ToolReason:
        r = make_reason(reason)
        return cls(code=r.code, origin=r.origin, details=r.details, message=r.message)


class ToolWarning(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    code: str = Field(min_length=1)
    message: str | None = None
    details: dict[str, Any] = Field(default_factory=dict)

    @classmethod
    def from_warning(cls, warning: Warning | Mapping[str, Any] | str) -> ToolWarning:
        w = make_warning(warning)
        return cls(code=w.code, message=w.message, details=w.details)


class ToolCompleteness(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    complete: bool = Field(strict=True)
    reasons: list[ToolReason] = Field(default_factory=new_list)
    scope: dict[str, Any] | None = None
    continuation: Continuation | None = None

    @model_validator(mode="after")
    def _consistent(self) -> ToolCompleteness:
        if self.complete and self.reasons:
            raise _invariant("a complete result carries no reasons")
        if self.complete and self.continuation is not None and self.continuation.kind != "none":
            raise _invariant("a complete result has nothing to continue")
        return self


class ToolError(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    code: str = Field(min_length=1)
    reasons: list[str] = Field(default_factory=new_list)
    message: str = ""
    decision: str | None = None


class ToolResult(BaseModel):
    """What a tool returns to a model. ``status`` is never "success" for partial data:
    ``complete`` exactly when the completeness block says so, ``partial`` when it carries
    reasons, ``error`` (with an ``error`` object) when there is no usable result."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    status: Literal["complete", "partial", "error"]
    data: dict[str, Any] | None = None
    completeness: ToolCompleteness
    warnings: list[ToolWarning] = Field(default_factory=new_list)
    evidence: str | None = Field(default=None, min_length=1)
    error: ToolError | None = None
    approval: dict[str, Any] | None = None

    @model_validator(mode="after")
    def _status_matches(self) -> ToolResult:
        complete = self.completeness.complete
        if self.status == "complete" and not complete:
            raise _invariant("status complete needs completeness.complete true")
        if self.status != "complete" and complete:
            raise _invariant(f"status {self.status} cannot carry completeness.complete true")
        if self.status == "partial" and not self.completeness.reasons:
            raise _invariant("a partial result names at least one reason")
        if self.status == "error" and self.error is None:
            raise _invariant("an error result carries its error object")
        if self.evidence is not None and self.status != "complete":
            raise _invariant("evidence can only come with a complete result")
        return self

    @classmethod
    def from_envelope(
        cls,
        envelope: Envelope,
        *,
        data_key: str,
        registry: Registry | None = None,
        evidence: str | None = None,
    ) -> ToolResult:
        """The tool result of one native page (the MCP server mints its own evidence)."""
        complete = envelope.complete
        return cls(
            status="complete" if complete else "partial",
            data={data_key: [_plain_item(i) for i in envelope.items]},
            completeness=ToolCompleteness(
                complete=complete,
                reasons=[ToolReason.from_reason(r) for r in envelope.incomplete_reasons],
                scope=envelope.scope.model_dump(mode="json", exclude_none=True)
                if envelope.scope
                else None,
                continuation=envelope.continuation(registry),
            ),
            warnings=[ToolWarning.from_warning(w) for w in envelope.warnings],
            evidence=evidence if complete else None,
        )


def _plain_item(item: Any) -> Any:
    if isinstance(item, BaseModel):
        return item.model_dump(mode="json")
    return item
