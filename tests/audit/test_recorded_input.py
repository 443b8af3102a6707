"""What real recordings hold besides clean JSON pages, read or named, never dropped in silence
(issue 19 §5).

The HARs are captured from the Twitter-shaped loopback fake (tests/support/recorded_fakes.py)
through an httpx event hook, stored the ways the tools that write HARs store bodies: as text
(Chrome), base64 of the decoded body (Firefox, some proxies), or the wire bytes as the server
sent them, gzip-compressed, base64 (a capturing proxy that does not decode). Then the shapes a
user hits:

* a body stored base64 or still gzip-compressed reads like the same body stored as text;
* an answer compressed with brotli: decoded when the ``brotli`` package is installed, else an
  ``XC018`` warning naming the entry (the package is not a dependency);
* JSON answers whose body the HAR lacks (Chrome leaves out large bodies) or that are cut
  short: an ``XC018`` warning naming the entries, from the API, the command line (text and JSON)
  and verify; the rest is still checked; a HAR with no JSON answer at all is ``XC017`` (exit 2).
  A browser HAR's other entries (HTML, images) are skipped without a word;
* a folder of saved pages holding other files: each named (``XC018``), dot-files ignored, the
  JSON pages still read; a folder with no JSON page is ``XC017``;
* an anti-XSSI prefix before a JSON body (Gerrit's ``)]}'``) is read past, in a HAR and in saved
  pages; other text before the JSON is still "not JSON";
* answers nothing is checked against (pages named after no operation, a HAR of another API):
  ``XC019``.

No warning quotes a body, a cursor or a credential: entries and files are named.
"""

from __future__ import annotations

import base64
import functools
import gzip
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from support.har import brotli_stored
from support.recorded_fakes import (
    SECRET,
    dept_users_app,
    followers_app,
    record,
    walk_dept_users,
    walk_followers,
)
from xcompleteness import api

SPEC = Path(__file__).parent / "recorded" / "followers.yaml"
WALK = functools.partial(walk_followers, count=3)


@pytest.fixture(scope="module")
def recordings(tmp_path_factory) -> dict[str, Path]:
    """One walk of 3 pages, recorded three ways (each in its own folder, all ``session.har``:
    the evidence names the file, so the drafts compare equal)."""
    out = {}
    for body in ("text", "base64", "raw"):
        folder = tmp_path_factory.mktemp(body)
        out[body] = record(followers_app(gzip=True), folder / "session.har", [WALK], body=body)
    return out


def _decl(spec: Path, responses: Path, tmp_path: Path) -> tuple[api.AuditResult, dict[str, Any]]:
    result = api.audit(spec, emit_overlay=tmp_path / "d.yaml", responses=responses, force=True)
    assert result.report is not None, result.diagnostics
    overlay = yaml.safe_load((tmp_path / "d.yaml").read_text("utf-8"))
    return result, overlay["actions"][0]["update"]["x-completeness"]


def _edit(har: Path, out: Path, edit) -> Path:
    data = json.loads(har.read_text("utf-8"))
    edit(data["log"]["entries"])
    out.write_text(json.dumps(data), "utf-8")
    return out


def _reviewed(decl: dict[str, Any], tmp_path: Path) -> Path:
    """The draft with its review questions answered (the visibility said, the page-size
    maximum read as one), as an overlay file."""
    decl = {k: v for k, v in decl.items() if k not in ("x-todo", "x-evidence")}
    decl["scope"] = {**decl["scope"], "visibility": "the followers the token can read"}
    action = {"target": "$.paths['/followers/list.json'].get", "update": {"x-completeness": decl}}
    overlay = {"overlay": "1.0.0", "info": {"title": "t", "version": "1"}, "actions": [action]}
    path = tmp_path / "reviewed.yaml"
    path.write_text(yaml.safe_dump(overlay, sort_keys=False), "utf-8")
    return path


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "xcompleteness", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


