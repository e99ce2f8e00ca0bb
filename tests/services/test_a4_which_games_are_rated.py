"""docs/rules.md §8 "Which games are rated" where the rule lives in the import and the close (what
is stored, what a close counts); the rules core's side is in
tests/rules/test_a4_which_games_are_rated.py.

Each test runs on a small database (SQLite and PostgreSQL): a baseline list, one tournament
imported with the command line, ``periods close``, and the published list read back with
``lists export --format json``.

Every expected number is worked by hand from table 8.1.2 (docs/rules.md §4.1) and 8.1.1 (B §7.2):
the difference D, its PD, score - PD, the sum, K and the change rounded once. K is 20 for the
baseline's established adults (60 games, never 2400). The period is 2026-09 (rule versions
fide-standard-2025-10 and fide-rapid/fide-blitz-2024-12), unless a test says otherwise.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ratingdb.rules.period import EXCLUDED_600, OPPONENT_UNRATED
from tests.support import factories
from tests.support.calculations import stored_calculations
from tests.support.cli import cli_ok as cli
from tests.support.files import GAMES_HEADER, LIST_HEADER
from tests.support.rolled_back import RolledBack

# --- the database: what the import stores and what a close counts -------------------------------

BASELINE = factories.BASELINE + '1006,"Eve, E",FRA,F,1988,,1700,60,1700,20\n'
# Ends 2026-08-12: rated in 2026-09 (closing date 2026-08-29) with the 2026-08 list.
DATES = "2026-08-10,2026-08-12"

# TV-01 for 1001, seen from the other side too:
#   1002 (1920) lost to 1850: D +70, PD .60, -0.60 x 20 = -12 -> 1908;
#   1003 (1780) drew with 1850: D -70, PD .40, +0.10 x 20 = +2 -> 1782;
#   1004 (2010) beat 1850: D +160, PD .71, +0.29 x 20 = +5.8 -> +6 -> 2016.
TV01_ENTRIES = {
    "1001": (1854, 1850, 4, 3),
    "1002": (1908, 1920, -12, 1),
    "1003": (1782, 1780, 2, 1),
    "1004": (2016, 2010, 6, 1),
    "1006": (1700, 1700, 0, 0),
}


def publish(
    capsys: pytest.CaptureFixture[str],
    url: str,
    tmp_path: Path,
    tournament: tuple[str, str],
    *,
    baseline: str = BASELINE,
    category: str = "fide-standard",
) -> dict[str, Any]:
    """Baseline list 2026-08, the tournament (file name, content), the close of 2026-09: the
    import's JSON line, the tournament as shown, and the 2026-09 list's entries."""
    (tmp_path / "baseline.csv").write_text(baseline, encoding="utf-8")
    cli(capsys, "lists", "import", str(tmp_path / "baseline.csv"), "--category", category,
        "--period", "2026-08", url=url)  # fmt: skip
    name, content = tournament
    (tmp_path / name).write_text(content, encoding="utf-8")
    imported = json.loads(
        cli(capsys, "tournaments", "import", str(tmp_path / name), "--category", category, url=url)
    )
    assert imported["period"] == "2026-09", imported
    shown = json.loads(cli(capsys, "tournaments", "show", imported["tournament_id"], url=url))
    cli(capsys, "periods", "close", "--category", category, "--period", "2026-09", url=url)
    exported = json.loads(
        cli(
            capsys,
            "lists",
            "export",
            "--category",
            category,
            "--period",
            "2026-09",
            "--format",
            "json",
            url=url,
        )
    )
    return {"imported": imported, "shown": shown, "entries": exported["entries"]}


def entries(published: dict[str, Any]) -> dict[str, tuple[Any, ...]]:
    """player_id -> (rating, previous_rating, change, games)."""
    return {
        e["player_id"]: (e["rating"], e["previous_rating"], e["change"], e["games"])
        for e in published["entries"]
    }


def stored_games(published: dict[str, Any]) -> list[tuple[Any, ...]]:
    """(round, white, black, result, rated) of every stored game, sorted."""
    return sorted(
        (game["round"], game["white_id"], game["black_id"], game["result"], game["rated"])
        for game in published["shown"]["games"]
    )


def calculations(database: RolledBack, category: str = "fide-standard") -> list[tuple[Any, ...]]:
    """(player, opponent, rated, reason) of every calculation of the 2026-09 list, by player
    and game."""
    return [
        (c.player_id, c.opponent_id, c.rated, c.reason)
        for c in stored_calculations(
            database.connection,
            "l.category = :category AND l.list_date = '2026-09-01'",
            category=category,
        )
    ]


def statuses_of(database: RolledBack, player_id: str) -> int:
    """How many kept statuses (first-rating pools, A5) the player has."""
    [(count,)] = database.rows(
        "SELECT count(*) FROM player_status WHERE player_id = :p", p=player_id
    )
    return int(count)


def test_1_2_only_played_results_are_rated_forfeits_are_stored_never_rated(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A games CSV: TV-01's three played games for 1001, and the three forfeits (+-, -+, --)
    between the others. If a forfeit counted, 1003 (1780, a forfeit win against 2010: PD .21,
    +0.79) or 1004 would move; they move only by their game against 1001."""
    games = GAMES_HEADER + "".join(
        f"A4 Open,{DATES},{row}\n"
        for row in (
            "1,1001,1002,1-0",
            "1,1003,1004,+-",
            "2,1001,1003,1/2-1/2",
            "2,1002,1004,--",
            "3,1004,1001,1-0",
            "3,1003,1002,-+",
        )
    )
    published = publish(capsys, database.url, tmp_path, ("games.csv", games))
    assert (published["imported"]["games"], published["imported"]["rated_games"]) == (6, 3)
    assert stored_games(published) == sorted(
        [
            (1, "1001", "1002", "1-0", True),
            (1, "1003", "1004", "+-", False),
            (2, "1001", "1003", "1/2-1/2", True),
            (2, "1002", "1004", "--", False),
            (3, "1004", "1001", "1-0", True),
            (3, "1003", "1002", "-+", False),
        ]
    )
    assert entries(published) == TV01_ENTRIES
    # Only the played games are calculated: 3 games, 2 sides.
    assert sorted((p, o) for p, o, _, _ in calculations(database)) == [
        ("1001", "1002"), ("1001", "1003"), ("1001", "1004"),
        ("1002", "1001"), ("1003", "1001"), ("1004", "1001"),
    ]  # fmt: skip


