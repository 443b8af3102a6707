"""DESIGN.md section 3 snippets as data: the declarations exactly as the brief spells them."""

from __future__ import annotations

NATIVE_LIST = {
    "kind": "collection",
    "mode": "native",
    "scope": {
        "resource": "service_accounts",
        "visibility": "service accounts readable by the calling credential",
        "snapshot": "token",
        "covers": (
            "every service account of the organisation visible to the credential at the snapshot"
        ),
    },
    "items": "$response.body#/items",
    "id": "/id",
    "pagination": {
        "style": "cursor",
        "request": {"cursor": "cursor", "size": "limit"},
        "response": {"next": "$response.body#/next_cursor"},
        "max-page-size": 200,
        "ordering": "id ascending",
        "cursor": {
            "snapshot": "frozen",
            "ttl": "PT15M",
            "invalidated-by": ["filter", "ordering", "authorization"],
            "on-expiry": "error",
        },
    },
    "reasons": [
        "MORE_PAGES_AVAILABLE",
        {"code": "RESULT_LIMIT_REACHED", "limit": 1000},
        "TIME_BUDGET_EXCEEDED",
        "SOURCE_UNAVAILABLE",
        "VISIBILITY_RESTRICTED",
    ],
    "warnings": ["STALE_INDEX"],
    "deadline": {"param": "time_budget_ms", "unit": "ms", "default": 2000, "max": 30000},
    "evidence": {"mint": True, "ttl": "PT10M"},
}

ADAPTER_SEARCH = {
    "kind": "search",
    "mode": "adapter",
    "scope": {
        "resource": "repositories",
        "visibility": "repositories the token can see",
        "snapshot": "none",
    },
    "items": "$response.body#/items",
    "id": "/id",
    "pagination": {
        "style": "link-header",
        "request": {"size": "per_page"},
        "response": {"next": "$response.link.next"},
    },
    "reasons": [
        {"code": "MORE_PAGES_AVAILABLE", "when": {"present": "$response.link.next"}},
        {
            "code": "TIME_BUDGET_EXCEEDED",
            "when": {"equals": ["$response.body#/incomplete_results", True]},
        },
        {
            "code": "RESULT_LIMIT_REACHED",
            "limit": 1000,
            "when": {"gt": ["$response.body#/total_count", 1000]},
        },
    ],
}

STRIPE_STYLE = {
    "kind": "collection",
    "mode": "adapter",
    "scope": {"resource": "customers"},
    "items": "$response.body#/data",
    "id": "/id",
    "pagination": {
        "style": "cursor",
        "request": {"cursor": "starting_after", "size": "limit"},
        "response": {"next": {"last-item": "/id"}},
    },
    "reasons": [
        {"code": "MORE_PAGES_AVAILABLE", "when": {"equals": ["$response.body#/has_more", True]}},
        {"code": "CURSOR_EXPIRED", "when": {"equals": ["$statusCode", 410]}},
    ],
}

OFFSET_STYLE = {
    "kind": "collection",
    "mode": "adapter",
    "scope": {"resource": "tickets"},
    "items": "$response.body#/results",
    "pagination": {
        "style": "offset",
        "request": {"offset": "offset", "size": "limit"},
        "response": {"total": "$response.body#/count"},
    },
    "reasons": ["MORE_PAGES_AVAILABLE"],
}

PAGE_STYLE = {
    "kind": "collection",
    "mode": "adapter",
    "scope": {"resource": "invoices"},
    "items": "$response.body#/data",
    "pagination": {
        "style": "page",
        "request": {"page": "page", "size": "per_page"},
        "response": {"pages": "$response.header.X-Total-Pages"},
    },
    "reasons": ["MORE_PAGES_AVAILABLE"],
}

JIRA_STYLE = {  # issue 19: an offset listing whose end is a boolean isLast, bound to its filter
    "kind": "search",
    "mode": "adapter",
    "scope": {"resource": "issues", "visibility": "issues the account may browse"},
    "items": "$response.body#/values",
    "id": "/id",
    "pagination": {
        "style": "offset",
        "request": {"offset": "startAt", "size": "maxResults"},
        "response": {"last": "$response.body#/isLast"},
        "cursor": {"snapshot": "live", "invalidated-by": ["filter", "ordering", "page-size"]},
    },
    "reasons": ["MORE_PAGES_AVAILABLE"],
}

EMPTY_PAGE_STYLE = {  # issue 19: the only end signal is an empty page (declared, inferred)
    "kind": "collection",
    "mode": "adapter",
    "scope": {"resource": "events"},
    "items": "$response.body#",
    "pagination": {
        "style": "page",
        "request": {"page": "page", "size": "count"},
        "max-page-size": 100,
        "end": "empty-page",
    },
    "reasons": ["MORE_PAGES_AVAILABLE"],
}

MUTATION = {
    "kind": "mutation",
    "destructive": True,
    "evidence": {
        "from": "listServiceAccounts",
        "ids": "$request.body#/ids",
        "token": "$request.body#/evidence",
        "void-on-warnings": ["STALE_INDEX"],
    },
}

MUTATION_RECHECK = {
    "kind": "mutation",
    "destructive": True,
    "recheck": {"each-target": "getServiceAccount"},
}

RESOURCE = {"kind": "resource", "omitted-fields": "$response.body#/omitted_fields"}

REGISTRY = {
    "reasons": {
        "SHARD_REBALANCING": {
            "description": "a shard is moving; its rows are skipped until the move ends",
            "continuation": "retry_after",
            "details": {
                "type": "object",
                "properties": {"shard": {"type": "string"}},
                "required": ["shard"],
            },
            "owner": "search-platform",
            "review-by": "2027-06-30",
        }
    },
    "warnings": {},
}

ALL_DECLARATIONS = {
    "native_list": NATIVE_LIST,
    "adapter_search": ADAPTER_SEARCH,
    "stripe_style": STRIPE_STYLE,
    "offset_style": OFFSET_STYLE,
    "page_style": PAGE_STYLE,
    "jira_style": JIRA_STYLE,
    "empty_page_style": EMPTY_PAGE_STYLE,
    "mutation": MUTATION,
    "mutation_recheck": MUTATION_RECHECK,
    "resource": RESOURCE,
}
