"""`python -m victor`: the `victor` command."""

import sys

from victor.cli import main

sys.exit(main())
