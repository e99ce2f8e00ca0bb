"""Read queries behind the API and the web pages: what ratingdb has published.

Only ``select()`` statements, run in the caller's (read-only) session; nothing here writes or
commits. A list date may carry several revisions of a list (a correction publishes a new
revision; revision 1 is the original list): the queries read the latest revision by default, or
the revision asked for (:func:`is_current` with ``upto``), and give beside each rating the
original one (revision 1).

One module per resource (lists, players, calculations, tournaments, schema), their shared
pieces in ``common``; every public name is importable from here too.
"""

from __future__ import annotations

from ratingdb.repositories.published.calculations import (
    PlayerCalculation,
    entry_on,
    player_calculations,
    rating_on,
)
from ratingdb.repositories.published.common import (
    PLAYER_COLUMNS,
    AnyRow,
    count_rows,
    is_current,
    name_matches,
    player_matches,
)
from ratingdb.repositories.published.lists import (
    count_list_entries,
    current_lists,
    find_list,
    games_generation,
    latest_revision_of,
    list_entries,
    list_revisions,
)
from ratingdb.repositories.published.players import (
    LatestRating,
    ListedEntries,
    get_player,
    listed_entries,
    player_entries,
    ratings_on_latest_lists,
    search_players,
)
from ratingdb.repositories.published.schema import Standby, schema_revision, schema_state
from ratingdb.repositories.published.tournaments import (
    count_period_tournaments,
    last_tournament_correction,
    linked_tournaments,
    period_tournaments,
    tournament,
    tournament_games,
    tournament_names,
    tournament_summaries,
)

__all__ = [
    "PLAYER_COLUMNS",
    "AnyRow",
    "LatestRating",
    "ListedEntries",
    "PlayerCalculation",
    "Standby",
    "count_list_entries",
    "count_period_tournaments",
    "count_rows",
    "current_lists",
    "entry_on",
    "find_list",
    "games_generation",
    "get_player",
    "is_current",
    "last_tournament_correction",
    "latest_revision_of",
    "linked_tournaments",
    "list_entries",
    "list_revisions",
    "listed_entries",
    "name_matches",
    "period_tournaments",
    "player_calculations",
    "player_entries",
    "player_matches",
    "rating_on",
    "ratings_on_latest_lists",
    "schema_revision",
    "schema_state",
    "search_players",
    "tournament",
    "tournament_games",
    "tournament_names",
    "tournament_summaries",
]
