"""The back office's tournament browser: the stored tournaments, newest first, a page at a time,
filtered by name (each word starts a word of it, whatever the accents, case, punctuation and
order: the public player search's rule, ratingdb.formats.names), category, rated periods and
organising federation; and one tournament with its players and games."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from sqlalchemy.orm import Session

from ratingdb.enums import PeriodState
from ratingdb.errors import InputError
from ratingdb.formats.names import search_key, search_words
from ratingdb.repositories import tournaments as repo
from ratingdb.rules import Category, Period
from ratingdb.rules.messages import N_, Message, worded
from ratingdb.services.published.tournaments import Tournament, tournament

#: Tournaments on one page of the browser.
PAGE_SIZE = 50
#: What each result gives its white and black players (a forfeit or a game of less than one
#: move counts as the arbiter scored it; ``--`` and ``L-L``: nobody scores).
POINTS = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5), "+-": (1.0, 0.0),
          "-+": (0.0, 1.0), "--": (0.0, 0.0), "W-L": (1.0, 0.0), "L-W": (0.0, 1.0),
          "D-D": (0.5, 0.5), "L-L": (0.0, 0.0)}  # fmt: skip


@dataclass(frozen=True, slots=True)
class BrowseQuery:
    """The browser's filters as the officer gives them (the page's query)."""

    text: str = ""
    category: Category | None = None
    first_period: Period | None = None
    last_period: Period | None = None
    federation: str | None = None
    page: int = 1

    @classmethod
    def parse(cls, given: Mapping[str, str]) -> BrowseQuery:
        """The filters from the page's query; InputError naming the field at fault."""
        text = given.get("name", "").strip()
        if len(text) > 200:
            raise InputError(Message(N_("at most %(count)s characters"), {"count": 200}),
                             field="name")  # fmt: skip
        category = None
        if given.get("category"):
            try:
                category = Category.parse(given["category"])
            except ValueError as error:
                raise InputError(worded(error), field="category") from None
        periods: dict[str, Period | None] = {}
        for name in ("from", "to"):
            value = given.get(name, "").strip()
            try:
                periods[name] = Period.parse(value) if value else None
            except ValueError as error:
                raise InputError(worded(error), field=name) from None
        first, last = periods["from"], periods["to"]
        if first is not None and last is not None and last < first:
            raise InputError(Message(N_("%(last)s is before %(first)s"),
                                     {"last": str(last), "first": str(first)}),
                             field="to")  # fmt: skip
        federation = given.get("federation", "").strip().upper() or None
        if federation is not None and not (len(federation) == 3 and federation.isalpha()):
            raise InputError(Message(N_("a 3-letter code, got %(given)s"),
                                     {"given": repr(federation)}), field="federation")  # fmt: skip
        page_text = given.get("page", "1").strip() or "1"
        if not (page_text.isascii() and page_text.isdigit() and 0 < int(page_text) < 100_000):
            raise InputError(Message(N_("a page number (1, 2, ...), got %(given)s"),
                                     {"given": repr(page_text)}), field="page")  # fmt: skip

        return cls(text, category, first, last, federation, int(page_text))

    def filters(self, page: int | None = None) -> dict[str, str]:
        """The query giving these filters (and ``page``): the pages' links keep them."""
        values = {"name": self.text, "category": self.category.value if self.category else "",
                  "from": str(self.first_period or ""), "to": str(self.last_period or ""),
                  "federation": self.federation or ""}  # fmt: skip
        shown = {key: value for key, value in values.items() if value}
        return shown | ({"page": str(page)} if page is not None and page > 1 else {})


@dataclass(frozen=True, slots=True)
class BrowsedTournament:
    tournament_id: str
    name: str
    category: Category
    start_date: date
    end_date: date
    period: Period
    published: bool
    late: bool
    federation: str | None
    #: Games in force, forfeits included.
    games: int


@dataclass(frozen=True, slots=True)
class Browse:
    query: BrowseQuery
    total: int
    pages: int
    tournaments: tuple[BrowsedTournament, ...]
    #: The organising federations stored (the filter's choices).
    federations: tuple[str, ...]


def _named(words: list[str], name: str) -> bool:
    key = search_key(name).split()
    return all(any(part.startswith(word) for part in key) for word in words)


def browse(session: Session, query: BrowseQuery) -> Browse:
    """One page of the tournaments the query asks for, newest first. A name search reads the
    ids and names of the tournaments the other filters keep (one query) and keeps those whose
    name matches; the page's tournaments are then read by id (one query)."""
    wanted = repo.Wanted(
        category=query.category,
        first_list=None if query.first_period is None else query.first_period.list_date,
        last_list=None if query.last_period is None else query.last_period.list_date,
        federation=query.federation,
    )
    offset = (query.page - 1) * PAGE_SIZE
    words = search_words(query.text)
    if words:
        matched = [row.tournament_id for row in repo.names_matching(session, wanted)
                   if _named(words, row.name)]  # fmt: skip
        total = len(matched)
        rows = repo.summaries(session, matched[offset : offset + PAGE_SIZE])
    else:
        total = repo.count_matching(session, wanted)
        rows = repo.page_matching(session, wanted, limit=PAGE_SIZE, offset=offset)
    shown = tuple(
        BrowsedTournament(
            tournament_id=row.tournament_id, name=row.name, category=row.category,
            start_date=row.start_date, end_date=row.end_date,
            period=Period.of_list_date(row.list_date),
            published=row.state == PeriodState.PUBLISHED, late=row.late,
            federation=row.federation, games=row.games,
        )
        for row in rows
    )  # fmt: skip
    pages = max(1, math.ceil(total / PAGE_SIZE))
    return Browse(query, total, pages, shown, tuple(repo.federations(session)))


@dataclass(frozen=True, slots=True)
class TournamentPlayer:
    """A player of the tournament, from its games in force."""

    player_id: str
    name: str
    games: int
    rated_games: int
    points: float


@dataclass(frozen=True, slots=True)
class TournamentDetail:
    tournament: Tournament
    players: tuple[TournamentPlayer, ...]
    #: The rounds, each with its games in force (the page's "Correct" links name each game).
    rounds: tuple[tuple[int, tuple[int, ...]], ...]


def detail(session: Session, tournament_id: str) -> TournamentDetail:
    """The tournament (NotFound: no such id), its players (by points, then name) and its
    rounds (indexes into ``tournament.games``)."""
    found = tournament(session, tournament_id)
    names: dict[str, str] = {}
    counts: dict[str, list[float]] = {}
    rounds: dict[int, list[int]] = {}
    for index, game in enumerate(found.games):
        rounds.setdefault(game.round, []).append(index)
        scored = POINTS.get(game.result, (0.0, 0.0))
        for player_id, name, points in ((game.white_id, game.white_name, scored[0]),
                                        (game.black_id, game.black_name, scored[1])):  # fmt: skip
            names[player_id] = name
            count = counts.setdefault(player_id, [0, 0, 0.0])
            count[0] += 1
            count[1] += 1 if game.rated else 0
            count[2] += points
    players = sorted(
        (TournamentPlayer(p, names[p], int(c[0]), int(c[1]), c[2]) for p, c in counts.items()),
        key=lambda player: (-player.points, player.name, player.player_id),
    )
    return TournamentDetail(
        found, tuple(players), tuple((number, tuple(rounds[number])) for number in sorted(rounds))
    )
