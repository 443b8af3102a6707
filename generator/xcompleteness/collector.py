"""The project's one policy on the cyclic garbage collector (a base module).

Loading and the list-likeness scan build large trees of objects that hold no reference cycles
(parsed JSON, typed views, the scan's memo, shapes and findings), so the collections their
allocations trigger traverse everything and free nothing. Two tools, each used only where that
holds, each leaving the collector as it found it:

* :func:`paused`: no collection at all for one block (loading a document, one XC100 or audit
  scan; the scan parity tests collect after scans on GitHub, Stripe, Graph and 40 real specs
  and find nothing).
* :func:`full_collections_put_off`: for the rest of a command-line ``check`` run, full
  collections :data:`FULL_COLLECTION_PUT_OFF` times rarer; young collections still run, so
  cycles that die young (exceptions and their tracebacks) are still freed.

The collector is process-wide: a threaded library caller's other threads get no collection
while a block of :func:`paused` runs (about a second on Microsoft Graph); nothing is lost, the
collection comes after. Freezing a loaded document (``gc.freeze``) is the load stage's own
decision and only for command-line runs (``load.documents_live_with_the_process``).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["FULL_COLLECTION_PUT_OFF", "full_collections_put_off", "paused"]

FULL_COLLECTION_PUT_OFF = 1000
"""How much rarer full collections are in :func:`full_collections_put_off` (the usual schedule:
one after 10 middle-generation collections, each after 10 young ones of 700 allocations)."""


@contextmanager
def paused() -> Iterator[None]:
    """No cyclic collection in this block; the collector is left as it was."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
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
