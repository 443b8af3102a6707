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

What a real recording holds besides clean JSON pages is read or named, never dropped in
silence: a body stored base64 (``content.encoding``) is decoded, gzip or deflate bytes a
proxy kept compressed are decompressed (brotli when the ``brotli`` package is installed), and
an anti-XSSI prefix before a JSON body (Gerrit's ``)]}'``) is read past. A
JSON answer whose body the recording lacks (Chrome leaves out large or unfinished bodies), or
cannot give back (not JSON, not decodable), and a file of a folder that is not a ``.json`` page
or does not parse, are ``XC018`` warnings naming the entries or files (``Recording.warnings``);
a recording with no JSON page at all is ``XC017``. Entries that are not JSON answers (a page's
HTML, images, scripts in a browser's HAR) are skipped without a word.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from xcompleteness.diagnostics import Diagnostic, InputError, Severity
from xcompleteness.load._limits import Limits

__all__ = ["RECORDED_CODE", "SKIPPED_CODE", "RecordedPage", "Recording", "load_recorded"]


RECORDED_CODE = "XC017"
SKIPPED_CODE = "XC018"
_NAMED = 8  # entries or files named in one warning; the rest are counted
_SECRET_HEADER = re.compile(r"cookie|auth|token|secret|key|session|signature", re.IGNORECASE)
_PAGE_FILE = re.compile(r"^(?P<op>.+?)(?:\.(?P<n>\d+))?\.json$")
# Anti-XSSI prefixes an API may put before a JSON body so that a <script> tag cannot run it:
# Gerrit's and Google's ``)]}'`` (then a newline, or a comma in Angular's form), and the
# endless-loop forms ``for (;;);`` and ``while(1);``. They are not part of the answer.
_XSSI = re.compile(r"\A\s*(?:\)\]\}'\s*,?|for\s*\(;;\);|while\s*\(1\);)")


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


class Recording(list[RecordedPage]):
    """The recorded pages, in order, and the ``XC018`` warnings about what could not be read."""

    def __init__(self, pages: list[RecordedPage], warnings: list[Diagnostic] | None = None):
        super().__init__(pages)
        self.warnings: tuple[Diagnostic, ...] = tuple(warnings or ())


def _error(origin: str, message: str, hint: str) -> InputError:
    return InputError([Diagnostic(origin, "", RECORDED_CODE, Severity.ERROR, message, hint)])


def _check_size(path: Path, limits: Limits) -> None:
    try:
        size = path.stat().st_size
    except OSError:
        return  # reading it says why
    if size > limits.max_bytes:
        raise _error(
            str(path),
            f"recorded file is {size} bytes, over the {limits.max_bytes}-byte cap",
            "raise XC_MAX_SPEC_BYTES or record fewer pages",
        )


def _parse(path: Path) -> Any:
    """A file's JSON (raises OSError, UnicodeDecodeError or ValueError)."""
    return json.loads(path.read_text("utf-8-sig"))


def _body_json(text: str) -> Any:
    """A response body's JSON, read past an anti-XSSI prefix (``)]}'``; raises ValueError)."""
    try:
        return json.loads(text)
    except ValueError:
        prefix = _XSSI.match(text)
        if prefix is None:
            raise
        return json.loads(text[prefix.end() :])


def _read_json(path: Path, limits: Limits) -> Any:
    _check_size(path, limits)
    try:
        return _parse(path)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise _error(
            str(path),
            f"cannot read recorded responses: {type(exc).__name__}: {_why(exc)}",
            "pass a HAR file or a folder of JSON pages (docs/adopting.md)",
        ) from None


def _why(exc: Exception) -> str:
    """An error's message without the text it failed on (a recording may hold secrets)."""
    if isinstance(exc, json.JSONDecodeError):
        return f"{exc.msg} at line {exc.lineno} column {exc.colno}"
    if isinstance(exc, UnicodeDecodeError):
        return f"not UTF-8 at byte {exc.start}"
    return str(exc)


def load_recorded(path: Path | str, limits: Limits | None = None) -> Recording:
    """Every recorded page of a HAR file or a folder of JSON pages (raises ``InputError``)."""
    path = Path(path)
    limits = limits or Limits.from_env()
    if path.is_dir():
        recording = _folder(path, limits)
    elif not path.is_file():
        raise _error(str(path), "no such file or folder", "pass a HAR file or a folder of pages")
    else:
        data = _read_json(path, limits)
        if not isinstance(data, dict) or not isinstance(data.get("log"), dict):
            raise _error(str(path), "not a HAR file (no 'log' object)", "export HAR from devtools")
        recording = _har(path, data["log"].get("entries"), limits.max_bytes)
    if not recording:
        what = "folder" if path.is_dir() else "HAR file"
        raise InputError(
            [
                Diagnostic(
                    str(path),
                    "",
                    RECORDED_CODE,
                    Severity.ERROR,
                    f"the {what} holds no JSON response to check against",
                    "record the API's JSON answers (a HAR export with content, or "
                    "<operationId>.<n>.json pages in a folder)",
                ),
                *recording.warnings,
            ]
        )
    return recording


def _named(names: list[str]) -> str:
    shown = ", ".join(names[:_NAMED])
    return shown + (f" and {len(names) - _NAMED} more" if len(names) > _NAMED else "")


class _Skipped:
    """What a recording could not give back, by kind, for one ``XC018`` warning each."""

    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.kinds: dict[str, tuple[list[str], str, str, str]] = {}

    def add(self, kind: str, name: str, pointer: str, message: str, hint: str) -> None:
        self.kinds.setdefault(kind, ([], pointer, message, hint))[0].append(name)

    def warnings(self) -> list[Diagnostic]:
        out = []
        for names, pointer, message, hint in self.kinds.values():
            out.append(
                Diagnostic(
                    self.origin,
                    pointer,
                    SKIPPED_CODE,
                    Severity.WARNING,
                    message.replace("{names}", _named(names)).replace("{n}", str(len(names))),
                    hint,
                )
            )
        return out


_NO_BODY_HINT = (
    "export the HAR again with content (devtools: 'Save all as HAR with content'), or save "
    "those answers as <operationId>.<n>.json pages in a folder"
)


def _body_text(
    content: dict[str, Any], headers: Any, budget: _Budget
) -> str | tuple[str, str] | None:
    """A HAR response body as text: ``None`` when the entry has none, ``(kind, why)`` when it
    cannot be given back. Base64 is decoded; gzip/deflate bytes a proxy kept compressed are
    decompressed (br when the brotli package is installed), never to more than ``budget`` has
    left (the loading size cap for all the bodies of the recording together: a small compressed
    body may expand without bound, and a HAR of many would expand to the cap once each)."""
    text = content.get("text")
    if not isinstance(text, str) or not text:
        return None
    encoding = content.get("encoding")
    if encoding in (None, ""):
        return text
    if encoding != "base64":
        return ("encoding", f"its content.encoding {str(encoding)[:20]!r} is not base64")
    try:
        raw = base64.b64decode(text, validate=False)
    except (binascii.Error, ValueError):
        return ("encoding", "its base64 body does not decode")
    coding = _header(headers, "content-encoding").lower()
    cap = budget.left
    try:
        if raw[:2] == b"\x1f\x8b":
            raw = budget.spend(_inflate(raw, 16 + zlib.MAX_WBITS, cap))  # gzip
        elif "deflate" in coding and raw[:1] in (b"\x78", b"\x58", b"\x68"):
            raw = budget.spend(_inflate(raw, zlib.MAX_WBITS, cap))
        elif "br" in coding and raw.lstrip()[:1] not in (b"{", b"["):
            raw = _brotli(raw, cap)
            if raw is None:
                return (
                    "br",
                    "its body is brotli-compressed (content-encoding: br) and the brotli "
                    "package is not installed",
                )
            budget.spend(raw)
    except _TooLarge:
        if cap < budget.cap:
            return (
                "encoding",
                f"its compressed body expands beyond what the earlier ones left of the "
                f"{budget.cap}-byte cap on the recording's decompressed bodies",
            )
        return ("encoding", f"its compressed body expands beyond the {cap}-byte cap")
    except (OSError, EOFError, zlib.error) as exc:
        return ("encoding", f"its compressed body does not decompress ({type(exc).__name__})")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return ("encoding", "its decoded body is not UTF-8 text")


class _TooLarge(Exception):
    """A compressed body expands beyond the loading size cap."""


class _Budget:
    """The bytes the compressed bodies of one recording may still expand to (the loading size
    cap, for all of them together)."""

    def __init__(self, cap: int) -> None:
        self.cap = self.left = cap

    def spend(self, raw: bytes) -> bytes:
        self.left -= len(raw)
        return raw


_CHUNK = 1024
"""Compressed bytes given to zlib at a time. What a gzip member leaves over when it ends
(``unused_data``, a copy) is then at most this much, so a body of many tiny members costs time
linear in its size (copying the rest of the input after every member was quadratic: 1 MB of
300-byte members took 3 minutes)."""


def _inflate(raw: bytes, wbits: int, cap: int) -> bytes:
    """gzip (every member) or zlib data decompressed to at most ``cap`` bytes (else _TooLarge),
    in time linear in ``raw`` and the output."""
    view = memoryview(raw)
    pieces: list[bytes] = []
    size = at = 0
    while at < len(view):
        engine = zlib.decompressobj(wbits)
        while not engine.eof:
            if at >= len(view):
                raise EOFError("the compressed body is cut short")
            chunk = view[at : at + _CHUNK]
            at += len(chunk)
            piece = engine.decompress(chunk, cap + 1 - size)
            size += len(piece)
            pieces.append(piece)
            if size > cap or engine.unconsumed_tail:
                raise _TooLarge
        at -= len(engine.unused_data)  # where the next gzip member starts
        if wbits <= zlib.MAX_WBITS:
            break  # zlib data is one stream; what follows it is not read
    return b"".join(pieces)


def _brotli(raw: bytes, cap: int) -> bytes | None:
    """Brotli data decompressed to at most ``cap`` bytes; None without a brotli package. A
    binding whose decompressor cannot stop at a size is not asked (a bomb would be unbounded)."""
    for name in ("brotli", "brotlicffi"):
        try:
            module = __import__(name)
        except ImportError:
            continue
        try:
            out = bytes(module.Decompressor().process(raw, output_buffer_limit=cap + 1))
        except TypeError:
            raise OSError(f"{name} cannot bound its output") from None
        except Exception as exc:  # noqa: BLE001 - each binding raises its own error type
            raise OSError(str(exc)) from None
        if len(out) > cap:
            raise _TooLarge
        return out
    return None


def _header(raw: Any, name: str) -> str:
    for h in raw if isinstance(raw, list) else []:
        if isinstance(h, dict) and str(h.get("name", "")).lower() == name:
            value = h.get("value")
            return value if isinstance(value, str) else ""
    return ""


def _json_answer(content: dict[str, Any], headers: Any) -> bool:
    mime = content.get("mimeType") or _header(headers, "content-type")
    return isinstance(mime, str) and "json" in mime.lower()


def _har(path: Path, entries: Any, cap: int) -> Recording:
    out: list[RecordedPage] = []
    skipped = _Skipped(str(path))
    budget = _Budget(cap)
    for i, entry in enumerate(entries if isinstance(entries, list) else []):
        if not isinstance(entry, dict):
            continue
        request = entry.get("request") if isinstance(entry.get("request"), dict) else {}
        response = entry.get("response") if isinstance(entry.get("response"), dict) else {}
        content = response.get("content") if isinstance(response.get("content"), dict) else {}
        status = response.get("status")
        status = status if isinstance(status, int) else 200
        name = f"entry {i + 1}"
        where = f"/log/entries/{i}/response/content"
        json_answer = _json_answer(content, response.get("headers"))
        text = _body_text(content, response.get("headers"), budget)
        if text is None:
            if json_answer and status not in (204, 304) and not 100 <= status < 200:
                skipped.add(
                    "missing",
                    name,
                    where,
                    f"{{n}} JSON answer(s) of {path.name} have no response body "
                    "(content.text is missing or empty; devtools leaves out large or unfinished "
                    "bodies): {names}; they are not checked",
                    _NO_BODY_HINT,
                )
            continue
        if isinstance(text, tuple):
            kind, why = text
            skipped.add(
                kind,
                name,
                where,
                f"{{n}} answer(s) of {path.name} cannot be read: {why}: {{names}}",
                "install the brotli package, or export the HAR from the browser (it stores "
                "bodies decoded)"
                if kind == "br"
                else "export the HAR again, or save those answers as JSON pages in a folder",
            )
            continue
        try:
            body = _body_json(text)
        except ValueError:
            if json_answer:
                skipped.add(
                    "not-json",
                    name,
                    where + "/text",
                    f"{{n}} JSON answer(s) of {path.name} do not parse as JSON (cut short?): "
                    "{names}; they are not checked",
                    _NO_BODY_HINT,
                )
            continue  # not a JSON answer (a page's HTML, a script): nothing to cross-check
        url = request.get("url") if isinstance(request.get("url"), str) else ""
        parts = urlsplit(url)
        out.append(
            RecordedPage(
                source=f"{path.name} entry {i + 1}",
                body=body,
                status=status,
                method=str(request.get("method", "GET")).lower(),
                path=parts.path or "/",
                origin=f"{parts.scheme}://{parts.netloc}" if parts.netloc else None,
                query=dict(parse_qsl(parts.query, keep_blank_values=True)),
                headers=_safe_headers(response.get("headers")),
                request_body=_post_data(request.get("postData")),
            )
        )
    return Recording(out, skipped.warnings())


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


def _folder(root: Path, limits: Limits) -> Recording:
    out: list[RecordedPage] = []
    skipped = _Skipped(str(root))
    files = [
        p
        for p in root.rglob("*")
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(root).parts)
    ]
    for path in sorted(files, key=lambda p: (p.parent.as_posix(), _natural(p))):
        rel = path.relative_to(root)
        if path.suffix.lower() != ".json":
            skipped.add(
                "other",
                rel.as_posix(),
                "",
                "{n} file(s) in the folder are not .json pages and are not read: {names}",
                "name each saved page <operationId>.<n>.json (or <operationId>/<n>.json)",
            )
            continue
        _check_size(path, limits)
        try:
            body = _body_json(path.read_text("utf-8-sig"))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            skipped.add(
                f"bad:{rel.as_posix()}",
                rel.as_posix(),
                "",
                f"{{names}} is not a JSON page and is not read ({type(exc).__name__}: {_why(exc)})",
                "save the response body itself (the JSON the API answered) in the file",
            )
            continue
        if len(rel.parts) == 2:  # <operationId>/<n>.json
            op = rel.parts[0]
        else:
            m = _PAGE_FILE.match(path.name)
            op = m.group("op") if m else path.stem
        out.append(RecordedPage(source=f"{root.name}/{rel.as_posix()}", body=body, operation=op))
    return Recording(out, skipped.warnings())
