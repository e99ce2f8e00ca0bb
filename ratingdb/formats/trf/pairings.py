"""The games of a TRF (docs/formats.md §4): each round field is read from both players' lines,
which must agree (opponents point at each other, results mirror, colours are opposite), or
the file is refused with line and column; an entry without an opponent, or against a
pseudo-player standing for the bye, is a bye; a pairing with no result on either line is
unfinished."""

from __future__ import annotations

from ratingdb.formats.trf.lines import LineReader
from ratingdb.formats.trf.records import (
    BYE_CODES,
    PLAYED,
    STORED_RESULTS,
    TrfBye,
    TrfEntry,
    TrfGame,
    TrfPlayer,
)
from ratingdb.rules.messages import N_, Message


def _code(code: str) -> str | Message:
    """A round's result code as a refusal quotes it (``'1'``), ``'blank'`` for none."""
    return repr(code) if code else Message(N_("'blank'"))


class RoundPairings(LineReader):
    """A reader of a TRF's player lines (``players``) that pairs their round entries."""

    players: list[TrfPlayer]

    def _pair(
        self, by_rank: dict[int, TrfPlayer], pseudo: set[int]
    ) -> tuple[list[TrfGame], list[TrfBye], list[TrfGame]]:
        games: list[TrfGame] = []
        byes: list[TrfBye] = []
        unfinished: list[TrfGame] = []
        rounds_of = {p.rank: {e.round: e for e in p.entries} for p in self.players}
        for player in sorted(self.players, key=lambda p: p.rank):
            for entry in player.entries:
                opponent = entry.opponent
                if opponent is not None and opponent not in by_rank:
                    raise self.error(
                        Message(
                            N_("round %(round)s: no player has starting rank %(rank)s"),
                            {"round": entry.round, "rank": opponent},
                        ),
                        player.line,
                        entry.column,
                        f"round {entry.round} opponent",
                    )
                if opponent == player.rank:
                    raise self.error(
                        Message(
                            N_("round %(round)s: #%(rank)s is paired against himself"),
                            {"round": entry.round, "rank": player.rank},
                        ),
                        player.line,
                        entry.column,
                        f"round {entry.round} opponent",
                    )
                if opponent is None or opponent in pseudo or player.pseudo:
                    if not player.pseudo:
                        byes.append(TrfBye(player.line, entry.round, player.rank, entry.code))
                    continue
                if opponent < player.rank:
                    continue  # counted from the opponent's line
                other = by_rank[opponent]
                mirror = rounds_of[opponent].get(entry.round)
                game = self._game(player, entry, other, mirror)
                (games if game.result else unfinished).append(game)
        return games, byes, unfinished

    def _game(
        self, player: TrfPlayer, entry: TrfEntry, other: TrfPlayer, mirror: TrfEntry | None
    ) -> TrfGame:
        r = entry.round
        if mirror is None or mirror.opponent != player.rank:
            says = (
                Message(N_("nothing"))
                if mirror is None
                else Message(N_("a bye"))
                if mirror.opponent is None
                else Message(N_("an opponent #%(rank)s"), {"rank": mirror.opponent})
            )
            raise self.error(
                Message(
                    N_(
                        "round %(round)s: #%(rank)s plays #%(other)s here, but line %(line)s "
                        "(#%(other)s) has %(says)s in round %(round)s"
                    ),
                    {
                        "round": r,
                        "rank": player.rank,
                        "other": other.rank,
                        "line": other.line,
                        "says": says,
                    },
                ),
                player.line,
                entry.column,
                f"round {r} opponent",
            )
        codes = (entry.code, mirror.code)
        if codes != ("", "") and codes not in STORED_RESULTS:
            if entry.code in BYE_CODES or mirror.code in BYE_CODES:
                problem = Message(N_("a bye code against an opponent"))
            else:
                problem = Message(N_("the results do not mirror each other"))
            raise self.error(
                Message(
                    N_(
                        "round %(round)s: #%(rank)s has %(code)s against #%(other)s, who has "
                        "%(other_code)s on line %(line)s: %(problem)s"
                    ),
                    {
                        "round": r,
                        "rank": player.rank,
                        "code": _code(entry.code),
                        "other": other.rank,
                        "other_code": _code(mirror.code),
                        "line": other.line,
                        "problem": problem,
                    },
                ),
                other.line,
                mirror.column + 7,
                f"round {r} result",
            )
        colours = (entry.colour, mirror.colour)
        if colours in (("w", "w"), ("b", "b")):
            raise self.error(
                Message(
                    N_(
                        "round %(round)s: #%(rank)s and #%(other)s (line %(line)s) both have "
                        "colour %(colour)s"
                    ),
                    {
                        "round": r,
                        "rank": player.rank,
                        "other": other.rank,
                        "line": player.line,
                        "colour": repr(entry.colour),
                    },
                ),
                other.line,
                mirror.column + 5,
                f"round {r} colour",
            )
        if entry.colour == "b" or mirror.colour == "w":
            white, black, code_pair = other, player, (mirror.code, entry.code)
        else:  # white, or no colours: the lower starting rank is stored as white
            white, black, code_pair = player, other, codes
            if colours == ("-", "-") and code_pair in PLAYED:
                self.notes.append(
                    Message(
                        N_(
                            "line %(line)s: round %(round)s game without colours, #%(rank)s "
                            "stored as white"
                        ),
                        {"line": player.line, "round": r, "rank": player.rank},
                    )
                )
        return TrfGame(player.line, r, white.rank, black.rank, STORED_RESULTS.get(code_pair, ""))
