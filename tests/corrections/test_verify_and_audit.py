"""``ratingdb periods verify`` proves every published revision is what its stored inputs give
(issue 7): on the demo federation, after a chain of corrections and merges, and not after a
stored list entry or a stored game is altered behind ratingdb's back. ``ratingdb audit`` shows
who corrected what, when and why."""

from __future__ import annotations

import getpass
import hashlib
import json
from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError

from ratingdb.db.chunks import ENTRY, list_order, pack, unpack
from tests.corrections.test_revision_chain import (
    ADA,
    BEN,
    CATEGORY,
    DEE,
    EVE,
    GIL,
    P1,
    P2,
    PERIODS,
    ZED,
    P,
    build,
    correct,
    entries,
    latest_revisions,
    ok,
)
from tests.support.cli import run_cli as cli
from tests.support.rolled_back import RolledBack
from tests.support.sql import Where, execute, query

DEMO_NOW = "2026-11-30T12:00:00+00:00"


def verify(capsys: pytest.CaptureFixture[str], url: str, *args: str) -> tuple[int, list[Any]]:
    code, out, err = cli(capsys, "periods", "verify", *(args or ("--all",)), url=url)
    assert code in (0, 1), f"exit {code}: {err}"
    lines = [json.loads(line) for line in out.splitlines()]
    assert f"{sum(line['ok'] for line in lines)} of {len(lines)} lists verified identical" in err
    return code, lines


def failing(lines: list[Any]) -> list[tuple[str, str, int, str]]:
    return [(x["category"], x["period"], x["revision"], x["detail"]) for x in lines if not x["ok"]]


def demo(capsys: pytest.CaptureFixture[str], url: str) -> None:
    out = ok(capsys, "demo", "--no-serve", "--now", DEMO_NOW, url=url)
    assert "closed 24 periods" in out


