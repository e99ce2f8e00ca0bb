"""The title watch of one FIDE standard list: the players who reached, on that list, a title by
rating (FM 2300, CM 2200, WFM 2100, WCM 2000, with 30 rated games then: Title Regulations §1.3)
or the rating a GM, IM, WGM or WIM title needs (2500, 2400, 2300, 2200: §1.5.3), for the first
time. Published ratings only: ratingdb has no interim ratings (§1.5.3 a). A player who holds
the title or a higher one (rules.titles.TITLE_ORDER) is left out.

A player who met a condition on the list before had reached it already, so only the others
are read back through their whole history (ratingdb.rules.titles.first_reaches).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy.orm import Session

from ratingdb.errors import InputError
from ratingdb.repositories import players as player_repo
from ratingdb.repositories import titles as title_repo
from ratingdb.repositories.list_storage import changes as list_changes
from ratingdb.repositories.published.players import player_entries
from ratingdb.rules import Category, Period
from ratingdb.rules.messages import N_, Message, worded
from ratingdb.rules.titles import (
    NoTitleRegulations,
    RatingPoint,
    ReachKind,
    Title,
    TitleRegulations,
    first_reaches,
    outranks,
    title_regulations_on,
)


@dataclass(frozen=True, slots=True)
class Reached:
    player_id: str
    name: str
    federation: str | None
    sex: str | None
    held_title: str | None
    title: Title
    kind: ReachKind
    threshold: int
    min_games: int | None
    rating: int
    rated_games: int


@dataclass(frozen=True, slots=True)
class TitleWatch:
    category: Category
    period: Period
    list_date: date
    revision: int
    regulations: TitleRegulations
    reached: tuple[Reached, ...]


def _conditions(regulations: TitleRegulations) -> list[tuple[Title, int, int | None]]:
    titles = [
        (title, threshold, regulations.title_rating_min_games)
        for title, threshold in regulations.titles_by_rating.items()
    ]
    return titles + [
        (title, threshold, None) for title, threshold in regulations.norm_title_ratings.items()
    ]


def _meets(rating: int, games: int, conditions: list[tuple[Title, int, int | None]]) -> set[Title]:
    return {
        t for t, threshold, least in conditions if rating >= threshold and games >= (least or 0)
    }


def title_watch(session: Session, category: Category, period: Period) -> TitleWatch:
    """Who reached a title's rating on the list of ``period`` for the first time."""
    if category is not Category.FIDE_STANDARD:
        raise InputError(
            Message(
                N_("titles come from %(standard)s ratings only (Title Regulations §0.5), not "
                   "%(category)s"),
                {"standard": Category.FIDE_STANDARD.value, "category": category.value},
            ),
            field="category",
        )  # fmt: skip
    try:
        regulations = title_regulations_on(period.list_date)
    except NoTitleRegulations as error:
        raise InputError(error.text, field="period") from None
    found = title_repo.list_of(session, category, period.list_date)
    if found is None:
        raise InputError(
            Message(N_("no %(category)s list for %(period)s"),
                    {"category": category.value, "period": str(period)}),
            field="period",
        )  # fmt: skip
    conditions = _conditions(regulations)
    lowest = min(threshold for _, threshold, _ in conditions)
    entries = title_repo.entries_rated_at_least(session, found.list_id, lowest)
    before = title_repo.list_before(session, category, period.list_date)
    earlier = (
        {}
        if before is None
        else list_changes.resolve(session, before.list_id, [pid for pid, _, _ in entries])
    )
    candidates = []
    for pid, rating, games in entries:
        now = _meets(rating, games, conditions)
        entry = earlier.get(pid)
        then = set() if entry is None else _meets(entry.rating, entry.rated_games, conditions)
        if now - then:
            candidates.append(pid)
    players = player_repo.by_ids(session, candidates)
    reached: list[Reached] = []
    for pid in candidates:
        player = players[pid]
        try:
            held = Title.parse(player.title)
        except ValueError as error:
            raise InputError(
                Message(N_("player %(id)s: %(why)s"), {"id": pid, "why": worded(error)})
            ) from None

        history = [
            RatingPoint(point.list_date, point.rating, point.rated_games)
            for point in player_entries(session, pid, category)
            if point.list_date <= period.list_date
        ]
        for reach in first_reaches(history, woman=player.sex == "F", regulations=regulations):
            if reach.list_date == period.list_date and not outranks(held, reach.title):
                reached.append(
                    Reached(
                        pid,
                        player.name,
                        player.federation,
                        player.sex,
                        player.title,
                        reach.title,
                        reach.kind,
                        reach.threshold,
                        reach.min_games,
                        reach.rating,
                        reach.rated_games,
                    )
                )
    reached.sort(key=lambda r: (-r.threshold, r.title.value, -r.rating, r.name, r.player_id))
    return TitleWatch(
        category, period, found.list_date, found.revision, regulations, tuple(reached)
    )
