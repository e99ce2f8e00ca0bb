"""Revision 0012: tokens made before scopes keep what they could do (``full``), audit entries
made before channels say none (NULL), users keep their passwords and need no approval, the
new CHECKs and keys guard the new columns, and everything survives the SQLite rebuilds both
ways (web sessions, tokens and submissions still point at their users). SQLite and
PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy.exc import IntegrityError

from ratingdb.db import current_revision, downgrade, head_revision, upgrade
from tests.migrations.test_0005_list_replace_kind import run, scalar
from tests.support.sql import table_names

USER = (
    "INSERT INTO users (id, username, role, password_hash, disabled) VALUES "
    "(1, 'olga', 'officer', '$argon2id$kept', false)"
)
TOKEN = (
    "INSERT INTO api_tokens (id, user_id, label, prefix, token_hash, created_at, expires_at) "
    "VALUES (1, 1, 'pairing', 'abcdefgh', :digest, '2026-11-01 00:00:00', '2027-02-01 00:00:00')"
)
SESSION = (
    "INSERT INTO web_sessions (id_hash, user_id, created_at, last_seen_at, expires_at, "
    "csrf_secret) VALUES (:digest, 1, '2026-12-01 09:00:00', '2026-12-01 09:00:00', "
    "'2026-12-01 21:00:00', :digest)"
)
AUDIT = (
    "INSERT INTO audit_log (id, action, actor, at, counts, details) VALUES "
    "(1, 'user-add', 'alice', '2026-11-01 00:00:00', '{}', '{}')"
)


def test_accounts_hardened_up_and_down(database_url: str) -> None:
    url = database_url
    downgrade(url, "0011")
    run(url, USER)
    run(url, TOKEN, digest="d" * 64)
    run(url, SESSION, digest="e" * 64)
    run(url, AUDIT)
    upgrade(url)
    assert current_revision(url) == head_revision()
    assert scalar(url, "SELECT scope FROM api_tokens WHERE id = 1") == "full"
    assert scalar(url, "SELECT channel FROM audit_log WHERE id = 1") is None
    assert scalar(url, "SELECT password_hash FROM users WHERE id = 1") == "$argon2id$kept"
    assert scalar(url, "SELECT awaiting_approval_from_other_than FROM users") is None
    assert not scalar(url, "SELECT must_change_password FROM users")
    assert scalar(url, "SELECT user_id FROM web_sessions") == 1
    assert {"sign_in_throttles", "known_devices"} <= table_names(url)
    # The database guards the new columns.
    with pytest.raises(IntegrityError):
        run(url, "UPDATE api_tokens SET scope = 'admin' WHERE id = 1")
    with pytest.raises(IntegrityError):
        run(url, "UPDATE audit_log SET channel = 'email' WHERE id = 1")
    with pytest.raises(IntegrityError):
        run(url, "UPDATE users SET awaiting_approval_from_other_than = 99 WHERE id = 1")
    with pytest.raises(IntegrityError):
        run(url, "INSERT INTO api_tokens (user_id, label, prefix, token_hash, created_at, "
            "expires_at) VALUES (1, 'x', 'x', :digest, '2026-11-01 00:00:00', "
            "'2027-02-01 00:00:00')", digest="f" * 64)  # fmt: skip  # no scope: refused
    with pytest.raises(IntegrityError):
        run(url, "INSERT INTO sign_in_throttles VALUES ('user:x', -1, '2026-12-01 00:00:00', "
            "'2026-12-01 00:00:00')")  # fmt: skip
    downgrade(url, "0011")
    assert current_revision(url) == "0011"
    assert not {"sign_in_throttles", "known_devices"} & table_names(url)
    assert scalar(url, "SELECT count(*) FROM api_tokens") == 1
    assert scalar(url, "SELECT count(*) FROM audit_log") == 1
    assert scalar(url, "SELECT user_id FROM web_sessions") == 1
    upgrade(url)
    assert current_revision(url) == head_revision()
