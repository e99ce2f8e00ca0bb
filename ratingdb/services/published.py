"""What the read-only API and the web pages show: published lists, players, their histories and
the game-by-game calculation behind every published change.

Every function reads through the caller's session and never writes; results are plain frozen
dataclasses (the API turns them into its own response schemas).

Revisions: a correction publishes a new revision of each list it changes; revision 1 (the
original list) stays. Lists, calculations and histories show the latest revision unless a
``revision`` is asked for, and every rating comes with the original one beside it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.errors import InputError
from ratingdb.formats.calculator_json import parse_request, result_to_json
from ratingdb.repositories import published as repo
from ratingdb.repositories.published import AnyRow
from ratingdb.rules import Category, NoRuleVersion, Period, RuleVersion, version_on, versions_of
from ratingdb.rules.calculator import CalculatorRequest, CalculatorResult, calculate
from ratingdb.rules.calendar import NotAListPeriod
from ratingdb.services import revisions as revision_service


class NotFound(LookupError):
    """Nothing published under that name: the API answers 404 with this message."""


# --- lists -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ListSummary:
    list_id: int
    category: Category
    period: Period
    revision: int
    source: str
    rule_version: str | None
    published_at: datetime
    entries: int
    #: SHA-256 of the list's numbers (None only for lists written before digests existed).
    digest: str | None
    #: How many revisions the list has (1: never corrected; this one may be an older one).
    revisions: int
    #: The id of revision 1, the original list.
    original_list_id: int
    #: The correction this revision was published for (None: the original list).
    correction_id: int | None

    @property
    def is_latest(self) -> bool:
        return self.revision == self.revisions


@dataclass(frozen=True, slots=True)
class ListEntry:
    player_id: str
    name: str
    federation: str | None
    title: str | None
    rating: int
    previous_rating: int | None
    change: int | None
    games: int
    k_factor: int
    #: The rating on the original list (revision 1); None when the player was not on it.
    original_rating: int | None


def _summary(row: Any) -> ListSummary:
    return ListSummary(
        list_id=row.id,
        category=Category(row.category),
        period=Period.of_list_date(row.list_date),
        revision=row.revision,
        source=row.source,
        rule_version=row.rule_version,
        published_at=row.published_at,
        entries=row.entry_count,
        digest=row.digest,
        revisions=row.revisions,
        original_list_id=row.original_list_id,
        correction_id=row.cause_correction_id,
    )


def published_lists(session: Session, category: Category | None = None) -> tuple[ListSummary, ...]:
    """Every published list (latest revision), newest first, categories in their usual order."""
    order = {c: i for i, c in enumerate(Category)}
    lists = [_summary(row) for row in repo.current_lists(session, category)]
    return tuple(sorted(lists, key=lambda s: (-s.period.index, order[s.category])))


def find_list(
    session: Session, category: Category, period: Period, revision: int | None = None
) -> ListSummary:
    """One revision of a published list (None: the latest). NotFound names the revisions there
    are."""
    row = repo.find_list(session, category, period.list_date, revision)
    if row is not None:
        return _summary(row)
    revisions = repo.list_revisions(session, category, period.list_date)
    if not revisions:
        raise NotFound(f"{category.value} has no published list for {period}")
    raise NotFound(
        f"the {category.value} list of {period} has no revision {revision} "
        f"(revisions: {', '.join(str(r) for r in revisions)})"
    )


def list_entries(
    session: Session,
    summary: ListSummary,
    *,
    federation: str | None = None,
    search: str | None = None,
    limit: int = 100,
    offset: int = 0,
) -> tuple[int, tuple[ListEntry, ...]]:
    """One page of the list's entries matching the filters, and how many match in all."""
    if federation is None and search is None:
        total = summary.entries  # counted when the list was published
    else:
        total = repo.count_list_entries(
            session, summary.list_id, federation=federation, search=search
        )
    rows = repo.list_entries(
        session,
        summary.list_id,
        original_list_id=summary.original_list_id,
        federation=federation,
        search=search,
        limit=limit,
        offset=offset,
    )
    # Positional: the query's columns are the dataclass's fields, in order (no per-row dict).
    return total, tuple(ListEntry(*row) for row in rows)


