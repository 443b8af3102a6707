"""The end-to-end walks on the four real APIs' native shapes (issue 10, "Done when").

Each function takes a :class:`harness.Generated` package (from a committed excerpt or from the
real description), serves the API's fake on loopback with uvicorn, walks it through the generated
client and through the generated MCP server (official ``mcp`` SDK client), and asserts outcomes:
what was returned, whether it is complete, and what went over the wire.
"""

from __future__ import annotations

from typing import Any

from realapi.fakes import digitalocean as do_fake
from realapi.fakes import kubernetes as k8s_fake
from realapi.fakes import stripe as stripe_fake
from realapi.harness import Generated, call_tool, served
from support import github_fake


def _ids(items: list[Any], key: str = "id") -> list[Any]:
    return [getattr(i, key) if not isinstance(i, dict) else i[key] for i in items]


def _codes(result: Any) -> list[str]:
    return [r.code for r in result.reasons]


def _why(result: Any) -> list[str]:
    """Reasons with their details, for assertion messages."""
    return [f"{r.code} {str(getattr(r, 'details', ''))[:300]}" for r in result.reasons]


def _warning_codes(result: Any) -> list[str]:
    return [w.code for w in result.warnings]


def _typed(items: list[Any]) -> None:
    """Items are instances of a real item model (fields as attributes), not dicts or strings."""
    assert items, "no items to check"
    first = items[0]
    assert not isinstance(first, (dict, str)), type(first)
    model = type(first)
    assert getattr(model, "model_fields", None), model
    assert getattr(model, "__pydantic_root_model__", False) is False, model


# -- Stripe ----------------------------------------------------------------------------------


def stripe_customers_walk(gen: Generated) -> None:
    fake = stripe_fake.StripeFake()
    with served(stripe_fake.make_app(fake)) as base:
        result = gen.package.Client(base).get_customers.collect(limit=10)
    assert _codes(result) == [] and result.complete, _why(result)
    assert _ids(result.items) == [r["id"] for r in fake.data["customers"]]
    assert result.pages == 6  # 57 customers, 10 a page
    _typed(result.items)
    # each later page asked for starting_after=<id of the previous page's last item>
    afters = [q for p, q in fake.queries if "starting_after=" in q]
    assert len(afters) == 5 and f"starting_after={fake.data['customers'][9]['id']}" in afters[0]


def stripe_created_filter_walk(gen: Generated) -> None:
    """deepObject: created={"gt": T} goes on the wire as created[gt]=T (Stripe's own spelling)."""
    fake = stripe_fake.StripeFake()
    cut = stripe_fake.EPOCH + 2000
    with served(stripe_fake.make_app(fake)) as base:
        client = gen.package.Client(base)
        customers = client.get_customers.collect(created={"gt": cut}, limit=5)
        charges = client.get_charges.collect(created={"gte": cut, "lt": cut + 3000}, limit=7)
    want = [r["id"] for r in fake.data["customers"] if r["created"] > cut]
    assert customers.complete and _ids(customers.items) == want
    want = [r["id"] for r in fake.data["charges"] if cut <= r["created"] < cut + 3000]
    assert charges.complete and _ids(charges.items) == want and len(want) == 49
    customer_queries = [q for p, q in fake.queries if p == "/v1/customers"]
    charge_queries = [q for p, q in fake.queries if p == "/v1/charges"]
    assert all(f"created[gt]={cut}" in q for q in customer_queries), customer_queries
    assert all(
        f"created[gte]={cut}" in q and f"created[lt]={cut + 3000}" in q for q in charge_queries
    ), charge_queries
    assert not any("created[lte]" in q or "created[gte]" in q for q in customer_queries)


def stripe_search_walk(gen: Generated) -> None:
    fake = stripe_fake.StripeFake()
    with served(stripe_fake.make_app(fake)) as base:
        client = gen.package.Client(base)
        result = client.get_customers_search.collect(query='email~"example.com"', limit=20)
        charges = client.get_charges_search.collect(query='status:"failed"', limit=3)
    assert result.complete, _why(result)
    assert _ids(result.items) == _ids(fake.data["customers"]) and result.pages == 3
    failed = [r["id"] for r in fake.data["charges"] if r["status"] == "failed"]
    assert charges.complete and _ids(charges.items) == failed
    assert any("page=" in q for p, q in fake.queries if p == "/v1/customers/search")


