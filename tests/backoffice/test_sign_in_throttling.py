"""Sign-in throttling (issue 25, items 2 and 3): delays that grow, never a lock an attacker can
renew for ever; a browser the user signed in from before is not delayed by anybody else's
failures; concurrent attempts are counted one after the other; password checks are bounded.

The delays are worked by hand from the rule in ratingdb/services/sign_in.py's docstring: the
first 4 failures of a name are free, then 1 s, 2 s, 4 s... at most 15 minutes; an address has
10 free failures.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import Engine, select

from ratingdb.models import AuditRow, SignInAttemptRow
from ratingdb.services import passwords, sign_in
from ratingdb.services.sign_in import MAX_DELAY, delay_after
from tests.backoffice.conftest import PASSWORD, Accounts, Clock, accounts_on, login_csrf

WRONG = "not the password at all"


# The rule, worked by hand ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("failures", "seconds"),
    [(0, 0), (1, 0), (4, 0), (5, 1), (6, 2), (7, 4), (8, 8), (13, 256), (14, 512), (15, 900),
     (16, 900), (1000, 900)],
)  # fmt: skip
def test_the_delay_after_each_failure(failures: int, seconds: int) -> None:
    assert delay_after(failures) == timedelta(seconds=seconds)


def test_an_address_has_ten_free_failures() -> None:
    assert delay_after(10, sign_in.FREE_ADDRESS_FAILURES) == timedelta(0)
    assert delay_after(11, sign_in.FREE_ADDRESS_FAILURES) == timedelta(seconds=1)
    assert delay_after(12, sign_in.FREE_ADDRESS_FAILURES) == timedelta(seconds=2)


@given(st.integers(min_value=0, max_value=10_000))
def test_delays_never_shrink_and_never_pass_15_minutes(failures: int) -> None:
    assert timedelta(0) <= delay_after(failures) <= delay_after(failures + 1) <= MAX_DELAY


# Through the service --------------------------------------------------------------------------


def _attempt(
    users: Accounts,
    username: str,
    password: str,
    address: str = "198.51.100.7",
    device: str | None = None,
) -> sign_in.SignIn:
    """A sign-in through the service, in the users' database, at their clock."""
    with users.sessions.begin() as session:
        return sign_in.sign_in(
            session, username, password, address, users.clock(), device_id=device
        )


def test_failures_delay_a_name_more_and_more_and_the_right_password_waits_too(
    users: Accounts, clock: Clock
) -> None:
    users.add("alice", "admin")
    for index in range(4):
        assert _attempt(users, "alice", WRONG, f"198.51.100.{index}").retry_after is None
    assert _attempt(users, "alice", WRONG).retry_after is None  # the 5th is checked
    # Now 1 s: even the right password is refused unchecked, from anywhere.
    refused = _attempt(users, "alice", PASSWORD, "203.0.113.9")
    assert refused.retry_after == timedelta(seconds=1)
    assert refused.session_id is None
    waited = timedelta(0)
    for expected in (1, 2, 4, 8):  # each failure made as soon as allowed
        clock.advance(seconds=expected)
        waited += timedelta(seconds=expected)
        assert _attempt(users, "alice", WRONG).retry_after is None
        assert _attempt(users, "alice", WRONG).retry_after == timedelta(seconds=2 * expected)
    assert waited == timedelta(seconds=15)
    clock.advance(seconds=16)
    assert _attempt(users, "alice", PASSWORD, "203.0.113.9").session_id is not None
    # A success starts the name afresh: four free failures again.
    for _ in range(4):
        assert _attempt(users, "alice", WRONG, "203.0.113.10").retry_after is None
    assert _attempt(users, "alice", PASSWORD, "203.0.113.10").session_id is not None


def test_the_delay_never_passes_15_minutes_and_failures_are_forgotten_after_a_day(
    users: Accounts, clock: Clock
) -> None:
    users.add("alice", "admin")
    checked = 0
    while checked < 20:  # 20 failures, each as soon as allowed
        outcome = _attempt(users, "alice", WRONG, "198.51.100.1")
        if outcome.retry_after is None:
            checked += 1
        else:
            assert outcome.retry_after <= timedelta(minutes=15)
            clock.advance(seconds=outcome.retry_after.total_seconds())
    refused = _attempt(users, "alice", PASSWORD, "198.51.100.2")
    assert refused.retry_after == timedelta(minutes=15)
    clock.advance(hours=24)
    # A day after the last failure: forgotten, four free failures again.
    for _ in range(4):
        assert _attempt(users, "alice", WRONG, "198.51.100.3").retry_after is None
    assert _attempt(users, "alice", PASSWORD, "198.51.100.3").session_id is not None


