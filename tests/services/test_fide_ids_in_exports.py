"""FIDE's layouts name every player by a FIDE id (issue 27 item 4): a player met without one
(a local id, 9 and 11 digits) whose FIDE id was recorded later is written under that FIDE id in
FIDE TXT and XML; the list CSV and JSON keep ratingdb's own id. SQLite and PostgreSQL."""

from __future__ import annotations

import io
from datetime import UTC, datetime

from sqlalchemy.orm import Session

from ratingdb.models import PlayerRow
from ratingdb.repositories import players as player_repo
from ratingdb.rules import Category, Period
from ratingdb.services.published.export import write_published
from ratingdb.services.published.lists import ListEntry, PublishedList

LOCAL, LATER_FIDE = "900000000042", "25012345"


def entry(player_id: str, name: str, rating: int) -> ListEntry:
    return ListEntry(
        rating=rating, previous_rating=rating, change=0, games=0, k_factor=20, rated_games=40,
        peak_rating=rating, active=True, player_id=player_id, name=name, federation="FRA",
        sex="M", birth_year=1990, title=None,
    )  # fmt: skip


def test_the_local_players_fide_ids_are_read(session: Session) -> None:
    session.add_all(
        [
            PlayerRow(player_id=LOCAL, name="Loc, Al", search_name="loc al", fide_id=LATER_FIDE),
            PlayerRow(player_id="900000000043", name="Loc, Bo", search_name="loc bo"),
            PlayerRow(player_id="1503014", name="Fid, Ed", search_name="fid ed", fide_id="1503014"),
        ]
    )
    session.flush()
    assert player_repo.fide_ids_of_local_players(session) == {LOCAL: LATER_FIDE}


def test_fide_layouts_write_the_fide_id() -> None:
    published = PublishedList(
        Category.FIDE_STANDARD, Period(2026, 12), 1, "fide-standard-2025-10",
        datetime(2026, 12, 1, tzinfo=UTC),
        (entry("1503014", "Fid, Ed", 2100), entry(LOCAL, "Loc, Al", 1900)),
        {LOCAL: LATER_FIDE},
    )  # fmt: skip
    txt = io.StringIO()
    write_published(published, "fide-txt", txt)
    assert [line[:15].strip() for line in txt.getvalue().splitlines()[1:]] == [
        "1503014",
        LATER_FIDE,
    ]
    xml = io.StringIO()
    write_published(published, "fide-xml", xml)
    assert f"<fideid>{LATER_FIDE}</fideid>" in xml.getvalue()
    assert LOCAL not in xml.getvalue()
    csv = io.StringIO()
    write_published(published, "csv", csv)
    assert LOCAL in csv.getvalue()
