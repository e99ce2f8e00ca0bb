"""Two officers deciding the same thing at the same moment, through the API, on SQLite and
PostgreSQL: the second gets 409 with a clear message (or waits and finds nothing to do), never a
500, never two outcomes, never two audit entries.

The first request is held inside its transaction (its decision made, not committed) while the
second one starts; the test waits for the second to end or to wait on a lock (PostgreSQL's
``pg_locks``; on SQLite a writer waits for the write lock at its BEGIN IMMEDIATE), then lets the
first commit. Nothing sleeps for a fixed time.

Two transactions racing need two connections: every test has a database of its own
(``database_url``), not the rolled-back transaction of ``database``, and the back office and
its users are on it (``app_on``, ``accounts_on``).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from ratingdb.cli import main
from ratingdb.services import accounts as account_service
from ratingdb.services import audit
from ratingdb.services import corrections as correction_service
from ratingdb.services import submissions as submission_service
from tests.backoffice.conftest import Accounts, Clock, accounts_on, app_on
from tests.backoffice.test_submissions import SMALL_TRF
from tests.corrections import test_merge as merges
from tests.corrections import test_revision_chain as chain
from tests.support.sql import query

DEADLINE = 120.0
DIGEST = re.compile(r'name="impact_digest" value="([0-9a-f]{64})"')


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def waiting_on_a_lock(url: str) -> bool:
    """PostgreSQL: a transaction of this database waits for a lock."""
    return bool(
        query(
            url,
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'",
        )[0][0]
    )


def until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + DEADLINE
    while not condition():
        assert time.monotonic() < deadline, f"waited {DEADLINE} s for {what}"
        time.sleep(0.02)


@pytest.fixture
def app(database_url: str, clock: Clock) -> FastAPI:
    return app_on(database_url, clock)


@pytest.fixture
def users(engine: Engine, clock: Clock) -> Accounts:
    return accounts_on(engine, clock)


@pytest.fixture
def tokens(users: Accounts) -> dict[str, str]:
    for name, role in (("arbiter1", "arbiter"), ("officer1", "officer"), ("officer2", "officer")):
        users.add(name, role)
    return {name: users.token(name) for name in ("arbiter1", "officer1", "officer2")}


class Held:
    """Holds the first transaction that records one of ``actions`` in the audit log, just
    after it recorded it (inside the transaction, before the commit), until released."""

    def __init__(self, actions: set[str]) -> None:
        self.actions = actions
        self.reached = threading.Event()
        self.release = threading.Event()
        self._first = threading.Lock()
        self._taken = False

    def __getattr__(self, name: str) -> Any:
        return getattr(audit, name)  # the audit module's other functions, as they are

    def record(self, session: Any, action: str, *args: Any, **kwargs: Any) -> None:
        audit.record(session, action, *args, **kwargs)
        if action not in self.actions:
            return
        with self._first:
            first, self._taken = not self._taken, True
        if first:
            session.flush()
            self.reached.set()
            assert self.release.wait(DEADLINE), "the test never released the first request"


def both_answered(answers: dict[str, Any]) -> tuple[Any, Any]:
    """The first and the second request's answers, neither of them an exception."""
    done, late = answers["first"], answers["second"]
    assert not isinstance(done, BaseException), answers
    assert not isinstance(late, BaseException), answers
    return done, late


@contextmanager
def two_at_once(
    url: str, first: Callable[[], Any], second: Callable[[], Any], held: Held
) -> Iterator[dict[str, Any]]:
    """Run ``first`` until it is held, then ``second`` until it ends or waits on a lock (on
    SQLite: until it started), then let ``first`` commit; their answers."""
    answers: dict[str, Any] = {}

    def run(name: str, work: Callable[[], Any]) -> None:
        try:
            answers[name] = work()
        except BaseException as error:
            answers[name] = error
            held.reached.set()

    one = threading.Thread(target=run, args=("first", first))
    two = threading.Thread(target=run, args=("second", second))
    try:
        one.start()
        assert held.reached.wait(DEADLINE), "the first request was never held"
        two.start()
        if url.startswith("postgresql"):
            until(lambda: not two.is_alive() or waiting_on_a_lock(url), "the second request")
        held.release.set()
        one.join(DEADLINE)
        two.join(DEADLINE)
        assert not one.is_alive()
        assert not two.is_alive()
    finally:
        held.release.set()
    yield answers


