"""What a first ``page()`` validates when (docs/client.md#what-is-validated-when, issue 21).

``page()`` with lenient items validates the whole envelope before it returns (``complete``,
reasons, ``next_cursor``, scope, ``page.returned``, server warnings, evidence, the invariants
between them) and each item against its model when the items are first read; ``strict_items``
and ``collect()`` validate items at once. The generated package (real pipeline) is called in
process with an httpx transport serving crafted pages, and in a fresh interpreter against the
fault server on a real uvicorn loopback port, where what was imported and built is asserted.
"""

from __future__ import annotations

import asyncio
import copy
import importlib
import json
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import BaseModel, ValidationError
from support.fault_server import FaultyCollection, make_app, serve
from support.walk_helpers import envelope

SPEC = Path(__file__).parent / "specs" / "fault_api.yaml"
PACKAGE = "first_page_fault_api"


@pytest.fixture(scope="module")
def pkg(tmp_path_factory):
    from xcompleteness.emit._generate import generate
    from xcompleteness.emit._write import write_tree

    out = tmp_path_factory.mktemp("first_page_gen")
    write_tree(out, generate(SPEC, [], PACKAGE).files)
    sys.path.insert(0, str(out))
    importlib.invalidate_caches()
    try:
        yield importlib.import_module(PACKAGE), out
    finally:
        sys.path.remove(str(out))


def answering(body: Any, status: int = 200, headers: dict[str, str] | None = None):
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(status, json=body, headers=headers or {})

    return httpx.MockTransport(handler)


def good(k: int) -> dict:
    return {"id": f"i{k}", "rank": k}


BAD = {"id": "i1", "rank": "not a number", "extra": True}


def client(pkg, body: Any, *, async_: bool = False, **kw: Any):
    module, _ = pkg
    if async_:

        async def handler(request: httpx.Request) -> httpx.Response:
            return httpx.Response(200, json=body)

        return module.AsyncClient("http://t.test", transport=httpx.MockTransport(handler), **kw)
    return module.Client("http://t.test", transport=answering(body), **kw)


# -- the envelope: validated before page() returns ---------------------------------------------


@pytest.mark.parametrize(
    ("broken", "what"),
    [
        ({"complete": "yes"}, "the envelope has no boolean 'complete'"),
        ({"complete": True, "incomplete_reasons": [{"code": "SOURCE_UNAVAILABLE"}]}, "disagrees"),
        ({"next_cursor": "dangling"}, "MORE_PAGES_AVAILABLE"),
        (
            {"complete": False, "incomplete_reasons": [{"code": "NOT_DECLARED"}]},
            "undeclared reason code NOT_DECLARED",
        ),
        (
            {"complete": False, "incomplete_reasons": [{"code": "SOURCE_UNAVAILABLE"}]},
            "incomplete_reasons/0/SOURCE_UNAVAILABLE/source: Field required",
        ),
        ({"page": {"returned": 5}}, "page.returned is 5 but the page has 2 items"),
        (
            {
                "evidence": "tok",
                "complete": False,
                "incomplete_reasons": [{"code": "SOURCE_UNAVAILABLE", "source": "shard-2"}],
            },
            "evidence can only come with a complete result",
        ),
        ({"warnings": [{"code": "NOT_A_WARNING"}]}, "undeclared warning code NOT_A_WARNING"),
        ({"items": {"not": "a list"}}, "the items location does not hold a list"),
    ],
)
def test_a_malformed_envelope_fails_page_at_once(pkg, broken, what):
    walk = importlib.import_module(f"{PACKAGE}._runtime.walk")
    body = {**envelope([good(0), BAD]), **broken}
    with client(pkg, body) as c, pytest.raises(walk.WalkFailed) as err:
        c.list_items.page(limit=2)
    assert err.value.codes == ["CONTRACT_VIOLATION"]
    assert what in (err.value.what or "")


def test_completeness_is_read_before_any_item_is(pkg):
    body = envelope(
        [good(0), BAD],
        reasons=["MORE_PAGES_AVAILABLE", {"code": "RESULT_LIMIT_REACHED", "limit": 1000}],
        next_cursor="c2",
        warnings=[{"code": "STALE_INDEX", "source": "idx"}],
    )
    with client(pkg, body) as c:
        page = c.list_items.page(limit=2)
    assert page.items.validated is False  # nothing of the items has been looked at yet
    assert page.complete is False and page.next_cursor == "c2"
    assert [r.code for r in page.incomplete_reasons] == [
        "MORE_PAGES_AVAILABLE",
        "RESULT_LIMIT_REACHED",
    ]
    assert page.incomplete_reasons[1].limit == 1000  # typed reason details, at once
    assert page.scope.snapshot == "s1" and len(page.items) == 2
    assert page.items.validated is False  # len() needs no validation
    assert page.continuation().cursor == "c2"


