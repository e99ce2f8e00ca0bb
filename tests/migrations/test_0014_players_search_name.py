"""Revision 0014: the players of an existing database get their search names (more of them
than one batch of the backfill), the column is NOT NULL and indexed, the players and what
refers to them survive the SQLite rebuild both ways; and the revision's frozen normalisation
still agrees with the live one. SQLite and PostgreSQL."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError

from ratingdb.db import current_revision, downgrade, head_revision, make_engine, upgrade
from ratingdb.formats.names import search_key
from tests.formats.test_names import PLAIN
from tests.migrations.test_0005_list_replace_kind import run, scalar

REVISION = (
    Path(__file__).resolve().parents[2] / "migrations" / "versions" / "0014_players_search_name.py"
)
NAMES = {
    "1": "Prenás, Jan",
    "2": "Zoë, Ann",
    "3": "Kastelli, Petra",
    "4": "STRAßE, Jürgen-Øle",
    "5": "Đoković, Łucja",
}


def _revision() -> ModuleType:
    spec = importlib.util.spec_from_file_location("revision_0014", REVISION)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _insert_players(url: str, rows: list[dict[str, str]]) -> None:
    engine = make_engine(url)
    try:
        with engine.begin() as connection:
            connection.execute(
                text("INSERT INTO players (player_id, name) VALUES (:player_id, :name)"), rows
            )
    finally:
        engine.dispose()


def _search_names(url: str) -> dict[str, str]:
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT player_id, search_name FROM players"))
            return {str(row[0]): str(row[1]) for row in rows}
    finally:
        engine.dispose()


def test_existing_players_get_their_search_names(database_url: str) -> None:
    url = database_url
    downgrade(url, "0013")
    batch = _revision().BATCH
    many = [{"player_id": str(100000 + i), "name": f"Ölund-{i}, Ärne"} for i in range(batch + 3)]
    _insert_players(url, [{"player_id": k, "name": v} for k, v in NAMES.items()] + many)
    run(url, "UPDATE players SET merged_into = '1' WHERE player_id = '2'")
    upgrade(url)
    assert current_revision(url) == head_revision()
    found = _search_names(url)
    assert {k: found[k] for k in NAMES} == {
        "1": "prenas jan",
        "2": "zoe ann",
        "3": "kastelli petra",
        "4": "strasse jurgen ole",
        "5": "dokovic lucja",
    }
    assert found[str(100000 + batch + 2)] == f"olund {batch + 2} arne"  # past the first batch
    assert len(found) == len(NAMES) + batch + 3
    assert scalar(url, "SELECT merged_into FROM players WHERE player_id = '2'") == "1"
    engine = make_engine(url)
    try:
        indexes = {i["name"]: i["column_names"] for i in inspect(engine).get_indexes("players")}
        columns = {c["name"]: c for c in inspect(engine).get_columns("players")}
    finally:
        engine.dispose()
    assert indexes["ix_players_search_name"] == ["search_name"]
    assert columns["search_name"]["nullable"] is False
    with pytest.raises(IntegrityError):
        run(url, "INSERT INTO players (player_id, name) VALUES ('9', 'No Key')")

    downgrade(url, "0013")
    assert current_revision(url) == "0013"
    assert scalar(url, "SELECT count(*) FROM players") == len(NAMES) + batch + 3
    assert scalar(url, "SELECT merged_into FROM players WHERE player_id = '2'") == "1"
    run(url, "INSERT INTO players (player_id, name) VALUES ('9', 'No Key')")  # no column
    upgrade(url)
    assert _search_names(url)["9"] == "no key"


@given(st.one_of(PLAIN, st.text(), st.sampled_from(sorted(NAMES.values()))))
def test_the_frozen_normalisation_still_is_the_live_one(name: str) -> None:
    """When ratingdb.formats.names.search_key changes, this fails: the stored keys were made by
    the old one, and a new revision must compute them again (then compare with its copy)."""
    assert _FROZEN(name) == search_key(name)


_FROZEN = _revision().search_key_v1
