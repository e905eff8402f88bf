"""``python -m reversis``: the ``reversis`` command."""

import sys

from .cli import main

sys.exit(main())