def test_adapter_page_computes_and_checks_its_envelope_at_once(pkg):
    body = {"total_count": 5000, "incomplete_results": True, "items": [good(0), BAD]}
    with client(pkg, body) as c:
        page = c.search_items.page(per_page=2)
    assert page.items.validated is False
    assert page.complete is False
    assert {r.code for r in page.incomplete_reasons} == {
        "TIME_BUDGET_EXCEEDED",
        "RESULT_LIMIT_REACHED",
    }
    walk = importlib.import_module(f"{PACKAGE}._runtime.walk")
    with client(pkg, {"total_count": 1, "items": "nope"}) as c, pytest.raises(walk.WalkFailed):
        c.search_items.page(per_page=2)


# -- the items: validated on first read, same outcome as before --------------------------------


def eager_first_page(pkg, body: Any, operation: str) -> Any:
    """The first page's items and warnings as collect() (which validates at once) reports them."""
    with client(pkg, body) as c:
        return getattr(c, operation).collect(max_pages=1)


@pytest.mark.parametrize(
    ("operation", "body"),
    [
        ("list_items", envelope([good(0), BAD, good(2)])),
        (
            "search_items",
            {"total_count": 3, "incomplete_results": False, "items": [good(0), BAD, good(2)]},
        ),
    ],
)
def test_an_invalid_item_surfaces_when_the_items_are_read(pkg, operation, body):
    module, _ = pkg
    models = module.models
    with client(pkg, body) as c:
        page = getattr(c, operation).page()
    assert page.items.validated is False
    first = page.items[0]  # the first read validates every item of the page
    assert page.items.validated is True
    assert isinstance(first, models.Item) and first.rank == 0
    assert page.items[1] == BAD and not isinstance(page.items[1], BaseModel)  # kept as received
    (w,) = [w for w in page.warnings if w.code == "ITEM_SCHEMA_MISMATCH"]
    assert w.index == 1 and w.errors[0]["loc"] == "/rank" and w.errors[0]["type"] == "int_parsing"
    eager = eager_first_page(pkg, body, operation)
    assert [type(i) for i in page.items] == [type(i) for i in eager.items]
    assert list(page.items) == list(eager.items)
    assert [w.model_dump() for w in page.warnings] == [w.model_dump() for w in eager.warnings]


def test_reading_the_warnings_validates_the_items_first(pkg):
    with client(
        pkg, envelope([BAD, good(1)], warnings=[{"code": "STALE_INDEX", "source": "idx"}])
    ) as c:
        page = c.list_items.page()
    assert len(page.warnings) == 2  # the server's warning and the item's mismatch
    assert page.items.validated is True
    assert [w.code for w in page.warnings] == ["STALE_INDEX", "ITEM_SCHEMA_MISMATCH"]


def test_strict_items_refuses_the_page_at_once(pkg):
    walk = importlib.import_module(f"{PACKAGE}._runtime.walk")
    with client(pkg, envelope([good(0), BAD])) as c, pytest.raises(walk.WalkFailed) as err:
        c.list_items.page(strict_items=True)
    assert err.value.codes == ["CONTRACT_VIOLATION"]
    assert (err.value.what or "").startswith("strict_items: item 1 does not match")
    with client(pkg, envelope([good(0), BAD]), strict_items=True) as c:
        with pytest.raises(walk.WalkFailed, match="strict_items: item 1"):
            c.list_items.page()


def test_the_envelope_model_still_types_and_rejects_items_itself(pkg):
    """The envelope class names its item model lazily; its schema is exactly list[Item]."""
    module, _ = pkg
    models = module.models

    class Eager(models.ListItemsPage):
        items: list[models.Item]

    bad_page = envelope([good(0), BAD])
    with pytest.raises(ValidationError) as lazy_err:
        models.ListItemsPage.model_validate(bad_page)
    with pytest.raises(ValidationError) as eager_err:
        Eager.model_validate(bad_page)
    assert lazy_err.value.errors(include_url=False) == eager_err.value.errors(include_url=False)
    page = models.ListItemsPage.model_validate(envelope([good(0)]))
    assert isinstance(page.items[0], models.Item)
    lazy_schema = models.ListItemsPage.model_json_schema()
    eager_schema = Eager.model_json_schema()
    assert lazy_schema["properties"]["items"] == eager_schema["properties"]["items"]
    assert lazy_schema["$defs"] == eager_schema["$defs"]


