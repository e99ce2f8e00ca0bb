"""An audit entry in words for the back office's audit page (issue 28 item 9): what was done,
then its counts and details as "name: value" phrases, nested values spelt out, and the
database's internal ids (of games, corrections, previews, lists) left out: an officer reads
tournaments, players and periods, not row numbers. The JSON API keeps the entry as stored."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

#: What each action is, in words (an action not named here is shown with its dashes as spaces).
ACTIONS: Final[dict[str, str]] = {
    "tournament-import": "tournament imported",
    "list-import": "list imported",
    "list-rows-rebuild": "a list's change rows written again from its chunks",
    "close": "period closed and list published",
    "close-awaiting-approval": "period computed, awaiting an officer's approval",
    "correction": "correction applied",
    "merge": "players merged",
    "correction-preview-discard": "correction preview discarded",
    "publication-approve": "list approved for publication",
    "publication-mode": "publication mode changed",
    "player-edit": "player record edited",
    "submission-upload": "tournament file sent",
    "submission-accept": "submission accepted",
    "submission-reject": "submission rejected",
    "sign-in": "signed in",
    "sign-in-failure": "sign-in refused",
    "sign-in-throttled": "sign-in refused: too many attempts",
    "sign-in-awaiting-approval": "sign-in refused: account awaits approval",
    "sign-out": "signed out",
    "password-change": "password changed",
    "password-reset": "password reset",
    "token-issue": "API token issued",
    "token-revoke": "API tokens revoked",
    "user-add": "account created",
    "user-approve": "account approved",
    "user-disable": "account disabled",
    "user-enable": "account enabled",
}

#: Internal row ids, meaningless to a reader (a game is named by its tournament and players).
INTERNAL: Final = frozenset(
    {"game_id", "correction_id", "preview_id", "list_id", "rating_list_id", "period_id", "id",
     "user_id", "token_id", "old_game_id", "new_game_id"}
)  # fmt: skip


def action_words(action: str) -> str:
    return ACTIONS.get(action, action.replace("-", " "))


def entry_words(counts: Mapping[str, Any], details: Mapping[str, Any]) -> str:
    """The counts then the details, as phrases separated by semicolons."""
    phrases = [f"{_name(key)}: {_value(value)}" for key, value in counts.items()]
    phrases += [
        f"{_name(key)}: {_value(value)}"
        for key, value in details.items()
        if key not in INTERNAL and value not in (None, "", [], {})
    ]
    return "; ".join(phrases)


def _name(key: str) -> str:
    return key.replace("_", " ")


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping) and set(value) == {"before", "after"}:
        # A value changed (a player's edited field): "from A to B", "none" for no value.
        return f"from {_shown(value['before'])} to {_shown(value['after'])}"
    if isinstance(value, Mapping):
        shown = [
            f"{_name(str(k))} {_value(v)}"
            for k, v in value.items()
            if k not in INTERNAL and v not in (None, "", [], {})
        ]
        return ", ".join(shown) if shown else "none"
    if isinstance(value, Sequence) and not isinstance(value, str):
        return ", ".join(_value(item) for item in value) if value else "none"
    return str(value)


def _shown(value: Any) -> str:
    return "none" if value in (None, "") else _value(value)
