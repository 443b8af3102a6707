"""format_files runs ruff once per step for a whole tree: same bytes as one file at a time."""

from __future__ import annotations

import ast
from pathlib import PurePosixPath

import pytest
from xcompleteness.emit._format import FormatError, format_files, format_source

LONG = "Current balance, if any, being stored on the customer. " * 6
ESCAPED = 'a "quoted" word\\with a backslash and a tab\t ' * 5

SOURCES = {
    # unused imports in __init__.py are left alone by F401's fix; elsewhere they go
    "pkg/__init__.py": "from typing import Optional\nimport os\n\n__all__ = ['x']\n",
    "pkg/models.py": (
        "from typing import Optional, List\nimport os\nfrom pydantic import Field\n"
        f"A: Optional[int] = Field(None, description={LONG!r})\n"
        f"B: List[str] = [{ESCAPED!r}]\n"
    ),
    # the same base name in two folders, and an absolute import of the package itself
    "pkg/sub/models.py": "import pkg\nimport sys, json\nx = json.dumps(  {'a':1} )\n",
    "pkg/sub/__init__.py": "from .models import x\n",
    "pkg/_runtime/verbatim.py": "import os   # copied verbatim, never formatted\n",
    "pkg/data.json": '{"a":  1}\n',
}


def test_batch_gives_the_bytes_of_one_file_at_a_time() -> None:
    files = {PurePosixPath(k): v for k, v in SOURCES.items()}
    out = format_files(files)
    assert list(out) == sorted(files)
    for rel, text in files.items():
        if rel.suffix == ".py" and "_runtime" not in rel.parts:
            assert out[rel] == format_source(text, str(rel)), rel
        else:
            assert out[rel] == text
    models = out[PurePosixPath("pkg/models.py")]
    assert "import os" not in models and "int | None" in models
    assert max(len(line) for line in models.splitlines()) <= 100
    assert ast.dump(ast.parse(models)).count("Constant(value=") >= 2
    tree = ast.parse(models)
    values = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)]
    assert LONG in values and ESCAPED in values  # split, same value
    assert "import os" in out[PurePosixPath("pkg/__init__.py")]


def test_a_file_ruff_cannot_parse_is_named() -> None:
    files = {
        PurePosixPath("pkg/good.py"): "x = 1\n",
        PurePosixPath("pkg/broken.py"): "def f(:\n    pass\n",
    }
    with pytest.raises(FormatError, match="pkg/broken.py"):
        format_files(files)


def test_nothing_to_format() -> None:
    assert format_files({PurePosixPath("a.json"): "{}\n"}) == {PurePosixPath("a.json"): "{}\n"}


def _long(word: str) -> str:
    return repr((word + " ") * 30)


TRICKY = [
    # decorators, a class with long fields, semicolons sharing a row, a long comment
    "import functools\n\n\n@functools.lru_cache(maxsize=" + "1" * 3 + ")\n"
    f"def f(x={_long('default')}):\n    return x\n\n\n"
    f"class A:\n    a: str = {_long('alpha')}\n    b = [{_long('beta')}, 1]\n\n"
    f"x = {_long('x')}; y = {_long('y')}\n# {'c' * 150}\n",
    # docstrings, expression statements, concatenations, f-strings and escapes are left alone
    f'"""{"d" * 150}"""\n{_long("bare")}\nz = ({_long("z1")} {_long("z2")})\n'
    f"w = f{_long('fstr')}\nv = {_long(chr(92) + 'n escaped')}\n",
    # nested blocks and a string starting a long line inside a call
    "def g():\n    if True:\n        return dict(\n"
    f"            key={_long('nested')},\n        )\n",
    # form feed / other line breaks: rows differ between splitlines and the tokenizer
    f"a = {_long('a')}\n\x0c\nb = {_long('b')}\n",
    "def broken(:\n" + f"    x = {_long('x')}\n",  # not Python: unchanged
]


@pytest.mark.parametrize("text", TRICKY)
def test_statement_wise_split_equals_the_whole_file_split(text: str) -> None:
    from xcompleteness.emit._format import _split_whole, split_long_strings

    assert split_long_strings(text) == _split_whole(text, text.splitlines(), 100)
