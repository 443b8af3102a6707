"""Issue 19 §1, round 9: classes found by studying round 8's held-out errors (now tuning), on
cut-down shapes (specs/unseen_round9.yaml).

* a bare ``next`` that only its type (``format: uri``) shows to be a URL, beside a token parameter
  the walk would never send ("token of a specific page of results, as provided by meta"): whether
  the walk follows the URL or sends the value back as the token is unsaid, so the draft follows it
  and asks (it was a settled next-url style, and the label said cursor); a token parameter
  described as "call the `meta.next` URL", or a next field described as "The URL of the next
  page", settles it (controls, as on main);
* settings answered as an envelope whose only property is the array (``{result: [...]}``) are
  found and asked whether they list, as a bare array there is (it was missed: dropped as a part
  of one configuration object); an array beside other fields of a configuration (``{shutters,
  diameter}``) and an operationId ending in ``Config`` still read one object (controls);
* an operationId whose head word is a configuration noun (``ConfigurationItemLenses_QueryAll``)
  names a compound resource, not a configuration: its list is found (it was missed).
"""

from __future__ import annotations

import pytest
from support.unseen import findings_by_path
from support.unseen import todos as _todos
from xcompleteness.audit._draft import draft_declaration

BY_PATH = findings_by_path("unseen_round9.yaml")


def test_a_next_only_its_type_shows_a_url_beside_a_token_parameter_is_asked() -> None:
    f = BY_PATH["/telescopes"]
    assert f.style == "next-url" and f.link_doubt is not None
    decl = draft_declaration(f)
    assert decl["pagination"] == {
        "style": "next-url",
        "request": {"size": "page_size"},
        # the bare ``meta.count`` beside the next URL is drafted as the total under a TODO
        # (it may count one page): the walk compares the items it read with a total
        "response": {"next": "$response.body#/meta/next", "total": "$response.body#/meta/count"},
    }
    todo, count = _todos(decl, "pagination")
    assert "token parameter page_token" in todo and "/meta/next" in todo
    assert "request.cursor page_token" in todo  # the other walk, named for the person to pick
    assert "count ($response.body#/meta/count) may count the whole listing" in count


@pytest.mark.parametrize(
    "path",
    [
        "/telescopes/{telescope_id}/observations",  # page_token: "call the `meta.next` URL"
        "/comets",  # next: "The URL of the next page; absent on the last page."
    ],
)
def test_a_next_url_said_in_words_is_followed_unasked(path: str) -> None:
    # the controls: pass on main too (the token parameter or the field says which walk)
    f = BY_PATH[path]
    assert f.style == "next-url" and f.link_doubt is None
    # (the bare meta.count beside the next URL is asked about as the total, not the walk)
    walk = [t for t in _todos(draft_declaration(f), "pagination") if "meta/count" not in t]
    assert not walk


def test_settings_answered_as_the_only_array_of_an_envelope_are_asked_whether_they_list() -> None:
    f = BY_PATH["/dome/alarm/settings"]
    assert f.items == "$response.body#/result"
    assert f.listing_doubt is not None and "'settings'" in f.listing_doubt
    assert [t for t in _todos(draft_declaration(f), "kind") if "fixed set" in t]


def test_an_array_beside_other_fields_of_a_configuration_is_no_listing() -> None:
    # the controls: pass on main too (a part of one configuration object)
    assert "/dome/config" not in BY_PATH
    assert "/dome/state" not in BY_PATH  # operationId requestDomeConfig ends in the noun


def test_a_configuration_noun_heading_an_operation_id_names_a_resource() -> None:
    f = BY_PATH["/ConfigurationItems/{parentId}/Lenses"]
    assert f.items == "$response.body#/items" and f.id == "/id"
    assert f.listing_doubt is None
