import sys

from xcompleteness.cli import main

__all__: list[str] = []

sys.exit(main())