DECISIONS = {"accept": "accepted", "reject": "rejected"}


@pytest.mark.parametrize(
    ("first", "second"),
    [("accept", "reject"), ("reject", "accept"), ("reject", "reject"), ("accept", "accept")],
)
def test_one_submission_decided_twice_at_once(
    client: TestClient,
    tokens: dict[str, str],
    database_url: str,
    monkeypatch: pytest.MonkeyPatch,
    first: str,
    second: str,
) -> None:
    sent = client.post(
        "/admin/v1/submissions?category=fide-standard",
        content=SMALL_TRF,
        headers=bearer(tokens["arbiter1"]) | {"Content-Type": "text/plain"},
    )
    assert sent.status_code == 201, sent.text
    submission = sent.json()["submission_id"]
    held = Held({"submission-accept", "submission-reject"})
    monkeypatch.setattr(submission_service, "audit", held)

    def decide(action: str, officer: str) -> Any:
        path = f"/admin/v1/submissions/{submission}/{action}"
        body = {"reason": f"{officer} says no"} if action == "reject" else None
        return client.post(path, headers=bearer(tokens[officer]), json=body)

    with two_at_once(
        database_url,
        lambda: decide(first, "officer1"),
        lambda: decide(second, "officer2"),
        held,
    ) as answers:
        pass
    done, late = both_answered(answers)
    assert done.status_code == 200, done.text
    assert late.status_code == 409, late.text
    assert late.json()["detail"] == f"submission {submission} is already {DECISIONS[first]}"
    state = query(database_url, f"SELECT state, reason FROM submissions WHERE id = {submission}")
    expected_reason = "officer1 says no" if first == "reject" else None
    assert state == [(DECISIONS[first], expected_reason)]
    decisions = query(
        database_url,
        "SELECT action, actor FROM audit_log WHERE action IN "
        "('submission-accept', 'submission-reject', 'tournament-import') ORDER BY id",
    )
    if first == "accept":
        assert decisions == [("tournament-import", "officer1"), ("submission-accept", "officer1")]
    else:
        assert decisions == [("submission-reject", "officer1")]
    tournaments = query(database_url, "SELECT count(*) FROM tournaments")[0][0]
    assert tournaments == (1 if first == "accept" else 0)


@pytest.mark.parametrize("kind", ["game", "merge"])
def test_two_identical_corrections_at_once(
    client: TestClient,
    tokens: dict[str, str],
    database_url: str,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    kind: str,
) -> None:
    """The second waits for the first, then finds nothing left to do and says so (422, as the
    same request sent again later): one correction, one audit entry, the lists revised once."""
    url = database_url
    if kind == "game":
        ids = chain.build(capsys, url, tmp_path / "db", periods=(chain.P,))
        body: dict[str, Any] = {"tournament": ids["T1"], "round": 1, "white": chain.ADA,
                                "black": chain.BEN, "result": "+-"}  # fmt: skip
        body["reason"] = "forfeit"
        refusal = "field result: the game's result is already +-"
    else:
        chain.build(capsys, url, tmp_path / "db", tournaments=merges.chain(merges.DUP),
                    players=merges.PLAYERS, periods=merges.PERIODS)  # fmt: skip
        body = {"keep": merges.IVO, "drop": merges.DUP, "reason": "one person, two ids"}
        refusal = f"field drop: {merges.DUP} is already merged into {merges.IVO}"
    held = Held({"correction", "merge"})
    monkeypatch.setattr(correction_service, "audit", held)

    def correct(officer: str) -> Any:
        return client.post(f"/admin/v1/corrections/{kind}", json=body,
                           headers=bearer(tokens[officer]))  # fmt: skip

    with two_at_once(
        url, lambda: correct("officer1"), lambda: correct("officer2"), held
    ) as answers:
        pass
    done, late = both_answered(answers)
    assert done.status_code == 201, done.text
    assert late.status_code == 422, late.text
    assert late.json()["detail"] == refusal
    assert query(url, "SELECT kind, actor FROM corrections") == [(kind, "officer1")]
    logged = query(url, "SELECT actor FROM audit_log WHERE action IN ('correction', 'merge')")
    assert logged == [("officer1",)]
    revisions = query(url, "SELECT max(revision) FROM rating_lists WHERE source = 'close'")
    assert revisions == [(2,)]
    assert main(["periods", "verify", "--all", "--database-url", url]) == 0
    capsys.readouterr()