def stripe_mcp_walk(gen: Generated) -> None:
    fake = stripe_fake.StripeFake()
    cut = stripe_fake.EPOCH + 2000
    with served(stripe_fake.make_app(fake)) as base:
        strict = {"gt": cut, "gte": None, "lt": None, "lte": None}  # strict tool schemas: all keys
        sc = call_tool(gen, base, "get_customers", created=strict)
        charges = call_tool(gen, base, "get_charges")
    want = [r["id"] for r in fake.data["customers"] if r["created"] > cut]
    assert sc["status"] == "complete", (sc["status"], sc.get("error"), sc["completeness"])
    (listed,) = sc["data"].values()
    assert [i["id"] for i in listed] == want
    assert all(f"created[gt]={cut}" in q for p, q in fake.queries if p == "/v1/customers")
    assert charges["status"] == "complete"
    (listed,) = charges["data"].values()
    assert len(listed) == len(fake.data["charges"])


# -- DigitalOcean ----------------------------------------------------------------------------


def do_listings_walk(gen: Generated) -> None:
    fake = do_fake.DigitalOceanFake()
    with served(do_fake.make_app(fake)) as base:
        client = gen.package.Client(base)
        results = {
            "droplets": client.droplets_list.collect(per_page=10, max_pages=30),
            "ssh_keys": client.ssh_keys_list.collect(per_page=4, max_pages=30),
            "volumes": client.volumes_list.collect(per_page=5, max_pages=30),
            "domains": client.domains_list.collect(per_page=10, max_pages=30),
        }
    for key, result in results.items():
        assert result.complete, (key, _why(result))
        id_key = "name" if key == "domains" else "id"
        assert _ids(result.items, id_key) == [r[id_key] for r in fake.data[key]], key
        _typed(result.items)
    assert results["droplets"].pages == 5


def do_filtered_walk(gen: Generated) -> None:
    fake = do_fake.DigitalOceanFake()
    with served(do_fake.make_app(fake)) as base:
        result = gen.package.Client(base).droplets_list.collect(
            tag_name="env:prod", per_page=4, max_pages=30
        )
    want = [r["id"] for r in fake.data["droplets"] if "env:prod" in r["tags"]]
    assert result.complete and _ids(result.items) == want and len(want) == 16


def do_resume_walk(gen: Generated) -> None:
    """collect(max_pages=1), then collect(continuation=...) ends, and equals one whole walk."""
    fake = do_fake.DigitalOceanFake()
    with served(do_fake.make_app(fake)) as base:
        op = gen.package.Client(base).droplets_list
        whole = op.collect(per_page=10, max_pages=30)
        first = op.collect(per_page=10, max_pages=1)
        assert not first.complete and _codes(first) == ["CLIENT_PAGE_LIMIT"]
        assert first.continuation.kind == "next_cursor"
        chain, rest = [first], first
        while not rest.complete and len(chain) < 10:
            assert rest.continuation is not None and rest.continuation.kind == "next_cursor"
            rest = op.collect(per_page=10, max_pages=2, continuation=rest.continuation)
            chain.append(rest)
    assert whole.complete and rest.complete, [_why(r) for r in [whole, *chain]]
    items = [i for r in chain for i in r.items]
    assert _ids(items) == _ids(whole.items) == [r["id"] for r in fake.data["droplets"]]
    assert fake.pages_served["/v2/droplets"] == whole.pages + sum(r.pages for r in chain)


def do_mcp_walk(gen: Generated) -> None:
    fake = do_fake.DigitalOceanFake()
    with served(do_fake.make_app(fake)) as base:
        sc = call_tool(gen, base, "droplets_list", max_pages=10)
        first = call_tool(gen, base, "volumes_list", max_pages=1)  # 23 volumes, 20 a page
        rest = call_tool(
            gen,
            base,
            "volumes_list",
            max_pages=10,
            continuation=first["completeness"]["continuation"]["cursor"],
        )
    assert sc["status"] == "complete", (sc["status"], sc.get("error"), sc["completeness"])
    (listed,) = sc["data"].values()
    assert [i["id"] for i in listed] == [r["id"] for r in fake.data["droplets"]]
    assert first["status"] == "partial" and rest["status"] == "complete", rest["completeness"]
    ids = [i["id"] for r in (first, rest) for i in next(iter(r["data"].values()))]
    assert ids == [r["id"] for r in fake.data["volumes"]]


# -- Kubernetes ------------------------------------------------------------------------------


def _uids(items: list[Any]) -> list[str]:
    return [i["metadata"]["uid"] if isinstance(i, dict) else i.metadata.uid for i in items]


