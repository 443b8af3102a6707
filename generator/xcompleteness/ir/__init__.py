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
    model_items,
    split_items,
)
from xcompleteness.ir._naming import NameRegistry, check_package_name, default_package_name, snake

__all__ = [
    "BASE_CLASS",
    "BASE_MODULE",
    "CodeIR",
    "FieldIR",
    "HEADER",
    "ItemLayout",
    "ModelsRefused",
    "NameRegistry",
    "OperationIR",
    "SpecIR",
    "build_ir",
    "check_package_name",
    "default_package_name",
    "model_items",
    "snake",
    "split_items",
]
