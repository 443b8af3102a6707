"""Runtime expressions and conditions: the one parser ``check`` uses and the runtime evaluates with.

Adapter-mode declarations describe how a native response signals incompleteness with OpenAPI
runtime expressions (``$statusCode``, ``$response.header.NAME``, ``$response.body#/pointer``) plus
``$response.link.REL`` and a closed set of conditions over them. Both come from a spec we do not
trust, so they are *parsed* into small frozen objects and interpreted; nothing is ever evaluated as
code. Parsing happens once (parsed expressions are cached); evaluation is a few dict lookups.

Semantics of evaluation (documented here because adapters depend on them):

* An expression evaluates to a JSON value or to :data:`MISSING` (no such header, pointer leads
  nowhere, no link with that relation, no response/request given). It never raises.
* ``present`` holds when the value is neither MISSING nor JSON ``null``; ``absent`` is its negation.
  ``null`` counts as absent because native envelopes spell "no next page" as ``next_cursor: null``.
* Every comparison (``equals``, ``not-equals``, ``gt``, ``gte``, ``lt``, ``lte``) is false when an
  operand is MISSING, so only ``absent`` and ``always`` can hold on data that is not there.
* ``equals`` is JSON equality: ``true`` is not ``1``, ``1`` equals ``1.0``, arrays and objects
  compare deeply. ``not-equals`` is its negation over present operands.
* Ordering compares two numbers (booleans are not numbers) or two strings (by code point);
  any other pairing is false.
* Header, query, path and link values are text on the wire. When such a value is compared with a
  number or boolean literal it is read as a JSON number or ``true``/``false`` first (so
  ``{gt: [$response.header.X-Total, 1000]}`` works); body values are never coerced.
"""

from __future__ import annotations

import functools
import json as jsonlib
import math
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import field
from functools import cached_property
from itertools import compress
from typing import Any, Final

from .plain import escape_token, unescape_token
from .records import record

__all__ = [
    "MAX_JSON_DEPTH",
    "MISSING",
    "Condition",
    "Expression",
    "ExpressionError",
    "Link",
    "RequestView",
    "ResponseView",
    "UnreadableResponse",
    "parse_condition",
    "parse_expression",
    "parse_link_header",
    "parse_pointer",
    "read_json",
]


class _Missing:
    """The value of an expression that points at nothing (distinct from JSON ``null``)."""

    _instance: _Missing | None = None

    def __new__(cls) -> _Missing:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False

    def __reduce__(self) -> str:
        return "MISSING"


MISSING: Final = _Missing()

# JSON another party wrote

MAX_JSON_DEPTH: Final = 256
"""Deepest nesting of arrays and objects :func:`read_json` accepts (the loader's depth cap)."""


_CONTAINERS: Final = frozenset((dict, list))


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON (RFC 8259)")


def read_json(data: bytes | str) -> Any:
    """The one reader of JSON another party wrote: an API's response body, a tool argument, a
    recorded or mocked body. Strict JSON only, or ``ValueError``: ``NaN``/``Infinity`` (which
    Python's reader takes, and a page would then carry as a number, or as null once made
    JSON again), bytes that are not UTF-8, numbers past the interpreter's digit limit, and
    nesting deeper than :data:`MAX_JSON_DEPTH` (deeper, Python's reader raises
    ``RecursionError``, and what reads the value after it, recursing, could too)."""
    try:
        value = jsonlib.loads(data, parse_constant=_no_constant)
    except RecursionError:
        raise ValueError("the JSON is nested too deeply") from None
    if isinstance(data, (bytes, bytearray)):
        opened = data.count(b"[") + data.count(b"{")
    else:
        opened = data.count("[") + data.count("{")
    if opened <= MAX_JSON_DEPTH:  # no deeper than the brackets written: the walk is not needed
        return value
    level = [value] if type(value) in _CONTAINERS else []
    depth = 0
    while level:  # level by level, the containers picked out by C iterators (no per-item bytecode)
        depth += 1
        if depth > MAX_JSON_DEPTH:
            raise ValueError(f"the JSON is nested deeper than {MAX_JSON_DEPTH} levels")
        below: list[Any] = []
        for node in level:
            children = node.values() if type(node) is dict else node
            below.extend(compress(children, map(_CONTAINERS.__contains__, map(type, children))))
        level = below
    return value


