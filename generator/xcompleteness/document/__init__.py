"""The OpenAPI document as data: the one ``$ref`` / JSON-pointer resolver.

May import: the standard library only.
"""

from xcompleteness.document._refs import (
    follow_refs,
    iter_refs,
    pointer_tokens,
    ref_component,
    ref_pointer,
    resolve_pointer,
    resolve_ref,
)

__all__ = [
    "follow_refs",
    "iter_refs",
    "pointer_tokens",
    "ref_component",
    "ref_pointer",
    "resolve_pointer",
    "resolve_ref",
]
