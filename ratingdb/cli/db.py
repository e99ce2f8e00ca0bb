"""``ratingdb db upgrade``: create or migrate the database to the latest schema."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ratingdb.cli.common import command_group, database_options, settings


def register(commands: Any) -> None:
    actions = command_group(commands, "db", "the database schema")
    up = actions.add_parser(
        "upgrade", parents=[database_options()], help="create or migrate to the latest schema"
    )
    up.set_defaults(handler=run_upgrade)


def run_upgrade(args: argparse.Namespace) -> int:
    from ratingdb.db import current_revision, upgrade

    url = settings(args).database_url
    upgrade(url)
    print(f"database at revision {current_revision(url)}", file=sys.stderr)
    return 0
