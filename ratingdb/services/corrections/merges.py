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
from typing import Any, Final

from sqlalchemy.orm import Session

from ratingdb.errors import InputError
from ratingdb.models import GameRow, PlayerRow
from ratingdb.models.correction_preview import REASON_LENGTH
from ratingdb.repositories import games as game_repo
from ratingdb.repositories import players as player_repo
from ratingdb.repositories import tournaments as tournament_repo
from ratingdb.repositories.published.players import player_entries
from ratingdb.rules import Period
from ratingdb.rules.messages import N_, Message, in_turn

SAME_ROUND = "same_round"
SEX = "sex"
BIRTH_YEAR = "birth_year"
#: The fields compared, with the words of a message.
COMPARED = ((SEX, "sex"), (BIRTH_YEAR, "birth year"))
#: A field whose values differ, by field: ``%(keep)s`` and ``%(drop)s`` the players' ids,
#: ``%(kept)s`` and ``%(dropped)s`` their values.
DIFFERS: Final = {
    SEX: N_("sex differs: %(keep)s %(kept)s, %(drop)s %(dropped)s"),
    BIRTH_YEAR: N_("birth year differs: %(keep)s %(kept)s, %(drop)s %(dropped)s"),
}
#: Rounds both played: one round, several.
SAME_ROUNDS: Final = (
    N_("both played round %(rounds)s of tournament %(id)s (%(name)s)"),
    N_("both played rounds %(rounds)s of tournament %(id)s (%(name)s)"),
)
HIMSELF: Final = N_("a player cannot be merged into himself")


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
        return self.described(keep, drop).english()

    def described(self, keep: str, drop: str) -> Message:
        """``describe`` as a message with its values (the back office words it)."""
        if self.kind == SAME_ROUND:
            return Message(
                SAME_ROUNDS[len(self.rounds) > 1],
                {"rounds": ", ".join(str(r) for r in self.rounds),
                 "id": str(self.tournament_id), "name": str(self.tournament)},
            )  # fmt: skip
        return Message(DIFFERS[self.kind], {"keep": keep, "kept": str(self.keep), "drop": drop,
                                            "dropped": str(self.drop)})  # fmt: skip


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
        return self.described().english()

    def described(self) -> Message:
        """The conflicts, one after the other (the back office words them)."""
        keep, drop = self.keep.player_id, self.drop.player_id
        return in_turn([conflict.described(keep, drop) for conflict in self.conflicts])


class MergeConflicts(InputError):
    """A merge refused for its conflicts (no override given): the comparison shown with it."""

    def __init__(self, comparison: Comparison) -> None:
        keep, drop = comparison.keep.player_id, comparison.drop.player_id
        super().__init__(
            Message(
                N_("%(keep)s and %(drop)s may be two people: %(conflicts)s. Check both records; "
                   "to merge them all the same, give an override with its reason"),
                {"keep": keep, "drop": drop, "conflicts": comparison.described()},
            ),
            field="override",
        )  # fmt: skip
        self.comparison = comparison


def compare(session: Session, keep: str, drop: str) -> Comparison:
    """Both records side by side and their conflicts. Refused: the same id twice, a player
    unknown or merged already, two players who played each other."""
    if keep == drop:
        raise InputError(Message(HIMSELF), field="drop")
    players = player_repo.by_ids(session, [keep, drop])
    for player_id, field in ((keep, "keep"), (drop, "drop")):
        if player_id not in players:
            raise InputError(Message(N_("no player %(id)s"), {"id": player_id}), field=field)
        if players[player_id].merged_into is not None:
            raise InputError(
                Message(N_("%(id)s is already merged into %(kept)s"),
                        {"id": player_id, "kept": str(players[player_id].merged_into)}),
                field=field,
            )  # fmt: skip
    kept_games = game_repo.current_games_of_player(session, keep)
    dropped_games = game_repo.current_games_of_player(session, drop)
    clash = [g for g in dropped_games if keep in (g.white_id, g.black_id)]
    if clash:
        raise InputError(
            Message(
                N_("%(keep)s and %(drop)s played each other (tournament %(id)s, round "
                   "%(round)s): they are two players"),
                {"keep": keep, "drop": drop, "id": clash[0].tournament_id,
                 "round": clash[0].round},
            ),
            field="drop",
        )  # fmt: skip
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
        raise InputError(Message(N_("an override needs a reason")), field="override")
    if len(text) > REASON_LENGTH:
        raise InputError(too_long(len(text)), field="override")
    if not comparison.conflicts:
        keep, drop = comparison.keep.player_id, comparison.drop.player_id
        raise InputError(
            Message(N_("%(keep)s and %(drop)s have no conflict: nothing to override; merge them "
                       "without it"), {"keep": keep, "drop": drop}),
            field="override",
        )  # fmt: skip
    return text


def too_long(length: int, most: int = REASON_LENGTH) -> Message:
    """A reason longer than ``most`` characters: ``at most 500 characters, got 612``."""
    return Message(N_("at most %(most)s characters, got %(count)s"),
                   {"most": most, "count": length})  # fmt: skip


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