def latest_lists(
    session: Session, top: int
) -> tuple[tuple[ListSummary, tuple[ListEntry, ...]], ...]:
    """The latest list of each category that has one, with its first ``top`` entries."""
    latest: dict[Category, ListSummary] = {}
    for summary in published_lists(session):
        latest.setdefault(summary.category, summary)
    return tuple(
        (latest[category], list_entries(session, latest[category], limit=top)[1])
        for category in Category
        if category in latest
    )


# --- categories and rules --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CategoryInfo:
    category: Category
    version: RuleVersion | None  # in force today (None: before the category's first rules)
    latest: ListSummary | None


def categories(session: Session, today: date) -> tuple[CategoryInfo, ...]:
    latest: dict[Category, ListSummary] = {}
    for summary in published_lists(session):
        latest.setdefault(summary.category, summary)
    out = []
    for category in Category:
        try:
            version: RuleVersion | None = version_on(category, today)
        except NoRuleVersion:
            version = None
        out.append(CategoryInfo(category, version, latest.get(category)))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class RuleInfo:
    version: RuleVersion
    #: The day the next version of the category takes over (None: still the latest).
    effective_until: date | None
    in_force: bool


def rule_versions(category: Category | None, today: date) -> tuple[RuleInfo, ...]:
    """Every rule version (of one category), oldest first within each category."""
    out = []
    for each in Category if category is None else (category,):
        versions = versions_of(each)
        for version, following in zip(versions, (*versions[1:], None), strict=True):
            until = None if following is None else following.effective_from
            in_force = version.effective_from <= today and (until is None or today < until)
            out.append(RuleInfo(version, until, in_force))
    return tuple(out)


# --- players ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Player:
    player_id: str
    name: str
    federation: str | None
    sex: str | None
    birth_year: int | None
    title: str | None


def _player(row: Any) -> Player:
    return Player(row.player_id, row.name, row.federation, row.sex, row.birth_year, row.title)


def search_players(
    session: Session,
    *,
    search: str | None = None,
    federation: str | None = None,
    limit: int = 100,
    offset: int = 0,
) -> tuple[int, tuple[Player, ...]]:
    total, rows = repo.search_players(
        session, search=search, federation=federation, limit=limit, offset=offset
    )
    return total, tuple(_player(row) for row in rows)


def player(session: Session, player_id: str) -> Player:
    row = repo.get_player(session, player_id)
    if row is None:
        raise NotFound(f"no player {player_id}")
    return _player(row)


@dataclass(frozen=True, slots=True)
class HistoryPoint:
    """A player's entry on one published list."""

    category: Category
    period: Period
    revision: int
    rule_version: str | None
    rating: int
    #: The rating on the original list (revision 1); None when the player was not on it.
    original_rating: int | None
    previous_rating: int | None
    change: int | None
    games: int
    k_factor: int  # the K the next period starts from
    k_used: int | None  # the K applied in this period
    sum_delta: Decimal | None
    rated_games: int
    peak_rating: int


def _point(row: AnyRow) -> HistoryPoint:
    return HistoryPoint(
        category=Category(row.category),
        period=Period.of_list_date(row.list_date),
        revision=row.revision,
        rule_version=row.rule_version,
        rating=row.rating,
        original_rating=row.original_rating,
        previous_rating=row.previous_rating,
        change=row.change,
        games=row.games,
        k_factor=row.k_factor,
        k_used=row.k_used,
        sum_delta=row.sum_delta,
        rated_games=row.rated_games,
        peak_rating=row.peak_rating,
    )


def history(
    session: Session, player_id: str, category: Category, revision: int | None = None
) -> tuple[HistoryPoint, ...]:
    """The player's published ratings in the category, oldest first: on the latest revision of
    each list, or with ``revision`` on the latest revision up to it (1: the original lists).
    NotFound: no player, or no list of the category has that revision."""
    if revision is not None:
        player(session, player_id)
        latest = repo.latest_revision_of(session, category)
        if latest is None or revision > latest:
            raise NotFound(
                f"no {category.value} list has a revision {revision} "
                f"(the highest is {latest or 'none: nothing is published'})"
            )
    rows = repo.player_entries(session, player_id, category, upto=revision)
    if not rows:
        player(session, player_id)  # no such player, or one never on a list of the category
    return tuple(_point(row) for row in rows)


