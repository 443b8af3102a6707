"""datamodel-code-generator's one module cut per operation (``datamodels.split_items``).

Schemas shaped like Stripe's and GitHub's: a reference cycle (``Customer`` <-> ``Charge``, which
the library closes with ``model_rebuild()`` calls), an ``allOf`` base class, a class two
operations share and classes only one reaches. The cut modules are imported for real in a fresh
interpreter: one operation's module loads only what that operation reaches and builds nothing at
import (the library's ``model_rebuild()`` calls are gone), yet the cyclic models validate.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from xcompleteness.emit.emitters.items import BASE_SOURCE
from xcompleteness.ir._datamodels import SHARED_PREFIX, model_items, split_items

REF = "#/components/schemas/"
SCHEMAS = {
    "Customer": {
        "type": "object",
        "required": ["id"],
        "properties": {
            "id": {"type": "string"},
            "charges": {"type": "array", "items": {"$ref": REF + "Charge"}},
            "address": {"$ref": REF + "Address"},
        },
    },
    "Charge": {
        "type": "object",
        "required": ["id"],
        "properties": {"id": {"type": "string"}, "customer": {"$ref": REF + "Customer"}},
    },
    "Address": {"type": "object", "properties": {"city": {"type": "string"}}},
    "Named": {"type": "object", "properties": {"name": {"type": "string"}}},
    "Repo": {
        "allOf": [
            {"$ref": REF + "Named"},
            {"type": "object", "properties": {"owner": {"$ref": REF + "Address"}}},
        ]
    },
    "Label": {"type": "object", "properties": {"color": {"type": "string", "enum": ["Repo"]}}},
}
ROOTS = {"list_customers": ["Customer"], "list_repos": ["Repo"], "list_labels": ["Label"]}


def _layout():
    models = model_items(SCHEMAS, "3.0.3")
    assert "model_rebuild()" in models.source  # the library closes the cycle at import
    return split_items(models.source, ROOTS)


def test_classes_go_to_the_module_of_the_operations_that_reach_them() -> None:
    layout = _layout()
    where = layout.where
    assert where["Customer"] == where["Charge"] == "list_customers"  # a cycle stays together
    assert where["Repo"] == where["Named"] == "list_repos"  # the allOf base goes with its child
    assert where["Label"] == "list_labels"  # "Repo" inside Literal[...] is a value, not a class
    assert where["Address"].startswith(SHARED_PREFIX)  # customers and repos both reach it
    assert layout.closure(["Customer"]) == {"list_customers", where["Address"]}
    assert layout.closure(["Label"]) == {"list_labels"}
    for module in layout.modules:
        assert "model_rebuild" not in module.source
        compile(module.source, module.name, "exec")
    assert split_items(model_items(SCHEMAS, "3.0.3").source, ROOTS) == layout  # deterministic


PROBE = """
import json, sys
sys.path.insert(0, sys.argv[1])
import pkg._items.list_customers as mod
loaded = sorted(m for m in sys.modules if m.startswith("pkg."))
built_at_import = [n for n in ("Customer", "Charge") if getattr(mod, n).__pydantic_complete__]
customer = mod.Customer.model_validate(
    {"id": "cus_1", "charges": [{"id": "ch_1", "customer": {"id": "cus_1"}}],
     "address": {"city": "Oslo"}}
)
print(json.dumps({
    "loaded": loaded,
    "built_at_import": built_at_import,
    "nested": type(customer.charges[0].customer).__name__,
    "city": customer.address.city,
}))
"""


def test_one_operation_imports_only_its_modules_and_builds_on_first_use(tmp_path: Path) -> None:
    layout = _layout()
    items = tmp_path / "pkg" / "_items"
    items.mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "_base.py").write_text(BASE_SOURCE)
    (items / "__init__.py").write_text("")
    for module in layout.modules:
        (items / f"{module.name}.py").write_text(module.source)
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["loaded"] == sorted(
        [
            "pkg._base",
            "pkg._items",
            "pkg._items.list_customers",
            "pkg._items." + layout.where["Address"],
        ]
    )
    assert out["built_at_import"] == []
    assert out["nested"] == "Customer" and out["city"] == "Oslo"


def test_an_unexpected_statement_keeps_the_module_whole() -> None:
    source = (
        "from ._base import XcBaseModel\n\n\nclass A(XcBaseModel):\n    x: int\n\n\n"
        "if True:\n    B = A\n"
    )
    layout = split_items(source, {"op": ["A"]})
    assert [m.name for m in layout.modules] == [SHARED_PREFIX + "all"]
    assert layout.where == {"A": SHARED_PREFIX + "all"}
    assert "from .._base import XcBaseModel" in layout.modules[0].source
