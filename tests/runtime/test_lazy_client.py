"""The runtime's HTTP client is made on first use, and its TLS context only for https (issue 21).

A first ``page()`` against a plain-HTTP service must not pay for loading the CA bundle; an https
request still gets httpx's default transport with certificate verification. Real loopback server,
real httpx; no mocks.
"""

from __future__ import annotations

import asyncio
import json
import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest
from xcompleteness.runtime.operations import AsyncBaseClient, BaseClient


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - the http.server hook
        body = json.dumps({"ok": True}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def base_url():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def _unused_https_port() -> str:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"https://127.0.0.1:{sock.getsockname()[1]}/"


def test_plain_http_never_builds_a_certificate_context(base_url: str) -> None:
    client = BaseClient(base_url)
    assert client._http is None  # nothing made by the constructor
    view = client.send("get", httpx.URL(base_url))
    assert view.status == 200
    transport = client.http._transport
    assert transport._plain is not None and transport._tls is None
    client.close()


def test_https_gets_the_default_verifying_transport() -> None:
    client = BaseClient(_unused_https_port())
    with pytest.raises(httpx.ConnectError):
        client.send("get", client.base_url)
    tls = client.http._transport._tls
    assert isinstance(tls, httpx.HTTPTransport)
    context = tls._pool._ssl_context
    assert context.verify_mode is ssl.CERT_REQUIRED and context.check_hostname
    assert context.cert_store_stats()["x509_ca"] > 0  # the CA bundle, as httpx loads it
    client.close()


def test_the_plain_transport_trusts_no_certificate() -> None:
    from xcompleteness.runtime.operations import _no_tls

    context = _no_tls()
    assert context.verify_mode is ssl.CERT_REQUIRED
    assert context.cert_store_stats()["x509_ca"] == 0


def test_a_client_you_pass_is_used_as_is(base_url: str) -> None:
    mine = httpx.Client()
    client = BaseClient(base_url, http_client=mine)
    assert client.http is mine
    client.close()
    assert not mine.is_closed  # not ours to close
    mine.close()


def test_async_client_is_lazy_too(base_url: str) -> None:
    async def run() -> None:
        client = AsyncBaseClient(base_url)
        assert client._http is None
        view = await client.send("get", httpx.URL(base_url))
        assert view.status == 200
        assert client.http._transport._tls is None
        await client.aclose()

    asyncio.run(run())
