"""Hostile API servers (issue 18, items 11-14), on a real loopback HTTP server: one origin rule
for next links (both styles, the generated client, the MCP host and verify), a deadline that
bounds the whole walk including body reads, and typed CURSOR_INVALID for malformed cursors."""

from __future__ import annotations

import gzip
import http.server
import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from support.forge import malformed_variants, payload_of, sign
from support.gen import import_generated
from support.hostile import SPEC, write_spec

SECRET_HEADER = {"Authorization": "Bearer the-callers-token"}


@dataclass
class Plan:
    next_link: str | None = None
    trickle: bool = False
    huge: str | None = None  # page 2's body: "gzip", "chunked" or "declared" (see hostile)
    huge_size: int = 8 * 1024 * 1024  # bytes of page 2's oversized body, decompressed
    hits: list[tuple[str, str | None]] = field(default_factory=list)
    released: threading.Event = field(default_factory=threading.Event)


@pytest.fixture
def hostile() -> Iterator[tuple[str, Plan]]:
    """A loopback server: ``/api/items`` answers one item and a next link (body and Link
    header) set by the plan, or trickles its body one byte at a time; it records every hit.
    With ``plan.huge`` page 2 is oversized: a gzip bomb (``plan.huge_size`` bytes of JSON, 8 MB
    in 8 KB), a chunked body of that size with no length, or a ``Content-Length`` of 50 MB whose
    body never comes."""
    plan = Plan()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:  # noqa: N802
            plan.hits.append((self.path, self.headers.get("Authorization")))
            if plan.huge and "page=2" in self.path:
                self._huge(plan.huge)
                return
            first = self.path.startswith("/api/items") and "page=2" not in self.path
            nxt = plan.next_link if first else None
            body = json.dumps({"items": [{"id": "1"}], "next": nxt}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body) + (400 if plan.trickle else 0)))
            if nxt:
                self.send_header("Link", f'<{nxt}>; rel="next"')
            self.end_headers()
            if plan.trickle:
                try:
                    for _ in range(400):  # 400 bytes, one every 0.2 s: 80 s unless cut off
                        self.wfile.write(b" ")
                        self.wfile.flush()
                        time.sleep(0.2)
                except OSError:
                    return
            self.wfile.write(body)

        def _huge(self, how: str) -> None:
            padded = b'{"items": [], "next": null, "pad": "' + b" " * plan.huge_size + b'"}'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            try:
                if how == "gzip":
                    packed = gzip.compress(padded)
                    self.send_header("Content-Encoding", "gzip")
                    self.send_header("Content-Length", str(len(packed)))
                    self.end_headers()
                    self.wfile.write(packed)
                elif how == "chunked":
                    self.send_header("Transfer-Encoding", "chunked")
                    self.end_headers()
                    for at in range(0, len(padded), 65536):
                        part = padded[at : at + 65536]
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
                    self.wfile.write(b"0\r\n\r\n")
                else:  # "declared": 50 MB announced, 1 KB sent, the rest never (until released)
                    self.send_header("Content-Length", str(50_000_000))
                    self.end_headers()
                    self.wfile.write(padded[:1024])
                    self.wfile.flush()
                    plan.released.wait(60)
            except OSError:
                return

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.handle_error = lambda request, address: None  # type: ignore[method-assign]  # a client hanging up
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", plan
    finally:
        plan.released.set()
        server.shutdown()
        server.server_close()


def _spec(style: str) -> dict[str, Any]:
    spec = json.loads(json.dumps(SPEC))
    op = spec["paths"]["/items"]["get"]
    op["parameters"] = []
    schema = op["responses"]["200"]["content"]["application/json"]["schema"]
    schema["properties"] = {
        "items": schema["properties"]["items"],
        "next": {"type": ["string", "null"]},
    }
    where = "$response.body#/next" if style == "next-url" else "$response.link.next"
    decl = op["x-completeness"]
    decl["pagination"] = {"style": style, "response": {"next": where}}
    decl["reasons"] = [{"code": "MORE_PAGES_AVAILABLE", "when": {"present": where}}]
    return spec


