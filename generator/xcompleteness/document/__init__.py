"""The OpenAPI document as data: the one ``$ref`` / JSON-pointer resolver, the one walk over
``paths`` and the typed views of operations, parameters, bodies, responses and media types.

May import: the base modules.
"""

from xcompleteness.document._operations import (
    HTTP_METHODS,
    iter_operations,
    iter_path_items,
    operation_nodes,
)
from xcompleteness.document._plain import INT_MAX, INT_MIN, plain_tree
from xcompleteness.document._refs import (
    MAX_REF_HOPS,
    deref,
    deref_at,
    deref_mapping,
    follow_refs,
    iter_refs,
    overlay_target,
    pointer_tokens,
    ref_component,
    ref_pointer,
    resolve_pointer,
    resolve_ref,
)
from xcompleteness.document._stripped import declaration_free_digest, stripped
from xcompleteness.document._views import (
    DECLARATION_KEY,
    DEFAULTS_KEY,
    DocumentViews,
    MediaType,
    Operation,
    Parameter,
    RequestBody,
    Response,
    SchemaRef,
    views,
)

__all__ = [
    "DECLARATION_KEY",
    "DEFAULTS_KEY",
    "DocumentViews",
    "HTTP_METHODS",
    "INT_MAX",
    "INT_MIN",
    "MAX_REF_HOPS",
    "MediaType",
    "Operation",
    "Parameter",
    "RequestBody",
    "Response",
    "SchemaRef",
    "declaration_free_digest",
    "deref",
    "deref_at",
    "deref_mapping",
    "follow_refs",
    "iter_operations",
    "iter_path_items",
    "iter_refs",
    "operation_nodes",
    "overlay_target",
    "plain_tree",
    "pointer_tokens",
    "ref_component",
    "ref_pointer",
    "resolve_pointer",
    "resolve_ref",
    "stripped",
    "views",
]
