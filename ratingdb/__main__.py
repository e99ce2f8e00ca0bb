"""``python -m ratingdb``: the same as the ``ratingdb`` command."""

import sys

from ratingdb.cli import main

sys.exit(main())