@pytest.mark.parametrize(
    ("second", "refusal"),
    [
        # 3099 merged into Ivo and into Jan at once (neither pair conflicts).
        ({"keep": merges.JAN, "drop": merges.DUP},
         f"field drop: {merges.DUP} is already merged into {merges.IVO}"),
        # 3099 merged into Ivo while Jan is merged into 3099.
        ({"keep": merges.DUP, "drop": merges.JAN},
         f"field keep: {merges.DUP} is already merged into {merges.IVO}"),
    ],
    ids=["one duplicate into two players", "the duplicate kept by the other"],
)  # fmt: skip
def test_two_merges_of_the_same_player_at_once(
    client: TestClient,
    tokens: dict[str, str],
    database_url: str,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    second: dict[str, str],
    refusal: str,
) -> None:
    """Issue 28: the second merge waits for the first (the players' rows locked), then finds
    3099 merged already and says so (422, never a 500): one merge, its games all moved once,
    none lost, the lists verified."""
    url = database_url
    chain.build(capsys, url, tmp_path / "db", tournaments=merges.chain(merges.DUP),
                players=merges.PLAYERS, periods=merges.PERIODS)  # fmt: skip
    games = query(url, "SELECT count(*) FROM games WHERE superseded_by IS NULL")
    held = Held({"merge"})
    monkeypatch.setattr(correction_service, "audit", held)

    def merge(officer: str, body: dict[str, str]) -> Any:
        return client.post("/admin/v1/corrections/merge", json=body | {"reason": "one person"},
                           headers=bearer(tokens[officer]))  # fmt: skip

    first = {"keep": merges.IVO, "drop": merges.DUP}
    with two_at_once(
        url, lambda: merge("officer1", first), lambda: merge("officer2", second), held
    ) as answers:
        pass
    done, late = both_answered(answers)
    assert done.status_code == 201, done.text
    assert late.status_code == 422, late.text
    assert late.json()["detail"] == refusal
    assert query(url, "SELECT kind, actor FROM corrections") == [("merge", "officer1")]
    assert query(url, "SELECT actor FROM audit_log WHERE action = 'merge'") == [("officer1",)]
    merged = query(url, "SELECT player_id, merged_into FROM players WHERE merged_into IS NOT NULL")
    assert merged == [(merges.DUP, merges.IVO)]
    # 3099's two games moved to Ivo once: as many current games as before, none of 3099.
    assert query(url, "SELECT count(*) FROM games WHERE superseded_by IS NULL") == games
    assert query(
        url,
        "SELECT count(*) FROM games WHERE superseded_by IS NULL AND :d IN (white_id, black_id)",
        d=merges.DUP,
    ) == [(0,)]
    assert main(["periods", "verify", "--all", "--database-url", url]) == 0
    capsys.readouterr()


