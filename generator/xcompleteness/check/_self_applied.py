"""Schemas that apply themselves to the same value (``XC032``), found before the validator runs.

Why: a cycle of ``$ref``s through in-place applicators (``not``, ``allOf``, ``anyOf``, ``oneOf``;
in 3.1 also ``if``/``then``/``else`` and ``dependentSchemas``) that never descends into a
property or an item asks, to validate a value, to validate that same value against itself
first. No validator can finish it: jsonschema recurses until Python's limit, and inside
``referencing``'s Rust maps the RecursionError becomes a panic whose hook prints on stderr
before ``XC031`` is reported (``A: {not: {$ref: A}, default: 1}``; polymorphism written as
``Pet: {oneOf: [Cat]}``, ``Cat: {allOf: [Pet, ...]}`` recursed in the validator's own walk). A
recursive schema that descends (``properties``, ``items``, ``additionalProperties``) is fine.

How, cheaply: only the pointers of the document's ``$ref`` objects are read (the loader listed
them), never the schemas. A ``$ref`` at ``/components/schemas/A/allOf/0/not`` is applied in place
by ``/components/schemas/A/allOf/0`` and by ``/components/schemas/A``: stripping in-place steps
off its pointer gives every schema that applies it to its own value. Those that are ref targets
are the graph's nodes (a cycle must pass through a ref target); the cycle search is linear in
the edges. In OpenAPI 3.0 a ``$ref``'s siblings are ignored, so a step never climbs past
another ``$ref`` object there.
"""

from __future__ import annotations

import re
from operator import itemgetter
from typing import TYPE_CHECKING

from xcompleteness.diagnostics import Diagnostic, Severity
from xcompleteness.document import iter_refs, ref_pointer

if TYPE_CHECKING:
    from xcompleteness.load import SourceDoc

__all__ = ["SELF_APPLIED", "self_applied"]

SELF_APPLIED = "XC032"
MAX_REPORTED = 20
_CONDITIONALS = frozenset({"if", "then", "else"})
_LISTS = frozenset({"allOf", "anyOf", "oneOf"})
_LIST_ENDS = ("/allOf", "/anyOf", "/oneOf")
_DEPENDENT_TAIL = re.compile(r"/dependentSchemas/[^/\n]*$", re.MULTILINE)


Edge = tuple[str, str]
"""(the in-place path from a schema to a ``$ref`` object, the ref's target)."""


def self_applied(doc: SourceDoc, version: str) -> list[Diagnostic]:
    """One ``XC032`` error per cycle of schemas applied in place to the same value."""
    refs = doc.refs if doc.refs is not None else tuple(iter_refs(doc.data))
    # Cheap first (one text scan, no work per ref): a ref can be on such a cycle only if its
    # pointer ends in an in-place step (GitHub: 261 of 10,460), or if it is the target of one
    # (a ref to a ref).
    tails = _in_place_tails("\n".join(map(itemgetter(0), refs)) + "\n", version)
    if not tails:
        return []
    holders = dict(refs)
    if not tails <= holders.keys():  # a key held a line break: read those pointers one by one
        tails = {p for p in tails if p in holders}
        tails |= {p for p in holders if "\n" in p and _step_up(p, version) is not None}
    graph = _graph(holders, sorted(tails), version)
    return [
        doc.diag(
            cycle[0][0],
            SELF_APPLIED,
            f"schema {_shown(cycle[0][0])} applies itself to the same value: "
            + " -> ".join(f"{_shown(at)}{step}" for at, step in cycle)
            + f" -> {_shown(cycle[0][0])} (no property or item in between); "
            "the OpenAPI validator was not run",
            hint="no validator can finish such a schema: break the cycle (put the "
            "self-reference under properties or items, or remove it)",
            severity=Severity.ERROR,
        )
        for cycle in _cycles(graph)[:MAX_REPORTED]
    ]