@pytest.mark.parametrize("body", ["base64", "raw"])
def test_bodies_stored_base64_or_still_compressed_read_like_text(recordings, tmp_path, body):
    entries = json.loads(recordings[body].read_text("utf-8"))["log"]["entries"]
    stored = base64.b64decode(entries[0]["response"]["content"]["text"])
    assert entries[0]["response"]["content"]["encoding"] == "base64"
    if body == "raw":  # the wire bytes: gzip, as the server sent them
        assert stored[:2] == b"\x1f\x8b" and json.loads(gzip.decompress(stored))["users"]
    _, as_text = _decl(SPEC, recordings["text"], tmp_path)
    result, decl = _decl(SPEC, recordings[body], tmp_path)
    assert result.diagnostics == ()
    assert decl == as_text
    assert any(e.startswith("id: /id is present and unique in 7") for e in decl["x-evidence"])


def test_a_brotli_answer_is_decoded_with_the_brotli_package_or_named(recordings, tmp_path):
    """Page 2 as a proxy records it when the server answers ``Content-Encoding: br``."""

    def brotli(entries: list[dict[str, Any]]) -> None:
        response = entries[1]["response"]
        plain = gzip.decompress(base64.b64decode(response["content"]["text"]))
        response["content"]["text"] = base64.b64encode(brotli_stored(plain)).decode()
        for h in response["headers"]:
            if h["name"].lower() == "content-encoding":
                h["value"] = "br"

    har = _edit(recordings["raw"], tmp_path / "session.har", brotli)
    result, decl = _decl(SPEC, har, tmp_path)
    if importlib.util.find_spec("brotli") or importlib.util.find_spec("brotlicffi"):
        assert result.diagnostics == ()
        assert decl == _decl(SPEC, recordings["text"], tmp_path)[1]
        return
    (warning,) = result.diagnostics
    assert (warning.code, warning.severity.value, warning.pointer) == (
        "XC018",
        "warning",
        "/log/entries/1/response/content",
    )
    assert warning.message == (
        "1 answer(s) of session.har cannot be read: its body is brotli-compressed "
        "(content-encoding: br) and the brotli package is not installed: entry 2"
    )
    assert "brotli" in warning.hint
    assert result.exit_code == 1  # the listing is still drafted from the other pages


def _chrome_like(entries: list[dict[str, Any]]) -> None:
    """Chrome's export: bodies of some JSON answers left out; a page's HTML and an icon beside."""
    for i in (1, 2):
        content = entries[i]["response"]["content"]
        del content["text"]
        content["comment"] = "body not saved"
    html = json.loads(json.dumps(entries[0]))
    html["request"]["url"] = html["request"]["url"].split("/1.1/")[0] + "/home"
    html["response"]["content"] = {"size": 20, "mimeType": "text/html", "text": "<html></html>"}
    icon = json.loads(json.dumps(html))
    icon["response"]["content"] = {"size": 1, "mimeType": "image/x-icon"}
    entries[:0] = [html, icon]


def test_answers_without_their_body_are_named_not_dropped(recordings, tmp_path):
    har = _edit(recordings["text"], tmp_path / "session.har", _chrome_like)
    result, decl = _decl(SPEC, har, tmp_path)
    assert result.exit_code == 1
    (warning,) = result.diagnostics  # the HTML page and the icon are not JSON answers: no word
    assert warning.code == "XC018" and warning.pointer == "/log/entries/3/response/content"
    assert warning.message == (
        "2 JSON answer(s) of session.har have no response body (content.text is missing or "
        "empty; devtools leaves out large or unfinished bodies): entry 4, entry 5; they are not "
        "checked"
    )
    assert "with content" in warning.hint

    text = _cli("audit", str(SPEC), "--responses", str(har))
    assert text.returncode == 1 and "Traceback" not in text.stderr
    assert "warning XC018" in text.stderr and "entry 4, entry 5" in text.stderr
    as_json = _cli("audit", str(SPEC), "--responses", str(har), "--format", "json")
    assert as_json.returncode == 1
    [shown] = json.loads(as_json.stdout)["diagnostics"]
    assert shown["code"] == "XC018" and "entry 4, entry 5" in shown["message"]

    fixed = _reviewed(decl, tmp_path)
    walked = api.verify(SPEC, "", [fixed], recorded=har)
    codes = [d.code for d in walked.diagnostics]
    assert codes[0] == "XC018" and "XC717" in codes  # the walk left the recording at page 2
    for output in (text.stdout, text.stderr, as_json.stdout):
        assert SECRET not in output and "NEVER_PRINT_ME" not in output


