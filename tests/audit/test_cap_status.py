"""Issue 19: a documented cap answered with an error status ("startAt above 10000 returns 400")
is drafted as the exact reason and condition the walk understands, under a TODO that asks to
confirm no other mistake is answered with the same status."""

from __future__ import annotations

from xcompleteness.audit._draft import draft_declaration
from xcompleteness.detect._listlike import scan_all


def _spec(start_at: str) -> dict:
    user = {"type": "object", "properties": {"accountId": {"type": "string"}}}
    return {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/users/search": {
                "get": {
                    "operationId": "findUsers",
                    "parameters": [
                        {
                            "name": "startAt",
                            "in": "query",
                            "description": start_at,
                            "schema": {"type": "integer"},
                        },
                        {"name": "maxResults", "in": "query", "schema": {"type": "integer"}},
                    ],
                    "responses": {
                        "200": {
                            "description": "ok",
                            "content": {
                                "application/json": {"schema": {"type": "array", "items": user}}
                            },
                        }
                    },
                }
            }
        },
    }


def _draft(start_at: str) -> dict:
    (found,) = scan_all(_spec(start_at))[0]
    return draft_declaration(found)


def _limit_todos(start_at: str) -> list[str]:
    return [t for t in _draft(start_at)["x-todo"] if t.startswith("limit:")]


def _cap_reasons(decl: dict) -> list[dict]:
    return [r for r in decl.get("reasons", []) if r.get("code") == "RESULT_LIMIT_REACHED"]


def test_a_cap_answered_with_400_is_drafted_with_its_status_condition() -> None:
    text = "The index of the first user. An offset above 10000 returns 400."
    decl = _draft(text)
    assert _cap_reasons(decl) == [
        {"code": "RESULT_LIMIT_REACHED", "limit": 10000, "when": {"equals": ["$statusCode", 400]}}
    ]
    (todo,) = _limit_todos(text)
    assert "confirm" in todo and "400" in todo


def test_a_cap_that_is_itself_a_4xx_number_is_no_status() -> None:
    decl = _draft("The index of the first user; at most 404 users, returns 422 above.")
    assert [r["when"] for r in _cap_reasons(decl)] == [{"equals": ["$statusCode", 422]}]


def test_a_cap_without_a_status_keeps_the_general_advice() -> None:
    decl = _draft("The index of the first user; up to the thousandth user.")
    (todo,) = _limit_todos("The index of the first user; up to the thousandth user.")
    assert "limit: 1000}" in todo and "$statusCode" not in todo
    assert _cap_reasons(decl) == []