class UnreadableResponse(ValueError):
    """A response the client cannot read well enough to answer an expression (a Link header
    whose malformed link-values may hide the relation asked for): the page is broken, never
    read as if the value were absent."""


MAX_EXPRESSION_LENGTH: Final = 4096
MAX_CONDITION_DEPTH: Final = 32


class ExpressionError(ValueError):
    """A runtime expression or condition that cannot be parsed.

    ``path`` locates the offending node inside the condition object (keys and list indexes), so a
    caller can join it onto the declaration's JSON pointer; :attr:`pointer` is that path as an
    RFC 6901 pointer relative to the condition.
    """

    def __init__(self, message: str, path: tuple[str | int, ...] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.path = path

    @property
    def pointer(self) -> str:
        return "".join("/" + escape_token(str(part)) for part in self.path)

    def __str__(self) -> str:
        return f"{self.message} (at {self.pointer})" if self.path else self.message


# --------------------------------------------------------------------------------------------
# JSON pointers (RFC 6901)


def parse_pointer(text: str) -> tuple[str, ...]:
    """Split an RFC 6901 pointer into unescaped tokens; ``""`` is the whole document."""
    if text == "":
        return ()
    if not text.startswith("/"):
        raise ExpressionError(f"JSON pointer {text!r} must be empty or start with '/'")
    tokens = text[1:].split("/")
    for token in tokens:
        if re.search(r"~(?![01])", token):
            raise ExpressionError(f"JSON pointer {text!r} has '~' not followed by 0 or 1")
    return tuple(unescape_token(t) for t in tokens)


def _format_pointer(tokens: tuple[str, ...]) -> str:
    return "".join("/" + escape_token(t) for t in tokens)


_ARRAY_INDEX = re.compile(r"0|[1-9][0-9]*")


def resolve_pointer(document: Any, tokens: tuple[str, ...]) -> Any:
    """Follow ``tokens`` into ``document``; MISSING where the path leads nowhere (never raises)."""
    node = document
    for token in tokens:
        if type(node) is dict:  # the common case, without the slower ABC check below
            node = node.get(token, MISSING)
            if node is MISSING:
                return MISSING
        elif isinstance(node, Mapping):
            if token not in node:
                return MISSING
            node = node[token]
        elif isinstance(node, (list, tuple)):
            if not _ARRAY_INDEX.fullmatch(token):
                return MISSING
            index = int(token)
            if index >= len(node):
                return MISSING
            node = node[index]
        else:
            return MISSING
    return node


# --------------------------------------------------------------------------------------------
# Link header (RFC 8288)


@record(frozen=True)
class Link:
    """One link-value of a ``Link`` header: the target as written, its relations and parameters."""

    target: str
    rels: tuple[str, ...]
    params: tuple[tuple[str, str], ...] = ()


_LINK_TARGET = re.compile(r"[ \t,]*<([^>]*)>")
_LINK_PARAM = re.compile(
    r"[ \t]*;[ \t]*([!#$%&'*+\-.^_`|~0-9A-Za-z]+)[ \t]*"
    r"(?:=[ \t]*(?:\"((?:[^\"\\]|\\.)*)\"|([^;, \t\"]*)))?"
)
_LINK_END = re.compile(r"[ \t]*(?:,|$)")
_QUOTED_PAIR = re.compile(r"\\(.)")


def _unquote(match: re.Match[str]) -> str:
    return match.group(1)


def _parse_one_link_header(text: str, dropped: list[str] | None = None) -> list[Link]:
    """Parse one header value; malformed link-values are skipped (and, with ``dropped``, kept
    there as text), never fatal.

    Regex-driven (a character loop cost tens of microseconds per page); a link-value is
    ``<target>`` followed by ``; name[=token|"quoted"]`` parameters up to a comma.
    """
    links: list[Link] = []
    i, n = 0, len(text)
    while i < n:
        target = _LINK_TARGET.match(text, i)
        if target is None:
            if not text[i:].strip(" \t,"):
                break
            start, i = i, _skip_to_comma(text, i)
            if dropped is not None:
                dropped.append(text[start:i])
            continue
        i = target.end()
        params: list[tuple[str, str]] = []
        while True:
            param = _LINK_PARAM.match(text, i)
            if param is None:
                break
            name, quoted, token = param.groups()
            if quoted is not None:
                value = _QUOTED_PAIR.sub(_unquote, quoted) if "\\" in quoted else quoted
            else:
                value = token or ""
            params.append((name.lower(), value))
            i = param.end()
        end = _LINK_END.match(text, i)
        if end is None:  # junk after the parameters: drop this link-value, resume after a comma
            i = _skip_to_comma(text, i)
            if dropped is not None:
                dropped.append(text[target.start() : i])
            continue
        i = end.end()
        rel = next((v for k, v in params if k == "rel"), None)
        # RFC 8288 section 3.3: occurrences of rel after the first are ignored.
        rels = tuple(r.lower() for r in rel.split()) if rel is not None else ()
        links.append(Link(target=target.group(1).strip(), rels=rels, params=tuple(params)))
    return links


def _skip_to_comma(text: str, i: int) -> int:
    """Skip past the next comma outside quotes and angle brackets (recovery after bad input)."""
    n = len(text)
    in_quote = in_angle = False
    while i < n:
        ch = text[i]
        if in_quote:
            if ch == "\\":
                i += 1
            elif ch == '"':
                in_quote = False
        elif in_angle:
            if ch == ">":
                in_angle = False
        elif ch == '"':
            in_quote = True
        elif ch == "<":
            in_angle = True
        elif ch == ",":
            return i + 1
        i += 1
    return n


def parse_link_header(values: str | Iterable[str], dropped: list[str] | None = None) -> list[Link]:
    """Parse one or several ``Link`` header values (repeated header lines) into link-values;
    the malformed ones are skipped (and, with ``dropped``, kept there as text)."""
    if isinstance(values, str):
        values = [values]
    links: list[Link] = []
    for value in values:
        if isinstance(value, str):
            links.extend(_parse_one_link_header(value, dropped))
    return links


def find_link(links: Iterable[Link], rel: str) -> str | None:
    """Target of the first link with relation ``rel`` (compared case-insensitively), else None."""
    wanted = rel.lower()
    for link in links:
        if wanted in link.rels:
            return link.target
    return None


# --------------------------------------------------------------------------------------------
# Views of a response and a request


def _header_values(headers: Any, name: str) -> list[str]:
    if headers is None:
        return []
    get_list = getattr(headers, "get_list", None)
    if callable(get_list):  # httpx.Headers keeps repeated lines apart and ignores case itself
        return [v for v in get_list(name) if isinstance(v, str)]
    wanted = name.lower()
    found: list[str] = []
    if isinstance(headers, Mapping):
        items: Iterable[Any] = headers.items()
    elif isinstance(headers, (list, tuple)):
        items = (pair for pair in headers if isinstance(pair, (list, tuple)) and len(pair) == 2)
    else:
        return []
    for key, value in items:
        if isinstance(key, str) and key.lower() == wanted:
            if isinstance(value, str):
                found.append(value)
            elif isinstance(value, (list, tuple)):
                found.extend(v for v in value if isinstance(v, str))
    return found


@record(frozen=True)
class ResponseView:
    """What expressions can see of a response: status, headers (any case) and the parsed JSON body.

    ``headers`` may be a plain mapping (values a string or a list of strings for repeated
    headers), a list of pairs, or ``httpx.Headers``. ``body`` is the decoded JSON (MISSING if the
    body was not JSON).
    """

    status: int
    headers: Any = field(default_factory=dict)
    body: Any = MISSING

    def header(self, name: str) -> str | _Missing:
        values = _header_values(self.headers, name)
        return ", ".join(values) if values else MISSING

    @cached_property
    def _parsed_links(self) -> tuple[list[Link], list[str]]:
        dropped: list[str] = []
        return parse_link_header(_header_values(self.headers, "link"), dropped), dropped

    @property
    def links(self) -> list[Link]:
        return self._parsed_links[0]

    def link(self, rel: str) -> str | _Missing:
        """The target of the first link with relation ``rel``; MISSING when the header has none.
        Raises :class:`UnreadableResponse` when no well-formed link-value has it but some could
        not be read: the relation may be in one of them (``<a; rel="next"`` missing its ``>``),
        so "no next page" would be a guess, and a walk that guessed would call a cut listing
        complete."""
        links, dropped = self._parsed_links
        target = find_link(links, rel)
        if target is None and dropped:
            shown = repr(dropped[0][:80])
            raise UnreadableResponse(
                f"the Link header has {len(dropped)} link-value(s) that cannot be read "
                f"(first: {shown}); whether it names rel={rel!r} is unknown"
            )
        return MISSING if target is None else target

    @classmethod
    def from_httpx(cls, response: Any) -> ResponseView:
        """Build a view of an ``httpx.Response``; a body that is not JSON (:func:`read_json`)
        becomes MISSING."""
        try:
            body = read_json(response.content)
        except ValueError:
            body = MISSING
        return cls(status=response.status_code, headers=response.headers, body=body)


@record(frozen=True)
class RequestView:
    """What ``$request.*`` expressions can see: query and path parameters and the JSON body."""

    query: Mapping[str, Any] = field(default_factory=dict)
    path: Mapping[str, Any] = field(default_factory=dict)
    body: Any = MISSING


# --------------------------------------------------------------------------------------------
# Expressions

_HEADER_NAME = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_PARAM_NAME = re.compile(r"[^\s]+")
_REL_NAME = re.compile(r"[^\s\"',;<>]+")
_NAMED_SOURCES: Final = (
    # (source, key after it, allowed name, what the name is): $response.header.X-Rate ...
    ("response", "header", _HEADER_NAME, "header"),
    ("response", "link", _REL_NAME, "link relation"),
    ("request", "query", _PARAM_NAME, "query parameter"),
    ("request", "path", _PARAM_NAME, "path parameter"),
)

#: The expression sources, in the order they are documented.
SOURCES: Final = (
    "statusCode",
    "response.header",
    "response.body",
    "response.link",
    "request.body",
    "request.query",
    "request.path",
)
_TEXT_SOURCES: Final = frozenset(
    {"response.header", "response.link", "request.query", "request.path"}
)

_SUPPORTED = (
    "$statusCode, $response.header.NAME, $response.body#/pointer, $response.link.REL, "
    "$request.body#/pointer, $request.query.NAME, $request.path.NAME"
)


@record(frozen=True)
class Expression:
    """A parsed runtime expression. ``str(expr)`` gives back its canonical text."""

    source: str
    name: str | None = None
    pointer: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # Computed once: evaluation runs per page and per condition.
        object.__setattr__(self, "is_text", self.source in _TEXT_SOURCES)
        object.__setattr__(
            self,
            "reads_response",
            self.source == "statusCode" or self.source.startswith("response."),
        )

    is_text: bool = field(init=False, repr=False, compare=False)
    """True when the value is text on the wire (header, link, query, path)."""
    reads_response: bool = field(init=False, repr=False, compare=False)

    def __str__(self) -> str:
        if self.source == "statusCode":
            return "$statusCode"
        if self.source.endswith(".body"):
            base = "$" + self.source
            return base + "#" + _format_pointer(self.pointer) if self.pointer else base
        return f"${self.source}.{self.name}"

    def evaluate(
        self, response: ResponseView | None = None, request: RequestView | None = None
    ) -> Any:
        """The value this expression selects, or MISSING. Never raises."""
        source = self.source
        if self.reads_response:
            if response is None:
                return MISSING
            if source == "statusCode":
                return response.status
            if source == "response.body":
                return resolve_pointer(response.body, self.pointer)
            if source == "response.header":
                return response.header(self.name or "")
            return response.link(self.name or "")
        if request is None:
            return MISSING
        if source == "request.body":
            return resolve_pointer(request.body, self.pointer)
        params = request.query if source == "request.query" else request.path
        if params is None or self.name is None or self.name not in params:
            return MISSING
        return params[self.name]


def _parse_body_pointer(rest: str, text: str) -> tuple[str, ...]:
    if rest == "":
        return ()
    if not rest.startswith("#"):
        raise ExpressionError(f"{text!r}: expected '#' and a JSON pointer after 'body'")
    try:
        return parse_pointer(rest[1:])
    except ExpressionError as exc:
        raise ExpressionError(f"{text!r}: {exc.message}") from None


def _parse_named(rest: str, text: str, pattern: re.Pattern[str], what: str) -> str:
    if not rest.startswith(".") or not pattern.fullmatch(rest[1:]):
        raise ExpressionError(f"{text!r}: expected '.' and a {what} name")
    return rest[1:]


@functools.lru_cache(maxsize=2048)
def _parse_expression_cached(text: str) -> Expression:
    if text == "$statusCode":
        return Expression("statusCode")
    for prefix, source in (("$response.", "response"), ("$request.", "request")):
        if not text.startswith(prefix):
            continue
        rest = text[len(prefix) :]
        if rest.startswith("body"):
            return Expression(f"{source}.body", pointer=_parse_body_pointer(rest[4:], text))
        for src, key, pattern, what in _NAMED_SOURCES:
            if source == src and rest.startswith(key):
                name = _parse_named(rest[len(key) :], text, pattern, what)
                return Expression(f"{src}.{key}", name=name)
        break
    raise ExpressionError(
        f"{text!r} is not a supported runtime expression; use one of {_SUPPORTED}"
    )


def parse_expression(text: object) -> Expression:
    """Parse one runtime expression (cached); raise ExpressionError on anything unsupported."""
    if not isinstance(text, str):
        raise ExpressionError(f"a runtime expression must be a string, got {_type_name(text)}")
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise ExpressionError(f"runtime expression longer than {MAX_EXPRESSION_LENGTH} characters")
    if not text.startswith("$"):
        raise ExpressionError(f"{text!r} is not a runtime expression (they start with '$')")
    return _parse_expression_cached(text)


def _type_name(value: object) -> str:
    if value is None:
        return "null"
    return {
        bool: "boolean",
        int: "integer",
        float: "number",
        str: "string",
        list: "array",
        dict: "object",
    }.get(type(value), type(value).__name__)


# --------------------------------------------------------------------------------------------
# Value semantics


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def json_equal(a: Any, b: Any) -> bool:
    """JSON equality: no bool/number mixing, numbers by value, containers deeply."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if _is_number(a) and _is_number(b):
        return a == b
    if isinstance(a, str) and isinstance(b, str):
        return a == b
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return False


_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")


def _coerce_text(value: Any, like: Any) -> Any:
    """Read wire text as the type of ``like`` (number or boolean) where that is unambiguous."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if isinstance(like, bool):
        return {"true": True, "false": False}.get(text, value)
    if _is_number(like) and _JSON_NUMBER.fullmatch(text):
        number = float(text) if any(c in text for c in ".eE") else int(text)
        if isinstance(number, float) and not math.isfinite(number):
            return value
        return number
    return value


def _ordered(op: str, a: Any, b: Any) -> bool:
    if not ((_is_number(a) and _is_number(b)) or (isinstance(a, str) and isinstance(b, str))):
        return False
    if op == "gt":
        return a > b
    if op == "gte":
        return a >= b
    if op == "lt":
        return a < b
    return a <= b


# --------------------------------------------------------------------------------------------
# Conditions


class Condition:
    """A parsed condition. Subclasses implement :meth:`holds`; none of them ever raises on data."""

    def holds(self, response: ResponseView | None, request: RequestView | None = None) -> bool:
        raise NotImplementedError

    def to_obj(self) -> Any:
        """The vocabulary spelling of this condition (round-trips through parse_condition)."""
        raise NotImplementedError

    def expressions(self) -> Iterator[tuple[tuple[str | int, ...], Expression]]:
        """Every expression in the condition with its path (for location checks in ``check``)."""
        return iter(())


@record(frozen=True)
class Always(Condition):
    def holds(self, response: ResponseView | None, request: RequestView | None = None) -> bool:
        return True

    def to_obj(self) -> Any:
        return "always"


@record(frozen=True)
class Present(Condition):
    expr: Expression
    negate: bool = False

    def holds(self, response: ResponseView | None, request: RequestView | None = None) -> bool:
        value = self.expr.evaluate(response, request)
        present = value is not MISSING and value is not None
        return present != self.negate

    def to_obj(self) -> Any:
        return {"absent" if self.negate else "present": str(self.expr)}

    def expressions(self) -> Iterator[tuple[tuple[str | int, ...], Expression]]:
        yield ("absent" if self.negate else "present",), self.expr


@record(frozen=True)
class Literal:
    """A JSON literal operand (hashing ignores the value so lists and objects are allowed)."""

    value: Any = field(hash=False)


@record(frozen=True)
class Compare(Condition):
    op: str  # equals | not-equals | gt | gte | lt | lte
    left: Expression
    right: Expression | Literal

    def holds(self, response: ResponseView | None, request: RequestView | None = None) -> bool:
        a = self.left.evaluate(response, request)
        if isinstance(self.right, Expression):
            b = self.right.evaluate(response, request)
            right_text = self.right.is_text
        else:
            b = self.right.value
            right_text = False
        if a is MISSING or b is MISSING:
            return False
        if self.left.is_text:
            a = _coerce_text(a, b)
        if right_text:
            b = _coerce_text(b, a)
        if self.op == "equals":
            return json_equal(a, b)
        if self.op == "not-equals":
            return not json_equal(a, b)
        return _ordered(self.op, a, b)

    def to_obj(self) -> Any:
        right = str(self.right) if isinstance(self.right, Expression) else self.right.value
        return {self.op: [str(self.left), right]}

    def expressions(self) -> Iterator[tuple[tuple[str | int, ...], Expression]]:
        yield (self.op, 0), self.left
        if isinstance(self.right, Expression):
            yield (self.op, 1), self.right


@record(frozen=True)
class Combine(Condition):
    op: str  # all | any
    parts: tuple[Condition, ...]

    def holds(self, response: ResponseView | None, request: RequestView | None = None) -> bool:
        if self.op == "all":
            return all(part.holds(response, request) for part in self.parts)
        return any(part.holds(response, request) for part in self.parts)

    def to_obj(self) -> Any:
        return {self.op: [part.to_obj() for part in self.parts]}

    def expressions(self) -> Iterator[tuple[tuple[str | int, ...], Expression]]:
        for index, part in enumerate(self.parts):
            for path, expr in part.expressions():
                yield (self.op, index, *path), expr


COMPARISONS: Final = ("equals", "not-equals", "gt", "gte", "lt", "lte")
OPERATORS: Final = ("always", "present", "absent", *COMPARISONS, "all", "any")


def _is_json_literal(value: Any, depth: int = 0) -> bool:
    if depth > MAX_CONDITION_DEPTH:
        return False
    if value is None or isinstance(value, (bool, str)):
        return True
    if _is_number(value):
        return not (isinstance(value, float) and not math.isfinite(value))
    if isinstance(value, list):
        return all(_is_json_literal(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _is_json_literal(v, depth + 1) for k, v in value.items())
    return False


def _parse_expr_at(value: Any, path: tuple[str | int, ...]) -> Expression:
    try:
        return parse_expression(value)
    except ExpressionError as exc:
        raise ExpressionError(exc.message, path) from None


def _parse(obj: Any, path: tuple[str | int, ...], depth: int) -> Condition:
    if depth > MAX_CONDITION_DEPTH:
        raise ExpressionError(f"condition nested deeper than {MAX_CONDITION_DEPTH} levels", path)
    if isinstance(obj, str) and obj == "always":
        return Always()
    if not isinstance(obj, dict):
        raise ExpressionError(
            f"a condition is 'always' or an object with one operator, got {_type_name(obj)}", path
        )
    if len(obj) != 1:
        raise ExpressionError(
            f"a condition object has exactly one operator ({', '.join(OPERATORS[1:])}), "
            f"got {len(obj)} keys",
            path,
        )
    ((op, arg),) = obj.items()
    here = (*path, op) if isinstance(op, str) else path
    if op in ("present", "absent"):
        return Present(_parse_expr_at(arg, here), negate=op == "absent")
    if op in COMPARISONS:
        if not isinstance(arg, list) or len(arg) != 2:
            raise ExpressionError(f"'{op}' takes a list of two operands [expression, value]", here)
        left = _parse_expr_at(arg[0], (*here, 0))
        right_raw = arg[1]
        right: Expression | Literal
        if isinstance(right_raw, str) and right_raw.startswith("$"):
            right = _parse_expr_at(right_raw, (*here, 1))
        elif _is_json_literal(right_raw):
            right = Literal(right_raw)
        else:
            raise ExpressionError(
                f"'{op}' compares with a JSON literal or an expression", (*here, 1)
            )
        return Compare(op, left, right)
    if op in ("all", "any"):
        if not isinstance(arg, list) or not arg:
            raise ExpressionError(f"'{op}' takes a non-empty list of conditions", here)
        parts = tuple(_parse(part, (*here, i), depth + 1) for i, part in enumerate(arg))
        return Combine(op, parts)
    raise ExpressionError(
        f"unknown condition operator {op!r}; use one of {', '.join(OPERATORS)}", path
    )


def parse_condition(obj: Any) -> Condition:
    """Parse a ``when`` condition; raise ExpressionError whose ``path`` points inside ``obj``.

    Conditions are parsed once when a contract is loaded (``Contract.from_dict``), so only the
    expressions inside them are cached; the objects themselves are unhashable dicts.
    """
    return _parse(obj, (), 0)
