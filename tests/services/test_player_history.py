"""Dated federations and titles (issue 28 item 2), on SQLite and PostgreSQL: an officer records
Anna's transfer FRA -> GER and her WIM title from 2026-09-15; the list of 2026-08 exports her
as FRA WFM, the list of 2026-10 as GER WIM (the lists themselves unchanged), a crosstable of a
tournament that started on 2026-09-01 shows FRA WFM; an undated correction corrects the latest
dated value; dates before the latest recorded one, after today, or without a federation are
refused naming the field; ``as_of`` worked by hand."""

from __future__ import annotations

import io
import re
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

from ratingdb.errors import InputError
from ratingdb.models.player_history import SINCE_EVER
from ratingdb.repositories import player_history
from ratingdb.rules import Category, Period
from ratingdb.rules.titles import Title
from ratingdb.services import player_records
from ratingdb.services.norms import tournament_norms
from ratingdb.services.published import crosstable
from ratingdb.services.published.export import write_published
from ratingdb.services.published.lists import find_list, list_entries, published_list
from tests.services.test_norms import ADA, build
from tests.support import factories
from tests.support.cli import cli_ok
from tests.support.rolled_back import RolledBack

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
ANNA = '1001,"Anna, A",FRA,F,1990,WFM,1850,60,1850,20'
#: A tournament of 2026-09-01..02 (rated on the list of 2026-10): Anna beats Bob.
GAMES = factories.games_csv("Early Open,2026-09-01,2026-09-02,1,1001,1002,1-0")