def test_a_recording_without_any_json_answer_is_unusable(recordings, tmp_path):
    def no_bodies(entries: list[dict[str, Any]]) -> None:
        for entry in entries:
            del entry["response"]["content"]["text"]

    har = _edit(recordings["text"], tmp_path / "session.har", no_bodies)
    result = api.audit(SPEC, responses=har)
    assert result.exit_code == 2
    assert [d.code for d in result.diagnostics] == ["XC017", "XC018"]
    assert result.diagnostics[0].message == "the HAR file holds no JSON response to check against"
    verify = api.verify(SPEC, "", recorded=har)
    assert verify.exit_code == 2 and [d.code for d in verify.diagnostics] == ["XC017", "XC018"]
    cli = _cli("audit", str(SPEC), "--responses", str(har))
    assert cli.returncode == 2 and "error XC017" in cli.stderr and "Traceback" not in cli.stderr


@pytest.mark.parametrize("prefix", [")]}'\n", ")]}',\n", "for (;;);", "while(1);"])
def test_an_anti_xssi_prefix_is_read_past(recordings, tmp_path, prefix):
    """Gerrit and Google put ``)]}'`` before a JSON body (so a <script> tag cannot run it): the
    answer behind it is read, in a HAR and in saved pages, like the same answer without it."""
    _, plain = _decl(SPEC, recordings["text"], tmp_path)

    def guard(entries: list[dict[str, Any]]) -> None:
        for entry in entries:
            entry["response"]["content"]["text"] = prefix + entry["response"]["content"]["text"]

    har = _edit(recordings["text"], tmp_path / "session.har", guard)
    result, decl = _decl(SPEC, har, tmp_path)
    assert result.diagnostics == ()
    assert decl == plain
    folder = tmp_path / "pages"
    folder.mkdir()
    for n, entry in enumerate(json.loads(har.read_text("utf-8"))["log"]["entries"], 1):
        (folder / f"listFollowers.{n}.json").write_text(entry["response"]["content"]["text"])
    result, decl = _decl(SPEC, folder, tmp_path)
    assert result.diagnostics == ()
    assert decl["reasons"] == plain["reasons"]
    assert any(e.startswith("id: /id is present and unique in 7") for e in decl["x-evidence"])


def test_text_before_json_that_is_no_anti_xssi_prefix_is_still_not_json(recordings, tmp_path):
    def junk(entries: list[dict[str, Any]]) -> None:
        content = entries[2]["response"]["content"]
        content["text"] = ")]} " + content["text"]  # not the prefix: no quote

    result, _ = _decl(SPEC, _edit(recordings["text"], tmp_path / "session.har", junk), tmp_path)
    assert [(d.code, d.pointer) for d in result.diagnostics] == [
        ("XC018", "/log/entries/2/response/content/text")
    ]


def test_a_json_answer_cut_short_is_named_without_quoting_it(recordings, tmp_path):
    def cut(entries: list[dict[str, Any]]) -> None:
        content = entries[2]["response"]["content"]
        content["text"] = content["text"][:40]

    har = _edit(recordings["text"], tmp_path / "session.har", cut)
    result, _ = _decl(SPEC, har, tmp_path)
    (warning,) = result.diagnostics
    assert warning.pointer == "/log/entries/2/response/content/text"
    assert warning.message == (
        "1 JSON answer(s) of session.har do not parse as JSON (cut short?): entry 3; they are "
        "not checked"
    )