def test_a_deferred_page_behaves_as_a_list_of_models_everywhere(pkg):
    module, _ = pkg
    models = module.models
    body = envelope([good(0), good(1), BAD])
    with client(pkg, body) as c:
        pages = [c.list_items.page() for _ in range(6)]
    lenient = {importlib.import_module(f"{PACKAGE}._runtime.envelope").ITEM_MISMATCHES: []}
    eager = models.ListItemsPage.model_validate(body, context=lenient)
    # each read below is the first read of its own page
    assert pages[0].model_dump(warnings=False)["items"] == eager.model_dump(warnings=False)["items"]
    assert json.loads(pages[1].model_dump_json(warnings=False))["items"][2] == BAD
    assert [i.id if isinstance(i, BaseModel) else i["id"] for i in pages[2].items] == [
        "i0",
        "i1",
        "i1",
    ]
    copied = copy.deepcopy(pages[3])
    assert type(copied.items) is list and isinstance(copied.items[0], models.Item)
    assert pickle.loads(pickle.dumps(pages[4].items))[1] == models.Item(id="i1", rank=1)
    assert pages[5].items == [models.Item(id="i0", rank=0), models.Item(id="i1", rank=1), BAD]
    assert "Item(id='i0'" in repr(pages[5])


def test_async_page_defers_the_items_too(pkg):
    async def run() -> tuple[bool, Any]:
        async with client(pkg, envelope([good(0), BAD]), async_=True) as c:
            page = await c.list_items.page()
            return page.items.validated, page

    validated, page = asyncio.run(run())
    assert validated is False and page.complete is True
    assert page.items[1] == BAD and page.warnings[-1].code == "ITEM_SCHEMA_MISMATCH"


# -- a fresh interpreter: a first page() builds the envelope only ------------------------------

PROBE = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
package, base = sys.argv[2], sys.argv[3]
import importlib
pkg = importlib.import_module(package)
def item_modules():
    return sorted(m for m in sys.modules if m.startswith(package + "._items."))
with pkg.Client(base) as client:
    page = client.list_items.page(limit=5)
ops = importlib.import_module(package + "._models.list_items")
after_page = {
    "complete": page.complete,
    "reasons": [r.code for r in page.incomplete_reasons],
    "next_cursor": page.next_cursor,
    "item_modules": item_modules(),
    "item_model_loaded": ops.ITEM_MODEL.loaded,
    "get_item_models": package + "._models.get_item" in sys.modules,
    "envelope_built": bool(ops.ListItemsPage.__dict__.get("__pydantic_complete__")),
}
rt = package + "._runtime."
records = sys.modules[rt + "records"]
tokenize = sys.modules.get("tokenize")
left_out = {
    "runtime": sorted(m.removeprefix(rt) for m in sys.modules if m.startswith(rt)),
    "pending_records": sorted(c.__qualname__ for c in records._PENDING),
    "others": sorted(m for m in ("asyncio",) if m in sys.modules),
    "tokenize_patterns": tokenize._compile.cache_info().currsize
    if tokenize is not None and hasattr(tokenize, "_compile") else 0,
}
first = page.items[0]
Item = type(first)
print(json.dumps({
    "after_page": after_page,
    "left_out": left_out,
    "item": [Item.__name__, bool(Item.__dict__.get("__pydantic_complete__")), first.id],
    "item_modules_after_read": item_modules(),
}))
"""


@pytest.fixture(scope="module")
def probe(pkg) -> dict:
    """What one first page() in a fresh interpreter imported and built (PROBE's report)."""
    _, out = pkg
    with serve(make_app(FaultyCollection(12))) as base:
        run = subprocess.run(
            [sys.executable, "-c", PROBE, str(out), PACKAGE, base],
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_a_first_page_in_a_fresh_interpreter_imports_no_item_model(probe):
    seen = probe
    after = seen["after_page"]
    assert after["complete"] is False and after["reasons"] == ["MORE_PAGES_AVAILABLE"]
    assert after["next_cursor"]
    assert after["item_modules"] == [] and after["item_model_loaded"] is False
    assert after["get_item_models"] is False and after["envelope_built"] is False
    name, built, first_id = seen["item"]
    assert name == "Item" and built is True and first_id == "item-0000000"
    # reading the items imports the item's own module, not the archive operation's models
    assert seen["item_modules_after_read"] == [f"{PACKAGE}._items._shared_item"]


def test_a_first_page_leaves_out_what_it_does_not_reach(probe):
    """Beyond the item models (issue 21, first call): no runtime module of the tool layer, the
    service side or the client codes' models; the records a listing page does not make stay
    unmaterialized (runtime/records.py); no asyncio; and no pattern of
    tokenize compiled (a builtin default factory would make pydantic parse its signature)."""
    left_out = probe["left_out"]
    runtime = set(left_out["runtime"])
    assert {"envelope", "walk", "operations", "records", "page_items"} <= runtime
    assert runtime.isdisjoint(
        {
            "client_codes",
            "tool_models",
            "tool_result",
            "tooling",
            "toolsets",
            "service",
            "tokens",
            "store",
            "evidence",
            "decide",
            "recheck",
            "approval",
            "validation",
        }
    )
    pending = set(left_out["pending_records"])
    assert {"Mutation", "Deadline", "StreamResult", "CollectResult"} <= pending
    assert "Contract" not in pending and "PageRequest" not in pending  # made by the page
    assert left_out["others"] == [] and left_out["tokenize_patterns"] == 0
