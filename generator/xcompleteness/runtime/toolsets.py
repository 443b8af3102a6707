"""Tool subsets and the dynamic toolset (search -> describe -> call) over one :class:`ToolHost`.

Why here and not in the server template: the subset closure and the meta-tools decide what an
agent can reach, so they are ordinary, directly tested code, and the generator's
``generate --tools`` uses the same :func:`select` as the MCP server's ``--tools``.

- :func:`select` -- operations picked by OpenAPI tag, operationId, tool name or glob, closed
  under listing <-> mutation evidence: a subset never holds a mutation without the listing whose
  evidence it needs, nor such a listing without its mutations.
- :class:`DynamicHost` -- three meta-tools (``search_tools``, ``describe_tools``, ``call_tool``).
  ``call_tool`` hands the call to :meth:`ToolHost.call` unchanged, so the envelope, the evidence
  gate, single use and refusals are the very code path of the direct tool.
- :func:`search` -- deterministic lexical search (no embeddings, no models): words of the tool
  name, operationId, resource, tags and summary, weighted, with an inverse-document-frequency
  factor; ties break by name.
"""

from __future__ import annotations

import fnmatch
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .contract import Contract
from .expressions import read_json
from .tool_result import error_result
from .validation import validate

__all__ = [
    "DYNAMIC_TOOLS",
    "DynamicHost",
    "SelectionError",
    "closure",
    "search",
    "select",
    "words",
]

DYNAMIC_TOOLS = ("search_tools", "describe_tools", "call_tool")
META = "x-completeness/search"
MAX_RESULTS = 50
MAX_DESCRIBE = 20
_SPLIT = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|[^A-Za-z0-9]+")
_WEIGHTS = (("name", 3.0), ("resource", 3.0), ("tags", 2.0), ("summary", 1.0))


class SelectionError(ValueError):
    """Selectors that matched no tool (``unmatched``): a typo never silently selects nothing."""

    def __init__(self, unmatched: Sequence[str]) -> None:
        self.unmatched = tuple(unmatched)
        super().__init__("no tool matches " + ", ".join(repr(s) for s in self.unmatched))


# --------------------------------------------------------------------------- subsets


def closure(operations: Iterable[str], contracts: Mapping[str, Contract]) -> set[str]:
    """``operations`` plus every listing a chosen mutation needs evidence from, every mutation
    that needs a chosen listing's evidence, and the single read a chosen recheck mutation
    re-reads (to a fixed point; only operations in ``contracts``)."""
    chosen = {op for op in operations if op in contracts}
    while True:
        more: set[str] = set()
        for op_id, contract in contracts.items():
            source = str(contract.evidence_from) if contract.evidence_from else None
            if op_id in chosen:
                more.update(
                    s for s in (source, contract.recheck_each_target) if s and str(s) in contracts
                )
            elif source in chosen:
                more.add(op_id)
        more = {str(m) for m in more} - chosen
        if not more:
            return chosen
        chosen |= more


def select(
    selectors: Iterable[str],
    entries: Iterable[tuple[str, str, Sequence[str]]],
    contracts: Mapping[str, Contract],
) -> set[str]:
    """The operationIds picked by ``selectors`` (closed under evidence, see :func:`closure`).

    ``entries`` are ``(operationId, tool name, tags)``. A selector matches an operationId, a
    tool name or a tag, exactly or as a glob (``*``, ``?``, ``[...]``), case-insensitively; a
    comma separates several in one string. Raises :class:`SelectionError` for selectors that
    match nothing.
    """
    wanted = [s.strip() for raw in selectors for s in str(raw).split(",") if s.strip()]
    rows = list(entries)
    picked: set[str] = set()
    unmatched = []
    for selector in wanted:
        pattern = selector.lower()
        hits = {
            op
            for op, name, tags in rows
            if any(fnmatch.fnmatchcase(k.lower(), pattern) for k in (op, name, *tags))
        }
        if not hits:
            unmatched.append(selector)
        picked |= hits
    if unmatched:
        raise SelectionError(unmatched)
    return closure(picked, contracts)


# --------------------------------------------------------------------------- search


def words(text: Any) -> list[str]:
    """Lower-case words of ``text`` (camelCase, snake_case and punctuation split), each reduced
    by a small plural rule (``repositories`` -> ``repository``, ``items`` -> ``item``)."""
    if isinstance(text, (list, tuple)):
        return [w for part in text for w in words(part)]
    if not isinstance(text, str):
        return []
    return [_stem(w.lower()) for w in _SPLIT.split(text) if w]