def test_a_folder_with_files_that_are_not_json_pages(recordings, tmp_path):
    entries = json.loads(recordings["text"].read_text("utf-8"))["log"]["entries"]
    folder = tmp_path / "pages"
    folder.mkdir()
    for n, entry in enumerate(entries, 1):
        (folder / f"listFollowers.{n}.json").write_text(entry["response"]["content"]["text"])
    (folder / "listFollowers.4.json").write_text("<html>502 Bad Gateway</html>")
    (folder / "README.txt").write_text("pages saved from the browser")
    (folder / ".DS_Store").write_bytes(b"\x00\x00\x00\x01Bud1")
    result, decl = _decl(SPEC, folder, tmp_path)
    assert result.exit_code == 1
    assert [(d.code, d.message) for d in result.diagnostics] == [
        ("XC018", "1 file(s) in the folder are not .json pages and are not read: README.txt"),
        (
            "XC018",
            "listFollowers.4.json is not a JSON page and is not read (JSONDecodeError: Expecting "
            "value at line 1 column 1)",
        ),
    ]
    assert any(  # the three JSON pages are still one walk, checked
        e.startswith("id: /id is present and unique in 7 recorded items (pages/listFollowers.1")
        for e in decl["x-evidence"]
    )
    assert decl["reasons"][0]["when"]["all"][1] == {  # the numeric end, from the folder too
        "not-equals": ["$response.body#/next_cursor", 0]
    }
    walked = api.verify(SPEC, "", [_reviewed(decl, tmp_path)], recorded=folder)
    assert [d.code for d in walked.diagnostics] == ["XC018", "XC018"]  # said again, nothing else
    assert walked.exit_code == 0 and walked.summary[0].startswith("listFollowers: ok (")
    (tmp_path / "only").mkdir()
    (tmp_path / "only" / "README.txt").write_text("nothing saved")
    empty = api.audit(SPEC, responses=tmp_path / "only")
    assert empty.exit_code == 2 and [d.code for d in empty.diagnostics] == ["XC017", "XC018"]


def test_answers_nothing_is_checked_against_are_named(recordings, tmp_path):
    """Saved pages named after no operation (another case), and a HAR of another API: read,
    but nothing matches them. Said (XC019), not a silent 'cross-checked 0 drafts'."""
    entries = json.loads(recordings["text"].read_text("utf-8"))["log"]["entries"]
    folder = tmp_path / "pages"
    folder.mkdir()
    for n, entry in enumerate(entries, 1):
        (folder / f"listfollowers.{n}.json").write_text(entry["response"]["content"]["text"])
    result = api.audit(SPEC, responses=folder)
    assert [(d.code, d.message) for d in result.diagnostics] == [
        (
            "XC019",
            "3 saved page(s) name no operation of the spec, so nothing is checked against them: "
            "pages/listfollowers.1.json, pages/listfollowers.2.json, pages/listfollowers.3.json",
        )
    ]
    assert "as the spec spells it" in result.diagnostics[0].hint
    walked = api.verify(SPEC, "", [], recorded=folder)
    assert [d.code for d in walked.diagnostics][:1] == ["XC019"]
    assert "name no declared listing of the spec" in walked.diagnostics[0].message

    other = record(
        dept_users_app(), tmp_path / "other.har", [functools.partial(walk_dept_users, size=3)]
    )
    result = api.audit(SPEC, responses=other)
    assert [(d.code, d.message) for d in result.diagnostics] == [
        (
            "XC019",
            "none of the 3 JSON answer(s) of the recording matches an operation of the spec by "
            "method and URL path, so nothing is checked against them",
        )
    ]
    cli = _cli("audit", str(SPEC), "--responses", str(other))
    assert cli.returncode == 1 and "warning XC019" in cli.stderr