def _field(line: list[str], column: int, value: str) -> None:
    line[column - 1 : column - 1 + len(value)] = list(value)


def player_line(rank: int, name: str, rating: str, fide_id: str, rounds: list[str]) -> str:
    """A TRF ``001`` line (docs/formats.md §4.1): rank 5-8, name 15-47, rating 49-52, FIDE id 58-68,
    round r at 92 + 10 (r - 1) (opponent, colour at +5, result at +7)."""
    line = [" "] * (91 + 10 * len(rounds))
    _field(line, 1, "001")
    _field(line, 5, f"{rank:>4}")
    _field(line, 15, name)
    _field(line, 49, f"{rating:>4}")
    _field(line, 54, "FRA")
    _field(line, 58, f"{fide_id:>11}")
    for r, entry in enumerate(rounds):
        _field(line, 92 + 10 * r, entry)
    return "".join(line).rstrip()


# #1-#4 are the baseline's 1001-1004 (their FIDE ids), #5 a stranger with neither id nor rating.
# R1: #1 beats #2; #3-#4 forfeit (+/-); #5 half-point bye H.
# R2: #3 draws #1; #5 beats #2 (an unknown, unrated opponent); #4 pairing bye U.
# R3: #4 beats #1; #2-#3 shorter than one move (W/L); #5 zero-point bye Z.
TRF = "\n".join(
    [
        "012 A4 Report",
        "042 2026/08/10",
        "052 2026/08/12",
        player_line(1, "Anna, A", "1850", "1001", ["   2 w 1", "   3 b =", "   4 b 0"]),
        player_line(2, "Bob, B", "1920", "1002", ["   1 b 0", "   5 w 0", "   3 w W"]),
        player_line(3, "Gus, G", "1780", "1003", ["   4 w +", "   1 w =", "   2 b L"]),
        player_line(4, "Dan, D", "2010", "1004", ["   3 b -", "0000 - U", "   1 w 1"]),
        player_line(5, "Stranger, Sam", "", "", ["0000 - H", "   2 b 1", "0000 - Z"]),
    ]
)


