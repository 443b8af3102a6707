"""The cyclic collector policy (xcompleteness.collector): what a paused block built is frozen at
its end only in a run whose objects live with the process, and the typed views and the XC100
scan of a command-line ``check`` leave nothing for a collection to traverse."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from support.paths import EXAMPLES
from xcompleteness import collector
from xcompleteness.detect import undeclared_listings
from xcompleteness.load import documents_live_with_the_process, load_document

GITHUB = EXAMPLES / "github" / "excerpt.yaml"  # without its overlay: undeclared listings


@pytest.fixture
def unfrozen() -> Iterator[None]:
    """Each test starts and ends with nothing frozen and the collector enabled; what was frozen
    is collected at once (here, not in whatever test allocates next: jinja2's ModuleLoader keeps
    weak proxies in ``sys.modules`` that a collection elsewhere would pull from under a loop)."""
    gc.unfreeze()
    gc.collect()
    was = gc.isenabled()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.collect()
        (gc.enable if was else gc.disable)()


def _tracked(obj: object) -> bool:
    """``obj`` is in a generation a collection traverses (not frozen)."""
    return any(o is obj for o in gc.get_objects())


def test_a_paused_block_freezes_what_it_built_only_for_the_process(unfrozen: None) -> None:
    made: list[list[int]] = []
    with collector.paused():
        made.append([1])
        assert not gc.isenabled()
    assert gc.isenabled() and gc.get_freeze_count() == 0 and _tracked(made[0])
    with collector.objects_live_with_the_process():
        assert collector.for_the_process()
        with pytest.raises(RuntimeError), collector.paused():
            made.append([2])
            raise RuntimeError("an error: nothing is frozen on the way out")
        assert gc.isenabled() and gc.get_freeze_count() == 0
        with collector.paused():
            made.append([3])
        assert gc.isenabled() and gc.get_freeze_count() > 0
        assert not _tracked(made[2]) and not _tracked(made)
    assert not collector.for_the_process()
    gc.disable()  # a paused block leaves a disabled collector disabled
    with collector.objects_live_with_the_process(), collector.paused():
        pass
    assert not gc.isenabled()


def test_views_are_built_with_no_collection_and_frozen_only_for_the_process(
    unfrozen: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Building the typed views runs no collection (they make no cycles: the scan parity tests
    collect after views and scans and find nothing); a library caller's views stay tracked."""
    from xcompleteness.load import _source

    doc = load_document(GITHUB)
    assert "views" not in doc.__dict__
    enabled: list[bool] = []
    real_views = _source.views

    def noted(data: object) -> object:  # the real builder, the collector's state noted
        enabled.append(gc.isenabled())
        return real_views(data)

    monkeypatch.setattr(_source, "views", noted)
    views = doc.views
    assert enabled == [False] and gc.isenabled()
    assert views.operations and _tracked(views.operations[0])
    assert gc.get_freeze_count() == 0


def test_check_on_the_command_line_leaves_its_views_and_scan_frozen(unfrozen: None) -> None:
    """In a command-line run the document, its views and what the scan read (media types) are
    frozen as each block ends, so no later collection traverses them; the verdicts are the
    library caller's."""
    expected = undeclared_listings(load_document(GITHUB))
    assert expected
    with documents_live_with_the_process(pause_collector=True):
        doc = load_document(GITHUB)
        assert not _tracked(doc.data)
        op = doc.views.operations[0]
        assert not _tracked(op)
        assert undeclared_listings(doc) == expected
        assert op.method == "get" and not _tracked(op.parameters)  # read by the scan
        content = [r.content for o in doc.views.operations for r in o.responses]
        assert any(content) and not any(_tracked(c) for c in content if c)
    assert gc.isenabled()
