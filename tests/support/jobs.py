"""Small specs of unpaged listings shaped like AppVeyor's (an array of artifacts under a job), for
the tests of what a newcomer reads: the generated README's example and the client's messages."""

from __future__ import annotations

ITEMS = "{type: array, items: {type: object, properties: {name: {type: string}}}}"
DECLARATION = (
    "{kind: collection, mode: adapter, items: $response.body#, pagination: {style: none}, "
    "scope: {resource: artifacts, visibility: the token's account, snapshot: none}}"
)


def listing(path: str, operation_id: str, *path_params: str) -> str:
    """One declared GET listing at ``path`` whose ``path_params`` are required strings."""
    params = ", ".join(
        f"{{name: {p}, in: path, required: true, schema: {{type: string}}}}" for p in path_params
    )
    return f"""
  {path}:
    get:
      operationId: {operation_id}
      parameters: [{params}]
      x-completeness: {DECLARATION}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {ITEMS}
"""


def spec(*listings: str, server: str | None = None) -> str:
    """The document: ``listings`` under ``paths``, and ``servers`` when ``server`` is given."""
    servers = f"servers: [{{url: {server}}}]\n" if server is not None else ""
    return (
        "openapi: 3.0.3\ninfo: {title: Jobs, version: '1.0'}\n"
        + servers
        + "paths:"
        + "".join(listings)
    )