def latest_ratings(session: Session, player_id: str) -> tuple[HistoryPoint, ...]:
    """The player's latest published rating in each category where they have one."""
    latest: dict[Category, HistoryPoint] = {}
    for row in repo.player_entries(session, player_id):
        point = _point(row)
        latest[point.category] = point  # oldest first: the last one wins
    return tuple(latest[c] for c in Category if c in latest)


@dataclass(frozen=True, slots=True)
class GameLine:
    """One game of a period from the player's side, as it was computed."""

    tournament_id: str
    tournament_name: str
    start_date: date
    round: int
    opponent_id: str
    opponent_name: str
    rating_used: int | None
    opponent_rating: int | None
    difference: int | None
    difference_used: int | None
    expected: Decimal | None
    score: Decimal
    delta: Decimal | None
    rated: bool
    reason: str | None


@dataclass(frozen=True, slots=True)
class PeriodCalculation:
    """How the player's rating of one list came about."""

    category: Category
    period: Period
    revision: int
    rule_version: str | None
    previous_rating: int | None
    rating: int | None  # None: not on the list (unrated, or below the floor)
    original_rating: int | None  # on revision 1 (None: not on it)
    change: int | None
    k_factor: int | None  # K applied (after K x n <= 700); None when no game was rated
    next_k_factor: int | None
    sum_delta: Decimal | None
    first_rating: bool
    games: tuple[GameLine, ...]


def _game_line(row: AnyRow) -> GameLine:
    return GameLine(
        tournament_id=row.tournament_id,
        tournament_name=row.tournament_name,
        start_date=row.start_date,
        round=row.round,
        opponent_id=row.opponent_id,
        opponent_name=row.opponent_name,
        rating_used=row.rating_used,
        opponent_rating=row.opponent_rating_used,
        difference=row.difference,
        difference_used=row.difference_used,
        expected=row.expected,
        score=row.score,
        delta=row.delta,
        rated=row.rated,
        reason=row.reason,
    )


def _calculation(
    category: Category,
    period: Period,
    revision: int,
    list_rule_version: str | None,
    point: HistoryPoint | None,
    games: Sequence[AnyRow],
    original_rating: int | None = None,
) -> PeriodCalculation:
    rule_version = games[0].rule_version if games else list_rule_version
    if point is None:
        return PeriodCalculation(
            category, period, revision, rule_version, None, None, original_rating, None, None,
            None, None, False, tuple(_game_line(row) for row in games),
        )  # fmt: skip
    return PeriodCalculation(
        category=category,
        period=period,
        revision=revision,
        rule_version=rule_version,
        previous_rating=point.previous_rating,
        rating=point.rating,
        original_rating=point.original_rating,
        change=point.change,
        k_factor=point.k_used,
        next_k_factor=point.k_factor,
        sum_delta=point.sum_delta,
        first_rating=point.previous_rating is None and bool(games),
        games=tuple(_game_line(row) for row in games),
    )


def calculation(
    session: Session,
    player_id: str,
    category: Category,
    period: Period,
    revision: int | None = None,
) -> PeriodCalculation:
    """The game-by-game calculation of the player's rating on the list of ``period`` (its
    latest revision, or ``revision``)."""
    player(session, player_id)
    summary = find_list(session, category, period, revision)
    entry = repo.entry_on(session, summary.list_id, player_id, summary.original_list_id)
    games = repo.player_calculations(session, player_id, summary.list_id)
    if entry is None and not games:
        raise NotFound(
            f"player {player_id} is not on revision {summary.revision} of the "
            f"{category.value} list of {period}"
            if summary.revisions > 1
            else f"player {player_id} is not on the {category.value} list of {period}"
        )
    if entry is not None:
        original_rating = entry.original_rating
    elif summary.original_list_id == summary.list_id:
        original_rating = None
    else:  # pooled on this revision: perhaps rated on the original
        original_rating = repo.rating_on(session, summary.original_list_id, player_id)
    point = None
    if entry is not None:
        point = HistoryPoint(
            category, period, summary.revision, summary.rule_version, entry.rating,
            original_rating, entry.previous_rating, entry.change, entry.games, entry.k_factor,
            entry.k_used, entry.sum_delta, entry.rated_games, entry.peak_rating,
        )  # fmt: skip
    return _calculation(
        category, period, summary.revision, summary.rule_version, point, games, original_rating
    )


