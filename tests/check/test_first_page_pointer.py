"""XC147 points where the fix goes (issue 19 §2, 0-based pages).

A page walk starts at ``first-page`` (1 unless declared). When the page parameter's ``minimum``
refuses that first request, the finding points at ``first-page`` if the declaration writes it,
and at the parameter's ``minimum`` if it does not (the default 1 is written nowhere): inline,
in a parameter component, or in a schema component the parameter references. Each with its line.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from xcompleteness import api

SPEC = """\
openapi: 3.0.3
info: {title: pages, version: '1'}
paths:
  /search:
    get:
      operationId: searchThings
      parameters:
        - $ref: '#/components/parameters/per_page'
        - PAGE_PARAMETER
      x-completeness:
        kind: search
        mode: adapter
        scope: {resource: things, visibility: things the token can see, snapshot: none}
        items: $response.body#/items
        pagination:
          style: page
          request: {page: page, size: per_page}
          response: {pages: $response.body#/total_pages}
          FIRST_PAGE
        reasons: [MORE_PAGES_AVAILABLE]
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  items: {type: array, items: {type: object}}
                  total_pages: {type: integer}
components:
  parameters:
    per_page: {name: per_page, in: query, schema: {type: integer}}
    page:
      name: page
      in: query
      schema:
        type: integer
        minimum: MINIMUM
  schemas:
    PageNumber:
      type: integer
      minimum: MINIMUM
"""

INLINE = "{name: page, in: query, schema: {type: integer, minimum: MINIMUM}}"
IN_COMPONENT = "$ref: '#/components/parameters/page'"
SCHEMA_REF = "{name: page, in: query, schema: {$ref: '#/components/schemas/PageNumber'}}"


def _check(tmp_path: Path, parameter: str, minimum: int, first_page: int | None):
    text = SPEC.replace("PAGE_PARAMETER", parameter).replace("MINIMUM", str(minimum))
    written = f"first-page: {first_page}" if first_page is not None else ""
    spec = tmp_path / "spec.yaml"
    spec.write_text(text.replace("FIRST_PAGE", written), "utf-8")
    lines = spec.read_text("utf-8").splitlines()
    return api.check(spec), lines


def _line_of(lines: list[str], text: str, after: int = 0) -> int:
    return next(n for n, line in enumerate(lines, 1) if n > after and text in line)


def test_a_written_first_page_is_pointed_at(tmp_path):
    report, lines = _check(tmp_path, INLINE, 1, 0)
    (d,) = [d for d in report.diagnostics if d.code == "XC147"]
    assert d.pointer == "/paths/~1search/get/x-completeness/pagination/first-page"
    assert d.line == _line_of(lines, "first-page: 0")
    assert d.message.startswith("first-page is 0, but the page parameter 'page' has minimum 1")
    assert d.hint.startswith("remove first-page (it defaults to 1)")


@pytest.mark.parametrize(
    ("parameter", "pointer", "anchor"),
    [
        (INLINE, "/paths/~1search/get/parameters/1/schema/minimum", "- {name: page"),
        (IN_COMPONENT, "/components/parameters/page/schema/minimum", "    page:"),
        (SCHEMA_REF, "/components/schemas/PageNumber/minimum", "PageNumber:"),
    ],
    ids=["inline", "parameter-component", "schema-component"],
)
def test_a_defaulted_first_page_points_at_the_parameter_minimum(
    tmp_path, parameter, pointer, anchor
):
    report, lines = _check(tmp_path, parameter, 2, None)
    (d,) = [d for d in report.diagnostics if d.code == "XC147"]
    assert d.pointer == pointer
    start = _line_of(lines, anchor)
    assert d.line == (start if "{" in anchor else _line_of(lines, "minimum: 2", start))
    assert "first-page is not declared and defaults to 1" in d.message
    assert "minimum 2" in d.message
    assert d.hint.startswith("first-page defaults to 1")
    assert report.exit_code == 1


def test_a_first_page_the_minimum_allows_is_clean(tmp_path):
    for minimum, first in ((1, None), (0, 0), (0, None), (1, 1)):
        report, _ = _check(tmp_path, INLINE, minimum, first)
        assert not [d for d in report.diagnostics if d.code == "XC147"], (minimum, first)
