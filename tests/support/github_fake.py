"""A local fake that answers in GitHub's REST shapes, for the worked adapter (examples/github/).

Why a fake and not GitHub: tests reach only 127.0.0.1, and the behaviours worth testing (a search
that timed out, the 1,000-result cap, the last page) must happen on demand. The shapes follow
GitHub's documentation:

* listings are JSON arrays (workflow runs: ``{total_count, workflow_runs}``), paged with
  ``per_page`` (default 30, at most 100) and ``page``, with an RFC 8288 ``Link`` header carrying
  ``next``/``last`` (and ``prev``/``first`` after page 1); the last page has no ``rel="next"``;
* search answers ``{total_count, incomplete_results, items}``; only the first 1,000 matches can be
  paged to (``page * per_page`` past 1,000 is a 422), so ``total_count`` may exceed what a walk
  can ever read. Queries steer the fake: ``q`` containing ``many`` matches 4,321 items, ``slow``
  makes GitHub's time-out flag ``incomplete_results`` true, anything else matches repository
  names containing ``q``.

``make_app()`` builds the FastAPI app; ``support.fault_server.serve(app)`` runs it on a real
uvicorn on 127.0.0.1.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

RESULT_CAP = 1000
COUNTS = {
    "repos": 157,
    "user_repos": 12,
    "issues": 73,
    "pulls": 41,
    "members": 64,
    "commits": 95,
    "branches": 7,
    "comments": 33,
    "runs": 205,
}
MANY = 4321


def _repo(i: int) -> dict[str, Any]:
    owner = {"id": 1, "login": "acme"}
    return {
        "id": 1000 + i,
        "name": f"widget-{i:03d}",
        "full_name": f"acme/widget-{i:03d}",
        "private": i % 5 == 0,
        "owner": owner,
    }


def dataset() -> dict[str, list[dict[str, Any]]]:
    """Every listing's full contents (what a complete walk must return)."""
    return {
        "repos": [_repo(i) for i in range(COUNTS["repos"])],
        "user_repos": [_repo(500 + i) for i in range(COUNTS["user_repos"])],
        "issues": [
            {
                "id": 5000 + i,
                "number": i + 1,
                "title": f"issue {i + 1}",
                "state": "open" if i % 3 else "closed",
            }
            for i in range(COUNTS["issues"])
        ],
        "pulls": [
            {"id": 7000 + i, "number": 200 + i, "title": f"pr {i}"} for i in range(COUNTS["pulls"])
        ],
        "members": [{"id": 9000 + i, "login": f"user{i}"} for i in range(COUNTS["members"])],
        "commits": [
            {"sha": f"{i:040x}", "html_url": f"https://example.invalid/c/{i}"}
            for i in range(COUNTS["commits"])
        ],
        "branches": [
            {"name": n, "protected": n == "main"} for n in ("main", "dev", "a", "b", "c", "d", "e")
        ],
        "comments": [{"id": 11000 + i, "body": f"comment {i}"} for i in range(COUNTS["comments"])],
        "runs": [{"id": 13000 + i, "status": "completed"} for i in range(COUNTS["runs"])],
    }


def _paging(request: Request) -> tuple[int, int] | JSONResponse:
    try:
        per_page = int(request.query_params.get("per_page", "30"))
        page = int(request.query_params.get("page", "1"))
    except ValueError:
        return JSONResponse({"message": "Validation Failed"}, status_code=422)
    return max(1, min(per_page, 100)), max(1, page)


def _link(request: Request, page: int, last: int) -> str:
    def url(n: int) -> str:
        params = dict(request.query_params)
        params["page"] = str(n)
        return f"{str(request.base_url).rstrip('/')}{request.url.path}?{urlencode(params)}"

    rels = []
    if page < last:
        rels += [f'<{url(page + 1)}>; rel="next"', f'<{url(last)}>; rel="last"']
    if page > 1:
        rels += [f'<{url(page - 1)}>; rel="prev"', f'<{url(1)}>; rel="first"']
    return ", ".join(rels)