@dataclass(frozen=True, slots=True)
class CategoryRecord:
    category: Category
    points: tuple[HistoryPoint, ...]  # oldest first
    calculations: tuple[PeriodCalculation, ...]  # periods with games, newest first


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    player: Player
    categories: tuple[CategoryRecord, ...]


def player_record(session: Session, player_id: str) -> PlayerRecord:
    """Everything the player page shows, in two queries past the player."""
    found = player(session, player_id)
    points: dict[Category, list[HistoryPoint]] = defaultdict(list)
    by_list: dict[int, HistoryPoint] = {}
    for row in repo.player_entries(session, player_id):
        point = _point(row)
        points[point.category].append(point)
        by_list[row.list_id] = point
    games: dict[int, list[AnyRow]] = defaultdict(list)
    for row in repo.player_calculations(session, player_id):
        games[row.list_id].append(row)
    calculations: dict[Category, list[PeriodCalculation]] = defaultdict(list)
    for list_id, rows in games.items():
        category = Category(rows[0].category)
        period = Period.of_list_date(rows[0].list_date)
        on_list = by_list.get(list_id)
        calculations[category].append(
            _calculation(category, period, rows[0].revision,
                         None if on_list is None else on_list.rule_version, on_list, rows)
        )  # fmt: skip
    return PlayerRecord(
        found,
        tuple(
            CategoryRecord(
                category,
                tuple(points.get(category, ())),
                tuple(sorted(calculations.get(category, ()), key=lambda c: -c.period.index)),
            )
            for category in Category
            if category in points or category in calculations
        ),
    )


# --- tournaments -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TournamentGame:
    round: int
    white_id: str
    white_name: str
    black_id: str
    black_name: str
    result: str
    rated: bool


@dataclass(frozen=True, slots=True)
class Tournament:
    tournament_id: str
    name: str
    category: Category
    start_date: date
    end_date: date
    period: Period
    #: The period's list is out (the games are in its calculations).
    published: bool
    late: bool
    games: tuple[TournamentGame, ...]


def tournament(session: Session, tournament_id: str) -> Tournament:
    found = repo.tournament(session, tournament_id)
    if found is None:
        raise NotFound(f"no tournament {tournament_id}")
    return Tournament(
        tournament_id=found.tournament_id,
        name=found.name,
        category=Category(found.category),
        start_date=found.start_date,
        end_date=found.end_date,
        period=Period.of_list_date(found.list_date),
        published=found.state == "published",
        late=found.late,
        games=tuple(
            TournamentGame(**game._asdict())
            for game in repo.tournament_games(session, tournament_id)
        ),
    )


# --- health and the calculator ---------------------------------------------------------------


# --- revisions -------------------------------------------------------------------------------


def list_diff(session: Session, before: ListSummary, after: ListSummary) -> dict[str, Any]:
    """Who changed between two revisions of one list (found with :func:`find_list`), by how
    much, and which corrections caused it: the document of ``ratingdb lists diff``."""
    if (before.category, before.period) != (after.category, after.period):
        raise ValueError("a diff compares two revisions of the same list")
    return revision_service.diff(
        session, before.category, before.period, before.revision, after.revision
    )


def schema_revision(session: Session) -> str | None:
    """The schema revision of the database the session reads."""
    return repo.schema_revision(session)


def schema_state(session: Session) -> tuple[str | None, repo.Standby | None]:
    """The schema revision of the database the session reads, and its replay lag if it is a
    standby (None: a primary, or SQLite), in one query."""
    return repo.schema_state(session)


def run_calculator(document: Mapping[str, Any]) -> dict[str, Any]:
    """The calculator (contract "Calculator"): its JSON in, its JSON out. InputError names the
    field at fault."""
    return result_to_json(*calculator_result(document))


def calculator_result(document: Mapping[str, Any]) -> tuple[CalculatorRequest, CalculatorResult]:
    """The calculator's JSON in, the core's request and result out (the calculator page shows
    them game by game). InputError names the field at fault."""
    request = parse_request(dict(document))
    try:
        return request, calculate(request)
    except (NotAListPeriod, NoRuleVersion) as error:
        raise InputError(str(error), field="period") from None
