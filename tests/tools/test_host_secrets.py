"""The host's credentials never reach the model, even from an API that echoes them.

The API (tests/tools/specs/echo_secrets.yaml, uvicorn on loopback) echoes the query key it is
sent into its next links (a Link header, a body next URL percent-encoded in lower-case hex),
into its items (a signed ``self`` URL, an id) and into its errors (with the bearer token). The
generated MCP server runs with ``key`` and an ``Authorization`` header from the host; the model
talks to it through the official SDK client. Whatever the model is shown (structured content,
the text block, the continuation cursor, the evidence token's ids, error and refusal texts) must
hold no form of either secret, and a continuation the model hands back must resume the walk
under the host's key (never one the model wrote into it).
"""

from __future__ import annotations

import base64
import hashlib
import importlib
import json
import re
import zlib
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import quote, quote_plus, unquote_plus

import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from support.gen import generate_and_import
from support.mcp_calls import session
from support.tools_gen import TOOLS_SPECS

SPEC = TOOLS_SPECS / "echo_secrets.yaml"
SECRET = b"e" * 32
KEY = "K1-s3cret+key/value"
TOKEN = "tok-9f8e7d6c5b4a"
BODY_KEY = "B0dy-k3y-0123456789"
HEADERS = {"Authorization": f"Bearer {TOKEN}"}
PAGES = 3
LIST_ARGS = {"max_pages": None, "deadline_s": None, "continuation": None}


@pytest.fixture(scope="module")
def server_mod(tmp_path_factory):
    out = tmp_path_factory.mktemp("xct_echo")
    generate_and_import(SPEC, out, "xct_echo")
    return importlib.import_module("xct_echo.tools.mcp_server")


@pytest.fixture(scope="module")
def tools_dir(server_mod):
    return Path(server_mod.__file__).parent


def _lower_hex(text: str) -> str:
    return re.sub(r"%[0-9A-F]{2}", lambda m: m.group(0).lower(), text)


class EchoApi:
    """Three pages of two things per listing; every answer echoes what it was sent."""

    def __init__(self, encode: Any = None) -> None:
        self.requests: list[tuple[str, dict[str, str]]] = []
        self.raw_queries: list[str] = []
        self.encode = encode or (lambda url: url)
        """How the items' ``self`` URL is written (an API's own encoding of what it echoes)."""

    def app(self) -> FastAPI:
        app = FastAPI()

        def things(page: int, base: str, key: str) -> list[dict[str, str]]:
            out = [
                {
                    "id": f"t{page * 2 + i}",
                    "self": self.encode(f"{base}/things/t{page * 2 + i}?key={quote(key)}"),
                }
                for i in range(2)
            ]
            if page == PAGES - 1:
                out[1]["id"] = f"t5-{key}"  # an id that holds the key: the evidence binds ids
            return out

        @app.get("/linked")
        def linked(request: Request) -> JSONResponse:
            query = dict(request.query_params)
            self.requests.append(("linked", query))
            self.raw_queries.append(request.url.query)
            page = int(query.get("page") or 1) - 1
            base = str(request.base_url).rstrip("/")
            key = query.get("key", "")
            headers = {}
            if page + 1 < PAGES:
                headers["Link"] = (
                    f'<{base}/linked?page={page + 2}&key={quote_plus(key)}>; rel="next"'
                )
            return JSONResponse({"things": things(page, base, key)}, headers=headers)

        @app.get("/paged")
        def paged(request: Request) -> JSONResponse:
            query = dict(request.query_params)
            self.requests.append(("paged", query))
            self.raw_queries.append(request.url.query)
            page = int(query.get("after") or 0)
            base = str(request.base_url).rstrip("/")
            key = query.get("key", "")
            body: dict[str, Any] = {"things": things(page, base, key)}
            if page + 1 < PAGES:
                body["next"] = (
                    f"{base}/paged?after={page + 1}&key={_lower_hex(quote(key, safe=''))}"
                )
            return JSONResponse(body)

        @app.get("/things/{tid}")
        def thing(tid: str, request: Request) -> JSONResponse:
            self.requests.append(("thing", dict(request.query_params)))
            auth = request.headers.get("authorization", "")
            url = str(request.url)
            # a long message: the key falls across the error text's 300-character cut, so the
            # cut leaves its first ten characters
            head = f"{auth} may not read {url} ("
            pad = "x" * (300 - len(head) - 10)
            message = f"{head}{pad}{request.query_params.get('key')})"
            return JSONResponse({"error": {"code": "FORBIDDEN", "message": message}}, 403)

        @app.post("/search")
        async def search(request: Request) -> JSONResponse:
            body = await request.json()
            self.requests.append(("search", {**dict(request.query_params), **body}))
            page = int(request.query_params.get("cursor") or 0)
            out: dict[str, Any] = {
                "things": [
                    {"id": f"s{page}", "self": f"matched {body.get('q')} as {body.get('api_key')}"}
                ]
            }
            if page + 1 < PAGES:
                out["next_cursor"] = str(page + 1)
            return JSONResponse(out)

        @app.post("/things/label")
        async def label(request: Request) -> JSONResponse:
            body = await request.json()
            self.requests.append(("label", body))
            return JSONResponse({"labelled": body.get("ids"), "by": body.get("ApiKey")})

        @app.post("/things/{tid}/purge")
        def purge(tid: str) -> JSONResponse:
            self.requests.append(("purge", {"id": tid}))
            return JSONResponse({})

        return app


