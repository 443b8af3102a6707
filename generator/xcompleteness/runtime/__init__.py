"""Shared runtime copied verbatim into every generated package (stdlib, pydantic and httpx only)."""
