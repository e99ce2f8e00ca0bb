"""Which tables the public may read. The public API's database role (docker/read-only-role.sql)
reads every table but these: the back office's accounts, secrets, uploads and the audit log of
who did what. Every table is one or the other (a test checks that each table of the metadata is
named here or in PUBLIC_TABLES), so a new table is a decision, not an accident."""

from __future__ import annotations

BACK_OFFICE_TABLES = frozenset(
    {"users", "api_tokens", "web_sessions", "sign_in_attempts", "submissions", "audit_log"}
    # Corrections previewed in the back office (their uploaded files, their reasons).
    | {"correction_previews"}
    # Lists previewed and approved for publication (who previewed and approved them).
    | {"publication_previews"}
    # Each category's publication mode, as admins chose it (who, when, why).
    | {"publication_modes"}
    # Sign-in throttling and the browsers users signed in from.
    | {"sign_in_throttles", "known_devices"}
)

PUBLIC_TABLES = frozenset(
    {
        "alembic_version",
        "player_calculations",
        "corrections",
        "games",
        "latest_entries",
        "latest_lists",
        "list_chunks",
        "list_entries",
        "periods",
        "player_status",
        "players",
        # What a player's record was on a date (migration 0018): exports read it.
        "player_federations",
        "player_titles",
        "player_status_changes",
        # How many player edits there were: the public caches' key (migration 0018).
        "player_edits",
        "rating_lists",
        # The players a correction's revision recomputed (migration 0019).
        "revised_players",
        "tournaments",
    }
)
