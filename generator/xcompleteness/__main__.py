import sys

from xcompleteness.cli import main

sys.exit(main())
