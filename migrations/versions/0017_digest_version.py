"""digest version: ``rating_lists.digest_version``, what each list's digest covers (1: an entry
up to its K; 2: and its activity flag)

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-04 12:40:00

Issue 27, item 3: a list's activity is part of its digest. A published list's digest never
changes (it is what proves the list did not), so the lists already published keep theirs,
version 1 (the server default given to every existing row); the lists written from this
revision on are digested in version 2, and ``periods verify`` checks each list with its own.

The downgrade digests the version-2 lists again in version 1 (from their chunks, which hold
the same entries: nothing else changes), with a frozen copy of the version-1 digest
(``_digest_v1``: SHA-256 of the compact JSON of the sorted (player_id, rating,
previous_rating, change, games, k_factor) of every entry).
"""

import hashlib
import json
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

import ratingdb.db.chunk_format_v2 as v2
from ratingdb.db.sqlite_rebuild import copy_table, rebuild_sqlite, sqlite

# revision identifiers, used by Alembic.
revision: str = "0017"
down_revision: str | Sequence[str] | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CHECK = "ck_rating_lists_digest_version_known"
CONDITION = "digest_version IN (1, 2)"
_V1_FIELDS = ("player_id", "rating", "previous_rating", "change", "games", "k_factor")


def _with_version(old: sa.Table, metadata: sa.MetaData) -> sa.Table:
    new = copy_table(old, metadata)
    new.append_constraint(sa.CheckConstraint(CONDITION, name=CHECK))
    return new


def _without_version(old: sa.Table, metadata: sa.MetaData) -> sa.Table:
    new = copy_table(old, metadata, drop=("digest_version",))
    for constraint in list(new.constraints):
        if constraint.name == CHECK:
            new.constraints.discard(constraint)
    return new


def _digest_v1(entries: Sequence[tuple[Any, ...]]) -> str:
    text = json.dumps([list(e) for e in sorted(entries)], separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def upgrade() -> None:
    op.add_column(
        "rating_lists",
        sa.Column("digest_version", sa.SmallInteger(), server_default="1", nullable=False),
    )
    if sqlite():
        rebuild_sqlite("rating_lists", _with_version, revision="0017")
    else:
        op.create_check_constraint(op.f(CHECK), "rating_lists", CONDITION)


def downgrade() -> None:
    bind = op.get_bind()
    later = bind.execute(
        sa.text(
            "SELECT id FROM rating_lists WHERE digest_version = 2 AND digest IS NOT NULL "
            "ORDER BY id"
        )
    ).scalars()
    for list_id in list(later):
        chunks = bind.execute(
            sa.text("SELECT entries FROM list_chunks WHERE list_id = :id ORDER BY chunk"),
            {"id": list_id},
        ).scalars()
        entries: list[tuple[Any, ...]] = []
        for packed in chunks:
            entries.extend(zip(*v2.columns(bytes(packed), _V1_FIELDS), strict=True))
        bind.execute(
            sa.text("UPDATE rating_lists SET digest = :digest WHERE id = :id"),
            {"digest": _digest_v1(entries), "id": list_id},
        )
    if sqlite():
        rebuild_sqlite("rating_lists", _without_version, revision="0017")
    else:
        op.drop_constraint(op.f(CHECK), "rating_lists", type_="check")
        op.drop_column("rating_lists", "digest_version")