@pytest.mark.slow  # the whole demo
def test_the_demo_database_verifies(
    empty_database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    url = empty_database_url
    demo(capsys, url)
    code, lines = verify(capsys, url)
    assert (code, failing(lines)) == (0, [])
    assert len(lines) == 28  # 4 categories x (the imported 2026-06 list + 6 closes)
    assert {(x["source"], x["detail"].split(" (")[0]) for x in lines} == {
        ("import", "imported list: the stored entries match the digest"),
        ("close", "recomputed identical"),
    }


@pytest.mark.slow  # the whole demo
def test_the_demo_database_verifies_after_corrections(
    empty_database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A chain of corrections on the demo data: a decisive standard game of 2026-07 reversed,
    a game of 2026-09 made a draw, then the first one corrected again (a forfeit). The demo's
    rapid and blitz lists seed unrated players with standard ratings, so they read the
    standard lists (see test_revision_chain's rapid test)."""
    url = empty_database_url
    demo(capsys, url)

    def game(period: str, result: str) -> tuple[str, tuple[int, str, str]]:
        rows = query(
            url,
            "SELECT g.tournament_id, g.round, g.white_id, g.black_id FROM games g "
            "JOIN tournaments t ON t.tournament_id = g.tournament_id "
            "JOIN periods p ON p.id = t.period_id WHERE p.category = :c AND p.list_date = :d "
            "AND g.result = :r AND g.rated AND g.superseded_by IS NULL ORDER BY g.id",
            c=CATEGORY,
            d=f"{period}-01",
            r=result,
        )
        tournament, r, white, black = rows[0]
        return tournament, (r, white, black)

    first = game("2026-07", "1-0")
    second = game("2026-09", "0-1")
    for (tournament, pairing), result in ((first, "0-1"), (second, "1/2-1/2"), (first, "+-")):
        code, _, err = correct(capsys, url, tournament, pairing, result)
        assert code == 0, err
    (revised,) = query(url, "SELECT count(*) FROM rating_lists WHERE revision > 1")[0]
    assert revised >= 6  # at least 2026-07..2026-12 once
    code, lines = verify(capsys, url)
    assert failing(lines) == []
    assert code == 0
    assert len(lines) == 28 + revised


def test_verify_after_a_chain_of_corrections_and_a_merge(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = database.url
    ids = build(capsys, url, tmp_path / "chain")
    steps = [
        ("T1", (1, ADA, BEN), "+-"),  # P..P+3 -> revision 2
        ("T3", (1, EVE, BEN), "1-0"),  # P+2, P+3 -> revision 3
        ("T1", (1, ADA, BEN), "1-0"),  # back as it was: P, P+1 -> 3, P+2, P+3 -> 4
    ]
    for tournament, pairing, result in steps:
        code, _, err = correct(capsys, url, ids[tournament], pairing, result)
        assert code == 0, err
    assert latest_revisions(database) == {P: 3, P1: 3, P2: 4, "2026-12": 4}
    # Undone, the correction leaves P and P+1 as they were first published.
    assert entries(database, P, 3) == entries(database, P, 1)
    assert entries(database, P1, 3) == entries(database, P1, 1)
    # Gil and Zed never met: a merge of two rated records, recomputed from P.
    # (Both played round 1 of T1: merged with an override.)
    merged = ("--reason", "one person", "--override", "both in round 1 of T1, one person")
    code, _, err = cli(capsys, "players", "merge", GIL, ZED, *merged, url=url)
    assert code == 0, err
    assert latest_revisions(database) == {P: 4, P1: 4, P2: 5, "2026-12": 5}

    code, lines = verify(capsys, url)
    assert code == 0, failing(lines)
    assert failing(lines) == []
    assert len(lines) == 1 + 4 + 4 + 5 + 5  # the baseline list and every revision
    assert sorted((x["period"], x["revision"]) for x in lines if x["source"] == "close") == [
        (p, r) for p, n in ((P, 4), (P1, 4), (P2, 5), ("2026-12", 5)) for r in range(1, n + 1)
    ]
    # One list, one revision.
    code, lines = verify(capsys, url, "--category", CATEGORY, "--period", P2, "--revision", "2")
    assert (code, [(x["period"], x["revision"], x["ok"]) for x in lines]) == (0, [(P2, 2, True)])
    # Nothing to verify, or no list named: exit 2.
    code, _, err = cli(
        capsys, "periods", "verify", "--category", CATEGORY, "--period", "2030-01", url=url
    )
    assert (code, "--period" in err) == (2, True)
    code, _, err = cli(capsys, "periods", "verify", url=url)
    assert (code, "--all" in err) == (2, True)


def alter(where: Where, list_id: int, player_id: str, column: str, by: int) -> None:
    """Add ``by`` to one field of a player's entry directly in SQL, in both stored forms of the
    list: its row in list_entries and its chunk (unpacked, changed, packed back in list order)."""
    sql = f"UPDATE list_entries SET {column} = {column} + :by WHERE list_id = :l AND player_id = :p"
    assert execute(where, sql, by=by, l=list_id, p=player_id) == 1
    _alter_chunk(where, list_id, player_id, column, lambda value: value + by)


def replace(where: Where, list_id: int, player_id: str, column: str, value: Any) -> None:
    """Set one field of a player's entry to ``value``, in both stored forms of the list."""
    sql = f"UPDATE list_entries SET {column} = :v WHERE list_id = :l AND player_id = :p"
    assert execute(where, sql, v=value, l=list_id, p=player_id) == 1
    _alter_chunk(where, list_id, player_id, column, lambda _: value)


def _alter_chunk(
    where: Where, list_id: int, player_id: str, column: str, change: Callable[[Any], Any]
) -> None:
    index = ENTRY.index(column)
    for chunk, packed in query(
        where, "SELECT chunk, entries FROM list_chunks WHERE list_id = :l", l=list_id
    ):
        part = list(unpack(bytes(packed)))
        if all(entry[0] != player_id for entry in part):
            continue
        part = sorted(
            (
                (*e[:index], change(e[index]), *e[index + 1 :]) if e[0] == player_id else e
                for e in part
            ),
            key=list_order,
        )
        execute(
            where,
            "UPDATE list_chunks SET entries = :e, top_rating = :t, bottom_rating = :b "
            "WHERE list_id = :l AND chunk = :c",
            e=pack(part), t=part[0][1], b=part[-1][1], l=list_id, c=chunk,
        )  # fmt: skip
        return
    raise AssertionError(f"{player_id} is not on list {list_id}")


def test_verify_fails_on_a_tampered_list_entry_or_game(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = database.url
    ids = build(capsys, url, tmp_path / "chain")
    code, _, err = correct(capsys, url, ids["T1"], (1, ADA, BEN), "+-")
    assert code == 0, err
    code, lines = verify(capsys, url)
    assert (code, failing(lines)) == (0, [])

    def list_id(period: str, revision: int) -> int:
        return int(
            query(
                database,
                "SELECT id FROM rating_lists WHERE category = :c AND list_date = :d "
                "AND revision = :r",
                c=CATEGORY,
                d=f"{period}-01",
                r=revision,
            )[0][0]
        )

    # One rating of the original P+1 list, one point up, directly in SQL.
    original = list_id(P1, 1)
    alter(database, original, DEE, "rating", 1)
    code, lines = verify(capsys, url)
    assert code == 1
    # The P+2 original was computed from the P+1 original's stored entries (Dee's rating
    # used): recomputed now, it differs too. Every other list still verifies.
    assert failing(lines) == [
        (CATEGORY, P1, 1, "the stored entries do not match the list's digest"),
        (CATEGORY, P2, 1, "recomputed from its stored inputs, the list differs"),
    ]
    assert sum(x["ok"] for x in lines) == len(lines) - 2
    code, lines = verify(capsys, url, "--category", CATEGORY, "--period", P1, "--revision", "1")
    assert (code, [x["ok"] for x in lines]) == (1, [False])
    code, lines = verify(capsys, url, "--category", CATEGORY, "--period", P1, "--revision", "2")
    assert (code, [x["ok"] for x in lines]) == (0, [True])
    # The latest revision of P+2 too: its k_factor this time.
    latest = list_id(P2, 2)
    alter(database, latest, EVE, "k_factor", 20)
    code, lines = verify(capsys, url)
    assert code == 1
    # 2026-12 revision 2 stores its changes against 2026-12 revision 1 (issue 30): Eve did
    # not play and her carried entry did not change, so it reads her entry through revision 1,
    # from P+2's revision 1, not the tampered row; and a close computes the K it writes from
    # the rules, not from the stored K: it verifies.
    assert [(f[1], f[2]) for f in failing(lines)] == [(P1, 1), (P2, 1), (P2, 2)]

    # Put both back: identical again.
    alter(database, original, DEE, "rating", -1)
    alter(database, latest, EVE, "k_factor", -20)
    code, lines = verify(capsys, url)
    assert (code, failing(lines)) == (0, [])

    # Eve's row of P+2 revision 2 alone (not its chunk): that list's rows fail; 2026-12
    # revision 2, which carries her entry forward, is checked over P+2's chunks (each list's
    # rows are checked once, by their own list) and verifies.
    sql = "UPDATE list_entries SET k_factor = k_factor + :by WHERE list_id = :l AND player_id = :p"
    assert execute(database, sql, by=20, l=latest, p=EVE) == 1
    code, lines = verify(capsys, url)
    assert (code, failing(lines)) == (
        1,
        [(CATEGORY, P2, 2, "the stored entries do not match the list's digest")],
    )
    assert execute(database, sql, by=-20, l=latest, p=EVE) == 1

    # A stored input altered: Ben-Dee of P+1 (0-1) made 1-0 in place. Every revision of P+1
    # recomputes differently; the lists after it were computed from P+1's stored entries and
    # still verify.
    assert (
        execute(
            database,
            "UPDATE games SET result = '1-0' WHERE tournament_id = :t AND "
            "white_id = :w AND black_id = :b",
            t=ids["T2"],
            w=BEN,
            b=DEE,
        )
        == 1
    )
    code, lines = verify(capsys, url)
    assert code == 1
    assert failing(lines) == [
        (CATEGORY, P1, 1, "recomputed from its stored inputs, the list differs"),
        (CATEGORY, P1, 2, "recomputed from its stored inputs, the list differs"),
    ]


@pytest.mark.parametrize(("column", "by"), [("peak_rating", 7), ("rated_games", 1)])
def test_verify_compares_the_fields_the_digest_leaves_out(
    database: RolledBack,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    column: str,
    by: int,
) -> None:
    """The digest of a list covers an entry up to its K; the peak rating and the rated games
    (what the next periods start from: K 10 for good at 2400, the 30-game rule) are compared
    field by field. Dee's, one up, in both stored forms of the P+1 list."""
    url = database.url
    build(capsys, url, tmp_path / "chain")
    (list_id,) = query(database, "SELECT id FROM rating_lists WHERE category = :c AND "
                       "list_date = :d", c=CATEGORY, d=f"{P1}-01")[0]  # fmt: skip
    before = query(database, f"SELECT {column} FROM list_entries WHERE list_id = :l AND "
                   "player_id = :p", l=list_id, p=DEE)[0][0]  # fmt: skip
    alter(database, int(list_id), DEE, column, by)
    code, lines = verify(capsys, url)
    assert code == 1
    expected = (
        f"recomputed from its stored inputs, player {DEE}'s {column} is {before + by} stored, "
        f"{before} recomputed"
    )
    assert failing(lines)[0] == (CATEGORY, P1, 1, expected)
    alter(database, int(list_id), DEE, column, -by)
    code, lines = verify(capsys, url)
    assert (code, failing(lines)) == (0, [])


@pytest.mark.parametrize(
    ("column", "tampered", "shown"),
    [("active", False, "False"), ("last_rated", date(2026, 9, 1), "2026-09-01")],
)
def test_verify_compares_each_entrys_activity(
    database: RolledBack,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    column: str,
    tampered: Any,
    shown: str,
) -> None:
    """The activity a list shows (issue 27): Dee played T2, rated on the P+1 list, so that list
    holds her active, last rated on it (2026-10-01). Either field changed in both stored forms
    is found by verify: the flag by the list's digest (version 2 covers it), the date field by
    field."""
    url = database.url
    build(capsys, url, tmp_path / "chain")
    (list_id,) = query(database, "SELECT id FROM rating_lists WHERE category = :c AND "
                       "list_date = :d", c=CATEGORY, d=f"{P1}-01")[0]  # fmt: skip
    recomputed = {"active": "True", "last_rated": "2026-10-01"}[column]
    replace(database, int(list_id), DEE, column, tampered)
    code, lines = verify(capsys, url)
    assert code == 1
    expected = (
        f"recomputed from its stored inputs, player {DEE}'s {column} is {shown} stored, "
        f"{recomputed} recomputed"
    )
    if column == "active":
        expected = "the stored entries do not match the list's digest"
    assert failing(lines)[0] == (CATEGORY, P1, 1, expected)


def test_audit_shows_who_corrected_what_when_and_why(
    database: RolledBack,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("RATINGDB_ACTOR", raising=False)
    url = database.url
    ids = build(capsys, url, tmp_path / "chain")
    old_id = query(
        database, "SELECT id FROM games WHERE white_id = :w AND black_id = :b", w=ADA, b=BEN
    )[0][0]
    started = datetime.now(UTC)
    code, out, err = correct(capsys, url, ids["T1"], (1, ADA, BEN), "+-", "Ben never came")
    assert code == 0, err
    correction_id = json.loads(out)["correction_id"]
    code, out, err = cli(capsys, "players", "merge", GIL, ZED, "--reason", "one person",
                         "--override", "one person all the same", url=url)  # fmt: skip
    assert code == 0, err
    merge_id = json.loads(out)["correction_id"]
    finished = datetime.now(UTC)
    new_id = query(
        database,
        "SELECT id FROM games WHERE white_id = :w AND black_id = :b AND superseded_by IS NULL",
        w=ADA,
        b=BEN,
    )[0][0]

    log = [json.loads(line) for line in ok(capsys, "audit", url=url).splitlines()]
    ours = [e for e in log if e["action"] in ("correction", "merge")]
    assert [e["action"] for e in ours] == ["merge", "correction"]  # newest first
    merge_entry, correction_entry = ours
    actor = getpass.getuser()  # no --actor, no RATINGDB_ACTOR: the operating system user
    for entry in ours:
        assert entry["actor"] == actor
        assert started <= datetime.fromisoformat(entry["at"]) <= finished
    assert correction_entry["details"] == {
        "correction_id": correction_id,
        "kind": "game",
        "tournament_id": ids["T1"],
        "before": {"game_id": old_id, "result": "1-0"},
        "after": {"game_id": new_id, "result": "+-"},
        "reason": "Ben never came",
    }
    assert correction_entry["counts"] == {"revisions": 4}
    assert merge_entry["details"] == {
        "correction_id": merge_id,
        "keep": GIL,
        "drop": ZED,
        "reason": "one person",
        # Gil and Zed both played round 1 of T1 (against other players): the override audited.
        "override": "one person all the same",
        "conflicts": [
            {"kind": "same_round", "tournament_id": ids["T1"], "tournament": "T1", "rounds": [1]}
        ],
    }
    assert merge_entry["counts"]["games"] == 2  # Zed-Yan in T1 and in T3

    only = [
        json.loads(line)
        for line in ok(capsys, "audit", "--action", "correction", url=url).splitlines()
    ]
    assert [e["details"]["correction_id"] for e in only] == [correction_id]
    newest = [
        json.loads(line) for line in ok(capsys, "audit", "--limit", "1", url=url).splitlines()
    ]
    assert [e["action"] for e in newest] == ["merge"]


def test_audit_records_imports_and_closes(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 7: "An audit log of every import, close, correction and merge (file digest, actor,
    time, counts), readable with ratingdb audit"."""
    url = database.url
    folder = tmp_path / "chain"
    build(capsys, url, folder, periods=PERIODS[:1])
    log = [json.loads(line) for line in ok(capsys, "audit", url=url).splitlines()]
    digests = {e["file_digest"] for e in log if "import" in e["action"]}
    for name in ("baseline.csv", "T1.csv", "T2.csv", "T3.csv"):
        digest = hashlib.sha256((folder / name).read_bytes()).hexdigest()
        assert digest in digests, f"no import of {name} in the audit log: {log}"
    closes = [e for e in log if "close" in e["action"]]
    assert len(closes) == 1, log
    assert P in json.dumps(closes[0])


def test_verify_fails_where_the_latest_entries_differ_from_the_latest_list(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """latest_entries hold the latest list (2026-12, revision 1) as the closes wrote them;
    one peak changed behind ratingdb's back fails that list alone, put back it passes."""
    url = database.url
    build(capsys, url, tmp_path / "chain")
    code, lines = verify(capsys, url)
    assert (code, failing(lines)) == (0, [])
    sql = "UPDATE latest_entries SET peak_rating = peak_rating + :by WHERE player_id = :p"
    assert execute(database, sql, by=1, p=ADA) == 1
    code, lines = verify(capsys, url)
    assert code == 1
    assert failing(lines) == [
        (CATEGORY, "2026-12", 1, "the latest entries (latest_entries) do not match the list")
    ]
    execute(database, sql, by=-1, p=ADA)
    code, lines = verify(capsys, url)
    assert (code, failing(lines)) == (0, [])


def test_the_database_refuses_a_parent_written_after_its_list_or_of_another_category(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A player's entry is read from their nearest row below the list (changes.resolve),
    which holds while every list's parent was written before it (a smaller id) and is of its
    category: the database guards both (migration 0013), so 2026-10's parent cannot be set
    behind ratingdb's back to the 2026-12 list, nor to another category's list."""
    url = database.url
    build(capsys, url, tmp_path / "chain")
    lists = {
        str(row[0]): (int(row[1]), int(row[2]))
        for row in query(
            database,
            "SELECT list_date, id, parent_list_id FROM rating_lists "
            "WHERE category = :c AND revision = 1 AND parent_list_id IS NOT NULL",
            c=CATEGORY,
        )
    }
    october, _ = lists["2026-10-01"]
    december, _ = lists["2026-12-01"]
    sql = "UPDATE rating_lists SET parent_list_id = :parent WHERE id = :id"
    with pytest.raises(IntegrityError):
        execute(database, sql, parent=december, id=october)
    execute(database, "INSERT INTO periods (id, category, list_date, closing_date, state, "
            "published_at) VALUES (999, 'fide-blitz', '2026-01-01', '2025-12-29', 'published', "
            "'2026-01-01 00:00:00')")  # fmt: skip
    execute(database, "INSERT INTO rating_lists (id, period_id, category, list_date, revision, "
            "source, published_at, entry_count) VALUES (0, 999, 'fide-blitz', '2026-01-01', "
            "1, 'import', '2026-01-01 00:00:00', 0)")  # fmt: skip
    with pytest.raises(IntegrityError):
        execute(database, sql, parent=0, id=october)  # written before, but a blitz list
    execute(database, "DELETE FROM rating_lists WHERE id = 0")
    code, lines = verify(capsys, url)
    assert (code, failing(lines)) == (0, [])
