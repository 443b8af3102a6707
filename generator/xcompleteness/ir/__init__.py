"""The intermediate representation every emitter reads, item models and the naming authority.

May import: ``document`` to ``detect``, ``runtime``, ``diagnostics``.
"""

from xcompleteness.ir._build import (
    CodeIR,
    FieldIR,
    IRParts,
    ModelsPending,
    OperationIR,
    SpecIR,
    build_ir,
    item_schemas,
)
from xcompleteness.ir._datamodels import (
    BASE_CLASS,
    BASE_MODULE,
    HEADER,
    ItemLayout,
    ModelsRefused,
    ModelStore,
    model_items,
    model_store,
    models_ahead,
    models_key,
    models_pending,
    split_items,
    split_store,
    start_models,
    sub_document_for,
)
from xcompleteness.ir._json_numbers import NUMBER_TYPE
from xcompleteness.ir._naming import (
    NameRegistry,
    argument_name,
    check_package_name,
    component_rename_hint,
    default_package_name,
    operation_rename_hint,
    snake,
    wire_name_hint,
)
from xcompleteness.ir._schemas import PatternStore, pattern_store

__all__ = [
    "BASE_CLASS",
    "BASE_MODULE",
    "CodeIR",
    "FieldIR",
    "HEADER",
    "IRParts",
    "ItemLayout",
    "ModelStore",
    "ModelsPending",
    "ModelsRefused",
    "NUMBER_TYPE",
    "NameRegistry",
    "OperationIR",
    "PatternStore",
    "SpecIR",
    "argument_name",
    "build_ir",
    "check_package_name",
    "component_rename_hint",
    "default_package_name",
    "item_schemas",
    "model_items",
    "model_store",
    "models_ahead",
    "models_key",
    "models_pending",
    "operation_rename_hint",
    "pattern_store",
    "snake",
    "split_items",
    "split_store",
    "start_models",
    "sub_document_for",
    "wire_name_hint",
]
