"""The project's one policy on the cyclic garbage collector (a base module).

Loading and the list-likeness scan build large trees of objects that hold no reference cycles
(parsed JSON, typed views, the scan's memo, shapes and findings), so the collections their
allocations trigger traverse everything and free nothing. Three tools, each used only where that
holds, each leaving the collector's schedule as it found it:

* :func:`paused`: no collection at all for one block (loading a document, building its typed
  views, one XC100 or audit scan; the scan parity tests collect after scans on GitHub, Stripe,
  Graph and 40 real specs and find nothing).
* :func:`full_collections_put_off`: for the rest of a command-line ``check`` run, full
  collections :data:`FULL_COLLECTION_PUT_OFF` times rarer; young collections still run, so
  cycles that die young (exceptions and their tracebacks) are still freed.
* :func:`objects_live_with_the_process`: a command-line run declares that what it builds lives
  until the process ends; then what a block of :func:`paused` built is frozen (``gc.freeze``)
  when the block ends, before the collector runs again. Without that, the first allocation after
  the block triggers a collection that traverses everything the block built, since none of it
  was ever counted as surviving one: on Microsoft Graph 0.12 s after loading, 0.05 s after the
  XC100 scan and ~0.06 s of small ones while its views are built. A library caller never gets
  this (a server loading many documents keeps them collectable).

The collector is process-wide: a threaded library caller's other threads get no collection
while a block of :func:`paused` runs (about a second on Microsoft Graph); nothing is lost, the
collection comes after.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = [
    "FULL_COLLECTION_PUT_OFF",
    "for_the_process",
    "full_collections_put_off",
    "objects_live_with_the_process",
    "paused",
]

FULL_COLLECTION_PUT_OFF = 1000
"""How much rarer full collections are in :func:`full_collections_put_off` (the usual schedule:
one after 10 middle-generation collections, each after 10 young ones of 700 allocations)."""

_FOR_THE_PROCESS: ContextVar[bool] = ContextVar("xc_objects_for_the_process", default=False)


@contextmanager
def objects_live_with_the_process() -> Iterator[None]:
    """Declare that what this block builds lives until the process ends (a command-line run:
    one document, then exit): blocks of :func:`paused` inside it freeze what they built."""
    token = _FOR_THE_PROCESS.set(True)
    try:
        yield
    finally:
        _FOR_THE_PROCESS.reset(token)


def for_the_process() -> bool:
    """Inside :func:`objects_live_with_the_process`."""
    return _FOR_THE_PROCESS.get()


@contextmanager
def paused() -> Iterator[None]:
    """No cyclic collection in this block; the collector is left as it was. Inside
    :func:`objects_live_with_the_process`, a block that ends without an exception freezes
    everything tracked before the collector runs again (module doc)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
        if _FOR_THE_PROCESS.get():
            gc.freeze()
    finally:
        if enabled:
            gc.enable()


@contextmanager
def full_collections_put_off() -> Iterator[None]:
    """Full collections :data:`FULL_COLLECTION_PUT_OFF` times rarer in this block."""
    thresholds = gc.get_threshold()
    young, middle, full = thresholds
    gc.set_threshold(young, middle, full * FULL_COLLECTION_PUT_OFF)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
