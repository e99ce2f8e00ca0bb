"""FIDE titles as data: the Title Regulations' dated versions, and titles by rating.

Every number the title watch and the norm check use is a field of a ``TitleRegulations``
version, with the article it comes from (docs/rules.md §20). A version is in force for the
tournaments that start on or after ``effective_from`` (Title Regulations §0.2: "For
tournaments, such changes shall apply to those starting on or after the date on which they
become effective"), and for the lists dated on or after it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from fractions import Fraction
from typing import Final

from ratingdb.rules.messages import N_, Day, Message, MessageError


class Title(StrEnum):
    """The FIDE over-the-board titles (Title Regulations §0.3), as lists and TRF write them."""

    GM = "GM"
    IM = "IM"
    FM = "FM"
    CM = "CM"
    WGM = "WGM"
    WIM = "WIM"
    WFM = "WFM"
    WCM = "WCM"

    @property
    def for_women(self) -> bool:
        return self in _WOMEN_TITLES

    @classmethod
    def parse(cls, text: str | None) -> Title | None:
        """A stored title (None: none); anything else is refused, never guessed."""
        if text is None or text == "":
            return None
        try:
            return cls(text)
        except ValueError:
            names = ", ".join(t.value for t in cls)
            refused = Message(N_("unknown title %(given)s (expected one of: %(names)s)"),
                              {"given": repr(text), "names": names})  # fmt: skip
            raise MessageError(refused) from None


_WOMEN_TITLES: Final = frozenset({Title.WGM, Title.WIM, Title.WFM, Title.WCM})

#: The titles a norm leads to (§1.4.8), strongest first.
NORM_TITLES: Final = (Title.GM, Title.IM, Title.WGM, Title.WIM)

#: The titles from the lowest to the highest, as FIDE's lists rank them: a title held makes
#: the titles at or below it pointless to aim at.
TITLE_ORDER: Final = (
    Title.WCM, Title.WFM, Title.CM, Title.WIM, Title.FM, Title.WGM, Title.IM, Title.GM,
)  # fmt: skip


def outranks(held: Title | None, title: Title) -> bool:
    """Whether holding ``held`` makes ``title`` pointless (it is ``title`` or a higher one)."""
    return held is not None and TITLE_ORDER.index(held) >= TITLE_ORDER.index(title)


class FederationExemption(StrEnum):
    """Events exempt from the federation mix of §1.4.3 a) and b), as declared by the officer
    (the database does not know an event's kind). ``SWISS_FOREIGN_FIELD`` is checked against
    the event's own participants (§1.4.3 d)."""

    NATIONAL_CHAMPIONSHIP = "national-championship"
    NATIONAL_TEAM_CHAMPIONSHIP = "national-team-championship"
    ZONAL = "zonal"
    SWISS_FOREIGN_FIELD = "swiss-foreign-field"


@dataclass(frozen=True, slots=True)
class TitleRegulations:
    """One dated version of the FIDE Title Regulations (Handbook B.01), as far as ratings,
    norms and the opponents' mix go."""

    name: str
    effective_from: date
    source: str
    # §1.3: titles by rating, and the rated games needed for ratings achieved after a date.
    titles_by_rating: Mapping[Title, int]
    title_rating_min_games: int
    title_rating_min_games_after: date
    # §1.5.3: the rating a norm title needs at some time (published or interim).
    norm_title_ratings: Mapping[Title, int]
    # §0.5 and §1.4.8: the performance and the opponents' average a norm needs.
    norm_performance: Mapping[Title, int]
    norm_min_average: Mapping[Title, int]
    # §1.4.6 b)-d): the adjusted rating floor (one opponent raised) and unrated opponents.
    rating_floor: Mapping[Title, int]
    unrated_opponent_rating: int
    # §1.4.8 b): minimum score, in per cent of the games.
    min_score_percent: int
    # §1.4.1: games (7 in 9-round World and Continental team championships; the 8-game case).
    min_games: int
    team_championship_min_games: int
    # §1.7: a norm in more than 13 rounds counts only as 13 games.
    counted_games_max: int
    # §1.4.3: the federations of the opponents.
    other_federations_min: int
    own_federation_max: Fraction
    one_federation_max: Fraction
    # §1.4.3 d): a Swiss event's foreign field (players playing all rounds but one at least).
    swiss_foreign_players_min: int
    swiss_foreign_federations_min: int
    swiss_foreign_titled_min: int
    swiss_titled: frozenset[Title]
    # §1.4.4: title holders (CM and WCM excluded), and opponents of the norm's level (MO).
    title_holders_min: Fraction
    title_holder_titles: frozenset[Title]
    norm_level_min: Fraction
    norm_level_min_count: int
    norm_level_titles: Mapping[Title, frozenset[Title]]


FIDE_TITLES_2024_01: Final = TitleRegulations(
    name="fide-titles-2024-01",
    effective_from=date(2024, 1, 1),
    source=(
        "FIDE Title Regulations applied from 1 January 2024 (handbook.fide.com chapter B012024): "
        "§0.5, §0.6.2, §1.1.4, §1.3, §1.4.6-§1.4.9, §1.5.3, §1.7 verbatim in "
        "zugzwang-foundation/Chess-ELO-Rating docs/research/VERIFICATION_TITLES.md (commit "
        "2828c628, fetched 2026-10-09); §1.4.1, §1.4.3, §1.4.4 not transcribed: read from the "
        "QC notice of 2023-05-01 and secondary summaries (docs/rules.md §20.6)"
    ),
    titles_by_rating={Title.FM: 2300, Title.CM: 2200, Title.WFM: 2100, Title.WCM: 2000},
    title_rating_min_games=30,
    title_rating_min_games_after=date(2017, 7, 1),
    norm_title_ratings={Title.GM: 2500, Title.IM: 2400, Title.WGM: 2300, Title.WIM: 2200},
    norm_performance={Title.GM: 2600, Title.IM: 2450, Title.WGM: 2400, Title.WIM: 2250},
    norm_min_average={Title.GM: 2380, Title.IM: 2230, Title.WGM: 2180, Title.WIM: 2030},
    rating_floor={Title.GM: 2200, Title.IM: 2050, Title.WGM: 2000, Title.WIM: 1850},
    unrated_opponent_rating=1400,
    min_score_percent=35,
    min_games=9,
    team_championship_min_games=7,
    counted_games_max=13,
    other_federations_min=2,
    own_federation_max=Fraction(3, 5),
    one_federation_max=Fraction(2, 3),
    swiss_foreign_players_min=20,
    swiss_foreign_federations_min=3,
    swiss_foreign_titled_min=10,
    swiss_titled=frozenset({Title.GM, Title.IM, Title.WGM, Title.WIM}),
    title_holders_min=Fraction(1, 2),
    title_holder_titles=frozenset({Title.GM, Title.IM, Title.FM, Title.WGM, Title.WIM, Title.WFM}),
    norm_level_min=Fraction(1, 3),
    norm_level_min_count=3,
    norm_level_titles={
        Title.GM: frozenset({Title.GM}),
        Title.IM: frozenset({Title.GM, Title.IM}),
        Title.WGM: frozenset({Title.GM, Title.IM, Title.WGM}),
        Title.WIM: frozenset({Title.GM, Title.IM, Title.WGM, Title.WIM}),
    },
)

TITLE_REGULATIONS: Final = (FIDE_TITLES_2024_01,)


class NoTitleRegulations(LookupError):
    """No version of the Title Regulations in the core covers that date. ``text`` is the
    message the back office words; ``str()`` its English, as ever."""

    def __init__(self, text: Message) -> None:
        super().__init__(text.english())
        self.text = text


def title_regulations_on(day: date) -> TitleRegulations:
    """The version in force on ``day`` (a tournament's start, a list's date)."""
    in_force: TitleRegulations | None = None
    for version in TITLE_REGULATIONS:
        if version.effective_from <= day:
            in_force = version
    if in_force is None:
        first = TITLE_REGULATIONS[0].effective_from
        raise NoTitleRegulations(
            Message(N_("ratingdb holds the FIDE Title Regulations from %(first)s only (asked "
                       "for %(day)s)"), {"first": Day(first), "day": Day(day)})
        )  # fmt: skip

    return in_force


# --- Titles by rating and the rating requirement of the norm titles -------------------------


class ReachKind(StrEnum):
    #: §1.3: the title itself (FM, CM, WFM, WCM).
    TITLE = "title"
    #: §1.5.3: the rating a GM, IM, WGM or WIM title needs besides the norms.
    REQUIREMENT = "requirement"


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A player's published standard rating on one list, with their rated games so far."""

    list_date: date
    rating: int
    rated_games: int


@dataclass(frozen=True, slots=True)
class TitleReach:
    """The first list on which a player met a title's rating condition."""

    title: Title
    kind: ReachKind
    threshold: int
    min_games: int | None
    list_date: date
    rating: int
    rated_games: int


def _meets(point: RatingPoint, threshold: int, min_games: int | None) -> bool:
    return point.rating >= threshold and (min_games is None or point.rated_games >= min_games)


def first_reaches(
    history: Sequence[RatingPoint], *, woman: bool, regulations: TitleRegulations
) -> list[TitleReach]:
    """For each title by rating (§1.3) and norm-title requirement (§1.5.3) the player can hold,
    the first published rating that met it: rated games count only for ratings achieved after
    ``title_rating_min_games_after`` (§1.3). Women's titles only for a woman (§0.3).

    Published ratings only: ratingdb keeps no interim ratings (§1.5.3 a)."""
    points = sorted(history, key=lambda point: point.list_date)
    wanted: list[tuple[Title, ReachKind, int]] = [
        (title, ReachKind.TITLE, threshold)
        for title, threshold in regulations.titles_by_rating.items()
    ] + [
        (title, ReachKind.REQUIREMENT, threshold)
        for title, threshold in regulations.norm_title_ratings.items()
    ]
    reaches: list[TitleReach] = []
    for title, kind, threshold in wanted:
        if title.for_women and not woman:
            continue
        for point in points:
            min_games: int | None = None
            if (
                kind is ReachKind.TITLE
                and point.list_date > regulations.title_rating_min_games_after
            ):
                min_games = regulations.title_rating_min_games
            if _meets(point, threshold, min_games):
                reaches.append(
                    TitleReach(
                        title=title,
                        kind=kind,
                        threshold=threshold,
                        min_games=min_games,
                        list_date=point.list_date,
                        rating=point.rating,
                        rated_games=point.rated_games,
                    )
                )
                break
    return reaches
