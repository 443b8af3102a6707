"""Where the items sit in a success body: an array body, an object wrapping an array (possibly one
container down), the item's id and fields, and whether the items location really is an array."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from xcompleteness.detect import _body_paging as body_paging
from xcompleteness.detect import _evidence as evidence
from xcompleteness.detect import _words as sig
from xcompleteness.detect._body_signals import body_signals, settle_totals, total_bound
from xcompleteness.detect._finding import FLAG_KINDS, Signal, body_expr
from xcompleteness.detect._schema_walk import Located, SchemaWalker
from xcompleteness.diagnostics import pointer_join
from xcompleteness.document import pointer_tokens

__all__ = [
    "Shape",
    "body_shape",
    "link_arrays",
    "last_literal",
    "last_token",
]


# -- body shape ---------------------------------------------------------------------------------


MAP_RESPONSE = "a map response"  # Shape.containers of an object of named entries


@dataclass
class Shape:
    items: str | None = None
    items_pointer: str | None = None
    id: str | None = None
    why: str = ""
    signals: list[Signal] = field(default_factory=list)
    aggregate: bool = False
    containers: str = ""  # "several arrays" / "a map": list-shaped but no single items location
    item_fields: tuple[str, ...] = ()  # property names of one item
    items_contradicted: bool = False  # an example shows a non-array at the items location
    items_doubt: str | None = None
    id_alternatives: tuple[str, ...] = ()
    cursor_end: str | None = None
    item_types: frozenset[str] = frozenset()  # JSON types one item may have
    total_doubt: str | None = None  # several total-like fields, none settled as the total
    total_bound: str | None = None  # the total is described as exact only up to a bound
    # the items were chosen only because the path's plural noun names them, in one object
    # that holds other fields about the request: why that object may be no list (asked)
    named_part: str | None = None


def body_shape(
    body: Located,
    walker: SchemaWalker,
    path: str,
    positioned: bool,
    listy: bool = False,
    cursor_keys: set[str] | frozenset[str] = frozenset(),
    examples: list[Any] | None = None,
    by_path: bool = True,
    lean: bool = False,
) -> Shape:
    """Where the items of the success body ``body`` sit, and its signals (a fresh :class:`Shape`).

    Pure in its arguments, and it reads of ``path`` only its last literal segment and whether
    a parameter ends it: so the shape of one resolved schema is worked out once per such key
    (:meth:`SchemaWalker.remembered`) and shared by every operation answering that schema, as
    Microsoft Graph's thousands of operations share their component schemas. The shape is
    worked out on a stand-in path made of just those facts, so nothing else of the path can
    reach a shared answer; tests compare it with the shape of the real path
    (``SchemaWalker(memo=False)``). Bodies with examples are not shared (their examples are
    parsed afresh). ``by_path``: an array may be chosen as the items only because the path's
    plural noun names it (:func:`_named_by_path`; the caller rules out reads by id).

    ``lean``: only what tells whether the operation is a listing and why (the items location,
    its reason, the signals, the containers, the aggregate flag, an example contradicting the
    array, the named part); the item's identifier, fields and types, a rival array's doubt and
    how the last page shows its cursor are left at their defaults. ``check``'s XC100 reads no
    more (:func:`~xcompleteness.detect._listlike.listing_reasons`)."""
    if examples or not walker.memo:
        return _body_shape(
            body, walker, path, positioned, listy, cursor_keys, examples, by_path, lean
        )
    schema, ptr = walker.resolve(*body)
    literal = [s for s in path.split("/") if s and "{" not in s]
    stand_in = ("/" + literal[-1] if literal else "") + (
        "/{}" if path.rstrip("/").endswith("}") else ""
    )
    keys = frozenset(cursor_keys)
    key = ("body_shape", id(schema), ptr, stand_in, positioned, listy, keys, by_path, lean)
    shape = walker.remembered(
        key,
        schema,
        lambda: _body_shape(
            (schema, ptr), walker, stand_in, positioned, listy, keys, None, by_path, lean
        ),
    )
    return _copy(shape)


def _copy(shape: Shape) -> Shape:
    """A copy of a shared shape a caller may change (its signals list included)."""
    out = Shape.__new__(Shape)
    out.__dict__.update(shape.__dict__)
    out.signals = list(shape.signals)
    return out


def _body_shape(
    body: Located,
    walker: SchemaWalker,
    path: str,
    positioned: bool,
    listy: bool,
    cursor_keys: set[str] | frozenset[str],
    examples: list[Any] | None,
    by_path: bool = True,
    lean: bool = False,
) -> Shape:
    schema, ptr = walker.resolve(*body)
    shape = Shape()
    examples = examples or []
    if walker.is_array(schema, ptr) and not walker.properties(schema, ptr):
        shape.items, shape.why = "$response.body#", "array response"
        item = walker.array_items(schema, ptr)
        shape.items_pointer = item[1] if item else None
        if not lean:
            _item_facts(shape, item, walker, [_last_word(path)])
        _check_items(shape, (schema, ptr), "", walker, examples)
        return shape
    props = walker.properties(schema, ptr)
    if not props:
        node, _ = walker.resolve(schema, ptr)
        if isinstance(node, dict) and isinstance(node.get("additionalProperties"), dict):
            shape.containers = MAP_RESPONSE
        return shape
    array_props = walker.array_properties(schema, ptr)
    if len(array_props) > 1:
        shape.containers = "several arrays in the response"
    resource_like = "id" in props and path.rstrip("/").endswith("}")
    found = _wrapped_array(
        props,
        array_props,
        walker,
        "",
        strict_meta=False,
        resource_like=resource_like,
        positioned=positioned,
        listy=listy,
        noun=sig.fold(last_literal(path)),
    )
    if found is None and not resource_like:
        for name, (sub, sptr) in props.items():
            if sig.fold(name) in sig.CONTAINERS and "object" in walker.types(sub, sptr):
                inner = walker.properties(sub, sptr)
                found = _wrapped_array(
                    inner,
                    walker.array_properties(sub, sptr),
                    walker,
                    pointer_join("", name),
                    strict_meta=True,
                    resource_like=False,
                    positioned=positioned,
                )
                if found is not None:
                    break
    wrapper: str | None = None
    if found is None and not resource_like and len(props) == 1:
        # an XML-style result element wrapping its one list object (CloudFront's
        # ``{DistributionIdList: {Marker, NextMarker, IsTruncated, Items: [...]}}``)
        ((name, (sub, sptr)),) = props.items()
        if "object" in walker.types(sub, sptr) and not walker.is_array(sub, sptr):
            found = _wrapped_array(
                walker.properties(sub, sptr),
                walker.array_properties(sub, sptr),
                walker,
                pointer_join("", name),
                strict_meta=False,
                resource_like=False,
                positioned=positioned,
                listy=listy,
            )
            if found is not None and found[0].count("/") == 2:
                inner = walker.properties(sub, sptr)
                skip_name = pointer_tokens(found[0])[-1]
                meta = [n for n in inner if n != skip_name]
                if not (
                    positioned
                    or listy
                    or any(sig.SIGNAL_FIELDS.get(sig.fold(n)) is not None for n in meta)
                ):
                    found = None  # one object that holds an array, not a list envelope
            wrapper = name if found is not None else None
    if found is None and by_path:
        found = _named_by_path(props, array_props, walker, last_literal(path))
        if found is not None:
            name = pointer_tokens(found[0])[-1]
            others = sorted(n for n in props if n != name)
            shape.named_part = (
                f"only the path's {last_literal(path)!r} names the array {name}, and the answer "
                f"is one object around it ({', '.join(others)}): it may be one result (the array "
                "a part of it), not a list"
            )
    skip = None
    if found is not None:
        rel, item = found
        shape.items, shape.why = body_expr(rel), f"object wrapping an array at {rel}"
        shape.items_pointer = item[1] if item else None
        if not lean:
            _item_facts(shape, item, walker, [last_token(rel), _last_word(path)])
        at = _located_at(schema, ptr, rel, walker)
        if at is not None:
            _check_items(shape, at, rel, walker, examples)
        if shape.items_doubt is None and not lean:
            shape.items_doubt = _rival_arrays(
                schema, ptr, rel, walker, sig.fold(last_literal(path))
            )
        skip = rel
    elif listy and not shape.containers:
        shown = body_paging.example_arrays(examples, props, walker)
        if len(shown) == 1:  # the schema under-describes; its own example shows the list
            rel = pointer_join("", shown[0])
            shape.items, shape.why = body_expr(rel), f"an example shows an array at {rel}"
            shape.items_doubt = (
                f"only an example shows an array at {rel}; the response schema does not declare "
                "it (this overlay's schema patch adds it)"
            )
    shape.signals = list(
        walker.remembered(  # the body's own fields: the same whatever the path
            ("body_signals", id(schema), ptr, skip, frozenset(cursor_keys)),
            schema,
            lambda: body_signals(props, walker, "", skip, depth=0, cursor_keys=cursor_keys),
        )
    )
    if wrapper is not None:  # the list envelope's own fields (``NextMarker``, ``IsTruncated``)
        inner_props = walker.properties(*props[wrapper])
        base = pointer_join("", wrapper)
        shape.signals += body_signals(inner_props, walker, base, skip, 1, cursor_keys)
    shape.signals, shape.total_doubt = settle_totals(shape.signals, props, walker)
    shape.total_bound = total_bound(shape.signals, props, walker)
    token = next((s for s in shape.signals if s.kind == "next_token"), None) or next(
        (s for s in shape.signals if s.kind == "next_link"), None
    )
    if token is not None and not lean:
        # a next URL may be "" on the last page as a cursor may (OData)
        shape.cursor_end = _token_end(schema, ptr, token, walker, examples)
    shape.aggregate = any(sig.fold(n) in sig.AGGREGATE_FIELDS for n in props)
    return shape


def _wrapped_array(
    props: dict[str, Located],
    array_props: tuple[str, ...],
    walker: SchemaWalker,
    base: str,
    *,
    strict_meta: bool,
    resource_like: bool,
    positioned: bool,
    listy: bool = False,
    noun: str = "",
) -> tuple[str, Located | None] | None:
    """(relative body pointer, item schema) of the array this object wraps, if it is a wrapper.

    ``array_props`` are the names of ``props`` whose schema may be an array
    (:meth:`SchemaWalker.array_properties`). A request that takes a page position
    (``positioned``) pages *something*: then the object's only array is the items whatever else
    sits beside it (GitHub's ``{total_seats, seats}``).
    """
    # ``errors``, ``warnings``, ``links``... are arrays about the response, never its items; a
    # count's name (``pages``, ``total``) on an array of objects is no count (Opendatasoft's
    # ``GET /pages`` answers ``{links, pages: [{page, links}]}``: the portal's pages)
    arrays = [
        n
        for n in array_props
        if (sig.fold(n) not in sig.META_NAMES and not sig.is_meta_array(sig.fold(n)))
        or (_COUNT_KINDS.get(sig.fold(n)) and _holds_objects(props[n], walker))
    ]
    if not arrays and len(props) == 1:  # ``{errors: [...]}`` alone *is* the result
        # ... but ``{links: [{href, rel}]}`` alone is an entry point: links to other resources
        arrays = [n for n in array_props if not _holds_links(props[n], walker)]
    if not arrays:
        return None
    named = [n for n in arrays if sig.fold(n) in sig.ITEM_NAMES]
    if len(named) != 1 and len(arrays) != 1:
        return None  # every choice below needs one array, or one under an items name
    # A completeness flag beside the only array says the array is a (possibly cut) result set:
    # GitHub's git trees carry ``truncated`` beside ``tree``.
    # So does a total beside it (``{group_name, total_count, group_members}``); a bare ``count``
    # is too often a figure of its own (GitHub's traffic ``{count, uniques, views}``).
    flagged = any(
        sig.SIGNAL_FIELDS.get(sig.fold(n)) in FLAG_KINDS
        or (sig.SIGNAL_FIELDS.get(sig.fold(n)) == "total" and sig.fold(n) != "count")
        for n in props
    )
    others = [
        n
        for n in props
        if n not in arrays
        and sig.fold(n) not in sig.META_NAMES
        and not sig.is_meta_array(sig.fold(n))
        and sig.fold(n) not in sig.OFFSET_PARAMS | sig.SIZE_PARAMS
    ]
    chosen: str | None = None
    loose = len(others) <= 1 or positioned  # a wrapper, not a resource with one list field
    if len(named) == 1 and not resource_like and (not others if strict_meta else loose):
        chosen = named[0]
    elif (
        len(named) == 1
        and not resource_like
        and not strict_meta
        and (listy or flagged)
        and _holds_objects(props[named[0]], walker)
        and not any(_holds_objects(props[n], walker) for n in arrays if n != named[0])
    ):
        # "Get a list of models" answering ``{count, ids: [str], list_columns: [str], label_columns:
        # {...}, result: [Model]}``: the one array of records under a conventional items name is
        # the results; the arrays of plain values and the objects beside it describe them
        chosen = named[0]
    elif (
        len(named) == 1
        and not resource_like
        and not strict_meta
        and _holds_rows(props[named[0]], walker)
        and any(_headers(n) for n in arrays if n != named[0])
    ):
        # a table: NamSor's usage ``{colHeaders: [...], rowHeaders: [...], data: [[...]],
        # periodStart, ...}``: the rows under the items name, the headers beside them name them
        chosen = named[0]
    elif len(arrays) == 1 and (not others or positioned or flagged):
        chosen = arrays[0]
    elif len(arrays) == 1 and listy and len(others) == 1 and not resource_like:
        chosen = arrays[0]
    elif len(arrays) == 1 and listy and _named_alike(sig.fold(arrays[0]), noun):
        chosen = arrays[0]  # "Gets a list of brands": GET /brands answers {brands: [...], ...}
    elif (
        len(arrays) == 1
        and len(others) <= 1
        and not resource_like
        and not any(sig.SIGNAL_FIELDS.get(sig.fold(n)) == "total" for n in props)
        and (sig.fold(arrays[0]) == noun or _named_alike(sig.fold(arrays[0]), noun))
    ):
        # the path's own resource beside one field: ``GET .../assets.json`` answering
        # ``{assets: [Asset], since}`` (the export's checkpoint); not beside a figure (GitHub's
        # traffic ``{count, uniques, views: [...]}`` is one summary)
        chosen = arrays[0]
    if chosen is None:
        return None
    sub, sptr = props[chosen]
    return pointer_join(base, chosen), walker.array_items(sub, sptr)


# Field names that count pages or items (``pages``, ``total``): meta when they are numbers.
_COUNT_KINDS = {k: v for k, v in sig.SIGNAL_FIELDS.items() if v in ("total", "total_pages")}


def _named_by_path(
    props: dict[str, Located], array_props: tuple[str, ...], walker: SchemaWalker, literal: str
) -> tuple[str, Located | None] | None:
    """(pointer, item schema) of the one array whose name ends in the plural noun the path's last
    literal ends in (NamSor's ``/chineseNameCandidates/{surname}/{given}`` answering ``{firstName,
    lastName, id, matchCandidates: [...], ...}``; ``/taxonomyClasses/{classifierName}`` answering
    ``{classifierName, classifyingScripts: [...], taxonomyClasses: [...]}``): what the path says
    it reads, though the object around it reads as one result (the finding asks)."""
    noun = sig.word_list(literal)[-1:]
    if not noun or not sig.plural_word(noun[0]):
        return None
    named = [
        n
        for n in array_props
        if sig.word_list(n)[-1:] == noun
        and sig.fold(n) not in sig.META_NAMES
        and not sig.is_meta_array(sig.fold(n))
    ]
    if len(named) != 1:
        return None
    return pointer_join("", named[0]), walker.array_items(*props[named[0]])


def _rival_arrays(schema: Any, ptr: str, rel: str, walker: SchemaWalker, noun: str) -> str | None:
    """Why the chosen array may not be the items: other arrays beside it could be (Monarch's
    ``{numFound, objects: [string], associations: [Association], compact_associations: [...]}``).
    Settled without a question only when the chosen array is named after the path's resource,
    or it holds objects under a conventional items name while every rival holds plain values."""
    tokens = pointer_tokens(rel) or ()
    if not tokens:
        return None
    parent = (
        _located_at(schema, ptr, pointer_join("", *tokens[:-1]), walker)
        if len(tokens) > 1
        else (schema, ptr)
    )
    if parent is None:
        return None
    props = walker.properties(*parent)
    chosen = tokens[-1]
    rivals = [
        n
        for n, (s, p) in props.items()
        if n != chosen
        and walker.is_array(s, p)
        and sig.fold(n) not in sig.META_NAMES
        and not sig.is_meta_array(sig.fold(n))
    ]
    if len(tokens) == 1 and chosen == "data":
        # a JSON:API document: ``included`` holds the resources related to the primary ``data``
        # (side-loaded, "compound documents"), never the results themselves
        rivals = [n for n in rivals if n != "included"]
    if not rivals or _named_alike(sig.fold(chosen), noun) or sig.fold(chosen) == noun:
        return None
    if (
        sig.fold(chosen) in sig.ITEM_NAMES
        and _holds_objects(props[chosen], walker)
        and not any(_holds_objects(props[n], walker) for n in rivals)
    ):
        return None
    names = ", ".join([chosen, *rivals])
    return f"the response holds several arrays that could be the results ({names})"


def _holds_rows(node: Located, walker: SchemaWalker) -> bool:
    """An array of arrays (the rows of a table)."""
    item = walker.array_items(*node)
    return item is not None and walker.is_array(*item)


def _headers(name: str) -> bool:
    """An array named as a table's headers (``colHeaders``, ``columnHeaders``, ``columns``)."""
    return (sig.word_list(name) or [""])[-1] in ("headers", "columns")


