"""The issue-19 evaluation as tests (README.md beside this file explains it).

* the label files are well formed (schema checked, no specs needed, so these run in ``make test``
  too): known keys, pointers starting with ``/``, a ``cite`` on every listing, each API in the
  half split.yaml gives it, and split.yaml is still what ``sample.py --split`` computes;
* (corpus) every citation resolves in the spec and its quote is there; the labelled operations
  are exactly the ones sample.py draws from the spec;
* (corpus) the scorer runs audit through the public CLI on every API and **records** the figures
  (per API and per half; printed, and in the junit properties) and asserts them as a ratchet:
  false listings, silent wrong values and missed listings no more than docs/audit.md reports;
* (corpus) the held-out half is what the seeded draw of sample.py gives (no API picked by hand).

Run the corpus part with ``make test-corpus PYTEST_ARGS=tests/audit/eval`` or
``.venv/bin/python -m pytest -m corpus tests/audit/eval``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

HERE = Path(__file__).resolve().parent


def _module(name: str, file: str) -> Any:
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, HERE / file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


labels = _module("xc_eval_labels", "labels.py")
sample = _module("xc_eval_sample", "sample.py")

FILES = labels.label_files("all")


def test_every_api_of_the_split_has_its_label_file_in_its_half() -> None:
    split = yaml.safe_load((HERE / "split.yaml").read_text(encoding="utf-8"))
    assert split == sample.split(), "split.yaml differs from `sample.py --split`"
    assert not set(split["named_in_issue"]) & set(split["heldout"])
    # Round 15: round 1's 14 APIs and rounds 2's to 14's held-out halves are tuning; a fresh half
    # held out.
    assert split["tuning"] == sorted(
        split["round1"]["tuning"]
        + split["retired_heldout"]["apis"]
        + split["round2"]["heldout"]
        + split["round3"]["heldout"]
        + split["round4"]["heldout"]
        + split["round5"]["heldout"]
        + split["round6"]["heldout"]
        + split["round7"]["heldout"]
        + split["round8"]["heldout"]
        + split["round9"]["heldout"]
        + split["round10"]["heldout"]
        + split["round11"]["heldout"]
        + split["round12"]["heldout"]
        + split["round13"]["heldout"]
        + split["round14"]["heldout"]
    )
    assert split["retired_heldout"]["apis"] == split["round1"]["heldout"]
    assert split["round2"]["retired"]["apis"] == split["round2"]["heldout"]
    assert split["round3"]["retired"]["apis"] == split["round3"]["heldout"]
    assert split["round4"]["retired"]["apis"] == split["round4"]["heldout"]
    assert split["round5"]["retired"]["apis"] == split["round5"]["heldout"]
    assert split["round6"]["retired"]["apis"] == split["round6"]["heldout"]
    assert split["round7"]["retired"]["apis"] == split["round7"]["heldout"]
    assert split["round8"]["retired"]["apis"] == split["round8"]["heldout"]
    assert split["round9"]["retired"]["apis"] == split["round9"]["heldout"]
    assert split["round10"]["retired"]["apis"] == split["round10"]["heldout"]
    assert split["round11"]["retired"]["apis"] == split["round11"]["heldout"]
    assert split["round12"]["retired"]["apis"] == split["round12"]["heldout"]
    assert split["round13"]["retired"]["apis"] == split["round13"]["heldout"]
    assert split["round14"]["retired"]["apis"] == split["round14"]["heldout"]
    assert len(split["tuning"]) == 93 and len(split["heldout"]) == sample.HELDOUT_SIZE >= 6
    assert not set(split["tuning"]) & set(split["heldout"])
    held_providers = {sample.provider(split["specs"][a]) for a in split["heldout"]}
    assert len(held_providers) == sample.HELDOUT_SIZE, "one held-out API per provider"
    assert not held_providers & {sample.provider(split["specs"][a]) for a in split["tuning"]}
    found = {(f.parent.name, f.stem) for f in FILES}
    wanted = {(h, api) for h in ("tuning", "heldout") for api in split[h]}
    assert found == wanted


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_label_file_is_well_formed(path: Path) -> None:
    data = labels.load(path)  # raises LabelError on any schema problem
    assert data["spec"] == sample.APIS[data["api"]]
    listings = [k for k, v in data["labels"].items() if v["listing"] is True]
    others = [k for k, v in data["labels"].items() if v["listing"] is not True]
    assert len(listings) >= sample.PER_CLASS and len(others) >= sample.PER_CLASS


CITE = {"items": ["op:/x", "y"]}


@pytest.mark.parametrize(
    "label, problem",
    [
        ({"listing": True, "items": "/data"}, "needs a cite"),
        ({"listing": True, "items": "data", "cite": CITE}, "must start with '/'"),
        ({"listing": True, "iterms": "/data", "cite": CITE}, "unknown keys"),
        ({"listing": True, "end": "never", "cite": CITE}, "end 'never'"),
        ({"listing": True, "cite": {"items": ["x", "y"]}}, "must start #/ or op:/"),
        ({"listing": False, "items": "/data"}, "non-listing carries"),
        ({"listing": "yes"}, "listing must be"),
        ({"listing": True, "style": "none", "end": "total", "cite": CITE}, "no end"),
        ({"listing": True, "cap": {"limit": 10}, "cite": CITE}, "cap must be"),
    ],
)
def test_the_schema_check_rejects_broken_labels(label: dict[str, Any], problem: str) -> None:
    with pytest.raises(labels.LabelError, match=problem):
        labels.check_label("GET /things", label)


def test_an_api_where_audit_finds_nothing_scores_as_an_empty_draft(tmp_path: Path) -> None:
    # Noosh's envelopes were all missed on main before round 5: audit writes no overlay when
    # nothing is list-like, and the scorer must count its labelled listings as missed, not fail.
    score = _module("xc_eval_score", "score.py")
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /ping:\n    get:\n"
        "      responses: {'200': {description: ok}}\n",
        encoding="utf-8",
    )
    draft = tmp_path / "draft.yaml"
    result = score.run_audit(spec, draft, sys.executable)
    assert "error" not in result and result["returncode"] == 0
    assert score.read_draft(draft) == {}


@pytest.mark.corpus
@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_citations_resolve_and_labels_cover_the_drawn_sample(path: Path) -> None:
    data = labels.load(path)
    doc = sample.load(data["api"])
    assert labels.check_cites(doc, data) == []
    assert sorted(data["labels"]) == sample.sample(data["api"], doc)


@pytest.mark.corpus
def test_the_heldout_half_is_what_the_seeded_draw_gives() -> None:
    # The rule (sample.py draw_heldout, split.yaml heldout_draw) recomputed from the spec cache
    # and this repository's history: no API was picked by hand.
    assert sample.draw_heldout() == sample.HELDOUT


@pytest.mark.corpus
def test_score_records_the_figures(tmp_path: Path, record_property: Any) -> None:
    score = _module("xc_eval_score", "score.py")
    report = score.main(["--half", "all", "--json", str(tmp_path / "eval.json")])
    assert set(report["apis"]) == {f.stem for f in FILES}
    assert all("error" not in r for r in report["apis"].values()), "audit failed on an API"
    for half, tot in report["totals"].items():
        for key in ("listings", "found", "missed", "false_listings"):
            record_property(f"{half}.{key}", tot[key])
        for key, value in tot["values"].items():
            record_property(f"{half}.values.{key}", value)
        record_property(f"{half}.silent_wrong", tot["values"]["wrong"])
        record_property(f"{half}.false_silent", tot["false_silent"])
    # Issue 19's goal is 0 silent wrong values and 0 false listings on both halves. The figures
    # below are a ratchet (README.md, docs/audit.md): never more false listings, false listings
    # without a kind TODO, silent wrong values or missed listings than recorded. Tuning (93 APIs:
    # rounds 1 to 14) is measured after round 15's heuristics: its 36 false listings are reads by
    # id or of "the next" item typed as arrays or without a schema, one object of flags, keys read
    # under a "*_list" operationId, settings answered as an array, PI Web API's batch reads, a
    # capabilities read, NamSor's software version, Loket's and BBC's reads by id copying their
    # collection's envelope, schema-less Twitter v1.1 and Trakt reads, MIMIC's statistics reads,
    # header row, cardinality and file name, each drafted under a kind TODO asking whether it
    # lists; 42 missed (trakt 11, gitlab 4, brex 3, reverb 3, trello 3...).
    # Held-out is round 15's fresh six, scored counts-only once with main's code and once on the
    # branch after every label: 2 silent wrong values (both "kind: drafted collection, label
    # aggregate"; wowza by the per-API rows), the same with main's code; 5 false listings, 0
    # without a kind TODO (main: 1); 8 missed (beezup 5, catalog-api 2, wowza 1). Recorded as
    # measured, not tuned away; README.md names their classes.
    totals = report["totals"]
    for half, most_false, most_silent_false, most_wrong, most_missed in (
        ("tuning", 36, 0, 0, 42),
        ("heldout", 5, 0, 2, 8),
    ):
        assert totals[half]["false_listings"] <= most_false, half
        assert totals[half]["false_silent"] <= most_silent_false, half
        assert totals[half]["values"]["wrong"] <= most_wrong, half
        assert totals[half]["missed"] <= most_missed, half
