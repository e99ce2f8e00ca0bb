"""What a check report warns of about how the file will be rated (issue 27): its rate of
play, players FIDE's lists leave out for want of a FIDE id, and a report too late for FIDE."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from sqlalchemy.orm import Session

from ratingdb.formats.games_csv import TournamentFile
from ratingdb.repositories import players as player_repo
from ratingdb.rules import Category, Period
from ratingdb.rules.messages import N_, Message
from ratingdb.rules.rate_of_play import (
    Eligibility,
    NoRateOfPlayRule,
    RateOfPlayCheck,
    parse_time_control,
)
from ratingdb.services.tournament_trf import TournamentDetails
from ratingdb.services.tournaments import late_message

#: The names a warning lists before it says how many more.
NAMES_SHOWN = 10


def unregistered(
    session: Session, tournament: TournamentFile, categories: Sequence[Category]
) -> list[str]:
    """The file's players a FIDE category will not rate (no FIDE id), by name. (Read inside
    the check's savepoint: the players the file would create are there.)"""
    if not any(category.needs_fide_id for category in categories):
        return []
    players = {g.white_id for g in tournament.games} | {g.black_id for g in tournament.games}
    missing = player_repo.without_fide_id(session, players)
    return sorted(row.name for row in player_repo.by_ids(session, missing).values())


def rating_warnings(
    tournament: TournamentFile,
    categories: Sequence[Category],
    planned: Sequence[tuple[Category, Period, bool]],
    details: TournamentDetails | None,
    unregistered_names: Sequence[str],
) -> list[Message]:
    warnings = rate_of_play_warnings(categories, tournament.start_date, details)
    warnings += [
        Message(N_("too late for FIDE: %(why)s; an officer accepts it only with a reason"),
                {"why": bound})
        for category, period, _ in planned
        if (bound := late_message(category, tournament.end_date, period)) is not None
    ]  # fmt: skip
    if unregistered_names:
        shown = "; ".join(unregistered_names[:NAMES_SHOWN])
        more = len(unregistered_names) - NAMES_SHOWN
        text = (
            N_("%(count)s player(s) need a FIDE id before FIDE rating (FIDE's lists leave them "
               "out; their games count as against an unrated player): %(names)s; and %(more)s "
               "more (players export-unregistered lists them)")
            if more > 0
            else N_("%(count)s player(s) need a FIDE id before FIDE rating (FIDE's lists leave "
                    "them out; their games count as against an unrated player): %(names)s")
        )  # fmt: skip
        values: dict[str, str | int] = {"count": len(unregistered_names), "names": shown}
        warnings.append(Message(text, values | ({"more": more} if more > 0 else {})))
    return warnings


def rate_of_play_warnings(
    categories: Sequence[Category], start: date, details: TournamentDetails | None
) -> list[Message]:
    """What the officer must know of the file's rate of play before accepting it: none given
    (its games cannot be checked), or games the category will not rate (rules.rate_of_play)."""
    code = None if details is None else details.time_control_code
    if code is None:
        written = None if details is None else details.time_control
        if written:
            return [Message(
                N_("no encoded time control (TRF26 222 or a time_control column) (it says "
                   "%(written)s): the rate of play cannot be checked and every played game will "
                   "be rated; give it on import"),
                {"written": repr(written)},
            )]  # fmt: skip
        return [Message(
            N_("no encoded time control (TRF26 222 or a time_control column): the rate of play "
               "cannot be checked and every played game will be rated; give it on import")
        )]  # fmt: skip
    control = parse_time_control(code)
    warnings = []
    for category in categories:
        try:
            check = RateOfPlayCheck(category, start, control)
        except NoRateOfPlayRule:
            continue
        lowest = check.game(None, None)
        if not lowest.rated:
            warnings.append(Message(N_("%(category)s: no game will be rated: %(why)s"),
                                    {"category": category.value, "why": _why(lowest)}))  # fmt: skip
            continue
        for rating in check.bands:
            refused = check.game(rating, None)
            if not refused.rated:
                warnings.append(Message(
                    N_("%(category)s: games with a player rated %(rating)s or more will not be "
                       "rated: %(why)s"),
                    {"category": category.value, "rating": rating, "why": _why(refused)},
                ))  # fmt: skip
                break
    return warnings


def _why(refused: Eligibility) -> Message:
    """Why a game is not rated, as a message (each refusal of rules.rate_of_play has one)."""
    if refused.message is None:
        raise ValueError(f"a refusal without its message: {refused!r}")
    return refused.message