@pytest.fixture
def lists(database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> RolledBack:
    """The fide-standard lists of 2026-08 and 2026-10 (imported: published) with Anna FRA WFM
    and Bob; Early Open imported."""
    for period in ("2026-08", "2026-10"):
        path = tmp_path / f"{period}.csv"
        path.write_text(factories.list_csv(ANNA, factories.BOB), encoding="utf-8")
        cli_ok(capsys, "lists", "import", str(path), "--category", "fide-standard", "--period",
               period, "--actor", "test", url=database.url)  # fmt: skip
    games = tmp_path / "early.csv"
    games.write_text(GAMES, encoding="utf-8")
    cli_ok(capsys, "tournaments", "import", str(games), "--category", "fide-standard",
           "--actor", "test", url=database.url)  # fmt: skip
    return database


def _edit(database: RolledBack, fields: dict[str, Any], player_id: str = "1001") -> None:
    with database.sessions.begin() as session:
        version = player_records.record(session, player_id).version
        player_records.edit(session, player_id, fields, reason="FIDE transfer list",
                            version=version, actor="officer1", now=NOW)  # fmt: skip


def _exported(database: RolledBack, period: str) -> str:
    out = io.StringIO()
    with database.sessions() as session:
        published = published_list(session, Category.FIDE_STANDARD, Period.parse(period))
        write_published(published, "csv", out)
    return out.getvalue()


def _anna_line(exported: str) -> str:
    return next(line for line in exported.splitlines() if line.startswith("1001,"))


def test_transfer_and_title_dated(lists: RolledBack) -> None:
    database = lists
    before = {p: _exported(database, p) for p in ("2026-08", "2026-10")}
    assert _anna_line(before["2026-10"]).startswith('1001,"Anna, A",FRA,F,1990,WFM,')
    _edit(database, {"federation": "GER", "federation_from": "2026-09-15", "title": "WIM",
                   "title_from": "2026-09-15"})  # fmt: skip
    # The record holds the current values; the history the seed (what the record held, as
    # first recorded) and the change.
    assert database.rows("SELECT federation, title FROM players "
                         "WHERE player_id = '1001'") == [("GER", "WIM")]  # fmt: skip
    with database.sessions() as session:
        shown = player_records.record(session, "1001")
        assert shown.history == {
            "federation": [(SINCE_EVER, "FRA"), (date(2026, 9, 15), "GER")],
            "title": [(SINCE_EVER, "WFM"), (date(2026, 9, 15), "WIM")],
            "status": [],
        }
        # as_of: the day before, FRA WFM; from the day on, the record's (nothing to say).
        day_before = player_history.as_of(session, date(2026, 9, 14))
        assert (day_before.federation, day_before.title) == ({"1001": "FRA"}, {"1001": "WFM"})
        on_the_day = player_history.as_of(session, date(2026, 9, 15))
        assert (on_the_day.federation, on_the_day.title) == ({}, {})
        # The crosstable of Early Open (started 2026-09-01): Anna as she was then.
        table = crosstable(session, "T000001")
        anna = next(s for s in table.standings if s.player_id == "1001")
        bob = next(s for s in table.standings if s.player_id == "1002")
        assert (anna.federation, anna.title) == ("FRA", "WFM")
        assert (bob.federation, bob.title) == ("FRA", None)
    after = {p: _exported(database, p) for p in ("2026-08", "2026-10")}
    # The list of 2026-08: Anna as she was (FRA WFM): the export unchanged, byte for byte.
    assert after["2026-08"] == before["2026-08"]
    # The list of 2026-10 (after the transfer): GER WIM; her figures and the rest unchanged.
    assert _anna_line(after["2026-10"]) == _anna_line(before["2026-10"]).replace(
        '"Anna, A",FRA,F,1990,WFM,', '"Anna, A",GER,F,1990,WIM,'
    )
    assert after["2026-10"].replace("GER,F,1990,WIM", "FRA,F,1990,WFM") == before["2026-10"]
    # The list pages (the API's and the site's) likewise.
    with database.sessions() as session:
        for period, then in (("2026-08", ("FRA", "WFM")), ("2026-10", ("GER", "WIM"))):
            summary = find_list(session, Category.FIDE_STANDARD, Period.parse(period))
            _, entries = list_entries(session, summary)
            entry = next(e for e in entries if e.player_id == "1001")
            assert (entry.federation, entry.title) == then, period
    # The lists themselves are as published.
    assert database.rows("SELECT count(*) FROM rating_lists") == [(2,)]
    audited = database.rows("SELECT count(*) FROM audit_log WHERE action = 'player-edit'")
    assert audited == [(1,)]


def test_an_undated_correction_corrects_the_latest_dated_value(lists: RolledBack) -> None:
    database = lists
    _edit(database, {"federation": "GER", "federation_from": "2026-09-15"})
    _edit(database, {"federation": "AUT"})  # GER was a typo: AUT since 2026-09-15
    with database.sessions() as session:
        assert player_history.history(session, "1001")["federation"] == [
            (SINCE_EVER, "FRA"), (date(2026, 9, 15), "AUT"),
        ]  # fmt: skip
        assert player_history.as_of(session, date(2026, 9, 1)).federation == {"1001": "FRA"}
    # The same value from a later date is a second transfer's record only if it changes:
    # AUT from 2026-11-01 while AUT holds since 2026-09-15 is nothing to do.
    with pytest.raises(InputError, match="nothing changes"):
        _edit(database, {"federation": "AUT", "federation_from": "2026-11-01"})


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"federation": "ITA", "federation_from": "2026-09-01"}, "federation_from",
         "a later federation is recorded (GER from 2026-09-15)"),
        ({"federation": "ITA", "federation_from": "2026-12-02"}, "federation_from",
         "2026-12-02 is after today (2026-12-01)"),
        ({"federation": "ITA", "federation_from": "1900-01-01"}, "federation_from",
         "after 1900-01-01"),
        ({"federation": "", "federation_from": "2026-11-01"}, "federation_from",
         "a federation from a date needs the federation"),
        ({"title": "GM", "title_from": "2026-13-01"}, "title_from", "a date YYYY-MM-DD"),
        ({"status": "deceased"}, "status_from", "a change of standing needs the date"),
        ({"status": "retired", "status_from": "2026-11-01"}, "status", "must be one of"),
    ],
)  # fmt: skip
def test_bad_dates_are_refused_naming_the_field(
    lists: RolledBack, fields: dict[str, str], field: str, message: str
) -> None:
    _edit(lists, {"federation": "GER", "federation_from": "2026-09-15"})
    with pytest.raises(InputError, match=re.escape(message)) as refused:
        _edit(lists, fields)
    assert refused.value.field == field


def test_a_norm_check_reads_titles_and_federations_of_the_first_day(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue's tournament (tests/services/test_norms.py, from 2026-11-02): Ada, WIM then,
    recorded IM from 2026-11-20, is still checked for GM, IM and WGM norms; her first opponent,
    GER then, recorded FRA from 2026-11-20, is still a foreign GM of Germany."""
    build(capsys, database.url, tmp_path)
    _edit(database, {"title": "IM", "title_from": "2026-11-20"}, player_id=ADA)
    _edit(database, {"federation": "FRA", "federation_from": "2026-11-20"}, player_id="3000001")
    with database.sessions() as session:
        norms = tournament_norms(session, "T000001")
    ada = norms.player(ADA)
    assert ada is not None
    assert (ada.title, ada.federation) == (Title.WIM, "FRA")
    assert [check.title for check in ada.checks] == [Title.GM, Title.IM, Title.WGM]
    first = ada.games[0].opponent
    assert (first.player_id, first.federation, first.title) == ("3000001", "GER", Title.GM)
    im = ada.check(Title.IM)
    assert im is not None
    assert im.norm