def test_an_attacker_cannot_keep_the_user_out_of_a_browser_they_signed_in_from(
    users: Accounts, clock: Clock
) -> None:
    users.add("alice", "officer")
    first = _attempt(users, "alice", PASSWORD, "192.0.2.10")
    assert first.device_id is not None  # alice's browser is now known
    for _ in range(40):  # an attacker, from everywhere, as fast as the delays allow
        outcome = _attempt(users, "alice", WRONG, "203.0.113.66")
        if outcome.retry_after is not None:
            clock.advance(seconds=outcome.retry_after.total_seconds() - 1)
    # alice's own browser: in at once, whatever the attacker did.
    own = _attempt(users, "alice", PASSWORD, "192.0.2.10", device=first.device_id)
    assert own.session_id is not None
    assert own.device_id is None  # known already: no new cookie
    # Another browser is delayed.
    assert _attempt(users, "alice", PASSWORD, "192.0.2.11").retry_after is not None
    # alice's cookie is known for alice only: with bob's name it is an unknown browser.
    users.add("bob", "officer")
    for _ in range(5):
        _attempt(users, "bob", WRONG, "203.0.113.67")
    borrowed = _attempt(users, "bob", PASSWORD, "192.0.2.10", device=first.device_id)
    assert borrowed.retry_after == timedelta(seconds=1)


def test_a_known_browser_has_its_own_delays(users: Accounts) -> None:
    """Its failures are counted too (a stolen cookie buys no free guesses)."""
    users.add("alice", "officer")
    device = _attempt(users, "alice", PASSWORD).device_id
    for _ in range(5):
        assert _attempt(users, "alice", WRONG, device=device).retry_after is None
    refused = _attempt(users, "alice", PASSWORD, device=device)
    assert refused.retry_after == timedelta(seconds=1)
    # ...and they do not delay the name for other browsers.
    assert _attempt(users, "alice", PASSWORD, "192.0.2.99").session_id is not None


def test_an_address_spraying_names_is_delayed_but_not_its_users_known_browsers(
    users: Accounts,
) -> None:
    users.add("alice", "officer")
    device = _attempt(users, "alice", PASSWORD, "198.51.100.50").device_id
    for index in range(11):  # 10 free failures for one address, then delays
        name = f"guess{index}"
        assert _attempt(users, name, WRONG, "198.51.100.50").retry_after is None
    assert _attempt(users, "alice", PASSWORD, "198.51.100.50").retry_after == timedelta(seconds=1)
    assert _attempt(users, "alice", PASSWORD, "198.51.100.51").session_id is not None
    same_place = _attempt(users, "alice", PASSWORD, "198.51.100.50", device=device)
    assert same_place.session_id is not None


def test_the_page_answers_429_with_retry_after_and_audits_the_delay(
    client: TestClient, users: Accounts
) -> None:
    users.add("alice", "admin")
    for _ in range(5):
        token = login_csrf(client)
        answer = client.post("/login", data={"csrf_token": token, "username": "alice",
                                             "password": WRONG})  # fmt: skip
        assert answer.status_code == 401
    token = login_csrf(client)
    answer = client.post("/login", data={"csrf_token": token, "username": "alice",
                                         "password": PASSWORD})  # fmt: skip
    assert answer.status_code == 429
    assert answer.headers["retry-after"] == "1"
    assert "try again in 1 seconds" in answer.text
    with users.sessions() as session:
        entries = session.execute(
            select(AuditRow.action, AuditRow.channel).where(AuditRow.actor == "alice")
        ).all()
    assert [tuple(e) for e in entries] == [("sign-in-failure", "web")] * 5 + [
        ("sign-in-throttled", "web")
    ]


def test_a_known_browser_gets_a_long_lived_cookie_sent_to_the_sign_in_form_only(
    client: TestClient, users: Accounts
) -> None:
    users.add("alice", "admin")
    token = login_csrf(client)
    answer = client.post("/login", data={"csrf_token": token, "username": "alice",
                                         "password": PASSWORD})  # fmt: skip
    assert answer.status_code == 303
    cookie = next(
        v for v in answer.headers.get_list("set-cookie") if v.startswith("ratingdb_device=")
    )
    attributes = {part.strip().split("=")[0].lower() for part in cookie.split(";")}
    assert {"httponly", "path", "max-age", "samesite"} <= attributes
    assert "Path=/login" in cookie
    assert f"Max-Age={180 * 24 * 3600}" in cookie
    assert "SameSite=strict" in cookie or "SameSite=Strict" in cookie


