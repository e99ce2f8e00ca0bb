"""The SQL that reads a list's entries through its ancestry, pinned to the carry-forward rule
(ratingdb.rules.carry_forward): on generated chains of lists (an imported list, then lists
each computed from an earlier one, their rows random changes, markers or nothing), every way
the database resolves a list gives the entries the rule gives, on SQLite and PostgreSQL:

- changes.resolve and changes.ratings_on (one statement a dialect: the recursive CTE on SQLite,
  the nearest row by the key's backward scan on PostgreSQL);
- changes.canonical_rows (the list's own rows over its parent's chunks);
- and what is read from the chunks, made here from the rule's entries: latest_entries
  (latest.write_latest, each list in turn its category's latest) and the page of the list
  they hold (published.latest_page, its entries resolved by changes.resolve).
"""

from __future__ import annotations

import random
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from ratingdb.db.chunks import ENTRY, list_order
from ratingdb.enums import ListSource
from ratingdb.models import LatestEntryRow, PlayerRow
from ratingdb.repositories import periods as period_repo
from ratingdb.repositories.list_storage import changes, chunk_reads, latest
from ratingdb.repositories.list_storage import chunks as list_chunks
from ratingdb.repositories.published.common import SHOWN_FIELDS
from ratingdb.repositories.published.entry_filter import EntryFilter
from ratingdb.repositories.published.latest_page import latest_page
from ratingdb.rules import Category, Period
from ratingdb.rules.carry_forward import Entry, ancestry_of, entries_on_lists, resolved

LISTS = 7
PLAYERS = 14
MARKER = (None,) * 11


def _entry(rng: random.Random, player_id: str) -> tuple[Any, ...]:
    played = rng.random() < 0.6
    first = rng.random() < 0.1
    delta = Decimal(rng.randint(-40000, 40000)).scaleb(-4) if played else None
    return (
        player_id,
        rng.randint(1000, 2800),
        None if first else rng.randint(1000, 2800),
        None if first else rng.randint(-40, 40),
        rng.randint(1, 12) if played else 0,
        rng.choice((10, 20, 40)),
        rng.choice((10, 20, 40)) if played else None,
        delta,
        rng.randint(0, 300),
        rng.randint(1000, 2900),
        None if first else date(2024, rng.randint(1, 12), 1),
        rng.random() < 0.7,
    )


def generated(seed: int) -> tuple[dict[int, int | None], list[tuple[Any, ...]], list[str]]:
    """(parents: list number -> parent number, rows: (list number, *entry or marker), player
    ids): list 1 imported (every entry a row); each later list computed from a random earlier
    one, each player there a change row (40 %), a marker (15 %) or nothing (carried)."""
    rng = random.Random(seed)
    players = [str(1000 + n) for n in range(PLAYERS)]
    parents: dict[int, int | None] = {1: None}
    rows: list[tuple[Any, ...]] = []
    for player_id in players:
        if rng.random() < 0.8:
            rows.append((1, *_entry(rng, player_id)))
    for number in range(2, LISTS + 1):
        parents[number] = rng.randint(max(1, number - 3), number - 1)
        for player_id in players:
            draw = rng.random()
            if draw < 0.4:
                rows.append((number, *_entry(rng, player_id)))
            elif draw < 0.55:
                rows.append((number, player_id, *MARKER))
    return parents, rows, players


