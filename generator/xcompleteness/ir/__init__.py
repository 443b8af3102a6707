"""The intermediate representation every emitter reads, item models and the naming authority.

May import: ``document`` to ``detect``, ``runtime``, ``diagnostics``.
"""

from xcompleteness.ir._build import CodeIR, FieldIR, OperationIR, SpecIR, build_ir
from xcompleteness.ir._datamodels import (
    BASE_CLASS,
    BASE_MODULE,
    HEADER,
    ItemLayout,
    ModelsRefused,
    ModelStore,
    model_items,
    model_store,
    models_key,
    split_items,
    split_store,
    sub_document_for,
)
from xcompleteness.ir._naming import (
    NameRegistry,
    argument_name,
    check_package_name,
    default_package_name,
    snake,
)
from xcompleteness.ir._schemas import PatternStore, pattern_store

__all__ = [
    "BASE_CLASS",
    "BASE_MODULE",
    "CodeIR",
    "FieldIR",
    "HEADER",
    "ItemLayout",
    "ModelStore",
    "ModelsRefused",
    "NameRegistry",
    "OperationIR",
    "PatternStore",
    "SpecIR",
    "argument_name",
    "build_ir",
    "check_package_name",
    "default_package_name",
    "model_items",
    "model_store",
    "models_key",
    "pattern_store",
    "snake",
    "split_items",
    "split_store",
    "sub_document_for",
]
