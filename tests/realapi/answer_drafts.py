"""Write the full-coverage overlays examples/<api>/overlay.full.yaml from the audit drafts.

    .venv/bin/python tests/realapi/answer_drafts.py [stripe|digitalocean|kubernetes ...]

``xcompleteness audit SPEC --emit-overlay`` declares every list-like operation of a real
description and leaves what it cannot know as ``x-todo`` entries. This script is the review of
those TODOs written down as data, one answer per kind of TODO and API (the reasons are in each
example's README): whose view a complete answer covers, which field is an item's id where the
description has no ``id``, which lists are not paged at all, and the native signals every
listing of the API shares (Kubernetes' 410 Gone for an expired continue token, 429 rate limits).
Anything it does not know how to answer is left as a TODO, so ``check`` still reports it.
Regenerate after an audit change, then review the diff.
"""

from __future__ import annotations

import copy
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE.parent))

from realapi.harness import real_spec  # noqa: E402

RATE_LIMITED = {"code": "RATE_LIMITED", "when": {"equals": ["$statusCode", 429]}}

VISIBILITY = {
    "stripe": "objects of the Stripe account the API key belongs to (or of the connected account "
    "named by Stripe-Account); a key sees its whole account, nothing is filtered per object",
    "digitalocean": "resources of the team the token belongs to; a token sees the whole team",
    "kubernetes": "objects the credential may list; RBAC allows or refuses a whole list (403), "
    "it never filters single objects out of an answer",
}

# DigitalOcean items without an `id` field: the field that names one item, or None where no
# field is unique (billing lines, backups, neighbour groups): such listings declare no id.
DO_IDS: dict[str, str | None] = {
    "/v2/customers/my/billing_history": None,
    "/v2/customers/my/invoices": "/invoice_uuid",
    "/v2/customers/my/invoices/{invoice_uuid}": None,
    "/v2/databases/{database_cluster_uuid}/backups": None,
    "/v2/databases/{database_cluster_uuid}/dbs": "/name",
    "/v2/databases/{database_cluster_uuid}/pools": "/name",
    "/v2/databases/{database_cluster_uuid}/users": "/name",
    "/v2/domains": "/name",
    "/v2/floating_ips": "/ip",
    "/v2/functions/namespaces/{namespace_id}/triggers": "/name",
    "/v2/projects/default/resources": "/urn",
    "/v2/projects/{project_id}/resources": "/urn",
    "/v2/registry/{registry_name}/repositories": "/name",
    "/v2/registry/{registry_name}/repositoriesV2": "/name",
    "/v2/registry/{registry_name}/{repository_name}/digests": "/digest",
    "/v2/registry/{registry_name}/{repository_name}/tags": "/tag",
    "/v2/reports/droplet_neighbors_ids": None,
    "/v2/reserved_ips": "/ip",
    "/v2/tags": "/name",
    "/v2/vpcs/{vpc_id}/members": "/urn",
}

HEADER = """\
# Full-coverage x-completeness overlay for {title}: every list-like operation the audit finds in
# the real description, with its TODOs answered. Written by tests/realapi/answer_drafts.py from
# `xcompleteness audit --emit-overlay` (the answers and why are in README.md beside this file);
# regenerate, never edit by hand. The hand-reviewed adapter is overlay.yaml beside this file.
"""


def _path(target: str) -> str:
    return target[len("$.paths['") : target.index("']")]


def _drop(todos: list[str], prefix: str) -> list[str]:
    return [t for t in todos if not t.startswith(prefix)]


