"""Hostile specs and overlays (issue 18, items 1, 7, 9 and 10): the one ``$ref`` policy runs after
the overlays; the document after overlays has the input's size budget; numbers, duplicate keys,
cycles and control characters give located diagnostics, never a traceback or a flood."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.hostile import SPEC, codes, run, schema_ref, write_overlay, write_spec

OUTSIDE_SECRET = "TOP-SECRET-CONTENTS-1234"


@pytest.fixture
def secret_outside(tmp_path: Path) -> Path:
    """A file outside the spec's folder that is itself a valid schema (quietly usable)."""
    path = tmp_path / "outside.yaml"
    path.write_text(f"type: object\ndescription: {OUTSIDE_SECRET}\n", encoding="utf-8")
    return path


@pytest.fixture
def counting_server() -> Iterator[tuple[str, list[str]]]:
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            hits.append(self.path)
            body = b'{"type": "object"}'
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/x", hits
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize(
    ("ref", "code", "allow"),
    [
        ("file:///etc/passwd", "XC009", False),
        ("/etc/passwd", "XC008", False),
        ("/etc/passwd", "XC011", True),
        ("../outside.yaml", "XC008", False),
        ("../outside.yaml", "XC011", True),
    ],
)
@pytest.mark.parametrize("command", ["check", "generate"])
def test_an_overlay_ref_meets_the_same_policy_as_a_spec_ref(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    secret_outside: Path,
    ref: str,
    code: str,
    allow: bool,
    command: str,
) -> None:
    folder = tmp_path / "in"
    spec = write_spec(folder)
    overlay = write_overlay(folder, schema_ref(ref))
    argv = [command, str(spec), "--overlay", str(overlay)]
    argv += ["-o", str(tmp_path / "out")] if command == "generate" else []
    argv += ["--allow-external-refs"] if allow else []
    rc, out, err = run(capsys, *argv)
    assert rc == 2, err
    assert code in codes(err)
    assert "root:x:" not in out + err and OUTSIDE_SECRET not in out + err
    assert str(overlay) in err  # located in the overlay that wrote the ref
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("command", ["check", "generate", "audit"])
def test_an_overlay_url_ref_is_never_fetched(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    counting_server: tuple[str, list[str]],
    command: str,
) -> None:
    url, hits = counting_server
    spec = write_spec(tmp_path)
    overlay = write_overlay(tmp_path, schema_ref(url))
    argv = [command, str(spec), "--overlay", str(overlay)]
    argv += ["-o", str(tmp_path / "out")] if command == "generate" else []
    rc, _, err = run(capsys, *argv)
    assert rc == 2 and "XC009" in codes(err)
    assert hits == []


@pytest.mark.parametrize(
    "ref", ["x" * 5000 + ".yaml#/A", "a%00b.yaml#/A", "d/" * 3000 + "s.yaml"], ids=str.__len__
)
def test_a_ref_to_a_name_the_system_refuses_is_xc011(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], ref: str
) -> None:
    """A file name too long for the system, or holding a NUL byte once unquoted, names no file:
    ``XC011`` like a missing one (the fuzz campaign found an ``OSError`` traceback)."""
    spec = write_spec(tmp_path)
    overlay = write_overlay(tmp_path, schema_ref(ref))
    argv = ["check", str(spec), "--overlay", str(overlay), "--allow-external-refs"]
    rc, _out, err = run(capsys, *argv)
    assert rc == 2 and codes(err) == {"XC011"}, err


def test_a_file_inside_the_folder_that_cannot_be_read_is_named_not_quoted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = write_spec(tmp_path)
    (tmp_path / "broken.yaml").write_text(f"a: [{OUTSIDE_SECRET}\n", encoding="utf-8")
    overlay = write_overlay(tmp_path, schema_ref("broken.yaml"))
    rc, out, err = run(
        capsys, "check", str(spec), "--overlay", str(overlay), "--allow-external-refs"
    )
    assert rc == 2 and "XC011" in codes(err)
    assert OUTSIDE_SECRET not in out + err


