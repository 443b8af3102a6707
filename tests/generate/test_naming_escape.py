"""The naming authority and the escapers: names are always safe, text always round-trips."""

from __future__ import annotations

import ast
import keyword

import pytest
from hypothesis import given
from hypothesis import strategies as st
from xcompleteness.emit._escape import DOC_WIDTH, py_comment, py_doc, py_ident, py_str, toml_str
from xcompleteness.emit._format import format_source
from xcompleteness.ir._naming import (
    ATTR_NAME_MAX,
    CLASS_NAME_MAX,
    TOOL_NAME,
    NameRegistry,
    attr_name,
    check_package_name,
    pascal,
    snake,
    tool_name,
)

NASTY = [
    "'); import os #",
    '"""',
    "'''",
    "trailing\\",
    "cr\rlf\n",
    "line\u2028sep\u2029para\x85",
    "{braces} {{x}} %s",
    "../../etc/passwd",
    "\x00nul",
    "emoji \U0001f600",
]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("listServiceAccounts", "list_service_accounts"),
        ("repos/list-for-org", "repos_list_for_org"),
        ("getHTTPResponse", "get_http_response"),
        ("class", "class_"),
        ("list", "list_"),
        ("2fa-codes", "n_2fa_codes"),
        ("café", "cafe"),
        ("", "x"),
    ],
)
def test_snake(raw: str, expected: str) -> None:
    assert snake(raw) == expected


def test_pascal_and_reserved() -> None:
    assert pascal("service-account") == "ServiceAccount"
    assert pascal("3d model") == "N3dModel"
    assert pascal("none") == "None_"


@given(st.text(max_size=80))
def test_derived_names_are_always_safe(text: str) -> None:
    for name in (snake(text), pascal(text)):
        assert name.isidentifier() and name.isascii()
        assert not keyword.iskeyword(name)
        py_ident(name)
    assert TOOL_NAME.match(tool_name(text))


def test_long_tool_names_stay_distinct() -> None:
    a, b = tool_name("x" * 100 + "a"), tool_name("x" * 100 + "b")
    assert a != b and len(a) <= 64 and len(b) <= 64


def test_collisions_are_deterministic_and_reported() -> None:
    reg = NameRegistry("ops", "spec.yaml")
    assert reg.claim(snake("listFoo"), origin="/paths/a") == "list_foo"
    assert reg.claim(snake("list_foo"), origin="/paths/b") == "list_foo_2"
    assert [d.code for d in reg.diagnostics] == ["XC602"]
    assert reg.diagnostics[0].pointer == "/paths/b"


@pytest.mark.parametrize("name", ["../evil", "a/b", "a.b", "class", "", "ünï", "x\\y"])
def test_bad_package_names_are_refused(name: str) -> None:
    assert check_package_name(name) is not None


def test_good_package_name() -> None:
    assert check_package_name("service_accounts") is None


@pytest.mark.parametrize("text", NASTY)
def test_escapers_round_trip_nasty_text(text: str) -> None:
    assert ast.literal_eval(py_str(text)) == text
    assert ast.literal_eval(py_doc(text)) == text
    src = f"x = 1  # {py_comment(text)}\n"
    assert len(src.splitlines()) == 1
    tree = ast.parse(src)
    assert len(tree.body) == 1


@given(st.text())
def test_escapers_round_trip_any_text(text: str) -> None:
    assert ast.literal_eval(py_str(text)) == text
    doc = py_doc(text)
    assert ast.literal_eval(doc) == text
    module = ast.parse(f"def f():\n    {doc}\n")
    assert ast.get_docstring(module.body[0], clean=False) == text  # type: ignore[arg-type]
    assert "\n" not in py_comment(text) and "\r" not in py_comment(text)


def test_py_ident_refuses_unsafe_names() -> None:
    for bad in ("a-b", "class", "x; import os", "é"):
        with pytest.raises(ValueError):
            py_ident(bad)


@given(st.text(), st.sampled_from([0, 4, 8, 12]))
def test_docstrings_fit_the_line_length_and_round_trip(text: str, indent: int) -> None:
    doc = py_doc(text, indent)
    assert ast.literal_eval(doc) == text
    lines = (" " * indent + doc).split("\n")
    assert max(len(line) for line in lines) <= DOC_WIDTH
    module = ast.parse(f"def f():\n{' ' * max(indent, 4)}{doc}\n")
    assert ast.get_docstring(module.body[0], clean=False) == text  # type: ignore[arg-type]