@pytest.fixture(scope="module", params=["next-url", "link-header"])
def package(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    from xcompleteness.emit._generate import generate
    from xcompleteness.emit._write import write_tree

    style = request.param
    name = "xcsec_" + style.replace("-", "_")
    folder = tmp_path_factory.mktemp(name)
    spec = write_spec(folder / "in", _spec(style))
    write_tree(folder / "out", generate(spec, (), name).files)
    module = import_generated(folder / "out", name)
    module.spec_path = spec  # type: ignore[attr-defined]
    return module


def _collect(package: Any, base: str, **kw: Any) -> Any:
    with package.Client(base + "/api", headers=SECRET_HEADER) as client:
        return client.list_items.collect(**kw)


@pytest.mark.parametrize(
    "link",
    [
        "http://evil@{host}/api/items?page=2",
        "http://user:pw@{host}/api/items?page=2",
        "{base}/admin/delete-everything",
        "/admin/delete-everything",
        "{base}/api/../admin/delete-everything",
        "{base}/api/%2e%2e/admin",
        "file:///etc/passwd",
        "http://{host}.evil.test/api/items",
    ],
)
def test_the_client_follows_no_next_link_outside_the_api(
    package: Any, hostile: tuple[str, Plan], link: str
) -> None:
    base, plan = hostile
    plan.next_link = link.format(base=base, host=base.removeprefix("http://"))
    result = _collect(package, base)
    assert not result.complete and result.codes == ["CONTRACT_VIOLATION"]
    assert [path for path, _ in plan.hits] == ["/api/items"]
    assert all(auth == SECRET_HEADER["Authorization"] for _, auth in plan.hits)


def test_a_next_link_under_the_base_path_is_followed(
    package: Any, hostile: tuple[str, Plan]
) -> None:
    base, plan = hostile
    plan.next_link = base + "/api/items?page=2"
    result = _collect(package, base)
    assert result.complete and [p for p, _ in plan.hits] == ["/api/items", "/api/items?page=2"]


def test_the_mcp_host_follows_no_next_link_with_userinfo(
    package: Any, hostile: tuple[str, Plan]
) -> None:
    base, plan = hostile
    plan.next_link = "http://evil@" + base.removeprefix("http://") + "/api/items?page=2"
    mcp_server = __import__(f"{package.__name__}.tools.mcp_server", fromlist=["build_host"])
    host = mcp_server.build_host(base + "/api", dict(SECRET_HEADER), secret=b"k" * 32)
    name = host.definitions()[0]["name"]
    env, _is_error = host.call(name, {})
    assert env["status"] != "complete"
    assert [p for p, _ in plan.hits] == ["/api/items"]
    assert all(auth == SECRET_HEADER["Authorization"] for _, auth in plan.hits)


@pytest.mark.parametrize(
    "link", ["http://evil@{host}/api/items?page=2", "file:///etc/passwd", "/admin/x"]
)
def test_verify_reports_a_next_link_outside_the_api(
    package: Any, hostile: tuple[str, Plan], link: str
) -> None:
    from xcompleteness import api

    base, plan = hostile
    plan.next_link = link.format(host=base.removeprefix("http://"))
    result = api.verify(package.spec_path, base + "/api", headers=SECRET_HEADER, time_limit=20)
    assert "XC715" in {d.code for d in result.diagnostics}, result.diagnostics
    assert result.exit_code == 1
    assert {p for p, _ in plan.hits} == {"/api/items"}


def test_a_trickling_body_cannot_outlast_the_walks_deadline(
    package: Any, hostile: tuple[str, Plan]
) -> None:
    base, plan = hostile
    plan.trickle = True
    result = _collect(package, base, deadline=1.0)
    assert not result.complete and result.codes == ["CLIENT_DEADLINE_EXCEEDED"]


def test_a_trickling_body_cannot_outlast_the_mcp_deadline(
    package: Any, hostile: tuple[str, Plan]
) -> None:
    base, plan = hostile
    plan.trickle = True
    mcp_server = __import__(f"{package.__name__}.tools.mcp_server", fromlist=["build_host"])
    host = mcp_server.build_host(base + "/api", dict(SECRET_HEADER), secret=b"k" * 32)
    name = host.definitions()[0]["name"]
    env, _ = host.call(name, {"deadline_s": 1.0})
    assert env["status"] != "complete"
    assert "CLIENT_DEADLINE_EXCEEDED" in json.dumps(env)


def test_a_trickling_body_cannot_outlast_verify_time_limit(
    package: Any, hostile: tuple[str, Plan]
) -> None:
    from xcompleteness import api

    base, plan = hostile
    plan.trickle = True
    result = api.verify(package.spec_path, base + "/api", time_limit=1.0)
    assert "XC719" in {d.code for d in result.diagnostics}, result.diagnostics


def test_verify_never_echoes_a_password_and_refuses_crlf_headers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from xcompleteness.cli import main

    spec = write_spec(tmp_path)
    code = main(["verify", str(spec), "--base-url", "http://user:hunter2@127.0.0.1:9/"])
    out, err = capsys.readouterr()
    assert code == 2 and "hunter2" not in out + err
    code = main(
        [
            "verify",
            str(spec),
            "--base-url",
            "http://127.0.0.1:9/",
            "--auth-header",
            "X-Evil: a\r\nInjected: b",
        ]
    )
    out, err = capsys.readouterr()
    assert code == 2 and "XC721" in err and "XC722" not in err


def test_the_runtime_refuses_malformed_signed_cursors() -> None:
    from xcompleteness.runtime.service import CursorInvalidError, ListingTokens
    from xcompleteness.runtime.tokens import TokenSigner

    secret = b"s" * 32
    tokens = ListingTokens(
        TokenSigner(secret),
        operation="listItems",
        paging_params=("cursor",),
        position_schema={
            "type": "object",
            "required": ["n"],
            "properties": {"n": {"type": "integer"}},
        },
    )
    good = tokens.mint_cursor({"n": 1}, principal="p")
    assert tokens.read_cursor(good, principal="p").data == {"n": 1}
    generic = [v for v in malformed_variants(payload_of(good)) if "after" not in v[0]]
    variants = [v for v in generic if "returned" not in v[0]] + [
        ("position wrong", {**payload_of(good), "d": {"n": "x"}}),
    ]
    for label, forged in variants:
        with pytest.raises(CursorInvalidError) as exc:
            tokens.read_cursor(sign(secret, forged), principal="p")
        assert exc.value.status == 400 and exc.value.code == "CURSOR_INVALID", label
    for bad in ("v1." + "A" * 1_000_000, 12, None):
        with pytest.raises(CursorInvalidError):
            tokens.read_cursor(bad, principal="p")  # type: ignore[arg-type]


# -- an answer too large to hold -----------------------------------------------------------


def _huge_page_2(hostile: tuple[str, Plan], how: str) -> tuple[str, Plan]:
    """The hostile server with a next link from page 1 to an oversized page 2 (``how``)."""
    base, plan = hostile
    plan.next_link = base + "/api/items?page=2"
    plan.huge = how
    return base, plan


@pytest.mark.parametrize("how", ["gzip", "chunked", "declared"])
def test_an_answer_past_max_response_bytes_ends_the_walk_with_the_pages_read_kept(
    package: Any, hostile: tuple[str, Plan], how: str
) -> None:
    """The timeout bounds how long an answer takes; ``max_response_bytes`` how much of it is
    held: page 2 (a gzip bomb, a chunked body with no length, a 50 MB ``Content-Length`` whose
    body never comes) is refused, and the walk ends partial with page 1 kept -- never a
    MemoryError, a complete answer or a wait for the body."""
    base, plan = _huge_page_2(hostile, how)
    with package.Client(base + "/api", max_response_bytes=1_000_000) as client:
        result = client.list_items.collect()
    assert not result.complete and result.codes == ["CONTRACT_VIOLATION"]
    assert [item.id for item in result.items] == ["1"]
    assert "max_response_bytes=1000000" in result.reasons[0].what
    assert [p for p, _ in plan.hits] == ["/api/items", "/api/items?page=2"]


def test_the_size_cap_is_the_clients_default_and_none_lifts_it(
    package: Any, hostile: tuple[str, Plan]
) -> None:
    base, plan = _huge_page_2(hostile, "gzip")
    with package.Client(base + "/api") as client:  # 64 MiB: 8 MB is read
        assert client.max_response_bytes == package.client.DEFAULT_MAX_RESPONSE_BYTES
        assert client.max_response_bytes == 64 * 1024**2
        assert client.list_items.collect().complete
    with package.Client(base + "/api", max_response_bytes=None) as client:
        assert client.list_items.collect().complete
    for bad in (-1, 1.5, True, "64MB"):
        with pytest.raises(ValueError, match="max_response_bytes"):
            package.Client(base + "/api", max_response_bytes=bad)


def test_a_single_call_past_the_cap_raises_response_too_large(
    package: Any, hostile: tuple[str, Plan]
) -> None:
    base, plan = _huge_page_2(hostile, "gzip")
    with package.Client(base + "/api", max_response_bytes=1_000) as client:
        url = client.url("items?page=2")
        with pytest.raises(package.client.ResponseTooLarge) as caught:
            client.send("GET", url)
    assert caught.value.limit == 1_000


def test_verify_and_the_mcp_host_refuse_a_gzip_bomb_past_the_default_cap(
    package: Any, hostile: tuple[str, Plan]
) -> None:
    """The default cap (64 MiB) holds where no caller set one: a 70 MiB page packed into 70 KB."""
    from xcompleteness import api

    base, plan = _huge_page_2(hostile, "gzip")
    plan.huge_size = 70 * 1024 * 1024
    mcp_server = __import__(f"{package.__name__}.tools.mcp_server", fromlist=["build_host"])
    host = mcp_server.build_host(base + "/api", {}, secret=b"k" * 32)
    env, _ = host.call(host.definitions()[0]["name"], {})
    assert env["status"] == "partial" and env["evidence"] is None
    assert [r["code"] for r in env["completeness"]["reasons"]] == ["CONTRACT_VIOLATION"]
    assert "max_response_bytes=67108864" in env["completeness"]["reasons"][0]["details"]["what"]
    result = api.verify(package.spec_path, base + "/api", time_limit=20)
    assert result.exit_code == 1
    assert any("max_response_bytes" in d.message for d in result.diagnostics), result.diagnostics
