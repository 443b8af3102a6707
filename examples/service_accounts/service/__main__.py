"""Run the example service: ``python -m service --generated DIR [--package NAME] [--seed N]``.

Run from ``examples/service_accounts/`` (or with it on ``PYTHONPATH``). ``DIR`` holds the package
written by ``xcompleteness generate examples/service_accounts/openapi.yaml -o DIR --package NAME``.
Configuration comes from ``XC_SERVICE_*`` variables (see :func:`service.config.from_env`); the
service binds 127.0.0.1 on a free port and prints ``READY http://127.0.0.1:PORT`` once it accepts
connections.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .app import create_app
from .config import from_env
from .runner import serve_forever
from .seed import seed
from .store import Store
from .wire import Wire


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m service", description=__doc__.splitlines()[0])
    parser.add_argument("--generated", required=True, help="folder holding the generated package")
    parser.add_argument("--package", default="service_accounts_api", help="generated package name")
    parser.add_argument(
        "--seed", type=int, default=1600, help="accounts to create in an empty store"
    )
    args = parser.parse_args(argv)
    try:
        config = from_env()
    except (KeyError, ValueError) as exc:
        print(f"bad XC_SERVICE_* configuration: {exc!r}", file=sys.stderr)
        return 2
    sys.path.insert(0, args.generated)
    wire = Wire.from_package(args.package, config.secret, store=config.token_store_url())
    seed(Store(config).open(), args.seed)
    serve_forever(create_app(config, wire))
    return 0


if __name__ == "__main__":
    sys.exit(main())
