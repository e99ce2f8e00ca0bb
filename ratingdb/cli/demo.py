"""``ratingdb demo``: a working system in one command.

Creates the database (a SQLite file ``ratingdb.sqlite3`` in the current folder unless
``--database-url`` or ``RATINGDB_DATABASE_URL`` says otherwise) at the latest schema, loads the
bundled sample federation (ratingdb/sample_data: its starting lists and six months of
tournaments, through the same imports as ``lists import`` and ``tournaments import``), closes
every period whose closing date has passed with the scheduler's own job
(``jobs.close_periods``), prints where the API and the web page are, and serves them.

Run again on the same database it loads nothing twice: the sample data is recognised, and only
the periods that have become due since are closed.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ratingdb import defaults
from ratingdb.cli.common import (
    actor,
    setting_option,
    settings,
    transaction,
    writing_options,
)
from ratingdb.errors import InputError

if TYPE_CHECKING:  # the database and the services are imported when the command runs
    from sqlalchemy.orm import Session

    from ratingdb.sample_data import Manifest

DEFAULT_HOST = defaults.SERVE_HOST
DEFAULT_PORT = defaults.SERVE_PORT


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "demo",
        parents=writing_options(),
        help="a database with the bundled sample federation, its periods closed, then serve",
    )
    # The address ``ratingdb serve`` listens on (its settings: the demo serves with them).
    setting_option(parser, "serve_host", unset=DEFAULT_HOST)
    setting_option(parser, "serve_port", unset=DEFAULT_PORT, type=int)
    parser.add_argument(
        "--no-serve", action="store_true", help="load and close, print the addresses, and stop"
    )
    parser.add_argument(
        "--now",
        help="close the periods due at this time (ISO 8601; default: now), e.g. to replay",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from jobs.close_periods import close_periods
    from ratingdb.db import current_revision, upgrade
    from ratingdb.sample_data import load_manifest

    config = settings(args)
    now = _now(args.now)
    person = actor(args)
    upgrade(config.database_url)
    manifest = load_manifest()
    with transaction(args) as session:
        loaded = _load(session, manifest, now)
    say(f"database: {_shown(config.database_url)} (schema {current_revision(config.database_url)})")
    say(loaded)
    closed = close_periods(config, now, person)
    published: dict[str, list[str]] = defaultdict(list)
    for outcome in closed:
        if outcome.state == "published":
            published[outcome.category.value].append(str(outcome.period))
    if published:
        summary = "; ".join(
            f"{category} {periods[0]}..{periods[-1]}"
            if len(periods) > 1
            else f"{category} {periods[0]}"
            for category, periods in published.items()
        )
        say(f"closed {sum(len(p) for p in published.values())} periods: {summary}")
    else:
        say(f"no period to close at {now:%Y-%m-%d %H:%M} UTC")
    waiting = [f"{o.category.value} {o.period}" for o in closed if o.awaiting_approval]
    if waiting:  # RATINGDB_PUBLICATION_APPROVAL: approve them in the back office
        say(f"awaiting-approval (approve in the back office): {', '.join(waiting)}")
    with transaction(args) as session:
        created = _demo_accounts(session, now, person)
    office = f"http://{_host_for_url(config.backoffice_host)}:{config.backoffice_port}"
    if created:
        say(
            "back office (demo accounts, for trying it only: never in production): run "
            f"`ratingdb backoffice --database-url {_shown(config.database_url)}`, then sign in "
            f"at {office}/login as "
            + ", ".join(f"{name} ({role}) with password {word!r}" for name, role, word in created)
        )
    else:
        say(f"back office: `ratingdb backoffice`, then {office}/login with the demo accounts "
            "(their passwords were printed when they were created)")  # fmt: skip
    base = f"http://{_host_for_url(config.serve_host)}:{config.serve_port}"
    say(f"API: {base}/v1/ (OpenAPI: {base}/openapi.json, docs: {base}/docs)")
    say(f"web page: {base}/")
    say(
        f"a player's history: {base}/v1/players/{manifest.showcase_player}/history"
        "?category=fide-standard"
    )
    if args.no_serve:
        return 0
    try:
        from ratingdb.api.server import serve  # the API is optional for --no-serve
    except ImportError as error:
        print(f"ratingdb demo: the API cannot start: {error}", file=sys.stderr)
        return 1
    say(f"serving on {base} (Ctrl-C stops)")
    serve(config)
    return 0


#: The demo's back-office accounts: one of each role.
DEMO_ACCOUNTS = (("arbiter1", "arbiter"), ("officer1", "officer"), ("admin1", "admin"))


def _demo_accounts(session: Session, now: datetime, person: str) -> list[tuple[str, str, str]]:
    """One account of each role (DEMO_ACCOUNTS) with a fresh random password, unless the
    database has accounts already; (user, role, password) of those created, to print."""
    import secrets

    from ratingdb.services import accounts

    if accounts.list_users(session):
        return []
    created = []
    for username, role in DEMO_ACCOUNTS:
        password = "demo-" + secrets.token_urlsafe(12)
        accounts.add_user(session, username, role, password, by=None, actor=person, now=now)
        created.append((username, role, password))
    return created


def say(text: str) -> None:
    print(f"demo: {text}", flush=True)


def _now(text: str | None) -> datetime:
    if text is None:
        return datetime.now(UTC)
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise InputError(f"must be an ISO 8601 date or time, got {text!r}", field="--now") from None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)


def _host_for_url(host: str) -> str:
    if host in ("0.0.0.0", "::"):  # every interface: print one that works locally
        return "127.0.0.1"
    return f"[{host}]" if ":" in host else host


def _shown(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def _load(session: Session, manifest: Manifest, now: datetime) -> str:
    """Import the sample data in one transaction, unless it is there already; refuse a
    database that holds something else."""
    import hashlib
    from importlib import resources

    from ratingdb.repositories.demo_state import (
        count_games,
        count_rating_lists,
        count_tournaments,
        tournament_from_file,
    )
    from ratingdb.sample_data import folder
    from ratingdb.services.lists import import_list_file
    from ratingdb.services.tournaments import import_tournament_file

    root = folder()
    first = manifest.tournaments[0].file
    digest = hashlib.sha256(root.joinpath(first).read_bytes()).hexdigest()
    if tournament_from_file(session, digest):
        return f"the sample federation ({manifest.federation}) is already loaded"
    lists = count_rating_lists(session)
    tournaments = count_tournaments(session)
    if lists or tournaments:
        raise InputError(
            f"the database already holds {lists} lists and {tournaments} tournaments that are "
            "not the sample data: give an empty database (--database-url) or another folder",
            field="--database-url",
        )
    for item in manifest.lists:
        with resources.as_file(root.joinpath(item.file)) as path:
            import_list_file(session, path, item.category, item.period, now, item.format)
    count = 0
    for tournament in manifest.tournaments:
        with resources.as_file(root.joinpath(tournament.file)) as path:
            outcome = import_tournament_file(
                session, path, tournament.categories, None, tournament.format
            )
        count += len(outcome.tournaments)
    games = count_games(session)
    return (
        f"loaded the sample federation ({manifest.federation}): {len(manifest.lists)} lists "
        f"of {manifest.lists[0].period}, {len(manifest.tournaments)} files making {count} "
        f"tournaments, {games} games"
    )