def _page(request: Request, rows: list[Any], wrap: str | None = None) -> JSONResponse:
    paging = _paging(request)
    if isinstance(paging, JSONResponse):
        return paging
    per_page, page = paging
    last = max(1, -(-len(rows) // per_page))
    chunk = rows[(page - 1) * per_page : page * per_page]
    body: Any = {"total_count": len(rows), wrap: chunk} if wrap else chunk
    headers = {"Link": link} if (link := _link(request, page, last)) else {}
    return JSONResponse(body, headers=headers)


def _search(request: Request, pool: list[dict[str, Any]], make: Any) -> JSONResponse:
    paging = _paging(request)
    if isinstance(paging, JSONResponse):
        return paging
    per_page, page = paging
    q = request.query_params.get("q", "")
    if not q:
        return JSONResponse({"message": "Validation Failed"}, status_code=422)
    if "many" in q:
        total = MANY
        matches = [make(i) for i in range(min(total, RESULT_CAP))]
    else:
        needle = q.replace("slow", "").strip()
        matches = [row for row in pool if needle in row.get("name", row.get("title", ""))]
        total = len(matches)
    if (page - 1) * per_page >= RESULT_CAP:
        message = "Only the first 1000 search results are available"
        return JSONResponse({"message": message}, status_code=422)
    reachable = min(total, RESULT_CAP)
    last = max(1, -(-reachable // per_page))
    chunk = matches[(page - 1) * per_page : page * per_page]
    body = {"total_count": total, "incomplete_results": "slow" in q, "items": chunk}
    headers = {"Link": link} if (link := _link(request, page, last)) else {}
    return JSONResponse(body, headers=headers)


def make_app() -> FastAPI:
    data = dataset()
    app = FastAPI(title="github-fake")

    @app.get("/orgs/{org}/repos")
    def list_for_org(org: str, request: Request) -> JSONResponse:
        return _page(request, data["repos"] if org == "acme" else [])

    @app.get("/users/{username}/repos")
    def list_for_user(username: str, request: Request) -> JSONResponse:
        return _page(request, data["user_repos"])

    @app.get("/repos/{owner}/{repo}/issues")
    def list_issues(owner: str, repo: str, request: Request) -> JSONResponse:
        state = request.query_params.get("state", "open")
        rows = [r for r in data["issues"] if state == "all" or r["state"] == state]
        return _page(request, rows)

    @app.get("/repos/{owner}/{repo}/pulls")
    def list_pulls(owner: str, repo: str, request: Request) -> JSONResponse:
        return _page(request, data["pulls"])

    @app.get("/orgs/{org}/members")
    def list_members(org: str, request: Request) -> JSONResponse:
        return _page(request, data["members"])

    @app.get("/repos/{owner}/{repo}/commits")
    def list_commits(owner: str, repo: str, request: Request) -> JSONResponse:
        return _page(request, data["commits"])

    @app.get("/repos/{owner}/{repo}/branches")
    def list_branches(owner: str, repo: str, request: Request) -> JSONResponse:
        return _page(request, data["branches"])

    @app.get("/repos/{owner}/{repo}/issues/{issue_number}/comments")
    def list_comments(owner: str, repo: str, issue_number: int, request: Request) -> JSONResponse:
        return _page(request, data["comments"])

    @app.get("/repos/{owner}/{repo}/actions/runs")
    def list_runs(owner: str, repo: str, request: Request) -> JSONResponse:
        return _page(request, data["runs"], wrap="workflow_runs")

    @app.get("/search/repositories")
    def search_repos(request: Request) -> JSONResponse:
        return _search(request, data["repos"], lambda i: _repo(100_000 + i))

    @app.get("/search/issues")
    def search_issues(request: Request) -> JSONResponse:
        make = lambda i: {"id": 50_000 + i, "number": i, "title": f"hit {i}", "state": "open"}  # noqa: E731
        return _search(request, data["issues"], make)

    @app.get("/search/code")
    def search_code(request: Request) -> JSONResponse:
        def make(i: int) -> dict[str, Any]:
            return {
                "name": f"f{i}.py",
                "path": f"src/f{i}.py",
                "sha": f"{i:040x}",
                "html_url": f"https://example.invalid/blob/{i}",
            }

        pool = [make(i) for i in range(20)]
        return _search(request, pool, make)

    @app.get("/search/users")
    def search_users(request: Request) -> JSONResponse:
        return _search(
            request,
            [{**m, "name": m["login"]} for m in data["members"]],
            lambda i: {"id": 90_000 + i, "login": f"u{i}"},
        )

    return app
