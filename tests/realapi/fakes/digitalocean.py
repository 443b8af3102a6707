"""A loopback fake of DigitalOcean's listing endpoints, in DigitalOcean's own wire shapes.

Shapes follow DigitalOcean's API reference (objects copied from the examples in its description,
so they validate against the real schemas):

* ``GET /v2/droplets`` (``tag_name`` / ``name`` filters), ``/v2/account/keys``, ``/v2/volumes``,
  ``/v2/domains``: ``{"<resource>": [...], "links": {"pages": {...}}, "meta": {"total": N}}``,
  paged by ``page`` (from 1) and ``per_page`` (default 20, 1..200). ``links.pages`` carries
  ``next``/``last`` while pages remain and ``first``/``prev`` after page 1; a single page has
  ``"links": {}``. A page past the end is an empty list, never an error (as DigitalOcean does), so
  a walk that does not know where to stop would go on forever: ``DigitalOceanFake.pages_served``
  counts requests per path for tests to bound.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any
from urllib.parse import urlencode

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

_REGION = {
    "available": True,
    "features": ["private_networking", "backups", "ipv6", "metadata"],
    "name": "New York 3",
    "sizes": ["s-1vcpu-1gb", "s-1vcpu-2gb", "s-2vcpu-4gb"],
    "slug": "nyc3",
}
_DROPLET = {
    "backup_ids": [53893572],
    "created_at": "2025-10-15T13:52:47.280Z",
    "disk": 25,
    "features": ["backups", "private_networking", "ipv6"],
    "id": 3164444,
    "image": {
        "created_at": "2025-10-15T13:52:47.280Z",
        "description": "",
        "distribution": "Ubuntu",
        "error_message": "",
        "id": 63663980,
        "min_disk_size": 20,
        "name": "20.04 (LTS) x64",
        "public": True,
        "regions": ["nyc1", "nyc3"],
        "size_gigabytes": 2.36,
        "slug": "ubuntu-20-04-x64",
        "status": "available",
        "tags": [],
        "type": "snapshot",
    },
    "kernel": None,
    "locked": False,
    "memory": 1024,
    "name": "example.com",
    "networks": {
        "v4": [
            {
                "gateway": "192.241.165.1",
                "ip_address": "192.241.165.154",
                "netmask": "255.255.255.0",
                "type": "public",
            }
        ],
        "v6": [],
    },
    "next_backup_window": {
        "end": "2025-10-15T13:52:47.280Z",
        "start": "2025-10-15T13:52:47.280Z",
    },
    "region": _REGION,
    "size": {
        "available": True,
        "description": "Basic",
        "disk": 25,
        "memory": 1024,
        "price_hourly": 0.00744,
        "price_monthly": 5,
        "regions": ["nyc1", "nyc3"],
        "slug": "s-1vcpu-1gb",
        "transfer": 1,
        "vcpus": 1,
    },
    "size_slug": "s-1vcpu-1gb",
    "snapshot_ids": [],
    "status": "active",
    "tags": ["web"],
    "vcpus": 1,
    "volume_ids": [],
    "vpc_uuid": "760e09ef-dc84-11e8-981e-3cfdfeaae000",
}


def droplet(i: int) -> dict[str, Any]:
    row = copy.deepcopy(_DROPLET)
    row.update(
        id=3_164_000 + i,
        name=f"web-{i:03d}.example.com",
        tags=["web", "env:prod"] if i % 3 == 0 else ["web"],
        status="active" if i % 7 else "off",
    )
    return row


def ssh_key(i: int) -> dict[str, Any]:
    fp = ":".join(f"{(i * 7 + k) % 256:02x}" for k in range(16))
    return {
        "fingerprint": fp,
        "id": 289_000 + i,
        "name": f"key {i}",
        "public_key": f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{i:06d} user{i}@example",
    }


def volume(i: int) -> dict[str, Any]:
    return {
        "created_at": "2025-10-15T13:52:47.292Z",
        "description": f"Block store {i}",
        "droplet_ids": [],
        "filesystem_label": f"vol{i}",
        "filesystem_type": "ext4",
        "id": f"506f78a4-e098-11e5-ad9f-{i:012x}",
        "name": f"volume-{i}",
        "region": _REGION,
        "size_gigabytes": 10,
        "tags": [],
    }


def domain(i: int) -> dict[str, Any]:
    return {"name": f"site{i}.example.com", "ttl": 1800, "zone_file": None}


COUNTS = {"droplets": 47, "ssh_keys": 9, "volumes": 23, "domains": 31}
MAKERS = {"droplets": droplet, "ssh_keys": ssh_key, "volumes": volume, "domains": domain}
PATHS = {
    "droplets": "/v2/droplets",
    "ssh_keys": "/v2/account/keys",
    "volumes": "/v2/volumes",
    "domains": "/v2/domains",
}


def dataset(counts: dict[str, int] | None = None) -> dict[str, list[dict[str, Any]]]:
    counts = {**COUNTS, **(counts or {})}
    return {k: [MAKERS[k](i) for i in range(n)] for k, n in counts.items()}


class DigitalOceanFake:
    def __init__(self, counts: dict[str, int] | None = None) -> None:
        self.data = dataset(counts)
        self.pages_served: Counter[str] = Counter()
        self.requests: list[tuple[str, str]] = []

    def page(self, request: Request, key: str, rows: list[dict[str, Any]]) -> JSONResponse:
        self.pages_served[request.url.path] += 1
        self.requests.append((request.url.path, request.url.query))
        try:
            per_page = int(request.query_params.get("per_page", "20"))
            page = int(request.query_params.get("page", "1"))
        except ValueError:
            return _error("per_page and page must be integers")
        if not 1 <= per_page <= 200 or page < 1:
            return _error("per_page must be between 1 and 200, page at least 1")
        last = max(1, -(-len(rows) // per_page))
        chunk = rows[(page - 1) * per_page : page * per_page]

        def url(n: int) -> str:
            params = dict(request.query_params)
            params["page"] = str(n)
            return f"{str(request.base_url).rstrip('/')}{request.url.path}?{urlencode(params)}"

        pages: dict[str, str] = {}
        if page > 1:
            pages.update(first=url(1), prev=url(page - 1))
        if page < last:
            pages.update(next=url(page + 1), last=url(last))
        body = {
            key: chunk,
            "links": {"pages": pages} if pages else {},
            "meta": {"total": len(rows)},
        }
        return JSONResponse(body)


def _error(message: str) -> JSONResponse:
    return JSONResponse({"id": "bad_request", "message": message}, status_code=400)


def make_app(fake: DigitalOceanFake | None = None) -> FastAPI:
    fake = fake or DigitalOceanFake()
    app = FastAPI(title="digitalocean-fake")
    app.state.fake = fake

    @app.get("/v2/droplets")
    def droplets(request: Request) -> JSONResponse:
        rows = fake.data["droplets"]
        if tag := request.query_params.get("tag_name"):
            rows = [r for r in rows if tag in r["tags"]]
        if name := request.query_params.get("name"):
            rows = [r for r in rows if r["name"] == name]
        return fake.page(request, "droplets", rows)

    @app.get("/v2/account/keys")
    def ssh_keys(request: Request) -> JSONResponse:
        return fake.page(request, "ssh_keys", fake.data["ssh_keys"])

    @app.get("/v2/volumes")
    def volumes(request: Request) -> JSONResponse:
        return fake.page(request, "volumes", fake.data["volumes"])

    @app.get("/v2/domains")
    def domains(request: Request) -> JSONResponse:
        return fake.page(request, "domains", fake.data["domains"])

    return app
