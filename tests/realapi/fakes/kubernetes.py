"""A loopback fake of the Kubernetes API server's list endpoints, in its own wire shapes.

Shapes follow the Kubernetes API conventions (and validate against the real description):

* ``GET /api/v1/namespaces``, ``/api/v1/namespaces/{ns}/pods``, ``/api/v1/pods``,
  ``/api/v1/namespaces/{ns}/configmaps``: ``{"kind": "PodList", "apiVersion": "v1",
  "metadata": {"resourceVersion", "continue"?, "remainingItemCount"?}, "items": [...]}``; items
  carry no ``kind``/``apiVersion`` (as the API server sends them in lists).
* Chunking: ``limit=N`` returns at most N items and, when more remain, ``metadata.continue`` (an
  opaque token naming the list's resourceVersion and the next key) and
  ``metadata.remainingItemCount`` (left out when a ``labelSelector`` is given, as the server does).
  No ``limit``: everything at once, no continue.
* Every chunk of one list is served from the resourceVersion of its first page (a consistent
  snapshot): objects added later do not appear in a continued list.
* ``KubernetesFake.compact()`` plays etcd compaction: every continue token issued before it is
  then answered ``410 Gone`` with a ``Status`` object (``reason: Expired``).
* ``labelSelector`` supports ``key=value`` terms joined by commas.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

NAMESPACES = ("default", "kube-system", "shop")


def _meta(name: str, ns: str | None, i: int, labels: dict[str, str]) -> dict[str, Any]:
    meta: dict[str, Any] = {
        "name": name,
        "uid": f"{i:08x}-0000-4000-8000-{i:012x}",
        "resourceVersion": str(1000 + i),
        "creationTimestamp": "2025-10-15T13:52:47Z",
        "labels": labels,
    }
    if ns is not None:
        meta["namespace"] = ns
    return meta


def pod(i: int) -> dict[str, Any]:
    ns = NAMESPACES[i % len(NAMESPACES)]
    app = "web" if i % 2 else "worker"
    return {
        "metadata": _meta(f"{app}-{i:04d}", ns, 10_000 + i, {"app": app}),
        "spec": {
            "containers": [
                {
                    "name": app,
                    "image": "registry.example/app:1.27",
                    "ports": [{"containerPort": 8080, "protocol": "TCP"}],
                }
            ],
            "nodeName": f"node-{i % 4}",
            "restartPolicy": "Always",
            "serviceAccountName": "default",
        },
        "status": {
            "phase": "Running" if i % 11 else "Pending",
            "podIP": f"10.0.{i // 250}.{i % 250 + 1}",
            "startTime": "2025-10-15T13:53:01Z",
        },
    }


def namespace(i: int) -> dict[str, Any]:
    name = NAMESPACES[i] if i < len(NAMESPACES) else f"team-{i:03d}"
    return {
        "metadata": _meta(name, None, 20_000 + i, {"kubernetes.io/metadata.name": name}),
        "spec": {"finalizers": ["kubernetes"]},
        "status": {"phase": "Active"},
    }


def configmap(i: int) -> dict[str, Any]:
    ns = NAMESPACES[i % len(NAMESPACES)]
    return {
        "metadata": _meta(f"config-{i:04d}", ns, 30_000 + i, {"tier": "backend"}),
        "data": {"LOG_LEVEL": "info", "INDEX": str(i)},
    }


COUNTS = {"pods": 230, "namespaces": 41, "configmaps": 64}


class KubernetesFake:
    def __init__(self, counts: dict[str, int] | None = None) -> None:
        counts = {**COUNTS, **(counts or {})}
        self.version = 5000
        self.epoch = 0  # bumped by compact(): older continue tokens are gone
        self.history: dict[int, dict[str, list[dict[str, Any]]]] = {}
        self.data = {
            "pods": [pod(i) for i in range(counts["pods"])],
            "namespaces": [namespace(i) for i in range(counts["namespaces"])],
            "configmaps": [configmap(i) for i in range(counts["configmaps"])],
        }
        self._snapshot()
        self.requests: list[tuple[str, str]] = []

    def _snapshot(self) -> None:
        self.history[self.version] = {k: list(v) for k, v in self.data.items()}

    def add(self, kind: str, row: dict[str, Any]) -> None:
        """A write: a new resourceVersion; lists already under way keep their snapshot."""
        self.data[kind].append(row)
        self.version += 1
        self._snapshot()

    def compact(self) -> None:
        self.epoch += 1

    def listing(self, request: Request, kind: str, list_kind: str, ns: str | None) -> JSONResponse:
        self.requests.append((request.url.path, request.url.query))
        q = request.query_params
        version, start = self.version, 0
        if token := q.get("continue"):
            try:
                state = json.loads(base64.urlsafe_b64decode(token.encode()))
                version, start, epoch = int(state["rv"]), int(state["start"]), int(state["e"])
            except (ValueError, KeyError, TypeError):
                return _status(400, "BadRequest", "continue key is not valid")
            if epoch != self.epoch or version not in self.history:
                return _status(
                    410,
                    "Expired",
                    "The provided continue parameter is too old to display a consistent list "
                    "result. You can start a new list without the continue parameter.",
                )
        rows = self.history[version][kind]
        if ns is not None:
            rows = [r for r in rows if r["metadata"].get("namespace") == ns]
        selector = q.get("labelSelector")
        if selector:
            terms = [t.split("=", 1) for t in selector.split(",") if "=" in t]
            rows = [r for r in rows if all(r["metadata"]["labels"].get(k) == v for k, v in terms)]
        rows = sorted(
            rows, key=lambda r: (r["metadata"].get("namespace", ""), r["metadata"]["name"])
        )
        limit = int(q["limit"]) if q.get("limit", "").isdigit() and int(q["limit"]) > 0 else None
        chunk = rows[start:] if limit is None else rows[start : start + limit]
        meta: dict[str, Any] = {"resourceVersion": str(version)}
        end = start + len(chunk)
        if end < len(rows):
            state = {"rv": version, "start": end, "e": self.epoch}
            meta["continue"] = base64.urlsafe_b64encode(json.dumps(state).encode()).decode()
            if not selector:
                meta["remainingItemCount"] = len(rows) - end
        body = {"kind": list_kind, "apiVersion": "v1", "metadata": meta, "items": chunk}
        return JSONResponse(body)


def _status(code: int, reason: str, message: str) -> JSONResponse:
    body = {
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": message,
        "reason": reason,
        "code": code,
    }
    return JSONResponse(body, status_code=code)


def make_app(fake: KubernetesFake | None = None) -> FastAPI:
    fake = fake or KubernetesFake()
    app = FastAPI(title="kubernetes-fake")
    app.state.fake = fake

    @app.get("/api/v1/namespaces")
    def namespaces(request: Request) -> JSONResponse:
        return fake.listing(request, "namespaces", "NamespaceList", None)

    @app.get("/api/v1/pods")
    def all_pods(request: Request) -> JSONResponse:
        return fake.listing(request, "pods", "PodList", None)

    @app.get("/api/v1/namespaces/{namespace}/pods")
    def pods(namespace: str, request: Request) -> JSONResponse:
        return fake.listing(request, "pods", "PodList", namespace)

    @app.get("/api/v1/namespaces/{namespace}/configmaps")
    def configmaps(namespace: str, request: Request) -> JSONResponse:
        return fake.listing(request, "configmaps", "ConfigMapList", namespace)

    return app
