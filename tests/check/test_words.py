"""The words of a path or operationId (detect/_words): split in one pass and cached per text, with
the answers of the two-step split they replaced (non-word runs, then camel-case boundaries)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from xcompleteness.detect import _words as sig

# letters around every boundary the splits care about: case changes, digits, separators,
# braces of path parameters, and non-ASCII letters (some lower-case to two characters)
_TEXT = st.text(alphabet=st.sampled_from(list("aZb9Q0_-./{} $xYz\u00e9\u0130\u212a\u00df\t")))


def _two_step(text: str) -> tuple[str, ...]:
    """The reference: split on non-word runs, then at lower-or-digit/upper boundaries."""
    return tuple(
        w.lower() for part in sig._NON_WORD.split(text) for w in sig._CAMEL.split(part) if w
    )


def _is_search_reference(path: str, operation_id: str | None) -> bool:
    for segment in path.split("/"):
        if "{" in segment:
            continue
        seg = _two_step(segment)
        if seg and seg[0] in sig.SEARCH_WORDS:
            return True
    op = list(_two_step(operation_id or ""))
    if op and op[0] in ("get", "post", "put", "list", "do"):
        op = op[1:]
    if op[-2:-1] and op[-1] in ("results", "result") and op[-2] in sig.SEARCH_WORDS:
        op = op[:-1]
    return bool(op) and (op[0] in sig.SEARCH_WORDS or op[-1] in sig.SEARCH_WORDS)


@settings(max_examples=3000, deadline=None)
@given(_TEXT | st.text(max_size=40))
def test_one_pass_split_equals_the_two_step_split(text: str) -> None:
    assert sig.word_list(text) == list(_two_step(text))


_SEGMENT = st.sampled_from(
    ["users", "{user-id}", "search", "_search", "searchUsers", "query", "microsoft.graph.delta()",
     "research", "Find", "lookup", "{search}", "SearchResults", ""]
)  # fmt: skip


# operationIds made of words the search test reads: verbs, search words in any case, results
_OP_PART = _SEGMENT | _TEXT | st.sampled_from(
    ["Get", "post", "List", "do", "Results", "result", "Search", "QUERIES", "Suggest",
     "autoComplete", "lookUp", "\u212aind", "FIND", "list", "lists", "LIST", "Li", "st"]
)  # fmt: skip
_OP_ID = st.none() | _TEXT | _SEGMENT | st.lists(_OP_PART, max_size=5).map("".join)


@settings(max_examples=3000, deadline=None)
@given(st.lists(_SEGMENT | _TEXT, max_size=6), _OP_ID)
def test_is_search_reads_each_segment_as_before(segments: list[str], op_id: str | None) -> None:
    path = "/" + "/".join(segments)
    assert sig.is_search(path, op_id) == _is_search_reference(path, op_id)


@settings(max_examples=3000, deadline=None)
@given(_OP_ID.map(lambda t: t or ""), st.sampled_from(["list", "search", "query", "id", "v2"]))
def test_has_word_is_membership_in_the_words(text: str, word: str) -> None:
    assert sig.has_word(text, word) == (word in sig.words(text))


def test_search_stems_cover_every_search_word() -> None:
    """The text test before an operationId is split: each search word holds a stem."""
    for word in sig.SEARCH_WORDS:
        assert any(stem in word for stem in sig._SEARCH_STEMS), word


def test_words_of_real_names() -> None:
    assert sig.word_list("/users/{user-id}/transitiveMemberOf") == [
        "users", "user", "id", "transitive", "member", "of",
    ]  # fmt: skip
    assert sig.word_list("GetHTTPServerV2Info") == ["get", "httpserver", "v2", "info"]
    assert sig.is_search("/search/repositories", None)
    assert sig.is_search("/v1/things", "GetBookRemoteSearchResults")
    assert not sig.is_search("/v1/sigma/scheduled_query_runs", "listRuns")
