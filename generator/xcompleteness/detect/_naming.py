"""What a path and an operation name say: one report, one object read or checked, a mutation not
named like a listing, a single read under ``{param}``."""

from __future__ import annotations

from xcompleteness.detect import _words as sig
from xcompleteness.detect._finding import PAGING_KINDS, Signal
from xcompleteness.detect._operation_facts import OperationRef
from xcompleteness.detect._shape import Shape, last_token
from xcompleteness.document import Parameter

__all__ = [
    "listing_path",
    "listy_name",
    "named_report",
    "not_listing_after_all",
    "report_read",
    "single_object",
]

# Path parameter names that select a subset of a collection, never one object.
_SELECTOR_NAMES = frozenset({"filter", "filters"})


def listing_path(ref: OperationRef) -> str:
    """The path less its trailing selector parameters: a ``{param}`` whose schema is an enum (a
    fixed set of variants: ``/allowlist/private/all/{resource_type}`` with ``cidr``, ``country``,
    ...) or that is named ``filter`` (``/boards/{idBoard}/members/{filter}``) selects a subset
    of the collection before it; it does not address one object the way an id does."""
    path = ref.path.rstrip("/")
    params: dict[str, Parameter] | None = None  # read once a parameter ends the path
    while True:
        head, _, last = path.rpartition("/")
        if not (last.startswith("{") and last.endswith("}")) or not head:
            return path if path != ref.path.rstrip("/") else ref.path
        if params is None:
            params = {p.name: p for p in ref.parameters if p.location == "path"}
        param = params.get(last[1:-1])
        if param is None or not _selector(param):
            return path if path != ref.path.rstrip("/") else ref.path
        path = head


def _selector(param: Parameter) -> bool:
    if sig.fold(param.name) in _SELECTOR_NAMES:
        return True
    schema = param.schema.schema if param.schema is not None else None
    enum = schema.get("enum") if isinstance(schema, dict) else param.get("enum")  # Swagger 2
    return isinstance(enum, list) and len(enum) >= 2


def named_report(path: str) -> bool:
    """``/Reports/BalanceSheet``: a literal segment under a ``reports`` segment names one
    report (``/Reports`` itself lists them)."""
    literal = [s for s in path.split("/") if s and "{" not in s]
    return any(sig.fold(s) in sig.REPORT_WORDS for s in literal[:-1])


def report_read(ref: OperationRef) -> bool:
    """A POST under a ``reporting``/``reports`` segment (Snyk's ``POST /reporting/counts/tests``
    with filters in its body): a read of computed report rows, not a mutation."""
    if ref.method != "post":
        return False
    literal = [s for s in ref.path.split("/") if s and "{" not in s]
    return any(sig.fold(s) in sig.REPORT_WORDS for s in literal[:-1])


def single_object(
    ref: OperationRef,
    shape: Shape,
    op_id: str | None,
    bare: bool = False,
    plural_named: frozenset[str] = frozenset(),
) -> bool:
    """An unpaged operation that reads, checks or computes one object (issue 19's false listings).

    * an example shows an object where the schema's items array would be (Slack's ``*.info``
      types the object as ``{items: ...}``);
    * the operation is named for a single-object verb (``parse``, ``sanitise``, ``validate``,
      ``identity``, ``info``, ``lookupBy...``, ``license``);
    * the path names one thing and the body wraps it in the plural (``/Organisation`` answered
      as ``{Organisations: [...]}``);
    * the operation or the path ends in a configuration noun (``config``, ``settings``) and the
      array is a part of the body (DRACOON's ``requestAuthConfig`` answering ``{authMethods:
      [...]}``). The noun counts at the end of the operationId or the path only: at the head of
      an operationId it names a compound resource (Autotask's ``ConfigurationItems...``).

    ``bare``: the items are the body, or the only property of the body (``{result: [...]}``).
    Such an array answered at a path ending in a configuration noun is no part of a larger
    object: it is not dropped here (the draft asks whether it lists, as for a bare array).
    ``plural_named``: the nouns the operation's prose says in the plural ("Returns all Edge
    Configs" at ``/v1/edge-config``): a configuration noun said so names a resource of many
    configurations, not one configuration object.
    """
    if shape.items_contradicted:
        return True
    op_words = sig.word_list(op_id or "")
    if op_words and op_words[0] in ("get", "post", "put"):
        op_words = op_words[1:]
    last = ref.path.rstrip("/").rsplit("/", 1)[-1]
    path_words = sig.word_list(last) if "{" not in last else []
    ends = set(op_words[:1] + op_words[-1:] + path_words[-1:])
    if ends & sig.SINGLE_OBJECT_WORDS:
        return True
    said_by_path = set(path_words[-1:]) & sig.SINGLE_OBJECT_NOUNS
    if (
        set(op_words[-1:] + path_words[-1:]) & sig.SINGLE_OBJECT_NOUNS - plural_named
        and shape.items != "$response.body#"
        and not (bare and said_by_path)
    ):
        return True  # a part of one configuration object
    if "lookup" in op_words + path_words and "by" in op_words + path_words:
        return True
    if shape.items and shape.items != "$response.body#" and path_words:
        array = last_token(shape.items.partition("#")[2])
        noun = sig.fold(last)
        if sig.fold(array) in (noun + "s", noun + "es") and not noun.endswith("s"):
            return True
    return False


def not_listing_after_all(
    ref: OperationRef,
    shape: Shape,
    strong: list[Signal],
    positioned: bool,
    searchy: bool,
    signals: list[Signal],
) -> bool:
    """List-shaped, but not a listing: a mutation not named like one, or a single read."""
    op_id = ref.view.operation_id
    reads_rows = report_read(ref) and shape.items is not None
    if ref.method != "get" and not (searchy or listy_name(op_id, ref.path) or reads_rows):
        return True
    if ref.method != "get" and shape.items is None and not strong and not positioned:
        return True
    return _single_read(listing_path(ref), shape, signals, positioned)


def _single_read(path: str, shape: Shape, signals: list[Signal], positioned: bool) -> bool:
    """A path ending in ``{param}`` reads one object unless its own top level pages an array.

    Stripe's ``/v1/files/{file}`` nests a list object (``links.has_more``) inside the file,
    Kubernetes' ``roles/{name}`` carries a ``rules`` array, DigitalOcean's
    ``/v2/volumes/{volume_id}/actions/{action_id}`` takes stray ``page`` parameters: all single
    reads. An array body, an array with paging beside it (a position parameter, a paging signal
    or a total, as on GitHub's git trees with ``truncated``), or an object with several arrays
    and a position parameter (GitHub's commit with paged ``files``) still makes a listing.
    """
    last = path.rstrip("/").rsplit("/", 1)[-1]
    if not (last.startswith("{") and last.endswith("}")) or shape.items == "$response.body#":
        return False  # a bare array body is a list wherever it sits
    if shape.items is None:  # paged parts of one object (GitHub's commit files) stay, with TODOs
        return not (positioned and shape.containers)
    if shape.named_part is not None:  # the array the path names: kept, asked whether it lists
        return False
    paged = any(s.kind in PAGING_KINDS or s.kind == "total" for s in signals)
    top = shape.items.count("/") <= 1  # a position pages the body's own array, not a nested one
    return not ((positioned and top) or paged)


def listy_name(op_id: str | None, path: str) -> bool:
    last = path.rstrip("/").rsplit("/", 1)[-1].lower()
    return last in ("list", "_list", "batch_get") or (op_id or "").lower().startswith("list")