def k8s_listings_walk(gen: Generated) -> None:
    fake = k8s_fake.KubernetesFake()
    with served(k8s_fake.make_app(fake)) as base:
        client = gen.package.Client(base)
        pods = client.list_core_v1_namespaced_pod.collect(namespace="shop", limit=25)
        everything = client.list_core_v1_pod_for_all_namespaces.collect(limit=100)
        namespaces = client.list_core_v1_namespace.collect(limit=10)
        configmaps = client.list_core_v1_namespaced_config_map.collect(namespace="default", limit=7)
        selected = client.list_core_v1_namespaced_pod.collect(
            namespace="default", labelSelector="app=web", limit=9
        )

    def want(kind: str, ns: str | None = None, app: str | None = None) -> list[str]:
        rows = [
            r
            for r in fake.data[kind]
            if (ns is None or r["metadata"].get("namespace") == ns)
            and (app is None or r["metadata"]["labels"].get("app") == app)
        ]
        rows.sort(key=lambda r: (r["metadata"].get("namespace", ""), r["metadata"]["name"]))
        return [r["metadata"]["uid"] for r in rows]

    for result in (pods, everything, namespaces, configmaps, selected):
        assert result.complete and _codes(result) == [], _why(result)
        _typed(result.items)
    assert _uids(pods.items) == want("pods", "shop") and pods.pages == 4
    assert _uids(everything.items) == want("pods") and everything.pages == 3
    assert _uids(namespaces.items) == want("namespaces") and namespaces.pages == 5
    assert _uids(configmaps.items) == want("configmaps", "default")
    assert _uids(selected.items) == want("pods", "default", "web")
    assert any("continue=" in q for _, q in fake.requests)


def k8s_expired_continue_walk(gen: Generated) -> None:
    """A continue token older than etcd's compaction is 410 Gone: CURSOR_EXPIRED, restart."""
    fake = k8s_fake.KubernetesFake()
    with served(k8s_fake.make_app(fake)) as base:
        op = gen.package.Client(base).list_core_v1_namespace
        first = op.collect(limit=10, max_pages=1)
        fake.compact()
        rest = op.collect(limit=10, continuation=first.continuation)
    assert not first.complete and first.continuation.kind == "next_cursor"
    assert not rest.complete and _codes(rest) == ["CURSOR_EXPIRED"]
    assert rest.continuation.kind == "restart" and rest.items == []


def k8s_snapshot_walk(gen: Generated) -> None:
    """Chunks of one list come from the first chunk's resourceVersion: a later write is not in."""
    fake = k8s_fake.KubernetesFake()
    with served(k8s_fake.make_app(fake)) as base:
        op = gen.package.Client(base).list_core_v1_namespaced_config_map
        first = op.collect(namespace="shop", limit=5, max_pages=1)
        fake.add("configmaps", k8s_fake.configmap(3 * 1000 + 2))  # lands in "shop"
        rest = op.collect(namespace="shop", limit=5, continuation=first.continuation)
    assert rest.complete
    assert len(first.items) + len(rest.items) == 21  # 64 config maps, every third in "shop"


def _tool_chain(gen: Generated, base: str, tool: str, **given: Any) -> list[dict[str, Any]]:
    """Call a listing tool and follow its continuations while one answer cannot hold it all
    (CLIENT_ANSWER_LIMIT: at most 100,000 bytes of items per answer, docs/agents.md)."""
    answers = [call_tool(gen, base, tool, **given)]
    while answers[-1]["status"] == "partial" and len(answers) < 10:
        reasons = answers[-1]["completeness"]["reasons"]
        assert [r["code"] for r in reasons] == ["CLIENT_ANSWER_LIMIT"], reasons
        cursor = answers[-1]["completeness"]["continuation"]["cursor"]
        answers.append(call_tool(gen, base, tool, **given, continuation=cursor))
    return answers


def _chained_items(answers: list[dict[str, Any]]) -> list[Any]:
    return [i for a in answers for (page,) in [a["data"].values()] for i in page]


def k8s_mcp_walk(gen: Generated) -> None:
    fake = k8s_fake.KubernetesFake()
    with served(k8s_fake.make_app(fake)) as base:
        sc = call_tool(gen, base, "list_core_v1_namespace")
        # Pods are ~1.7 KB of JSON each: they come in several answers, every pod once.
        pods = _tool_chain(
            gen, base, "list_core_v1_pod_for_all_namespaces", label_selector="app=web"
        )
        # a required path parameter (namespace) reaches the operation
        system = _tool_chain(gen, base, "list_core_v1_namespaced_pod", namespace="kube-system")
    assert sc["status"] == "complete", (sc["status"], sc.get("error"), sc["completeness"])
    (listed,) = sc["data"].values()
    assert sorted(i["metadata"]["uid"] for i in listed) == sorted(
        r["metadata"]["uid"] for r in fake.data["namespaces"]
    )
    assert pods[-1]["status"] == "complete", (pods[-1]["status"], pods[-1].get("error"))
    assert len(pods) > 1  # more than one answer holds
    web = [r for r in fake.data["pods"] if r["metadata"]["labels"]["app"] == "web"]
    assert sorted(i["metadata"]["uid"] for i in _chained_items(pods)) == sorted(
        r["metadata"]["uid"] for r in web
    )
    assert any("labelSelector=app%3Dweb" in q for _, q in fake.requests)
    assert system[-1]["status"] == "complete", (system[-1]["status"], system[-1].get("error"))
    rows = [r for r in fake.data["pods"] if r["metadata"]["namespace"] == "kube-system"]
    assert sorted(i["metadata"]["uid"] for i in _chained_items(system)) == sorted(
        r["metadata"]["uid"] for r in rows
    )