def _in_place_tails(text: str, version: str) -> set[str]:
    """The pointers (one a line of ``text``) whose last step is in place: ``/not``, ``/allOf/N``
    (3.1: also ``/if``, ``/then``, ``/else``, ``/dependentSchemas/X``)."""

    def line_at(i: int) -> str:
        return text[text.rfind("\n", 0, i) + 1 : text.find("\n", i)]

    found = set()
    i = text.find("Of/")
    while i >= 0:
        line = line_at(i)
        head, _, last = line.rpartition("/")
        if last.isdigit() and head.endswith(_LIST_ENDS):
            found.add(line)
        i = text.find("Of/", i + 3)
    words = ("/not\n",) if version == "3.0" else ("/not\n", "/if\n", "/then\n", "/else\n")
    for word in words:
        i = text.find(word)
        while i >= 0:
            found.add(line_at(i))
            i = text.find(word, i + 1)
    if version != "3.0":
        found.update(line_at(m.start()) for m in _DEPENDENT_TAIL.finditer(text))
    return found


def _graph(holders: dict[str, str], tails: list[str], version: str) -> dict[str, list[Edge]]:
    """Schema -> the refs it applies in place (each with its path to the ``$ref``): from every
    in-place ref, an edge from each schema that applies it in place; a ref to a ref adds the
    edge from the first to the second. Only edges into a schema with edges of its own can be on
    a cycle: the others (nearly all: ``allOf`` of a plain component) are left out first."""
    edges: list[tuple[str, str, str]] = []  # (schema, path to the $ref, target)
    for pointer in tails:
        target = ref_pointer(holders[pointer])
        at: str | None = pointer
        while at is not None and target is not None:
            edges.append((at, pointer[len(at) :], target))
            at = _step_up(at, version)
            if version == "3.0" and at in holders:
                break  # the parent is itself a $ref: 3.0 ignores its siblings
    sources = {at for at, _, _ in edges}
    graph: dict[str, list[Edge]] = {}
    todo = []
    for at, step, target in edges:
        if target in sources or target in holders:
            graph.setdefault(at, []).append((step, target))
            todo.append(target)
    done: set[str] = set()
    while todo:  # a target that is itself a $ref object: the edge to its own target
        node = todo.pop()
        if node in done:
            continue
        done.add(node)
        target = ref_pointer(holders[node]) if node in holders else None
        out = graph.setdefault(node, [])
        if target is not None and ("", target) not in out:
            out.append(("", target))
            todo.append(target)
    return graph


def _step_up(at: str, version: str) -> str | None:
    """The schema that applies the one at ``at`` in place, or None (a property, an item...)."""
    head, _, last = at.rpartition("/")
    if last == "not" or (version != "3.0" and last in _CONDITIONALS):
        return head
    parent, _, word = head.rpartition("/")
    if last.isdigit() and word in _LISTS:
        return parent
    if version != "3.0" and word == "dependentSchemas":
        return parent
    return None


def _cycles(graph: dict[str, list[Edge]]) -> list[list[tuple[str, str]]]:
    """Each cycle once, as [(schema, in-place path to the ref it follows)...], in document
    order of where the search met it (iterative: a chain may be thousands long)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: finished
    found: list[list[tuple[str, str]]] = []
    for start in sorted(graph):
        if start in state:
            continue
        path: list[tuple[str, str]] = []
        stack: list[tuple[str, int]] = [(start, 0)]
        state[start] = 1
        while stack:
            node, index = stack[-1]
            edges = graph.get(node, ())
            if index >= len(edges):
                stack.pop()
                state[node] = 2
                if path:
                    path.pop()
                continue
            stack[-1] = (node, index + 1)
            step, target = edges[index]
            mark = state.get(target)
            if mark == 1:
                on = [n for n, _ in stack]
                cycle = [*path[on.index(target) :], (node, step)]
                found.append(cycle)
            elif mark is None:
                state[target] = 1
                path.append((node, step))
                stack.append((target, 0))
    return found


def _shown(pointer: str) -> str:
    text = "#" + pointer
    return text if len(text) <= 120 else text[:117] + "..."