def test_wrapped_docstrings_survive_ruff_format() -> None:
    """The continuation lines start at column 0, where ruff leaves them (value unchanged)."""
    texts = [*NASTY, "word " * 60, "x" * 250, '"quoted" ' * 30, "a\\b " * 40, " edge  " * 30]
    source = "class A:\n" + "".join(
        f"    def f{i}(self):\n        {py_doc(t)}\n\n" for i, t in enumerate(texts)
    )
    formatted = format_source(source, "docs.py")
    namespace: dict = {}
    exec(compile(formatted, "docs.py", "exec"), namespace)  # noqa: S102 - our own test input
    for i, text in enumerate(texts):
        assert getattr(namespace["A"], f"f{i}").__doc__ == text
    assert max(len(line) for line in formatted.splitlines()) <= DOC_WIDTH


def test_long_string_literals_are_split_without_changing_values() -> None:
    value = "Current balance, if any, being stored on the customer. " * 6
    word = "x" * 230
    source = f"from pydantic import Field\n\nA = Field(description={value!r})\nB = [{word!r}]\n"
    formatted = format_source(source, "split.py")
    assert max(len(line) for line in formatted.splitlines()) <= DOC_WIDTH
    assert ast.dump(ast.parse(formatted)) == ast.dump(ast.parse(source))


@given(st.text())
def test_toml_strings_round_trip(text: str) -> None:
    tomllib = pytest.importorskip("tomllib")
    expected = "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)
    assert tomllib.loads(f"x = {toml_str(text)}")["x"] == expected


def test_comments_are_cut_to_a_limit() -> None:
    assert py_comment("a" * 200, 20) == "a" * 17 + "..."
    assert py_comment("short", 20) == "short"


def test_long_class_and_attribute_names_are_cut_with_a_stable_hash() -> None:
    long = "customer_balance_resource_cash_balance_transaction_resource_funded_" * 3
    assert len(pascal(long)) == CLASS_NAME_MAX and pascal(long) == pascal(long)
    assert pascal(long).isidentifier() and "_" not in pascal(long)
    assert pascal(long) != pascal(long + "x")
    assert len(attr_name(long)) <= ATTR_NAME_MAX and attr_name(long).isidentifier()
    assert attr_name("listThings") == "list_things"


# -- py_docblock: real lines, no literal \n (issue 10 item 8) ----------------------------------

MULTILINE = [
    "Summary line\n\nA longer description\nover three lines.",
    "Summary\n\n    indented code\n      more\n    back",
    "trailing spaces   \nand tabs\t\t\nend",
    '\n\n  leading blank lines, quotes """ and \\ backslash\n\n',
    "a\r\nwindows\r\nlines",
    'ends with a quote"\nand another"',
    *NASTY,
]


def _expected(text: str) -> str:
    """What a reader sees (``inspect.cleandoc``): trailing blanks and edge blank lines dropped."""
    import inspect

    lines = [line.rstrip(" \t") for line in text.replace("\r\n", "\n").split("\n")]
    return inspect.cleandoc("\n".join(lines).strip("\n").lstrip(" "))


def _docstrings(source: str) -> list[str]:
    tree = ast.parse(source)
    return [
        ast.get_docstring(node, clean=False)  # type: ignore[misc]
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
    ]


def test_py_docblock_is_stable_under_ruff_format_and_reads_as_the_text() -> None:
    import inspect

    from xcompleteness.emit._escape import py_docblock
    from xcompleteness.emit._format import format_source

    parts = [py_docblock(MULTILINE[0], 0), "", ""]
    for k, text in enumerate(MULTILINE):
        parts += [
            f"class C{k}:",
            f"    {py_docblock(text, 4)}",
            "",
            "    def f(self) -> None:",
            f"        {py_docblock(text, 8)}",
            "",
            "",
        ]
    source = "\n".join(parts).rstrip("\n") + "\n"
    assert format_source(source) == source  # ruff leaves it exactly as written
    docs = _docstrings(source)
    assert sorted(inspect.cleandoc(d) for d in docs[1:]) == sorted(
        _expected(t) for t in MULTILINE for _ in (0, 1)
    )
    multi = [py_docblock(t, 4) for t in MULTILINE[:3]]
    assert all("\\n" not in d and "\n" in d for d in multi)  # real lines, never escapes


@given(st.text(), st.sampled_from([0, 4, 8]))
def test_py_docblock_never_becomes_code(text: str, indent: int) -> None:
    import inspect

    from xcompleteness.emit._escape import py_docblock

    doc = py_docblock(text, indent)
    module = ast.parse(f"def f():\n    {doc}\n")
    (func,) = module.body
    assert len(func.body) == 1  # type: ignore[attr-defined]
    value = ast.get_docstring(func, clean=False)  # type: ignore[arg-type]
    assert inspect.cleandoc(value) == inspect.cleandoc(_expected(text))