def _holds_links(node: Located, walker: SchemaWalker) -> bool:
    """An array of hypermedia link objects: every field a link attribute, ``href`` or ``rel``
    among them (Opendatasoft's ``links: [{href, rel}]``)."""
    item = walker.array_items(*node)
    fields = {sig.fold(n) for n in walker.properties(*item)} if item is not None else set()
    return bool(fields & {"href", "rel"}) and fields <= sig.LINK_FIELDS


def link_arrays(body: Located, walker: SchemaWalker) -> list[str]:
    """The names of the body's arrays when every array it holds is an array of hypermedia links
    (``{links: [{href, rel}]}``: an entry point, or a list said only through links), else []."""
    props = walker.properties(*walker.resolve(*body))
    arrays = [n for n, located in props.items() if walker.is_array(*located)]
    return arrays if arrays and all(_holds_links(props[n], walker) for n in arrays) else []


def _holds_objects(node: Located, walker: SchemaWalker) -> bool:
    item = walker.array_items(*node)
    return item is not None and bool(walker.properties(*item))


def _named_alike(array: str, noun: str) -> bool:
    """The array is named after the path's noun (``envelopeDocuments`` under ``/documents``,
    ``cards`` under ``/skillCards``)."""
    if len(array) < 4 or len(noun) < 4:
        return False
    return array.endswith(noun) or noun.endswith(array)