def test_one_overlay_action_cannot_amplify_past_the_size_cap(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = write_spec(tmp_path)
    big = {"x-blob": "y" * 5_000}  # 4 matches: 20 KB from a 5 KB overlay
    overlay = write_overlay(tmp_path, {"target": "$..[?@.type]", "update": big})
    monkeypatch.setenv("XC_MAX_SPEC_BYTES", "15000")
    rc, _, err = run(capsys, "check", str(spec), "--overlay", str(overlay))
    assert rc == 2 and "XC002" in codes(err)
    assert str(overlay) in err and "/actions/0/update" in err
    monkeypatch.setenv("XC_MAX_SPEC_BYTES", str(1 << 20))
    rc, _, err = run(capsys, "check", str(spec), "--overlay", str(overlay))
    assert "XC002" not in codes(err)


def test_an_overlay_that_removes_everything_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = write_spec(tmp_path)
    overlay = write_overlay(tmp_path, {"target": "$.*", "remove": True})
    rc, _, err = run(capsys, "check", str(spec), "--overlay", str(overlay))
    assert rc == 2 and "XC007" in codes(err)
    assert err.startswith(str(overlay)) and "after the overlays" in err


def test_an_overlay_cannot_nest_past_the_depth_cap(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = write_spec(tmp_path)
    deep: dict[str, object] = {}
    node = deep
    for _ in range(30):
        node["a"] = {}
        node = node["a"]  # type: ignore[assignment]
    overlay = write_overlay(tmp_path, {"target": "$..properties.items", "update": deep})
    monkeypatch.setenv("XC_MAX_DEPTH", "32")
    rc, _, err = run(capsys, "check", str(spec), "--overlay", str(overlay))
    assert rc == 2 and "XC005" in codes(err)


def test_a_cross_file_ref_cycle_is_xc010(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = json.loads(json.dumps(SPEC))
    spec["components"] = {"schemas": {"A": {"$ref": "other.yaml#/B"}}}
    path = write_spec(tmp_path, spec)
    (tmp_path / "other.yaml").write_text(
        "B: {$ref: 'spec.yaml#/components/schemas/A'}\n", encoding="utf-8"
    )
    rc, _, err = run(capsys, "check", str(path), "--allow-external-refs")
    assert rc == 2 and codes(err) == {"XC010"}
    assert "other.yaml#/B" in err


@pytest.mark.parametrize("where", ["spec.json", "spec.yaml"])
def test_huge_integers_are_a_syntax_error_not_a_crash_or_an_echo(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    digits = "7" * 100_000
    text = json.dumps(SPEC).replace('"1"}', '"1", "x-n": ' + digits + "}", 1)
    path = tmp_path / where
    path.write_text(text, encoding="utf-8")
    rc, out, err = run(capsys, "check", str(path))
    assert rc == 2 and "XC003" in codes(err)
    assert "XC000" not in codes(err) and len(out + err) < 2_000


def test_json_duplicate_keys_get_the_yaml_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = json.dumps(SPEC, indent=1).replace(
        '"title": "hostile",', '"title": "hostile",\n  "title": "again",', 1
    )
    path = tmp_path / "spec.json"
    path.write_text(text, encoding="utf-8")
    rc, _, err = run(capsys, "check", str(path))
    assert "XC013" in codes(err)
    assert "spec.json#/info/title" in err


def test_terminal_escapes_from_the_spec_are_printed_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = json.loads(json.dumps(SPEC))
    spec["paths"]["/evil\x1b[2J\x1b]0;pwned\x07"] = {"get": {"responses": {}}}
    path = write_spec(tmp_path, spec, "spec.json")
    rc, _, err = run(capsys, "check", str(path))
    assert rc == 1
    assert "\x1b" not in err and "\x07" not in err
    assert "\\x1b[2J" in err


def test_a_yaml_document_over_the_yaml_cap_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = write_spec(tmp_path)
    twin = write_spec(tmp_path, name="spec.json")
    monkeypatch.setenv("XC_MAX_YAML_BYTES", "200")
    rc, _, err = run(capsys, "check", str(spec))
    assert rc == 2 and "XC002" in codes(err) and "YAML" in err
    rc, _, err = run(capsys, "check", str(twin))  # the same content as JSON is under no YAML cap
    assert "XC002" not in codes(err)


@pytest.mark.parametrize("name", ["spec.yaml", "spec.json"])
def test_a_mixed_type_enum_is_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    spec = json.loads(json.dumps(SPEC))
    items = spec["paths"]["/items"]["get"]["responses"]["200"]["content"]["application/json"]
    items["schema"]["properties"]["items"]["items"]["properties"]["v"] = {
        "enum": [1, "1", True, None, 1.5]
    }
    rc, _, err = run(capsys, "check", str(write_spec(tmp_path, spec, name)))
    assert rc == 0 and codes(err) == {"XC016"}
    assert "/properties/v/enum" in err


def test_a_mixed_type_enum_an_overlay_writes_is_a_warning_in_the_overlay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = write_spec(tmp_path)
    overlay = write_overlay(
        tmp_path,
        {
            "target": "$.paths['/items'].get.responses['200'].content['application/json']"
            ".schema.properties",
            "update": {"v": {"enum": ["a", 2]}},
        },
    )
    rc, _, err = run(capsys, "check", str(spec), "--overlay", str(overlay))
    assert rc == 0 and codes(err) == {"XC016"} and err.startswith(str(overlay))


@pytest.mark.parametrize("name", ["plan.json", "plan.yaml"])
def test_a_huge_integer_in_a_mock_plan_names_the_plan_briefly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    spec = write_spec(tmp_path)
    plan = tmp_path / name
    number = "9" * 100_000
    plan.write_text('{"items": ' + number + "}" if name.endswith(".json") else "items: " + number)
    rc, out, err = run(capsys, "mock", str(spec), "--faults", str(plan), "--port", "0")
    assert rc == 2 and "XC003" in codes(err) and "XC000" not in codes(err)
    assert err.startswith(str(plan)) and len(out + err) < 2_000


@pytest.mark.parametrize("target", ["$..*..*", "$..*..*..*", "$..[?@..type]", "$..x..y"])
def test_a_target_whose_evaluation_explodes_is_refused_before_it_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str
) -> None:
    """Each descendant segment nested in another multiplies the evaluation by the document's
    depth: ``$..*..*`` on a 600 KB real spec found 291,626 matches, and ``check`` with it took
    10.7 s of CPU and 509 MB. One ``..`` per target is evaluated; more is XC022 at the target,
    with nothing evaluated or applied."""
    spec = write_spec(tmp_path)
    overlay = write_overlay(tmp_path, {"target": target, "update": {}})
    rc, _, err = run(capsys, "check", str(spec), "--overlay", str(overlay))
    assert rc == 2 and codes(err) == {"XC022"}, err
    assert "descendant segments ('..')" in err and "/actions/0/target" in err


def test_a_dot_dot_inside_a_string_literal_is_no_descent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = write_spec(tmp_path)
    target = "$..[?@.operationId=='a..b' || @.operationId==\"listItems\"]"
    overlay = write_overlay(tmp_path, {"target": target, "update": {"x-note": "ok"}})
    rc, _, err = run(capsys, "check", str(spec), "--overlay", str(overlay))
    assert "XC022" not in codes(err) and "XC021" not in codes(err), err


def test_a_target_matching_more_nodes_than_the_cap_applies_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Evaluation stops at the first match past the cap (100,000; 50 here, so the spec stays
    small) and nothing of the action is applied: XC002 at the target."""
    from xcompleteness.load import _overlay

    monkeypatch.setattr(_overlay, "MAX_TARGET_MATCHES", 50)
    MAX_TARGET_MATCHES = 50
    spec = json.loads(json.dumps(SPEC))
    count = MAX_TARGET_MATCHES + 1
    spec["components"] = {"schemas": {f"S{i}": {"type": "object"} for i in range(count)}}
    path = write_spec(tmp_path, spec, name="spec.json")
    overlay = write_overlay(tmp_path, {"target": "$.components.schemas.*", "update": {"x-a": 1}})
    rc, _, err = run(capsys, "check", str(path), "--overlay", str(overlay))
    assert rc == 2 and "XC002" in codes(err), err[-2000:]
    assert f"matches more than {MAX_TARGET_MATCHES} nodes" in err


def test_per_match_refusals_of_one_action_are_reported_once_each_up_to_a_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``$..*`` with an object update refuses every scalar it matches: the first ten are
    reported, the rest counted in one diagnostic (``$..*`` on a 600 KB real spec matched 25,695
    nodes: one diagnostic for each scalar among them)."""
    from xcompleteness.load._overlay import MAX_MATCH_ERRORS

    spec = json.loads(json.dumps(SPEC))
    spec["components"] = {"schemas": {f"S{i}": {"type": "string"} for i in range(50)}}
    path = write_spec(tmp_path, spec, name="spec.json")
    overlay = write_overlay(tmp_path, {"target": "$..type", "update": {"x-a": 1}})
    rc, _, err = run(capsys, "check", str(path), "--overlay", str(overlay))
    assert rc == 2 and codes(err) == {"XC023"}, err
    scalars = json.dumps(spec).count('"type": "')  # every `type` that is a string
    assert scalars > 50
    assert err.count("error XC023") == MAX_MATCH_ERRORS + 1
    assert f"and {scalars - MAX_MATCH_ERRORS} more match(es)" in err