# -- GitHub ----------------------------------------------------------------------------------


def github_search_drift_walk(gen: Generated) -> None:
    """Search items lacking fields the description requires are kept, with a warning."""
    with served(github_fake.make_app()) as base:
        client = gen.package.Client(base)
        hits = client.search_repos.collect(q="widget-1", per_page=20)
    want = [r["id"] for r in github_fake.dataset()["repos"] if "widget-1" in r["name"]]
    assert len(want) == 57 and _ids(hits.items) == want, _why(hits)  # three pages
    # the walk reached the end: complete within the token's view (scope.visibility)
    assert hits.complete and _codes(hits) == [], _why(hits)
    assert "ITEM_SCHEMA_MISMATCH" in _warning_codes(hits)


def github_listing_walk(gen: Generated) -> None:
    with served(github_fake.make_app()) as base:
        client = gen.package.Client(base)
        repos = client.repos_list_for_org.collect(org="acme", per_page=25)
        runs = client.actions_list_workflow_runs_for_repo.collect(
            owner="acme", repo="widgets", per_page=50
        )
    data = github_fake.dataset()
    assert repos.complete and runs.complete, (_why(repos), _why(runs))
    assert _ids(repos.items) == [r["id"] for r in data["repos"]]
    assert _ids(runs.items) == [r["id"] for r in data["runs"]]


def github_mcp_walk(gen: Generated) -> None:
    with served(github_fake.make_app()) as base:
        sc = call_tool(gen, base, "search_repos", q="widget-1")
        repos = call_tool(gen, base, "repos_list_for_org", org="acme")  # path parameter org
    # complete within the token's view (scope.visibility), its warnings kept
    assert sc["status"] == "complete", sc["completeness"]
    assert sc["completeness"]["reasons"] == [] and sc["completeness"]["continuation"] is None
    assert "ITEM_SCHEMA_MISMATCH" in [w["code"] for w in sc["warnings"]]
    (listed,) = sc["data"].values()
    assert len(listed) == 57
    assert repos["status"] == "complete", (repos["status"], repos.get("error"))
    (listed,) = repos["data"].values()
    assert [r["id"] for r in listed] == [r["id"] for r in github_fake.dataset()["repos"]]


SCENARIOS = {
    "stripe": [
        stripe_customers_walk,
        stripe_created_filter_walk,
        stripe_search_walk,
        stripe_mcp_walk,
    ],
    "digitalocean": [do_listings_walk, do_filtered_walk, do_resume_walk, do_mcp_walk],
    "kubernetes": [
        k8s_listings_walk,
        k8s_expired_continue_walk,
        k8s_snapshot_walk,
        k8s_mcp_walk,
    ],
    "github": [github_search_drift_walk, github_listing_walk, github_mcp_walk],
}

# What each scenario walks to its expected end, and through which door (docs/corpus.md counts the
# operations of the scenarios that pass: tests/realapi/measure.py).
WALKED: dict[str, tuple[str, tuple[str, ...]]] = {
    "stripe_customers_walk": ("client", ("GetCustomers",)),
    "stripe_created_filter_walk": ("client", ("GetCustomers", "GetCharges")),
    "stripe_search_walk": ("client", ("GetCustomersSearch", "GetChargesSearch")),
    "stripe_mcp_walk": ("mcp", ("GetCustomers", "GetCharges")),
    "do_listings_walk": (
        "client",
        ("droplets_list", "sshKeys_list", "volumes_list", "domains_list"),
    ),
    "do_filtered_walk": ("client", ("droplets_list",)),
    "do_resume_walk": ("client", ("droplets_list",)),
    "do_mcp_walk": ("mcp", ("droplets_list", "volumes_list")),
    "k8s_listings_walk": (
        "client",
        (
            "listCoreV1NamespacedPod",
            "listCoreV1PodForAllNamespaces",
            "listCoreV1Namespace",
            "listCoreV1NamespacedConfigMap",
        ),
    ),
    "k8s_expired_continue_walk": ("client", ("listCoreV1Namespace",)),
    "k8s_snapshot_walk": ("client", ("listCoreV1NamespacedConfigMap",)),
    "k8s_mcp_walk": (
        "mcp",
        ("listCoreV1Namespace", "listCoreV1PodForAllNamespaces", "listCoreV1NamespacedPod"),
    ),
    "github_search_drift_walk": ("client", ("search/repos",)),
    "github_listing_walk": (
        "client",
        ("repos/list-for-org", "actions/list-workflow-runs-for-repo"),
    ),
    "github_mcp_walk": ("mcp", ("search/repos", "repos/list-for-org")),
}