def answer(api: str, action: dict[str, Any]) -> list[dict[str, Any]]:
    """The answered action(s) for one drafted action (an empty list drops it)."""
    action = copy.deepcopy(action)
    xc = action["update"]["x-completeness"]
    todos: list[str] = list(xc.pop("x-todo", []))
    path = _path(action["target"])
    extra: list[dict[str, Any]] = []

    xc.setdefault("scope", {})["visibility"] = VISIBILITY[api]
    todos = _drop(todos, "visibility:")
    reasons = xc.setdefault("reasons", [])

    if any(t.startswith("items:") for t in todos):
        # No array of results (DigitalOcean's destroy_with_associated_resources: what a destroy
        # would take along, in several lists). A single read, not a listing.
        xc.clear()
        xc["kind"] = "resource"
        return [action]

    if api == "stripe":
        if any(t.startswith("pagination:") for t in todos):
            # capabilities, report_types: has_more without any page parameter. Everything comes in
            # one response; if has_more were ever true, more exist that cannot be paged to.
            xc["pagination"] = {"style": "none"}
            reasons[:] = [
                {
                    "code": "RESULT_LIMIT_REACHED",
                    "when": {"equals": ["$response.body#/has_more", True]},
                }
            ]
            todos = _drop(todos, "pagination:")
        todos = _drop(todos, "limit:")  # Stripe search pages to the end: no fixed cap documented
    elif api == "digitalocean":
        if path in DO_IDS:
            if DO_IDS[path] is None:
                xc.pop("id", None)
            else:
                xc["id"] = DO_IDS[path]
            todos = _drop(todos, "id:")
        if any(t.startswith("pagination: no pagination seen") for t in todos):
            xc["pagination"] = {"style": "none"}  # the description has no page parameters here
            todos = _drop(todos, "pagination:")
        if any(t.startswith("pagination: no paging parameter") for t in todos):
            # meta.total but no page parameter in the description (action histories, billing
            # lines, project resources): one response is taken as the whole list, and a next
            # page DigitalOcean announces anyway means more exist than this declaration reaches.
            xc["pagination"] = {"style": "none"}
            reasons[:] = [
                {
                    "code": "RESULT_LIMIT_REACHED",
                    "when": {"present": "$response.body#/links/pages/next"},
                }
            ]
            todos = _drop(todos, "pagination:")
        if any(t.startswith("pagination:") for t in todos):
            # repositoriesV2 (page and page_token) and garbage-collections (page, but its schema
            # leaves out the meta.total DigitalOcean sends, as its own example shows): paged by
            # page number like every other listing, ending at meta.total.
            xc["pagination"] = {
                "style": "page",
                "request": {"page": "page", "size": "per_page"},
                "response": {"total": "$response.body#/meta/total"},
            }
            reasons[:] = ["MORE_PAGES_AVAILABLE"]
            todos = _drop(todos, "pagination:")
            if path.endswith("/garbage-collections"):
                extra.append(
                    {
                        "target": f"{action['target']}.responses['200'].content"
                        "['application/json'].schema.properties",
                        "description": "the meta.total DigitalOcean sends (see the example)",
                        "update": {
                            "meta": {
                                "type": "object",
                                "properties": {"total": {"type": "integer"}},
                                "required": ["total"],
                            }
                        },
                    }
                )
    elif api == "kubernetes":
        if any(t.startswith("id:") for t in todos):
            xc["id"] = "/name"  # discovery lists (APIResourceList.resources): the resource name
            todos = _drop(todos, "id:")
        if any(t.startswith("pagination: no pagination seen") for t in todos):
            xc["pagination"] = {"style": "none"}  # discovery documents are served whole
            todos = _drop(todos, "pagination:")
        pagination = xc.get("pagination") or {}
        if pagination.get("style") == "cursor":
            xc["scope"]["snapshot"] = "request"
            # The frozen snapshot and the ~5 minute lifetime are the API server's to keep; an
            # adapter can only document them (XC131), so they are left to the README.
            pagination["cursor"] = {"invalidated-by": ["filter"], "on-expiry": "error"}
            nxt = pagination["response"]["next"]
            reasons[:] = [
                {
                    "code": "MORE_PAGES_AVAILABLE",
                    "when": {"all": [{"present": nxt}, {"not-equals": [nxt, ""]}]},
                },
                {"code": "CURSOR_EXPIRED", "when": {"equals": ["$statusCode", 410]}},
            ]
            extra.append(
                {
                    "target": f"{action['target']}.responses",
                    "description": "an expired continue token is answered 410 Gone (Status)",
                    "update": {
                        "410": {
                            "description": "Gone (the continue token expired)",
                            "content": {
                                "application/json": {
                                    "schema": {
                                        "$ref": "#/components/schemas/"
                                        "io.k8s.apimachinery.pkg.apis.meta.v1.Status"
                                    }
                                }
                            },
                        }
                    },
                }
            )
    if not any(isinstance(r, dict) and r.get("code") == "RATE_LIMITED" for r in reasons):
        reasons.append(copy.deepcopy(RATE_LIMITED))
    if todos:
        xc["x-todo"] = todos
    action["description"] = action.get("description", "").split(",")[0] + ", reviewed"
    return [*extra, action]


def main(argv: list[str]) -> int:
    titles = {"stripe": "Stripe", "digitalocean": "DigitalOcean", "kubernetes": "Kubernetes"}
    for api in argv or list(titles):
        spec = real_spec(api)
        with tempfile.TemporaryDirectory() as tmp:
            draft_path = Path(tmp) / "draft.yaml"
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "xcompleteness",
                    "audit",
                    str(spec),
                    "--emit-overlay",
                    str(draft_path),
                ],
                capture_output=True,
                check=False,
            )
            draft = yaml.safe_load(draft_path.read_text(encoding="utf-8"))
        actions = [a for drafted in draft["actions"] for a in answer(api, drafted)]
        doc = {
            "overlay": "1.0.0",
            "info": {"title": f"x-completeness, full coverage: {titles[api]}", "version": "0.1.0"},
            "actions": actions,
        }
        out = ROOT / "examples" / api / "overlay.full.yaml"
        body = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=100)
        out.write_text(HEADER.format(title=titles[api]) + body, encoding="utf-8")
        todo = sum(len(a["update"].get("x-completeness", {}).get("x-todo", [])) for a in actions)
        print(f"{out.relative_to(ROOT)}: {len(actions)} actions, {todo} TODOs left")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
