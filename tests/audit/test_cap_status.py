"""Issue 19: a documented cap answered with an error status ("startAt above 10000 returns 400")
is drafted as a TODO naming the exact reason and condition the walk understands."""

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


def _limit_todos(start_at: str) -> list[str]:
    (found,) = scan_all(_spec(start_at))[0]
    decl = draft_declaration(found)
    return [t for t in decl["x-todo"] if t.startswith("limit:")]


def test_a_cap_answered_with_400_names_the_status_condition() -> None:
    (todo,) = _limit_todos("The index of the first user. An offset above 10000 returns 400.")
    assert "{code: RESULT_LIMIT_REACHED, limit: 10000, when: {equals: [$statusCode, 400]}}" in todo


def test_a_cap_without_a_status_keeps_the_general_advice() -> None:
    (todo,) = _limit_todos("The index of the first user; up to the thousandth user.")
    assert "limit: 1000}" in todo and "$statusCode" not in todo
