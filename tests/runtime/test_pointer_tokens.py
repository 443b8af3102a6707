"""The runtime escapes and unescapes RFC 6901 tokens in one place (``runtime/plain.py``)."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from xcompleteness.runtime import expressions, plain

RUNTIME = Path(plain.__file__).parent
TOKENS = st.text(alphabet=st.sampled_from("ab~/01 ."), max_size=12)


@given(st.lists(TOKENS, max_size=5))
def test_the_strict_and_the_plain_parser_agree_on_every_valid_pointer(tokens):
    pointer = "".join("/" + plain.escape_token(t) for t in tokens)
    assert plain.pointer_tokens(pointer) == tuple(tokens)
    assert expressions.parse_pointer(pointer) == tuple(tokens)


def test_tilde_one_is_unescaped_before_tilde_zero():
    assert plain.unescape_token("~01") == "~1"  # not "/"
    assert plain.escape_token("~1") == "~01"


def test_no_runtime_module_escapes_tokens_by_hand():
    by_hand = re.compile(r"""replace\(\s*["']~[01]["']|replace\(\s*["']~["'],\s*["']~0""")
    offenders = [
        p.name
        for p in sorted(RUNTIME.glob("*.py"))
        if p.name != "plain.py" and by_hand.search(p.read_text(encoding="utf-8"))
    ]
    assert offenders == []
