"""Migration 0020 (a player's calculations packed in one row, issue 30): the revision chain of
tests/corrections/test_revision_chain.py (a correction's revisions store only the players they
recomputed), written at head, taken down to 0019 (one row a game from each side, the
tournament, opponent and rule version stored again) and up again: the same bytes, every list
verified. A calculation that says what its game does not stops the upgrade, changing nothing.
SQLite and PostgreSQL."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from ratingdb.db import current_revision, downgrade, head_revision, upgrade
from tests.corrections.test_revision_chain import (
    ADA,
    BEN,
    CAL,
    P,
    build,
)
from tests.support.cli import run_cli as cli
from tests.support.sql import execute, query


def packed(url: str) -> list[tuple[Any, ...]]:
    return [
        (*row[:3], bytes(row[3]))
        for row in query(
            url,
            "SELECT list_id, player_id, games, packed FROM player_calculations "
            "ORDER BY list_id, player_id",
        )
    ]


def test_packed_unpacked_and_packed_again(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = database_url
    ids = build(capsys, url, tmp_path / "chain")
    code, _, err = cli(capsys, "games", "correct", "--tournament", ids["T1"], "--round", "1",
                       "--white", ADA, "--black", BEN, "--result=+-", "--reason=a forfeit",
                       url=url)  # fmt: skip
    assert code == 0, err
    written = packed(url)
    assert len(written) > 0
    games = sum(row[2] for row in written)

    downgrade(url, "0019")
    assert current_revision(url) == "0019"
    assert query(url, "SELECT count(*) FROM calculations") == [(games,)]
    # Ben beat Cal in T1's second round, on P's first list (worked by hand in
    # test_revision_chain's docstring): Ben 1700, Cal 2000, D -300 -> PD 0.15, +0.85; Cal's
    # side the other way. The tournament and opponent are the game's, the rule version the
    # list's, as before 0020.
    sides = query(
        url,
        "SELECT c.player_id, c.tournament_id, c.opponent_id, c.rating_used, "
        "c.opponent_rating_used, c.difference, c.difference_used, c.expected, c.score, c.delta, "
        "c.rated, c.reason, c.rule_version FROM calculations c "
        "JOIN rating_lists l ON l.id = c.list_id JOIN games g ON g.id = c.game_id "
        "WHERE l.revision = 1 AND g.white_id = :ben AND g.black_id = :cal "
        "ORDER BY c.player_id",
        ben=BEN,
        cal=CAL,
    )
    version = "fide-standard-2025-10"  # P is 2026-09: the rules of October 2025
    # (SQLite gives the Numeric columns back as floats: compared as the decimals they print.)
    assert [
        (*row[:7], *(Decimal(str(n)) for n in row[7:10]), bool(row[10]), *row[11:])
        for row in sides
    ] == [
        (BEN, ids["T1"], CAL, 1700, 2000, -300, -300, Decimal("0.15"), 1, Decimal("0.85"),
         True, None, version),
        (CAL, ids["T1"], BEN, 2000, 1700, 300, 300, Decimal("0.85"), 0, Decimal("-0.85"),
         True, None, version),
    ]  # fmt: skip
    # The forfeit that replaced Ada-Ben is on no list (never rated); the 1-0 it replaced is on
    # P's first list, from both sides.
    assert query(
        url,
        "SELECT c.player_id, l.revision, c.rated FROM calculations c "
        "JOIN rating_lists l ON l.id = c.list_id JOIN games g ON g.id = c.game_id "
        "WHERE l.list_date = :p AND g.white_id = :ada AND g.black_id = :ben "
        "ORDER BY c.player_id, l.revision",
        p=f"{P}-01",
        ada=ADA,
        ben=BEN,
    ) == [(ADA, 1, True), (BEN, 1, True)]

    upgrade(url)
    assert current_revision(url) == head_revision()
    assert packed(url) == written
    code, out, err = cli(capsys, "periods", "verify", "--all", url=url)
    assert code == 0, out + err
    verified = [json.loads(line) for line in out.splitlines()]
    assert len(verified) == 9  # the import and P to P+3, revisions 1 and 2
    assert all(line["ok"] for line in verified), verified


def test_a_calculation_not_its_games_stops_the_upgrade(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = database_url
    build(capsys, url, tmp_path / "chain")
    downgrade(url, "0019")
    before = query(url, "SELECT * FROM calculations ORDER BY list_id, player_id, game_id")
    # Ben's side of a game made to name Ada as his opponent.
    tampered = query(
        url,
        "SELECT list_id, game_id FROM calculations WHERE player_id = :ben AND opponent_id = :cal "
        "ORDER BY list_id, game_id",
        ben=BEN,
        cal=CAL,
    )[0]
    assert (
        execute(
            url,
            "UPDATE calculations SET opponent_id = :ada WHERE list_id = :list AND game_id = :game "
            "AND player_id = :ben",
            ada=ADA,
            list=tampered[0],
            game=tampered[1],
            ben=BEN,
        )
        == 1
    )
    with pytest.raises(RuntimeError) as refused:
        upgrade(url)
    assert str(refused.value) == (
        f"migration 0020: list {tampered[0]}, player {BEN}, game {tampered[1]}: the "
        "calculation's tournament, opponent or rule version is not its game's or list's; "
        "nothing was changed"
    )
    assert current_revision(url) == "0019"
    after = query(url, "SELECT * FROM calculations ORDER BY list_id, player_id, game_id")
    assert len(after) == len(before)
    execute(
        url,
        "UPDATE calculations SET opponent_id = :cal WHERE list_id = :list AND game_id = :game "
        "AND player_id = :ben",
        cal=CAL,
        list=tampered[0],
        game=tampered[1],
        ben=BEN,
    )
    upgrade(url)
    assert current_revision(url) == head_revision()
    code, out, err = cli(capsys, "periods", "verify", "--all", url=url)
    assert code == 0, out + err