def last_literal(path: str) -> str:
    """The last path segment that is no parameter, less a file suffix (``Messages.json``)."""
    literal = [s for s in path.split("/") if s and "{" not in s]
    return literal[-1].rsplit(".", 1)[0] if literal else ""


def _field_names(item: Located | None, walker: SchemaWalker) -> tuple[str, ...]:
    return tuple(n for n in walker.properties(*item) if isinstance(n, str)) if item else ()


def last_token(pointer: str) -> str:
    """The last (unescaped) token of a JSON pointer, "" for the whole document."""
    tokens = pointer_tokens(pointer)
    return tokens[-1] if tokens else ""


def _last_word(path: str) -> str:
    literal = [s for s in path.split("/") if s and "{" not in s]
    words = sig.word_list(literal[-1]) if literal else []
    return words[-1] if words else ""


def _item_facts(shape: Shape, item: Located | None, walker: SchemaWalker, names: list[str]) -> None:
    shape.item_fields = _field_names(item, walker)
    if item is None:
        return
    shape.item_types = frozenset(walker.types(*item))
    props = walker.properties(*item)
    node, at = walker.resolve(*item)
    live = walker.remembered(  # one item schema is the item of many lists (and its fields many)
        ("live_fields", id(node), at), node, lambda: evidence.live_fields(props, walker)
    )
    words = [sig.word_list(n)[-1] for n in names if n]
    chosen, others = evidence.item_id(props, walker, words, live)
    if chosen is not None:
        shape.id, shape.id_alternatives = pointer_join("", chosen), others
        return
    meta = props.get("metadata")
    if meta is not None and "uid" in walker.properties(*meta):  # Kubernetes objects
        shape.id = "/metadata/uid"


