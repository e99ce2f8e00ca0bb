"""What the read-only API and the web pages show: published lists, players, their histories and
the game-by-game calculation behind every published change.

Every function reads through the caller's session and never writes; results are plain frozen
dataclasses (the API turns them into its own response schemas).

Revisions: a correction publishes a new revision of each list it changes; revision 1 (the
original list) stays. Lists, calculations and histories show the latest revision unless a
``revision`` is asked for, and every rating comes with the original one beside it.

One module per resource (lists, catalog, players, calculations, tournaments, schema, calculator);
every public name is importable from here too.
"""

from __future__ import annotations

from ratingdb.services.published.calculations import (
    CategoryRecord,
    GameLine,
    PeriodCalculation,
    PlayerRecord,
    calculation,
    player_record,
)
from ratingdb.services.published.calculator import calculator_result, run_calculator
from ratingdb.services.published.catalog import CategoryInfo, RuleInfo, categories, rule_versions
from ratingdb.services.published.common import EntryFigures, NotFound
from ratingdb.services.published.crosstable import Crosstable, Outcome, Standing, crosstable
from ratingdb.services.published.initial import InitialWorking
from ratingdb.services.published.lists import (
    ComparedEntry,
    Generation,
    ListEntry,
    ListSummary,
    find_list,
    games_generation,
    latest_lists,
    list_diff,
    list_entries,
    list_generations,
    published_lists,
)
from ratingdb.services.published.players import (
    NO_HISTORY,
    CurrentRating,
    FoundPlayer,
    HistoryColumns,
    HistoryPoint,
    Player,
    history,
    inactive_since,
    latest_ratings,
    player,
    search_players,
)
from ratingdb.services.published.ranks import Rank, RankTable, latest_ranks, rank_table
from ratingdb.services.published.schema import schema_revision, schema_state
from ratingdb.services.published.sitemap import sitemap_player_pages, sitemap_players
from ratingdb.services.published.subtotals import (
    TournamentSubtotal,
    ratings_used,
    tournament_subtotals,
)
from ratingdb.services.published.tournaments import (
    LinkedTournament,
    PeriodTournament,
    Tournament,
    TournamentGame,
    TournamentSummary,
    count_period_tournaments,
    period_tournaments,
    tournament,
    tournament_names,
    tournaments,
)

__all__ = [
    "NO_HISTORY",
    "CategoryInfo",
    "CategoryRecord",
    "ComparedEntry",
    "Crosstable",
    "CurrentRating",
    "EntryFigures",
    "FoundPlayer",
    "GameLine",
    "Generation",
    "HistoryColumns",
    "HistoryPoint",
    "InitialWorking",
    "LinkedTournament",
    "ListEntry",
    "ListSummary",
    "NotFound",
    "Outcome",
    "PeriodCalculation",
    "PeriodTournament",
    "Player",
    "PlayerRecord",
    "Rank",
    "RankTable",
    "RuleInfo",
    "Standing",
    "Tournament",
    "TournamentGame",
    "TournamentSubtotal",
    "TournamentSummary",
    "calculation",
    "calculator_result",
    "categories",
    "count_period_tournaments",
    "crosstable",
    "find_list",
    "games_generation",
    "history",
    "inactive_since",
    "latest_lists",
    "latest_ranks",
    "latest_ratings",
    "list_diff",
    "list_entries",
    "list_generations",
    "period_tournaments",
    "player",
    "player_record",
    "published_lists",
    "rank_table",
    "ratings_used",
    "rule_versions",
    "run_calculator",
    "schema_revision",
    "schema_state",
    "search_players",
    "sitemap_player_pages",
    "sitemap_players",
    "tournament",
    "tournament_names",
    "tournament_subtotals",
    "tournaments",
]