def _stem(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ses", "xes", "ches", "shes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _fields(tool: Mapping[str, Any]) -> dict[str, set[str]]:
    meta = (tool.get("_meta") or {}).get(META) or {}
    op = (tool.get("_meta") or {}).get("x-completeness/operation")
    return {
        "name": set(words(tool.get("name"))) | set(words(op)),
        "resource": set(words(meta.get("resource"))),
        "tags": set(words(meta.get("tags") or [])),
        "summary": set(words(meta.get("summary"))),
    }


def _hits(term: str, word: str) -> bool:
    """``term`` is ``word`` or, from three letters on, starts it (``repo`` finds ``repository``)."""
    return term == word or (len(term) >= 3 and word.startswith(term))


def search(
    tools: Sequence[Mapping[str, Any]], query: str, limit: int = 10
) -> list[tuple[float, Mapping[str, Any]]]:
    """The tools that best match ``query``, best first: ``[(score, tool), ...]`` (score > 0).

    Each query word scores the heaviest field it appears in (name 3, resource 3, tags 2,
    summary 1; a word that only starts a field word counts half), times
    ``log(1 + N / df)`` so rare words weigh more than ones every tool has.
    """
    indexed = [(tool, _fields(tool)) for tool in tools]
    terms = list(dict.fromkeys(words(query)))
    if not terms or not indexed:
        return []
    every = [set().union(*f.values()) for _, f in indexed]
    n = len(indexed)
    idf = {
        t: math.log(1 + n / max(1, sum(1 for v in every if any(_hits(t, w) for w in v))))
        for t in terms
    }
    scored = []
    for tool, fields in indexed:
        score = 0.0
        for term in terms:
            best = 0.0
            for field, weight in _WEIGHTS:
                if term in fields[field]:
                    best = max(best, weight)
                elif any(_hits(term, w) for w in fields[field]):
                    best = max(best, weight / 2)
            score += best * idf[term]
        if score > 0:
            scored.append((round(score, 6), tool))
    scored.sort(key=lambda pair: (-pair[0], str(pair[1].get("name"))))
    return scored[: max(1, min(int(limit), MAX_RESULTS))]


# --------------------------------------------------------------------------- the dynamic host


class DynamicHost:
    """The three meta-tools over a :class:`ToolHost` (``host``); ``definitions`` are the
    ``dynamic`` list of ``mcp.json``. ``call`` answers ``(structured result, is_error)``."""

    def __init__(self, host: Any, definitions: Sequence[Mapping[str, Any]]) -> None:
        self.host = host
        self.meta = {str(d["name"]): d for d in definitions}

    def definitions(self) -> list[Mapping[str, Any]]:
        return [self.meta[name] for name in DYNAMIC_TOOLS if name in self.meta]

    def call(self, name: str, arguments: Mapping[str, Any] | None) -> tuple[dict[str, Any], bool]:
        defn = self.meta.get(name)
        if defn is None:
            return error_result("UNKNOWN_TOOL", "no tool of that name"), True
        args = dict(arguments or {})
        schema = defn["inputSchema"]
        for key, sub in (schema.get("properties") or {}).items():
            if key not in args and not validate(None, sub):
                args[key] = None
        if name == "call_tool":
            return self._call_tool(args)
        problems = validate(args, schema)
        if problems:
            return error_result("INVALID_ARGUMENTS", "; ".join(problems)[:2000]), True
        if name == "search_tools":
            return self._search(str(args["query"]), args.get("limit") or 10), False
        return self._describe(list(args["names"])), False

    def _call_tool(self, args: Mapping[str, Any]) -> tuple[dict[str, Any], bool]:
        """The direct tool's own answer, untouched (same envelope, same gate, same refusals)."""
        name = args.get("name")
        inner = args.get("arguments")
        if isinstance(inner, str):
            try:
                inner = read_json(inner) if inner.strip() else {}
            except ValueError:
                return error_result("INVALID_ARGUMENTS", "/arguments: not valid JSON"), True
        if not isinstance(name, str) or name in self.meta:
            return error_result("UNKNOWN_TOOL", "no tool of that name"), True
        if inner is not None and not isinstance(inner, dict):
            return error_result("INVALID_ARGUMENTS", "/arguments: expected an object"), True
        return self.host.call(name, inner or {})

    def _visible(self) -> list[Mapping[str, Any]]:
        return [t.definition for t in self.host.tools.values()]

    def _search(self, query: str, limit: int) -> dict[str, Any]:
        hits = search(self._visible(), query, limit)
        return {
            "query": query,
            "tools": [_hit(tool, score, self.host) for score, tool in hits],
        }

    def _describe(self, names: list[str]) -> dict[str, Any]:
        known = self.host.tools
        asked = list(dict.fromkeys(str(n) for n in names))[:MAX_DESCRIBE]
        return {
            "tools": [self.host.published(known[n].definition) for n in asked if n in known],
            "unknown": [n for n in asked if n not in known],
        }


def _hit(tool: Mapping[str, Any], score: float, host: Any) -> dict[str, Any]:
    meta = tool.get("_meta") or {}
    search_meta = meta.get(META) or {}
    annotations = tool.get("annotations") or {}
    out: dict[str, Any] = {
        "name": tool["name"],
        "kind": meta.get("x-completeness/kind"),
        "summary": search_meta.get("summary") or "",
        "destructive": bool(annotations.get("destructiveHint"))
        and not annotations.get("readOnlyHint"),
        "score": score,
    }
    pairs = search_meta.get("evidence_pairs") or []
    if pairs:
        out["evidence_pairs"] = [p for p in pairs if p in host.tools]
    return out