def _located_at(schema: Any, ptr: str, rel: str, walker: SchemaWalker) -> Located | None:
    node: Located = (schema, ptr)
    for token in pointer_tokens(rel) or ():
        props = walker.properties(*node)
        if token not in props:
            return None
        node = walker.resolve(*props[token])
    return node


def _check_items(
    shape: Shape, at: Located, rel: str, walker: SchemaWalker, examples: list[Any]
) -> None:
    """Is the items location an array? An example showing something else settles "no"; a schema
    that only implies it (``items`` with no ``type: array``) and no example showing an array
    leaves a doubt for the draft to ask about."""
    where = rel or "the body"
    if evidence.example_contradicts_array(examples, rel):
        shape.items_contradicted = True
        shape.items_doubt = f"an example shows an object, not an array, at {where}"
        return
    node, _ = walker.resolve(*at)
    declared = node.get("type") if isinstance(node, dict) else None
    explicit = declared == "array" or (isinstance(declared, list) and "array" in declared)
    if not explicit and not evidence.example_shows_array(examples, rel):
        shape.items_doubt = (
            f"the schema at {where} has 'items' but no 'type: array' and no example shows an array"
        )


def _token_end(
    schema: Any, ptr: str, token: Signal, walker: SchemaWalker, examples: list[Any]
) -> str | None:
    rel = token.expression.partition("#")[2]
    parts = pointer_tokens(rel) or ()
    if not parts:
        return None
    container: Located | None = (schema, ptr)
    for name in parts[:-1]:
        props = walker.properties(*container)
        if name not in props:
            return None
        container = walker.resolve(*props[name])
    props = walker.properties(*container)
    if parts[-1] not in props:
        return None
    return evidence.cursor_end(container, parts[-1], props[parts[-1]], walker, examples, rel)
