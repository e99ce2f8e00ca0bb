"""accounts hardened: token scopes, audit channels, throttling buckets, known browsers,
password changes and four-eyes approval of accounts.

- ``api_tokens.scope`` (read, submit, full): what a token may do at most. Tokens issued before
  this revision could do everything their owner's role allowed: they become ``full``.
- ``audit_log.channel`` (web, api, cli, scheduler, direct) and ``audit_log.credential`` (the
  session, the token, the operating system user): NULL on the entries written before.
- ``users.must_change_password`` and ``users.awaiting_approval_from_other_than`` (the admin who
  chose the password of a new or reset account, which signs nobody in until another admin
  approves it).
- ``sign_in_throttles``: one row per throttling bucket, locked while an attempt is decided.
- ``known_devices``: the browsers each user signed in from.

SQLite: ``users``, ``api_tokens`` and ``audit_log`` are rebuilt under their own names
(ratingdb.db.sqlite_rebuild), since a CHECK or a foreign key cannot be added in place.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-03 22:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from ratingdb.db.sqlite_rebuild import copy_table, rebuild_sqlite, sqlite

# revision identifiers, used by Alembic.
revision: str = "0012"
down_revision: str | Sequence[str] | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SCOPE_CHECK = "scope IN ('read', 'submit', 'full')"
CHANNEL_CHECK = "channel IN ('web', 'api', 'cli', 'scheduler', 'direct')"
APPROVAL_FK = "fk_users_awaiting_approval_from_other_than_users"


def _users_columns() -> list[sa.Column[object]]:
    return [
        sa.Column("must_change_password", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("awaiting_approval_from_other_than", sa.Integer(), nullable=True),
    ]


def _users_after(old: sa.Table, metadata: sa.MetaData) -> sa.Table:
    new = copy_table(old, metadata)
    for column in _users_columns():
        new.append_column(column)
    new.append_constraint(
        sa.ForeignKeyConstraint(
            ["awaiting_approval_from_other_than"], ["users.id"], name=APPROVAL_FK
        )
    )
    return new


def _tokens_after(old: sa.Table, metadata: sa.MetaData) -> sa.Table:
    new = copy_table(old, metadata)
    # Every existing token keeps what it could do: the rows are copied with the default.
    new.append_column(
        sa.Column("scope", sa.String(length=10), nullable=False, server_default="full")
    )
    new.append_constraint(sa.CheckConstraint(SCOPE_CHECK, name="ck_api_tokens_scope"))
    return new


def _tokens_without_default(old: sa.Table, metadata: sa.MetaData) -> sa.Table:
    new = copy_table(old, metadata)
    new.c.scope.server_default = None
    return new


def _audit_after(old: sa.Table, metadata: sa.MetaData) -> sa.Table:
    new = copy_table(old, metadata)
    new.append_column(sa.Column("channel", sa.String(length=10), nullable=True))
    new.append_column(sa.Column("credential", sa.String(length=120), nullable=True))
    new.append_constraint(sa.CheckConstraint(CHANNEL_CHECK, name="ck_audit_log_channel"))
    return new


def upgrade() -> None:
    if sqlite():
        rebuild_sqlite("users", _users_after, revision="0012")
        rebuild_sqlite("api_tokens", _tokens_after, revision="0012")
        rebuild_sqlite("api_tokens", _tokens_without_default, revision="0012b")
        rebuild_sqlite("audit_log", _audit_after, revision="0012")
    else:
        for column in _users_columns():
            op.add_column("users", column)
        op.create_foreign_key(
            APPROVAL_FK, "users", "users", ["awaiting_approval_from_other_than"], ["id"]
        )
        op.add_column(
            "api_tokens",
            sa.Column("scope", sa.String(length=10), nullable=False, server_default="full"),
        )
        op.alter_column("api_tokens", "scope", server_default=None)
        op.create_check_constraint(op.f("ck_api_tokens_scope"), "api_tokens", SCOPE_CHECK)
        op.add_column("audit_log", sa.Column("channel", sa.String(length=10), nullable=True))
        op.add_column("audit_log", sa.Column("credential", sa.String(length=120), nullable=True))
        op.create_check_constraint(op.f("ck_audit_log_channel"), "audit_log", CHANNEL_CHECK)

    op.create_table(
        "sign_in_throttles",
        sa.Column("bucket", sa.String(length=200), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("last_failure_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("next_allowed_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("failures >= 0", name=op.f("ck_sign_in_throttles_failures")),
        sa.PrimaryKeyConstraint("bucket", name=op.f("pk_sign_in_throttles")),
    )
    op.create_index(
        op.f("ix_sign_in_throttles_last_failure_at"), "sign_in_throttles", ["last_failure_at"]
    )
    op.create_table(
        "known_devices",
        sa.Column("id_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_known_devices_user_id_users")
        ),
        sa.PrimaryKeyConstraint("id_hash", name=op.f("pk_known_devices")),
    )
    op.create_index(op.f("ix_known_devices_user_id"), "known_devices", ["user_id"])


def _users_before(old: sa.Table, metadata: sa.MetaData) -> sa.Table:
    return copy_table(old, metadata, drop=[c.name for c in _users_columns()])


def _tokens_before(old: sa.Table, metadata: sa.MetaData) -> sa.Table:
    new = copy_table(old, metadata, drop=["scope"])
    for constraint in list(new.constraints):
        if isinstance(constraint, sa.CheckConstraint) and "scope" in str(constraint.sqltext):
            new.constraints.discard(constraint)
    return new


def _audit_before(old: sa.Table, metadata: sa.MetaData) -> sa.Table:
    new = copy_table(old, metadata, drop=["channel", "credential"])
    for constraint in list(new.constraints):
        if isinstance(constraint, sa.CheckConstraint) and "channel" in str(constraint.sqltext):
            new.constraints.discard(constraint)
    return new


def downgrade() -> None:
    op.drop_index(op.f("ix_known_devices_user_id"), table_name="known_devices")
    op.drop_table("known_devices")
    op.drop_index(op.f("ix_sign_in_throttles_last_failure_at"), table_name="sign_in_throttles")
    op.drop_table("sign_in_throttles")
    if sqlite():
        rebuild_sqlite("audit_log", _audit_before, revision="0012")
        rebuild_sqlite("api_tokens", _tokens_before, revision="0012")
        rebuild_sqlite("users", _users_before, revision="0012")
    else:
        op.drop_constraint(op.f("ck_audit_log_channel"), "audit_log", type_="check")
        op.drop_column("audit_log", "credential")
        op.drop_column("audit_log", "channel")
        op.drop_constraint(op.f("ck_api_tokens_scope"), "api_tokens", type_="check")
        op.drop_column("api_tokens", "scope")
        op.drop_constraint(APPROVAL_FK, "users", type_="foreignkey")
        op.drop_column("users", "awaiting_approval_from_other_than")
        op.drop_column("users", "must_change_password")