# At once ------------------------------------------------------------------------------------


def test_a_burst_of_attempts_gets_exactly_the_free_failures_checked(
    engine: Engine, clock: Clock
) -> None:
    """19 wrong passwords for one name at the same instant, each in its own transaction and
    thread: 5 are checked (4 free failures and the one that starts the delay), 14 refused
    unchecked. Before: the check and the record were not atomic on PostgreSQL (19 checked).
    Connections racing each other: on a database of its own (``engine``), not in the
    rolled-back transaction the other tests' ``users`` hold."""
    users = accounts_on(engine, clock)
    users.add("alice", "admin")
    start = threading.Barrier(19)
    outcomes: list[str] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def attempt(index: int) -> None:
        try:
            start.wait(timeout=60)
            outcome = _attempt(users, "alice", WRONG, f"198.51.100.{index}")
            with lock:
                outcomes.append("refused" if outcome.throttled else "checked")
        except BaseException as error:  # reported below, not swallowed
            with lock:
                errors.append(error)

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(19)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not errors, errors
    assert sorted(outcomes) == ["checked"] * 5 + ["refused"] * 14
    with users.sessions() as session:
        failures = session.scalars(
            select(SignInAttemptRow.outcome).where(SignInAttemptRow.username == "alice")
        ).all()
    assert sorted(failures) == ["failure"] * 5 + ["refused"] * 14


class _HeldHasher:
    """Counts the password checks running at once and holds each until released."""

    def __init__(self, real: object) -> None:
        self.real = real
        self.running = 0
        self.most = 0
        self.lock = threading.Lock()
        self.full = threading.Event()
        self.release = threading.Event()

    def verify(self, password_hash: str, password: str) -> bool:
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)
            if self.running == passwords.HASHING_SLOTS:
                self.full.set()
        try:
            assert self.release.wait(timeout=120)
            return bool(self.real.verify(password_hash, password))  # type: ignore[attr-defined]
        finally:
            with self.lock:
                self.running -= 1

    def __getattr__(self, name: str) -> object:
        return getattr(self.real, name)


def test_password_checks_are_bounded_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """12 password checks at once (60 sign-ins with unknown names took the back office to
    1.1 GB): at most HASHING_SLOTS run at once (each costs 64 MiB with argon2's defaults), the
    others wait for a slot."""
    hashed = passwords.hash_password(PASSWORD)
    held = _HeldHasher(passwords._hasher)
    monkeypatch.setattr(passwords, "_hasher", held)
    results: list[bool] = []
    errors: list[BaseException] = []

    def check() -> None:
        try:
            results.append(passwords.verify(hashed, WRONG))
        except BaseException as error:  # reported below, not swallowed
            errors.append(error)

    threads = [threading.Thread(target=check) for _ in range(12)]
    for thread in threads:
        thread.start()
    assert held.full.wait(timeout=120)
    assert passwords._slots._value == 0  # the others wait for a slot
    held.release.set()
    for thread in threads:
        thread.join(timeout=300)
    assert not errors, errors
    assert results == [False] * 12
    assert held.most == passwords.HASHING_SLOTS


def test_a_sign_in_that_finds_no_free_slot_gets_503_with_retry_after(
    client: TestClient, users: Accounts, monkeypatch: pytest.MonkeyPatch
) -> None:
    users.add("alice", "admin")
    monkeypatch.setattr(passwords, "HASHING_WAIT", 0.01)
    token = login_csrf(client)
    taken = 0
    try:
        while passwords._slots.acquire(blocking=False):
            taken += 1
        answer = client.post("/login", data={"csrf_token": token, "username": "alice",
                                             "password": PASSWORD})  # fmt: skip
    finally:
        for _ in range(taken):
            passwords._slots.release()
    assert taken == passwords.HASHING_SLOTS
    assert answer.status_code == 503
    assert answer.headers["retry-after"] == "5"
    assert "busy" in answer.json()["detail"]
    # Nothing was decided: the attempt counts as no failure.
    token = login_csrf(client)
    answer = client.post("/login", data={"csrf_token": token, "username": "alice",
                                         "password": PASSWORD})  # fmt: skip
    assert answer.status_code == 303