@pytest.mark.parametrize("previews", ["one preview", "two previews"])
def test_a_correction_confirmed_twice_at_once(
    app: FastAPI,
    client: TestClient,
    users: Accounts,
    tokens: dict[str, str],
    database_url: str,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    previews: str,
) -> None:
    """The pages' Confirm sent twice for one preview (two tabs: 409, it is already applied), or
    two officers confirming their previews of the same correction (the second finds the result
    already set: 422 on its page). Applied once, never a 500."""
    url = database_url
    ids = chain.build(capsys, url, tmp_path / "db", periods=(chain.P,))
    fields = {"tournament": ids["T1"], "round": "1", "white": chain.ADA, "black": chain.BEN,
              "result": "+-", "reason": "forfeit"}  # fmt: skip
    second_client = TestClient(app, follow_redirects=False)
    confirms = []
    officers = ("officer1", "officer1") if previews == "one preview" else ("officer1", "officer2")
    numbers: dict[str, str] = {}
    for officer, browser in zip(officers, (client, second_client), strict=True):
        session_id, csrf = users.session(officer)
        browser.cookies.set("ratingdb_session", session_id)
        if officer not in numbers:
            sent = browser.post("/corrections/game", data=fields | {"csrf_token": csrf})
            assert sent.status_code == 303, sent.text
            numbers[officer] = sent.headers["location"].rsplit("/", 1)[1]
        number = numbers[officer]
        page = browser.get(f"/corrections/previews/{number}")
        digest = DIGEST.search(page.text)
        assert digest is not None, page.text
        confirms.append((browser, number, {"csrf_token": csrf, "impact_digest": digest.group(1)}))
    held = Held({"correction"})
    monkeypatch.setattr(correction_service, "audit", held)

    def confirm(index: int) -> Any:
        browser, number, form = confirms[index]
        return browser.post(f"/corrections/previews/{number}/confirm", data=form)

    with two_at_once(url, lambda: confirm(0), lambda: confirm(1), held) as answers:
        pass
    done, late = both_answered(answers)
    assert done.status_code == 303, done.text
    if previews == "one preview":
        assert late.status_code == 409, late.text
        assert f"correction preview {numbers['officer1']} is already applied" in late.text
    else:
        assert late.status_code == 422, late.text
        assert "the game&#39;s result is already +-" in late.text
    assert query(url, "SELECT kind, actor FROM corrections") == [("game", "officer1")]
    assert query(url, "SELECT actor FROM audit_log WHERE action = 'correction'") == [("officer1",)]
    assert main(["periods", "verify", "--all", "--database-url", url]) == 0
    capsys.readouterr()


def test_two_identical_tournament_replacements_at_once(
    client: TestClient,
    tokens: dict[str, str],
    database_url: str,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The same corrected file sent twice at once: applied once; the second waits (the import
    lock), then finds the tournament already as the file gives it and says so (422)."""
    url = database_url
    ids = chain.build(capsys, url, tmp_path / "db", periods=(chain.P,))
    corrected = chain.games_csv(chain.T1, {(1, chain.ADA, chain.BEN): "+-"}).encode()
    held = Held({"correction"})
    monkeypatch.setattr(correction_service, "audit", held)
    path = f"/admin/v1/corrections/tournament/{ids['T1']}?reason=corrected&filename=T1.csv"

    def replace(officer: str) -> Any:
        return client.post(path, content=corrected, headers=bearer(tokens[officer]))

    with two_at_once(
        url, lambda: replace("officer1"), lambda: replace("officer2"), held
    ) as answers:
        pass
    done, late = both_answered(answers)
    assert done.status_code == 201, done.text
    assert late.status_code == 422, late.text
    assert late.json()["detail"] == (
        f"T1.csv, field file: the file gives tournament {ids['T1']} as it is stored: nothing "
        "to correct"
    )
    assert query(url, "SELECT kind, actor FROM corrections") == [("tournament", "officer1")]
    assert query(url, "SELECT actor FROM audit_log WHERE action = 'correction'") == [("officer1",)]
    assert main(["periods", "verify", "--all", "--database-url", url]) == 0
    capsys.readouterr()


def test_two_admins_approve_one_account_at_once(
    client: TestClient, users: Accounts, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An account alice created, approved by bob and carol at the same moment: the account's
    row is locked while a change is decided, so the second waits, then finds nothing to
    approve (422); one approval audited, never two."""
    for name in ("alice", "bob", "carol"):
        users.add(name, "admin")
    admins = {name: bearer(users.token(name)) for name in ("alice", "bob", "carol")}
    created = client.post("/admin/v1/users", headers=admins["alice"],
                          json={"username": "olga", "role": "officer",
                                "password": "a long enough password"})  # fmt: skip
    assert created.status_code == 201, created.text
    held = Held({"user-approve"})
    monkeypatch.setattr(account_service, "audit", held)

    def approve(admin: str) -> Any:
        return client.post("/admin/v1/users/olga/approve", headers=admins[admin])

    with two_at_once(
        database_url, lambda: approve("bob"), lambda: approve("carol"), held
    ) as answers:
        pass
    done, late = both_answered(answers)
    assert done.status_code == 200, done.text
    assert late.status_code == 422, late.text
    assert late.json()["detail"] == "username: user 'olga' awaits no approval"
    assert query(database_url, "SELECT actor FROM audit_log WHERE action = 'user-approve'") == [
        ("bob",)
    ]