def stored(
    session: Session,
    parents: dict[int, int | None],
    rows: list[tuple[Any, ...]],
    players: list[str],
) -> dict[int, int]:
    """The lists (a month apart, in their numbers' order) and their rows in the database;
    list number -> the database's list id."""
    session.add_all(PlayerRow(player_id=p, name=f"Player {p}", federation="ENG") for p in players)
    ids: dict[int, int] = {}
    for number, parent in parents.items():
        list_date = date(2025 + (number - 1) // 12, (number - 1) % 12 + 1, 1)
        period = period_repo.get_or_create_period(
            session, Category.FIDE_STANDARD, Period.of_list_date(list_date)
        )
        ids[number] = period_repo.add_list(
            session,
            period_id=period.id,
            category=Category.FIDE_STANDARD,
            list_date=list_date,
            revision=1,
            source=ListSource.IMPORT if parent is None else ListSource.CLOSE,
            rule_version=None,
            published_at=datetime(2026, 1, 1, tzinfo=UTC),
            entry_count=0,
            digest=None,
            cause_correction_id=None,
            corrections_applied=0,
            parent_list_id=None if parent is None else ids[parent],
        ).id
    changes.insert_entries(
        session,
        [dict(zip(changes.ENTRY_KEYS, (ids[row[0]], *row[1:]), strict=True)) for row in rows],
    )
    return ids


def by_rule(
    parents: dict[int, int | None], rows: list[tuple[Any, ...]]
) -> dict[int, dict[str, Entry]]:
    """Each list's entries as the rule gives them."""
    return {
        number: resolved(
            ancestry_of(parents, number), [r for r in rows if r[0] in ancestry_of(parents, number)]
        )
        for number in parents
    }


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_rule_agrees_with_itself(seed: int) -> None:
    """A list's entries resolved from its ancestry's rows, and one player's across every list
    at once (entries_on_lists), are the same entries."""
    parents, rows, players = generated(seed)
    expected = by_rule(parents, rows)
    for player_id in players:
        on_lists = entries_on_lists(parents, [r for r in rows if r[1] == player_id])
        assert on_lists == {n: e[player_id] for n, e in expected.items() if player_id in e}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_database_reads_every_list_as_the_rule(session: Session, seed: int) -> None:
    parents, rows, players = generated(seed)
    expected = by_rule(parents, rows)
    ids = stored(session, parents, rows, players)
    for number in parents:  # the list's chunks, made from the rule's entries
        list_chunks.write_chunks(
            session, ids[number], sorted(expected[number].values(), key=list_order)
        )
    for number, entries in expected.items():
        list_id = ids[number]
        where = f"seed {seed}, list {number}"
        # resolve, and ratings_on (the same statement, the rating only)
        assert changes.resolve(session, list_id, players) == entries, where
        assert all(type(e) is Entry for e in changes.resolve(session, list_id, players).values())
        assert changes.ratings_on(session, list_id, players) == {
            p: e.rating for p, e in entries.items()
        }, where
        # The list's own rows over its parent's chunks.
        assert changes.canonical_rows(session, list_id) == sorted(e[:6] for e in entries.values())
        assert changes.canonical_rows(session, list_id) == chunk_reads.canonical_entries(
            session, list_id
        )
        # The fields of a version 2 digest: the six and the activity flag, carried forward.
        v2 = (*ENTRY[:6], "active")
        assert changes.canonical_rows(session, list_id, v2) == sorted(
            (*e[:6], e.active) for e in entries.values()
        )
        assert changes.canonical_rows(session, list_id, v2) == chunk_reads.canonical_entries(
            session, list_id, v2
        )
        # latest_entries written from the list (resolved in the database), then its page.
        latest.write_latest(session, list_id)
        held = session.execute(
            select(
                LatestEntryRow.player_id,
                LatestEntryRow.rating,
                LatestEntryRow.rated_games,
                LatestEntryRow.peak_rating,
                LatestEntryRow.last_rated,
            ).where(LatestEntryRow.category == Category.FIDE_STANDARD)
        ).all()
        assert sorted(tuple(row) for row in held) == sorted(
            (e.player_id, e.rating, e.rated_games, e.peak_rating, e.last_rated)
            for e in entries.values()
        ), where
        page = latest_page(
            session, list_id, None, EntryFilter(), 0, limit=PLAYERS, offset=0, ranked=False
        )
        assert page is not None, where
        at = len(SHOWN_FIELDS)
        assert {row[at]: tuple(row[:at]) for row in page} == {
            p: tuple(getattr(e, name) for name in SHOWN_FIELDS) for p, e in entries.items()
        }, where