def test_2_3_forfeits_byes_and_unknown_opponents_in_a_trf_are_stored_never_rated(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same played games as TV-01 in a TRF, with a forfeit, a game shorter than one move,
    byes H, U and Z, and a game against a stranger (no FIDE id, no rating: unknown to every
    list, and to ratingdb but for this file: an "unknown opponent", given a local id). Forfeit
    and short game are stored, never rated; byes are not games; the stranger's game is stored
    and rated for nobody: 1002 loses to the stranger and still has -12, from its loss to 1001
    only."""
    published = publish(capsys, database.url, tmp_path, ("a4.trf", TRF))
    stranger = next(p for _, w, p, *_ in stored_games(published) if w == "1002" and p != "1001")
    assert stranger not in {"1001", "1002", "1003", "1004", "1005", "1006"}
    assert stored_games(published) == sorted(
        [
            (1, "1001", "1002", "1-0", True),
            (1, "1003", "1004", "+-", False),
            (2, "1003", "1001", "1/2-1/2", True),
            (2, "1002", stranger, "0-1", True),
            (3, "1004", "1001", "1-0", True),
            (3, "1002", "1003", "W-L", False),
        ]
    )
    assert entries(published) == TV01_ENTRIES
    rows = calculations(database)
    assert [row for row in rows if row[0] == "1002"] == [
        ("1002", "1001", True, None),
        ("1002", stranger, False, str(OPPONENT_UNRATED)),
    ]
    # The stranger is known by no id at all: the game is rated for nobody, not even toward a
    # first rating (no calculation, no status kept for the stranger).
    assert [row for row in rows if row[0] == stranger] == []
    assert statuses_of(database, stranger) == 0
    assert not any(p in ("1003", "1004") and o in ("1003", "1004") for p, o, _, _ in rows)


def test_4_rated_against_unrated_in_a_close(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nina (1005, unrated on the baseline) plays the five games of NINA against 1003, 1002,
    1006, 1001 and 1004, while 1001 also plays TV-01: Nina gets her first rating 1887 (5 games,
    no previous rating, no change); the rated players' games against her count for nothing
    (1001 lost to her and still gains +4; 1006 drew with her and stays 1700 with 0 games)."""
    games = GAMES_HEADER + "".join(
        f"A4 Open,{DATES},{row}\n"
        for row in (
            "1,1001,1002,1-0",
            "1,1005,1003,1-0",
            "2,1001,1003,1/2-1/2",
            "2,1005,1002,1/2-1/2",
            "3,1004,1001,1-0",
            "3,1005,1006,1/2-1/2",
            "4,1005,1001,1-0",
            "5,1005,1004,0-1",
        )
    )
    published = publish(capsys, database.url, tmp_path, ("games.csv", games))
    assert entries(published) == {**TV01_ENTRIES, "1005": (1887, None, None, 5)}
    rows = calculations(database)
    against_nina = [(p, rated_, reason) for p, o, rated_, reason in rows if o == "1005"]
    assert sorted(against_nina) == [
        (p, False, str(OPPONENT_UNRATED)) for p in ("1001", "1002", "1003", "1004", "1006")
    ]
    assert [(o, rated_) for p, o, rated_, _ in rows if p == "1005"] == [
        ("1003", True), ("1002", True), ("1006", True), ("1001", True), ("1004", True),
    ]  # fmt: skip


BLITZ_BASELINE = LIST_HEADER + (
    '3001,"High, H",FRA,M,1990,,2601,60,2601,10\n'
    '3002,"Low, L",FRA,M,1990,,2001,60,2001,20\n'
    '3003,"Mid, M",FRA,M,1990,,2002,60,2002,20\n'
    '3004,"Top, T",FRA,M,1990,,2600,60,2600,10\n'
    '3005,"Base, B",FRA,M,1990,,2000,60,2000,20\n'
)


def test_5_the_600_point_exclusion_in_a_blitz_close(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """fide-blitz 2026-09: 3001 (2601) beats 3002 (2001): |D| 600 with a player above 2600, not
    rated for either (3002 stays 2001 with 0 games). 3001 beats 3003 (2002): |D| 599, rated,
    capped at 400: 3001 +0.08 x 10 -> +1 (2602), 3003 -0.08 x 20 = -1.6 -> -2 (2000). 3004
    (2600) beats 3005 (2000): |D| 600 but nobody above 2600: rated, +1 (2601) and -2 (1998)."""
    games = GAMES_HEADER + "".join(
        f"Blitz,{DATES},{row}\n"
        for row in ("1,3001,3002,1-0", "1,3004,3005,1-0", "2,3001,3003,1-0")
    )
    published = publish(
        capsys,
        database.url,
        tmp_path,
        ("blitz.csv", games),
        baseline=BLITZ_BASELINE,
        category="fide-blitz",
    )
    assert entries(published) == {
        "3001": (2602, 2601, 1, 1),
        "3002": (2001, 2001, 0, 0),
        "3003": (2000, 2002, -2, 1),
        "3004": (2601, 2600, 1, 1),
        "3005": (1998, 2000, -2, 1),
    }
    assert calculations(database, "fide-blitz") == [
        ("3001", "3002", False, str(EXCLUDED_600)),
        ("3001", "3003", True, None),
        ("3002", "3001", False, str(EXCLUDED_600)),
        ("3003", "3001", True, None),
        ("3004", "3005", True, None),
        ("3005", "3004", True, None),
    ]