@pytest.mark.parametrize("coding", ["gzip", "deflate"])
def test_a_compressed_body_that_expands_past_the_size_cap_is_named_not_inflated(
    recordings, tmp_path, coding
):
    """A decompression bomb: a few KB of base64 that would inflate to 50 MB. The loading size
    cap bounds what a body may expand to; the entry is an XC018 warning, the rest is read."""
    import zlib

    from xcompleteness.load import load_recorded
    from xcompleteness.load._limits import Limits

    huge = b'{"users": [' + b" " * 50_000_000 + b"]}"
    if coding == "gzip":
        packed = gzip.compress(huge, compresslevel=9)
    else:
        packed = zlib.compress(huge, 9)
    assert len(packed) < 100_000

    def bomb(entries: list[dict[str, Any]]) -> None:
        response = entries[1]["response"]
        response["content"]["text"] = base64.b64encode(packed).decode()
        response["content"]["encoding"] = "base64"
        response["headers"] = [{"name": "Content-Encoding", "value": coding}]

    har = _edit(recordings["text"], tmp_path / "session.har", bomb)
    recording = load_recorded(har, Limits(max_bytes=1_000_000))
    (warning,) = recording.warnings
    assert warning.code == "XC018" and "entry 2" in warning.message
    assert "expands beyond the 1000000-byte cap" in warning.message
    assert len(recording) == len(json.loads(har.read_text("utf-8"))["log"]["entries"]) - 1


def _gzip_har(path: Path, bodies: list[bytes]) -> Path:
    """A HAR whose JSON answers are the gzip ``bodies`` as a proxy keeps them (base64)."""
    entries = [
        {
            "request": {"method": "GET", "url": f"http://api.test/users?page={i}"},
            "response": {
                "status": 200,
                "headers": [{"name": "Content-Encoding", "value": "gzip"}],
                "content": {
                    "mimeType": "application/json",
                    "encoding": "base64",
                    "text": base64.b64encode(body).decode(),
                },
            },
        }
        for i, body in enumerate(bodies)
    ]
    path.write_text(json.dumps({"log": {"entries": entries}}), "utf-8")
    return path


def test_the_compressed_bodies_of_a_recording_share_one_expansion_budget(tmp_path):
    """Three bodies of 40 KB of gzip, each expanding to 400 KB under a 1 MB cap: one at a time
    each fits, together they would not. The third is an XC018 warning, never inflated (a 64 MB
    HAR of such bodies would otherwise expand to the cap once per entry)."""
    from xcompleteness.load import load_recorded
    from xcompleteness.load._limits import Limits

    body = gzip.compress(b'{"users": [' + b" " * 400_000 + b"]}")
    har = _gzip_har(tmp_path / "bombs.har", [body, body, body])
    recording = load_recorded(har, Limits(max_bytes=1_000_000))
    assert len(recording) == 2
    (warning,) = recording.warnings
    assert warning.code == "XC018" and "entry 3" in warning.message
    assert "what the earlier ones left of the 1000000-byte cap" in warning.message


def test_a_body_of_many_gzip_members_is_read_in_linear_time(tmp_path, monkeypatch):
    """gzip allows members one after another; each used to be decompressed from a copy of all
    the input after it (1 MB of 300-byte members: 3 minutes). Now each member costs at most one
    chunk of input again, whatever follows it: the bytes zlib is given are counted."""
    import zlib

    from xcompleteness.load import load_recorded

    members = [gzip.compress(b'"x",' * 5) for _ in range(2000)]
    body = gzip.compress(b'{"users": [') + b"".join(members) + gzip.compress(b'"x"]}')
    real = zlib.decompressobj
    fed = [0]

    class Counting:
        def __init__(self, wbits: int) -> None:
            self.engine = real(wbits)

        def decompress(self, data: Any, max_length: int = 0) -> bytes:
            fed[0] += len(data)
            return self.engine.decompress(data, max_length)

        def __getattr__(self, name: str) -> Any:
            return getattr(self.engine, name)

    monkeypatch.setattr(zlib, "decompressobj", Counting)
    recording = load_recorded(_gzip_har(tmp_path / "members.har", [body]))
    assert not recording.warnings and len(recording) == 1
    # each member re-reads at most one 1 KiB chunk: ~2 MB; before, the rest of the body: ~60 MB
    assert fed[0] < len(body) + 2002 * 1024