def _forms(secret: str) -> set[str]:
    return {
        secret,
        quote(secret),
        quote(secret, safe=""),
        quote_plus(secret),
        _lower_hex(quote(secret, safe="")),
        secret[: len(secret) // 2 + 2],  # a head a length cut would leave
    }


def _token_texts(text: str) -> list[str]:
    """What the base64 tokens in ``text`` hold: client continuations (``xc1.``) and evidence
    (``v1.``, its id set zlib-packed)."""
    out = []
    for prefix, body in re.findall(r"\b(xc1|v1)\.([A-Za-z0-9_-]+)", text):
        raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        out.append(raw.decode("utf-8", "replace"))
        if prefix == "v1":
            ids = json.loads(raw).get("ids")
            if ids:
                packed = base64.urlsafe_b64decode(ids + "=" * (-len(ids) % 4))
                out.append(zlib.decompress(packed).decode())
    return out


def _decoded_runs(text: str) -> list[str]:
    """What every run of hex or base64 characters in ``text`` decodes to (either alphabet, from
    each of the first four characters: an encoded secret left standing shows up here)."""
    out = []
    for run in re.findall(r"[A-Za-z0-9+/_-]{8,}", unquote_plus(text)):
        if len(run) % 2 == 0 and re.fullmatch(r"[0-9A-Fa-f]+", run):
            out.append(bytes.fromhex(run).decode("utf-8", "replace"))
        for skip in range(4):
            part = run[skip:]
            part = part[: len(part) - len(part) % 4]
            for alt in (b"+/", b"-_"):
                try:
                    raw = base64.b64decode(part, altchars=alt, validate=True)
                except ValueError:
                    continue
                out.append(raw.decode("utf-8", "replace"))
    return out


def assert_no_secret(result: Any) -> None:
    """Nothing the model sees holds the key or the token in any form we know of."""
    text = result.content[0].text + json.dumps(result.structured_content)
    assert_no_secret_in(text)


def assert_no_secret_in(text: str) -> None:
    seen = [text, unquote_plus(text), *_token_texts(text)]
    seen += [d for t in list(seen) for d in _decoded_runs(t)]
    for secret in (KEY, TOKEN, BODY_KEY):
        for form in _forms(secret):
            assert not any(form in s for s in seen), (form, text[:2000])


def _cursor(result: Any) -> str:
    cont = result.structured_content["completeness"]["continuation"]
    assert cont["kind"] == "next_cursor", cont
    return cont["cursor"]


@pytest.mark.parametrize("tool", ["list_linked", "list_paged"])
def test_an_echoed_key_never_reaches_the_model_and_the_walk_resumes_under_the_hosts(
    server_mod, tool
):
    api = EchoApi()

    async def body(call):
        first = await call(tool, {**LIST_ARGS, "max_pages": 1})
        cursor = _cursor(first)
        rest = await call(tool, {**LIST_ARGS, "continuation": cursor})
        return first, cursor, rest

    first, cursor, rest = session(
        server_mod, api.app(), body, secret=SECRET, headers=HEADERS, query={"key": KEY}
    )
    for result in (first, rest):
        assert_no_secret(result)
    assert first.structured_content["status"] == "partial"
    assert "key=" not in cursor or "key=***" in cursor  # the cursor shows it was masked
    final = rest.structured_content
    assert final["status"] == "complete", final
    ids = [t["id"] for t in first.structured_content["data"]["things"] + final["data"]["things"]]
    assert ids == ["t0", "t1", "t2", "t3", "t4", "t5-***"]
    # every page (the resumed one too) went out with the host's key, exactly once
    assert [q.get("key") for _, q in api.requests] == [KEY] * PAGES
    assert [len(re.findall(r"(?:^|&)key=", q)) for q in api.raw_queries] == [1] * PAGES


def test_a_complete_listings_evidence_binds_the_masked_ids(server_mod):
    api = EchoApi()

    async def body(call):
        return await call("list_linked", dict(LIST_ARGS))

    result = session(
        server_mod, api.app(), body, secret=SECRET, headers=HEADERS, query={"key": KEY}
    )
    sc = result.structured_content
    assert sc["status"] == "complete" and sc["evidence"], sc
    assert_no_secret(result)  # the token's packed id set included
    assert any("t5-***" in t for t in _token_texts(sc["evidence"]))


def test_a_continuation_the_model_wrote_its_own_key_into_runs_under_the_hosts(server_mod):
    api = EchoApi()

    async def body(call):
        first = await call("list_linked", {**LIST_ARGS, "max_pages": 1})
        forged = _cursor(first).replace("key=***", "key=model-chosen-key")
        forged += "&k%65y=another-model-key"
        return await call("list_linked", {**LIST_ARGS, "continuation": forged})

    result = session(
        server_mod, api.app(), body, secret=SECRET, headers=HEADERS, query={"key": KEY}
    )
    assert result.structured_content["status"] == "complete"
    assert_no_secret(result)
    assert [q.get("key") for _, q in api.requests] == [KEY] * PAGES  # never the model's
    assert not any("model" in q for q in api.raw_queries)


def test_errors_and_refusals_that_quote_the_credentials_are_masked(server_mod):
    api = EchoApi()

    async def body(call):
        read = await call("get_thing", {"id": "t0"})
        purge = await call("purge_thing", {"id": "t0"})
        return read, purge

    read, purge = session(
        server_mod, api.app(), body, secret=SECRET, headers=HEADERS, query={"key": KEY}
    )
    assert read.structured_content["status"] == "error"
    assert read.structured_content["error"]["code"] == "FORBIDDEN"
    message = read.structured_content["error"]["message"]
    assert message.startswith("HTTP 403: *** may not read ") and message.endswith("x***"), message
    assert purge.structured_content["status"] == "error"
    assert purge.structured_content["error"]["code"] == "EVIDENCE_REJECTED"  # the re-read failed
    for result in (read, purge):
        assert_no_secret(result)
    assert ("purge", {"id": "t0"}) not in api.requests


def test_the_dynamic_toolsets_call_tool_is_masked_the_same_way(server_mod):
    api = EchoApi()

    async def body(call):
        args = {"name": "list_linked", "arguments": {**LIST_ARGS, "max_pages": 1}}
        return await call("call_tool", args)

    result = session(
        server_mod,
        api.app(),
        body,
        secret=SECRET,
        headers=HEADERS,
        query={"key": KEY},
        toolset="dynamic",
    )
    assert result.structured_content["status"] == "partial"
    assert_no_secret(result)


# -- credentials in a request body ------------------------------------------------------------


def test_no_target_offers_a_body_credential_and_the_server_knows_to_add_it(tools_dir):
    mcp = {t["name"]: t for t in json.loads((tools_dir / "mcp.json").read_text())["tools"]}
    openai = json.loads((tools_dir / "openai.json").read_text())["responses"]
    anthropic = json.loads((tools_dir / "anthropic.json").read_text())["tools"]
    for name, kept in (("search_things", {"q"}), ("label_things", {"ids", "label"})):
        schemas = [
            mcp[name]["inputSchema"],
            next(t["parameters"] for t in openai if t["name"] == name),
            next(t["input_schema"] for t in anthropic if t["name"] == name),
        ]
        for schema in schemas:
            props = set(schema["properties"])
            assert kept <= props and not props & {"api_key", "ApiKey"}, (name, props)
    assert mcp["search_things"]["_meta"]["x-completeness/host_body"] == ["api_key"]
    assert mcp["label_things"]["_meta"]["x-completeness/host_body"] == ["ApiKey"]
    assert "x-completeness/host_body" not in mcp["list_linked"]["_meta"]


def test_the_host_supplies_body_credentials_and_none_reaches_the_model(server_mod):
    api = EchoApi()

    async def body(call):
        refused = await call("search_things", {**LIST_ARGS, "q": "x", "api_key": "model-key"})
        found = await call("search_things", {**LIST_ARGS, "q": "x"})
        labelled = await call("label_things", {"ids": ["s0"], "label": "red"})
        return refused, found, labelled

    refused, found, labelled = session(
        server_mod,
        api.app(),
        body,
        secret=SECRET,
        headers=HEADERS,
        body={"api_key": BODY_KEY, "ApiKey": BODY_KEY},
    )
    assert refused.structured_content["error"]["code"] == "INVALID_ARGUMENTS"
    assert refused.structured_content["error"]["message"] == "/api_key: not allowed"
    assert found.structured_content["status"] == "complete"
    assert [t["self"] for t in found.structured_content["data"]["things"]] == [
        "matched x as ***"
    ] * PAGES
    assert labelled.structured_content["status"] == "complete", labelled.structured_content
    for result in (refused, found, labelled):
        assert_no_secret(result)
    sent = [(kind, r.get("api_key", r.get("ApiKey"))) for kind, r in api.requests]
    assert sent == [("search", BODY_KEY)] * PAGES + [("label", BODY_KEY)]  # never the model's


def test_a_body_credential_names_the_evidence_principal(server_mod):
    evidence = importlib.import_module("xct_echo._runtime.evidence")
    one = server_mod.build_host("http://127.0.0.1:1", {}, body={"api_key": BODY_KEY}, secret=SECRET)
    two = server_mod.build_host(
        "http://127.0.0.1:1", {}, body={"api_key": "other-0123456"}, secret=SECRET
    )
    bare = evidence.principal_of("http://127.0.0.1:1", {})
    assert len({one.keeper.principal, two.keeper.principal, bare}) == 3


def test_the_generated_readme_names_the_body_credentials_the_host_supplies(tools_dir):
    readme = (tools_dir.parents[1] / "README.md").read_text(encoding="utf-8")
    assert "credential in the request body (ApiKey, api_key)" in readme
    assert "--body-field-env ApiKey=API_KEY" in readme


def test_the_server_cli_takes_body_credentials_from_flags_and_the_environment(
    server_mod, monkeypatch
):
    monkeypatch.setenv("XCT_ECHO_BODY_KEY", BODY_KEY)
    args = server_mod.parse_args(
        ["--base-url", "http://127.0.0.1:1", "--body-field", "ApiKey=v1-abc"]
        + ["--body-field-env", "api_key=XCT_ECHO_BODY_KEY"]
    )
    assert dict(args.body) == {"ApiKey": "v1-abc", "api_key": BODY_KEY}


# -- the mechanism, directly -----------------------------------------------------------------


def _redactor(**kw: Any):
    from xcompleteness.runtime.redaction import Redactor

    client = SimpleNamespace(
        params=kw.get("params", {"key": KEY}),
        headers=kw.get("headers", HEADERS),
        base_url=kw.get("base_url", "https://api.example/v1/"),
    )
    return Redactor.of(client)


@pytest.mark.parametrize(
    "text",
    [
        f"?page=2&key={KEY}",
        f"?page=2&key={quote(KEY, safe='')}",
        f"?page=2&key={_lower_hex(quote(KEY, safe=''))}",
        f"?page=2&key={quote(quote(KEY, safe=''), safe='')}",  # encoded twice
        "?page=2&k%65y=anything",  # the name encoded
        f"quoted in prose: {KEY}.",
        f"{'x' * 290} {KEY[:9]}",  # cut at a length limit
        f"{KEY[:10]}…",
        f"Bearer {TOKEN}",
        f"the token {TOKEN} expired",
    ],
)
def test_every_known_form_of_a_host_secret_is_masked(text):
    out = _redactor().scrub({"t": text, text: 1})
    for secret in (KEY, TOKEN):
        for form in _forms(secret) - {secret[: len(secret) // 2 + 2]}:
            assert form not in json.dumps(out), (text, out)
    assert "***" in out["t"]


def test_headers_that_carry_no_credential_and_short_values_are_left_alone():
    redactor = _redactor(
        params={"v": "1"}, headers={"Accept": "application/json", "X-Api-Version": "2022-11-28"}
    )
    data = {"type": "application/json", "date": "2022-11-28", "n": "1", "url": "https://x/?v=1"}
    assert redactor.scrub(data) == {**data, "url": "https://x/?v=***"}


def test_basic_cookie_and_userinfo_credentials_are_secrets():
    basic = base64.b64encode(b"alice:pa55word-xyz").decode()
    redactor = _redactor(
        params={},
        headers={"Authorization": f"Basic {basic}", "Cookie": "sid=s3ss10n-value; theme=dark"},
        base_url="https://bob:hunter2-secret@api.example/",
    )
    out = json.dumps(
        redactor.scrub(
            ["pa55word-xyz", basic, "alice:pa55word-xyz", "s3ss10n-value", "hunter2-secret"]
        )
    )
    assert out == json.dumps(["***"] * 5)


def test_a_client_continuation_token_is_scrubbed_inside_and_rebound():
    from xcompleteness.runtime.walk_continuations import decode_continuation, encode_continuation

    redactor = _redactor()
    url = f"https://api.example/v1/x?after=2&key={quote(KEY, safe='')}"
    token = encode_continuation({"o": "op", "s": "cursor", "c": url, "n": 4})
    shown = redactor.scrub({"cursor": token})["cursor"]
    assert decode_continuation(shown)["c"] == "https://api.example/v1/x?after=2&key=***"
    back = decode_continuation(redactor.rebind(shown))
    assert back == {"o": "op", "s": "cursor", "c": "https://api.example/v1/x?after=2", "n": 4}
    assert redactor.rebind("opaque-cursor") == "opaque-cursor"


# -- an API that echoes the key in an encoding of its own --------------------------------------


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def _b64url(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


ENCODINGS = {
    "base64": _b64,
    "base64, one byte before": lambda t: _b64("x" + t),
    "base64, two bytes before": lambda t: _b64("xy" + t),
    "base64url, no padding": _b64url,
    "hex": lambda t: t.encode().hex(),
    "HEX": lambda t: t.encode().hex().upper(),
    "opaque JSON cursor": lambda t: _b64url(json.dumps({"after": 2, "next": t, "v": 1})),
    "base64 in a query": lambda t: "https://cdn.example/r?sig=" + quote(_b64(t), safe=""),
}


@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
def test_a_key_the_api_echoes_in_its_own_encoding_never_reaches_the_model(server_mod, encoding):
    """Each item's ``self`` is the signed URL (holding the host's key) in an encoding servers
    use for what they echo: base64 (either alphabet, at each of its three offsets), hex, an
    opaque cursor. The model sees ``***`` for it; the walk is unharmed."""
    api = EchoApi(encode=ENCODINGS[encoding])

    async def body(call):
        return await call("list_paged", dict(LIST_ARGS))

    result = session(
        server_mod, api.app(), body, secret=SECRET, headers=HEADERS, query={"key": KEY}
    )
    sc = result.structured_content
    assert sc["status"] == "complete", sc
    assert_no_secret(result)
    things = sc["data"]["things"]
    assert [t["id"] for t in things] == ["t0", "t1", "t2", "t3", "t4", "t5-***"]
    assert all("***" in t["self"] for t in things), things
    assert [q.get("key") for _, q in api.requests] == [KEY] * PAGES


@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
@pytest.mark.parametrize("secret", [KEY, TOKEN])
@pytest.mark.parametrize("where", ["url", "alone", "quoted"])
def test_every_encoding_at_every_offset_is_masked(encoding, secret, where):
    text = {
        "url": f"https://api.example/v1/x?page=2&key={quote(secret, safe='')}&z=1",
        "alone": secret,
        "quoted": f"the token {secret} was refused",
    }[where]
    for lead in ("", "a", "ab", "abc"):
        shown = ENCODINGS[encoding](lead + text)
        out = _redactor().scrub({"v": shown, "in": f"see {shown}, then more"})
        assert_no_secret_in(json.dumps(out))
        assert out["v"] == "***" or out["v"].startswith("https://cdn.example/r?sig=***"), out
        assert out["in"].startswith("see ") and out["in"].endswith(", then more"), out


def test_encoded_data_without_a_secret_is_left_alone():
    """Hex digests, base64 of other URLs, opaque cursors of other things: untouched (the masked
    stretches are at least ten characters that depend on a secret alone)."""
    data = {
        "sha": hashlib.sha256(b"x").hexdigest(),
        "cursor": _b64url(json.dumps({"after": 2, "next": "https://api.example/v1/x?page=3"})),
        "b64": _b64("https://api.example/v1/things/t1?key=another-key-entirely"),
        "id": "item-0123456789abcdef",
    }
    assert _redactor().scrub(data) is data


def test_a_long_encoded_run_is_masked_in_linear_time():
    """The run around a match is found by one scan each way (never by a backtracking pattern):
    200,000 base64 characters before the encoded key, and many runs beside it, stay cheap."""
    import time

    redactor = _redactor()
    shown = "A" * 200_000 + _b64("xx" + KEY) + " " + "QUJD " * 50_000
    started = time.process_time()
    out = redactor.scrub({"v": shown})
    assert out["v"].startswith("***") and "K1-s3" not in out["v"]
    # a hang guard, not a speed target (a quadratic scan of this text would take hours)
    assert time.process_time() - started < 30
