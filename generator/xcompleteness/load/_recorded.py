"""Recorded responses: a HAR file or a folder of saved JSON pages (issue 19 §5).

``audit --responses`` and ``verify --recorded`` read what a user captured from the real API:

* a **HAR** file (browser devtools, a proxy): every entry with a JSON body becomes a
  :class:`RecordedPage` with its method, URL path, query parameters, JSON request body (a POST
  search's ``postData``: its query and maybe its cursor), status, response headers and parsed
  body, in the order recorded;
* a **folder** of saved JSON pages: ``<operationId>.<n>.json`` or ``<operationId>/<n>.json``
  (pages of one walk, in natural order of ``n``; a bare ``<operationId>.json`` is one page).
  Such a page knows its operation but not its request.

Secrets never leave this module: request headers and cookies are not kept at all, response
headers that carry credentials (``Set-Cookie``, anything named like auth, token, key, secret,
session or cookie) are dropped, and a page's ``source`` names the file and entry, never a URL's
query; the request body is kept only to match requests against, never printed. Files are
read under the loading size cap (``XC_MAX_SPEC_BYTES``); unreadable input is a located
``XC017`` diagnostic, never a traceback.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from xcompleteness.diagnostics import Diagnostic, InputError, Severity
from xcompleteness.load._limits import Limits

__all__ = ["RECORDED_CODE", "RecordedPage", "load_recorded"]


RECORDED_CODE = "XC017"
_SECRET_HEADER = re.compile(r"cookie|auth|token|secret|key|session|signature", re.IGNORECASE)
_PAGE_FILE = re.compile(r"^(?P<op>.+?)(?:\.(?P<n>\d+))?\.json$")


@dataclass(frozen=True)
class RecordedPage:
    """One recorded response: where it came from and what it said (no secrets)."""

    source: str
    """``tasks.har entry 3`` or ``pages/listTasks.2.json``: names the evidence, never a query."""
    body: Any
    status: int = 200
    method: str | None = None
    path: str | None = None
    """The request's URL path (HAR only)."""
    origin: str | None = None
    query: dict[str, str] = field(default_factory=dict)
    """The request's query parameters (HAR only; used to match, never printed)."""
    headers: dict[str, str] = field(default_factory=dict)
    """Response headers, lower-cased, credentials dropped."""
    request_body: Any = None
    """The request's parsed JSON body (HAR ``postData``; used to match, never printed)."""
    operation: str | None = None
    """The operationId a folder page names (folders only)."""


def _error(origin: str, message: str, hint: str) -> InputError:
    return InputError([Diagnostic(origin, "", RECORDED_CODE, Severity.ERROR, message, hint)])


def _read_json(path: Path, limits: Limits) -> Any:
    try:
        size = path.stat().st_size
        if size > limits.max_bytes:
            raise _error(
                str(path),
                f"recorded file is {size} bytes, over the {limits.max_bytes}-byte cap",
                "raise XC_MAX_SPEC_BYTES or record fewer pages",
            )
        return json.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise _error(
            str(path),
            f"cannot read recorded responses: {type(exc).__name__}: {exc}",
            "pass a HAR file or a folder of JSON pages (docs/adopting.md)",
        ) from None


def load_recorded(path: Path | str, limits: Limits | None = None) -> list[RecordedPage]:
    """Every recorded page of a HAR file or a folder of JSON pages (raises ``InputError``)."""
    path = Path(path)
    limits = limits or Limits.from_env()
    if path.is_dir():
        return _folder(path, limits)
    if not path.is_file():
        raise _error(str(path), "no such file or folder", "pass a HAR file or a folder of pages")
    data = _read_json(path, limits)
    if not isinstance(data, dict) or not isinstance(data.get("log"), dict):
        raise _error(str(path), "not a HAR file (no 'log' object)", "export HAR from devtools")
    return _har(path, data["log"].get("entries"))


def _har(path: Path, entries: Any) -> list[RecordedPage]:
    out: list[RecordedPage] = []
    for i, entry in enumerate(entries if isinstance(entries, list) else []):
        if not isinstance(entry, dict):
            continue
        request = entry.get("request") if isinstance(entry.get("request"), dict) else {}
        response = entry.get("response") if isinstance(entry.get("response"), dict) else {}
        content = response.get("content") if isinstance(response.get("content"), dict) else {}
        text = content.get("text")
        if not isinstance(text, str) or content.get("encoding") == "base64":
            continue
        try:
            body = json.loads(text)
        except ValueError:
            continue  # not a JSON answer: nothing to cross-check
        url = request.get("url") if isinstance(request.get("url"), str) else ""
        parts = urlsplit(url)
        status = response.get("status")
        out.append(
            RecordedPage(
                source=f"{path.name} entry {i + 1}",
                body=body,
                status=status if isinstance(status, int) else 200,
                method=str(request.get("method", "GET")).lower(),
                path=parts.path or "/",
                origin=f"{parts.scheme}://{parts.netloc}" if parts.netloc else None,
                query=dict(parse_qsl(parts.query, keep_blank_values=True)),
                headers=_safe_headers(response.get("headers")),
                request_body=_post_data(request.get("postData")),
            )
        )
    return out


def _post_data(raw: Any) -> Any:
    """The JSON request body of a HAR entry (``postData.text``), or None (no body, not JSON)."""
    text = raw.get("text") if isinstance(raw, dict) else None
    if not isinstance(text, str) or not text.strip():
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def _safe_headers(raw: Any) -> dict[str, str]:
    out: dict[str, str] = {}
    for h in raw if isinstance(raw, list) else []:
        if (
            isinstance(h, dict)
            and isinstance(h.get("name"), str)
            and isinstance(h.get("value"), str)
        ):
            if not _SECRET_HEADER.search(h["name"]):
                out[h["name"].lower()] = h["value"]
    return out


def _natural(p: Path) -> tuple[Any, ...]:
    return tuple(int(t) if t.isdigit() else t for t in re.split(r"(\d+)", p.name))


def _folder(root: Path, limits: Limits) -> list[RecordedPage]:
    out: list[RecordedPage] = []
    for path in sorted(root.rglob("*.json"), key=lambda p: (p.parent.as_posix(), _natural(p))):
        rel = path.relative_to(root)
        if len(rel.parts) == 2:  # <operationId>/<n>.json
            op = rel.parts[0]
        else:
            m = _PAGE_FILE.match(path.name)
            op = m.group("op") if m else path.stem
        out.append(
            RecordedPage(
                source=f"{root.name}/{rel.as_posix()}", body=_read_json(path, limits), operation=op
            )
        )
    return out
