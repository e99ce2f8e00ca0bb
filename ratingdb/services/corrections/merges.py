"""What a merge of two player records checks before it runs: both records side by side, and
the conflicts that say they may be two people (issue 28).

A conflict is one of:

- ``same_round``: both have a game in the same round of the same tournament (a person plays
  one game a round);
- ``sex``: both records give a sex, and not the same one;
- ``birth_year``: both records give a birth year, and not the same one.

A merge with a conflict is refused unless the officer overrides it with a reason
(``merge_players(..., override=REASON)``); the override and the conflicts it overrode are
recorded with the correction and in the audit log. Two records whose players played each other
are refused whatever the override (the merged player would have played himself).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.errors import InputError
from ratingdb.models import GameRow, PlayerRow
from ratingdb.models.correction_preview import REASON_LENGTH
from ratingdb.repositories import games as game_repo
from ratingdb.repositories import players as player_repo
from ratingdb.repositories import tournaments as tournament_repo
from ratingdb.repositories.published.players import player_entries
from ratingdb.rules import Period

SAME_ROUND = "same_round"
SEX = "sex"
BIRTH_YEAR = "birth_year"
#: The fields compared, with the words of a message.
COMPARED = ((SEX, "sex"), (BIRTH_YEAR, "birth year"))


@dataclass(frozen=True, slots=True)
class ListsOn:
    """The published lists of one category a player is on: how many, the first and last."""

    category: str
    first: str
    last: str
    lists: int

    def as_json(self) -> dict[str, Any]:
        return {"category": self.category, "first": self.first, "last": self.last,
                "lists": self.lists}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Record:
    """One of the two records, as the officer compares them."""

    player_id: str
    name: str
    fide_id: str | None
    national_id: str | None  # with its federation: "FRA 12345"
    federation: str | None
    sex: str | None
    birth_year: int | None
    title: str | None
    games: int  # current games
    lists: tuple[ListsOn, ...]

    def as_json(self) -> dict[str, Any]:
        return {
            "player_id": self.player_id, "name": self.name, "fide_id": self.fide_id,
            "national_id": self.national_id, "federation": self.federation, "sex": self.sex,
            "birth_year": self.birth_year, "title": self.title, "games": self.games,
            "lists": [on.as_json() for on in self.lists],
        }  # fmt: skip


@dataclass(frozen=True, slots=True)
class Conflict:
    """Why the two records may be two people: rounds of a tournament both played
    (``tournament_id``, ``tournament``, ``rounds``), or a field whose values differ
    (``keep``, ``drop``)."""

    kind: str
    tournament_id: str | None = None
    tournament: str | None = None
    rounds: tuple[int, ...] = ()
    keep: Any = None
    drop: Any = None

    def as_json(self) -> dict[str, Any]:
        if self.kind == SAME_ROUND:
            return {"kind": self.kind, "tournament_id": self.tournament_id,
                    "tournament": self.tournament, "rounds": list(self.rounds)}  # fmt: skip
        return {"kind": self.kind, "keep": self.keep, "drop": self.drop}

    def describe(self, keep: str, drop: str) -> str:
        if self.kind == SAME_ROUND:
            rounds = ", ".join(str(r) for r in self.rounds)
            return (
                f"both played round{'s' if len(self.rounds) > 1 else ''} {rounds} of tournament "
                f"{self.tournament_id} ({self.tournament})"
            )
        words = dict(COMPARED)[self.kind]
        return f"{words} differs: {keep} {self.keep}, {drop} {self.drop}"


@dataclass(frozen=True, slots=True)
class Comparison:
    """Both records and the conflicts between them."""

    keep: Record
    drop: Record
    conflicts: tuple[Conflict, ...]

    def as_json(self) -> dict[str, Any]:
        return {
            "players": {"keep": self.keep.as_json(), "drop": self.drop.as_json()},
            "conflicts": [conflict.as_json() for conflict in self.conflicts],
        }

    def describe(self) -> str:
        keep, drop = self.keep.player_id, self.drop.player_id
        return "; ".join(conflict.describe(keep, drop) for conflict in self.conflicts)


class MergeConflicts(InputError):
    """A merge refused for its conflicts (no override given): the comparison shown with it."""

    def __init__(self, comparison: Comparison) -> None:
        keep, drop = comparison.keep.player_id, comparison.drop.player_id
        super().__init__(
            f"{keep} and {drop} may be two people: {comparison.describe()}. Check both records; "
            "to merge them all the same, give an override with its reason",
            field="override",
        )
        self.comparison = comparison


def compare(session: Session, keep: str, drop: str) -> Comparison:
    """Both records side by side and their conflicts. Refused: the same id twice, a player
    unknown or merged already, two players who played each other."""
    if keep == drop:
        raise InputError("a player cannot be merged into himself", field="drop")
    players = player_repo.by_ids(session, [keep, drop])
    for player_id, field in ((keep, "keep"), (drop, "drop")):
        if player_id not in players:
            raise InputError(f"no player {player_id}", field=field)
        if players[player_id].merged_into is not None:
            raise InputError(
                f"{player_id} is already merged into {players[player_id].merged_into}",
                field=field,
            )
    kept_games = game_repo.current_games_of_player(session, keep)
    dropped_games = game_repo.current_games_of_player(session, drop)
    clash = [g for g in dropped_games if keep in (g.white_id, g.black_id)]
    if clash:
        raise InputError(
            f"{keep} and {drop} played each other (tournament {clash[0].tournament_id}, round "
            f"{clash[0].round}): they are two players",
            field="drop",
        )
    conflicts = [*_same_rounds(session, kept_games, dropped_games)]
    for kind, _ in COMPARED:
        kept, dropped = getattr(players[keep], kind), getattr(players[drop], kind)
        if kept is not None and dropped is not None and kept != dropped:
            conflicts.append(Conflict(kind, keep=kept, drop=dropped))
    return Comparison(
        _record(session, players[keep], len(kept_games)),
        _record(session, players[drop], len(dropped_games)),
        tuple(conflicts),
    )


def check_override(comparison: Comparison, override: str | None) -> str | None:
    """The override's reason, stripped, when the merge may go on; refused: conflicts without
    an override, an override without a reason (or too long), an override with nothing to
    override."""
    if override is None:
        if comparison.conflicts:
            raise MergeConflicts(comparison)
        return None
    text = override.strip()
    if not text:
        raise InputError("an override needs a reason", field="override")
    if len(text) > REASON_LENGTH:
        raise InputError(f"at most {REASON_LENGTH} characters, got {len(text)}", field="override")
    if not comparison.conflicts:
        keep, drop = comparison.keep.player_id, comparison.drop.player_id
        raise InputError(
            f"{keep} and {drop} have no conflict: nothing to override; merge them without it",
            field="override",
        )
    return text


def _same_rounds(
    session: Session, kept: Sequence[GameRow], dropped: Sequence[GameRow]
) -> list[Conflict]:
    """The rounds both played, by tournament (in id order)."""
    both = {(g.tournament_id, g.round) for g in kept} & {
        (g.tournament_id, g.round) for g in dropped
    }
    if not both:
        return []
    tournaments = {
        t.tournament_id: t for t in tournament_repo.with_ids(session, {t for t, _ in both})
    }
    return [
        Conflict(SAME_ROUND, tournament_id=tournament_id,
                 tournament=tournaments[tournament_id].name,
                 rounds=tuple(sorted(r for t, r in both if t == tournament_id)))
        for tournament_id in sorted({t for t, _ in both})
    ]  # fmt: skip


def _record(session: Session, player: PlayerRow, games: int) -> Record:
    by_category: dict[str, list[str]] = {}
    for entry in player_entries(session, player.player_id):
        period = str(Period.of_list_date(entry.list_date))
        by_category.setdefault(entry.category.value, []).append(period)
    national = None
    if player.national_id is not None:
        national = f"{player.national_federation or ''} {player.national_id}".strip()
    return Record(
        player.player_id, player.name, player.fide_id, national, player.federation, player.sex,
        player.birth_year, player.title, games,
        tuple(ListsOn(category, min(periods), max(periods), len(periods))
              for category, periods in sorted(by_category.items())),
    )  # fmt: skip
