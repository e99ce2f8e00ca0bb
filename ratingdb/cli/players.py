"""``ratingdb players search`` and ``ratingdb players show``: what ``/v1/players`` and
``/v1/players/{id}`` answer, read through the same read models, as JSON lines."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ratingdb.cli.common import database_options, transaction
from ratingdb.errors import InputError

if TYPE_CHECKING:
    from ratingdb.services.published import HistoryPoint, Player

#: ratingdb.api.params.DEFAULT_LIMIT and MAX_LIMIT, without importing the web stack.
DEFAULT_LIMIT = 100
MAX_LIMIT = 1000


def register_actions(actions: Any) -> None:
    """Adds ``search`` and ``show`` to the actions of ``ratingdb players`` (whose parser
    ratingdb.cli.corrections makes, with ``merge``)."""
    search = actions.add_parser(
        "search",
        parents=[database_options()],
        help="players by name (every word, any order, any case) or by the start of an id",
    )
    search.add_argument("text", metavar="TEXT")
    search.add_argument(
        "--limit", type=int, default=DEFAULT_LIMIT, help=f"at most (default {DEFAULT_LIMIT})"
    )
    search.set_defaults(handler=run_search)
    show = actions.add_parser(
        "show",
        parents=[database_options()],
        help="a player and their latest published rating in each category",
    )
    show.add_argument("player_id", metavar="ID")
    show.set_defaults(handler=run_show)
    unregistered = actions.add_parser(
        "export-unregistered",
        parents=[database_options()],
        help="the players FIDE's lists leave out for want of a FIDE id, as CSV: what FIDE's "
        "registration asks (name, birth date, sex, federation)",
    )
    unregistered.add_argument(
        "--category",
        action="append",
        default=[],
        help="a FIDE category whose tournaments count (repeat it; default: every FIDE category)",
    )
    unregistered.add_argument("--output", type=Path, help="a file instead of stdout")
    unregistered.set_defaults(handler=run_export_unregistered)
    watch = actions.add_parser(
        "title-watch",
        parents=[database_options()],
        help="who reached a title's rating on a list for the first time (FM, CM, WFM, WCM with "
        "30 rated games; the GM, IM, WGM, WIM rating requirement), as JSON lines",
    )
    watch.add_argument("--category", default="fide-standard", help="default: fide-standard")
    watch.add_argument("--period", required=True, help="the list's period (YYYY-MM)")
    watch.set_defaults(handler=run_title_watch)
    interim = actions.add_parser(
        "interim",
        parents=[database_options()],
        help="a player's interim ratings (unofficial): in each category, the rating the open "
        "period would give if it closed now, game by game, as one JSON line (what "
        "/v1/players/{id}/interim answers); nothing is written",
    )
    interim.add_argument("player_id", metavar="PLAYER")
    interim.add_argument(
        "--category", action="append", default=[], help="only this category (repeat it)"
    )
    interim.set_defaults(handler=run_interim)


def run_export_unregistered(args: argparse.Namespace) -> int:
    """CSV on stdout (or ``--output``), written once the reading is done."""
    from ratingdb.cli.common import category
    from ratingdb.formats.unregistered_csv import write_unregistered_csv
    from ratingdb.services.unregistered import unregistered_players

    categories = [category(text) for text in args.category]
    with transaction(args) as session:
        players = unregistered_players(session, categories)
    if args.output is None:
        write_unregistered_csv(players, sys.stdout)
    else:
        with args.output.open("w", encoding="utf-8", newline="") as out:
            write_unregistered_csv(players, out)
    return 0


def player_fields(found: Player) -> dict[str, Any]:
    return {
        "player_id": found.player_id,
        "name": found.name,
        "federation": found.federation,
        "sex": found.sex,
        "birth_year": found.birth_year,
        "title": found.title,
    }


def rating_fields(point: HistoryPoint) -> dict[str, Any]:
    """A latest rating as ``/v1/players/{id}`` shows it (RatingOut's fields, in its order)."""
    return {
        "category": point.category.value,
        "period": str(point.period),
        "list_date": point.period.list_date.isoformat(),
        "revision": point.revision,
        "rating": point.rating,
        "original_rating": point.original_rating,
        "previous_rating": point.previous_rating,
        "change": point.change,
        "games": point.games,
        "k_factor": point.k_factor,
        "rated_games": point.rated_games,
        "peak_rating": point.peak_rating,
    }


def run_search(args: argparse.Namespace) -> int:
    """One JSON line per player found, in the API's order (an exact id first, then by name),
    with their ratings on the latest lists as ``/v1/players`` gives them."""
    from ratingdb.services.published import search_players

    text = args.text.strip()
    if not text:
        raise InputError("an empty search finds no one", field="TEXT")
    if not 1 <= args.limit <= MAX_LIMIT:
        raise InputError(f"must be from 1 to {MAX_LIMIT}", field="--limit")
    with transaction(args) as session:
        _, found = search_players(session, search=text, limit=args.limit)
    for player in found:
        ratings = {
            r.category.value: {"period": str(r.period), "rating": r.rating} for r in player.ratings
        }
        print(json.dumps(player_fields(player) | {"ratings": ratings}, ensure_ascii=False))
    return 0


def run_show(args: argparse.Namespace) -> int:
    from ratingdb.services.published import NotFound, latest_ratings, player

    with transaction(args) as session:
        try:
            found = player(session, args.player_id)
        except NotFound as error:
            raise InputError(str(error), field="ID") from None
        ratings = latest_ratings(session, args.player_id)
    document = player_fields(found) | {"ratings": [rating_fields(p) for p in ratings]}
    print(json.dumps(document, ensure_ascii=False))
    return 0


def run_interim(args: argparse.Namespace) -> int:
    """One JSON line, the body of ``/v1/players/{id}/interim`` (the API's own schema): every
    interim rating of the player, ``"official": false``."""
    from ratingdb.api.schemas.interim import InterimOut, InterimRatingOut
    from ratingdb.cli.common import category
    from ratingdb.services.interim import player_interims
    from ratingdb.services.published import NotFound

    wanted = {category(text) for text in args.category}
    with transaction(args) as session:
        try:
            found = player_interims(session, args.player_id)
        except NotFound as error:
            raise InputError(str(error), field="PLAYER") from None
    body = InterimOut(
        player_id=args.player_id,
        official=False,
        interims=[
            InterimRatingOut.of(item) for item in found if not wanted or item.category in wanted
        ],
    )
    print(body.model_dump_json())
    return 0


def run_title_watch(args: argparse.Namespace) -> int:
    """One JSON line per player and title reached on the list (published ratings only)."""
    from ratingdb.cli.common import category, period
    from ratingdb.services.title_watch import title_watch

    with transaction(args) as session:
        watch = title_watch(session, category(args.category), period(args.period))
    for reached in watch.reached:
        print(
            json.dumps(
                {
                    "category": watch.category.value,
                    "period": str(watch.period),
                    "revision": watch.revision,
                    "player_id": reached.player_id,
                    "name": reached.name,
                    "federation": reached.federation,
                    "held_title": reached.held_title,
                    "title": reached.title.value,
                    "kind": reached.kind.value,
                    "threshold": reached.threshold,
                    "min_games": reached.min_games,
                    "rating": reached.rating,
                    "rated_games": reached.rated_games,
                    "ratings": "published",
                },
                ensure_ascii=False,
            )
        )
    return 0
