"""The example service: service accounts in sharded SQLite, served with the completeness contract.

Modules: ``config`` (shards, faults, credentials), ``store`` (versioned rows, snapshot reads),
``scan`` (budgeted fan-out over shards), ``seed`` (demo data), ``app`` (FastAPI, built on the
generated ``models``/``server`` of ``examples/service_accounts/openapi.yaml``).
"""
