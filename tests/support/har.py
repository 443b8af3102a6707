"""Record real HTTP traffic as a HAR file, the shape browser devtools and proxies export.

A test walks a loopback fake with an ``httpx.Client`` whose response event hook appends one HAR
1.2 entry per exchange: the request's method, URL, headers (credentials included, as devtools
keeps them), cookies and ``postData`` (the JSON body of a POST search), and the response's status,
headers and ``content.text``. What ``audit --responses`` and ``verify --recorded`` then read is
what a user would have captured from the API, not a hand-written file.

``body`` says how the response body is stored, as the tools that write HARs do: ``"text"`` (the
decoded text, as Chrome stores JSON), ``"base64"`` (the decoded bytes base64, ``content.encoding:
base64``, as Firefox and some proxies store bodies) or ``"raw"`` (the bytes as they came over the
wire, still gzip-compressed when the server compressed them, base64: what a capturing proxy
that does not decode keeps; the client still reads the decoded body).

:func:`audit_outputs` runs ``audit --responses`` through the CLI in both formats and returns
everything it printed and wrote, for the tests that assert no secret of a recording leaks.
"""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

__all__ = ["HarRecorder", "audit_outputs", "brotli_stored"]


def brotli_stored(data: bytes) -> bytes:
    """``data`` as a valid Brotli stream (RFC 7932) of one uncompressed meta-block: what a
    server answering ``Content-Encoding: br`` sends, without the brotli package (not a
    dependency). Header bits, LSB first: WBITS 16 (0), ISLAST 0, MNIBBLES 4 (00), MLEN-1 in 16
    bits, ISUNCOMPRESSED 1; then the bytes; then ISLAST 1, ISLASTEMPTY 1."""
    assert 0 < len(data) <= 1 << 16
    header = ((len(data) - 1) << 4) | (1 << 20)
    return header.to_bytes(3, "little") + data + b"\x03"


def _pairs(headers: httpx.Headers) -> list[dict[str, str]]:
    return [{"name": k, "value": v} for k, v in headers.multi_items()]


class _WireBytes(httpx.BaseTransport):
    """A real HTTP transport that keeps each response's bytes as they came over the wire (still
    content-encoded) in ``extensions["wire"]``; the client reads the decoded body as usual."""

    def __init__(self) -> None:
        self.inner = httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        wire = b"".join(response.iter_raw())
        response.close()
        return httpx.Response(
            response.status_code,
            headers=response.headers,
            content=wire,
            extensions={**response.extensions, "wire": wire},
        )

    def close(self) -> None:
        self.inner.close()


class HarRecorder:
    """Collects HAR entries from an httpx client (use :meth:`client`), writes them with
    :meth:`write`; ``body`` is how response bodies are stored (module docstring)."""

    def __init__(self, body: str = "text") -> None:
        assert body in ("text", "base64", "raw")
        self.body = body
        self.entries: list[dict[str, Any]] = []

    def client(self, base_url: str, **kwargs: Any) -> httpx.Client:
        if self.body == "raw":
            kwargs.setdefault("transport", _WireBytes())
        return httpx.Client(
            base_url=base_url, event_hooks={"response": [self._record]}, timeout=10, **kwargs
        )

    def _content(self, response: httpx.Response) -> dict[str, Any]:
        stored: dict[str, Any] = {
            "size": len(response.content),
            "mimeType": response.headers.get("content-type", ""),
        }
        if self.body == "text":
            stored["text"] = response.text
        else:
            data = response.extensions["wire"] if self.body == "raw" else response.content
            stored["text"] = base64.b64encode(data).decode("ascii")
            stored["encoding"] = "base64"
        return stored

    def _record(self, response: httpx.Response) -> None:
        response.read()
        request = response.request
        entry: dict[str, Any] = {
            "startedDateTime": "2026-12-06T09:00:00.000Z",
            "time": 1,
            "request": {
                "method": request.method,
                "url": str(request.url),
                "httpVersion": "HTTP/1.1",
                "headers": _pairs(request.headers),
                "queryString": [
                    {"name": k, "value": v} for k, v in request.url.params.multi_items()
                ],
                "cookies": [
                    {"name": k, "value": v}
                    for k, v in (
                        part.strip().split("=", 1)
                        for part in request.headers.get("cookie", "").split(";")
                        if "=" in part
                    )
                ],
                "headersSize": -1,
                "bodySize": len(request.content),
            },
            "response": {
                "status": response.status_code,
                "statusText": response.reason_phrase,
                "httpVersion": "HTTP/1.1",
                "headers": _pairs(response.headers),
                "cookies": [],
                "content": self._content(response),
                "redirectURL": "",
                "headersSize": -1,
                "bodySize": len(response.content),
            },
            "cache": {},
            "timings": {"send": 0, "wait": 1, "receive": 0},
        }
        if request.content:
            entry["request"]["postData"] = {
                "mimeType": request.headers.get("content-type", ""),
                "text": request.content.decode("utf-8"),
            }
        self.entries.append(entry)

    def write(self, path: Path) -> Path:
        har = {
            "log": {
                "version": "1.2",
                "creator": {"name": "tests/support/har.py", "version": "1"},
                "entries": self.entries,
            }
        }
        path.write_text(json.dumps(har, indent=1), "utf-8")
        return path


def audit_outputs(spec: Path, responses: Path, draft: Path) -> list[str]:
    """``xcompleteness audit SPEC --responses RESPONSES --emit-overlay DRAFT`` in text and JSON
    format: the stdout and stderr of each run and the draft each wrote (exit 1 asserted: the
    undeclared listings were drafted)."""
    out: list[str] = []
    for fmt in ("text", "json"):
        args = ["audit", str(spec), "--responses", str(responses), "--emit-overlay", str(draft)]
        proc = subprocess.run(
            [sys.executable, "-m", "xcompleteness", *args, "--force", "--format", fmt],
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
        assert proc.returncode == 1, proc.stderr
        out += [proc.stdout, proc.stderr, draft.read_text("utf-8")]
    return out
