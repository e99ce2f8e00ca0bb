"""An audit entry in words for the back office's audit page (issue 28 item 9): what was done,
then its counts and details as "name: value" phrases, nested values spelt out, and the
database's internal ids (of games, corrections, previews, lists) left out: an officer reads
tournaments, players and periods, not row numbers. The words are messages (rules.messages),
so that a French page says them in French; the stored values themselves (a name, a reason, a
period) are shown as stored. The JSON API keeps the entry as stored."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from ratingdb.rules.messages import N_, Message, Param, in_turn

#: What each action is, in words (an action not named here is shown with its dashes as spaces).
ACTIONS: Final[dict[str, str]] = {
    "tournament-import": N_("tournament imported"),
    "list-import": N_("list imported"),
    "list-rows-rebuild": N_("a list's change rows written again from its chunks"),
    "close": N_("period closed and list published"),
    "close-awaiting-approval": N_("period computed, awaiting an officer's approval"),
    "correction": N_("correction applied"),
    "merge": N_("players merged"),
    "correction-preview-discard": N_("correction preview discarded"),
    "publication-approve": N_("list approved for publication"),
    "publication-mode": N_("publication mode changed"),
    "player-edit": N_("player record edited"),
    "submission-upload": N_("tournament file sent"),
    "submission-accept": N_("submission accepted"),
    "submission-reject": N_("submission rejected"),
    "sign-in": N_("signed in"),
    "sign-in-failure": N_("sign-in refused"),
    "sign-in-throttled": N_("sign-in refused: too many attempts"),
    "sign-in-awaiting-approval": N_("sign-in refused: account awaits approval"),
    "sign-out": N_("signed out"),
    "password-change": N_("password changed"),
    "password-reset": N_("password reset"),
    "token-issue": N_("API token issued"),
    "token-revoke": N_("API tokens revoked"),
    "user-add": N_("account created"),
    "user-approve": N_("account approved"),
    "user-disable": N_("account disabled"),
    "user-enable": N_("account enabled"),
}

#: The names of the counts and details the services record, in words (a key's underscores as
#: spaces): marked for the catalogue. tests/backoffice/test_audit_words.py reads every
#: ``audit.record`` call's keys and checks that each is here.
KEY_WORDS: Final = frozenset({
    N_("address"), N_("after"), N_("awaiting approval"),
    N_("awaiting approval from other than"), N_("before"), N_("birth date"), N_("birth year"),
    N_("bucket"), N_("categories"), N_("category"), N_("changes"), N_("count"), N_("digest"),
    N_("disabled"), N_("drop"), N_("effective from"), N_("entries"), N_("expires"),
    N_("federation"), N_("fide id"), N_("file"), N_("first ratings"), N_("format"),
    N_("games"), N_("games after"), N_("games before"), N_("keep"), N_("kind"),
    N_("known browser"), N_("label"), N_("late"), N_("late reason"), N_("mode"), N_("name"),
    N_("national federation"), N_("national id"), N_("override"), N_("period"), N_("player"),
    N_("players"), N_("players changed"), N_("players created"), N_("players updated"),
    N_("rated games"), N_("reason"), N_("result"), N_("revision"), N_("revisions"), N_("role"),
    N_("rows"), N_("rows after"), N_("rows before"), N_("rule version"), N_("scope"),
    N_("sex"), N_("state"), N_("status"), N_("submission id"), N_("title"), N_("tokens"),
    N_("tournament id"), N_("tournament ids"), N_("tournaments"), N_("unrated"), N_("user"),
    N_("username"), N_("warnings"),
})  # fmt: skip

#: Internal row ids, meaningless to a reader (a game is named by its tournament and players).
INTERNAL: Final = frozenset(
    {"game_id", "correction_id", "preview_id", "list_id", "rating_list_id", "period_id", "id",
     "user_id", "token_id", "old_game_id", "new_game_id"}
)  # fmt: skip

NONE: Final = Message(N_("none"))


def action_words(action: str) -> Message:
    return Message(ACTIONS.get(action, action.replace("-", " ")))


def entry_words(counts: Mapping[str, Any], details: Mapping[str, Any]) -> Message:
    """The counts then the details, as phrases separated by semicolons."""
    phrases = [_phrase(N_("%(name)s: %(value)s"), key, value) for key, value in counts.items()]
    phrases += [
        _phrase(N_("%(name)s: %(value)s"), key, value)
        for key, value in details.items()
        if key not in INTERNAL and value not in (None, "", [], {})
    ]
    return in_turn(phrases)


def _phrase(text: str, key: str, value: Any) -> Message:
    return Message(text, {"name": Message(key.replace("_", " ")), "value": _value(value)})


def _commas(parts: Sequence[Param]) -> Message:
    """The parts as a list, separated by commas (the same in every language)."""
    return Message(", ".join(f"%(p{i})s" for i in range(len(parts))),
                   {f"p{i}": part for i, part in enumerate(parts)})  # fmt: skip


def _value(value: Any) -> Param:
    if isinstance(value, bool):
        return Message(N_("yes")) if value else Message(N_("no"))
    if isinstance(value, Mapping) and set(value) == {"before", "after"}:
        # A value changed (a player's edited field): "from A to B", "none" for no value.
        before, after = _shown(value["before"]), _shown(value["after"])
        return Message(N_("from %(before)s to %(after)s"), {"before": before, "after": after})
    if isinstance(value, Mapping):
        shown = [
            _phrase(N_("%(name)s %(value)s"), str(k), v)
            for k, v in value.items()
            if k not in INTERNAL and v not in (None, "", [], {})
        ]
        return _commas(shown) if shown else NONE
    if isinstance(value, Sequence) and not isinstance(value, str):
        return _commas([_value(item) for item in value]) if value else NONE
    return str(value)


def _shown(value: Any) -> Param:
    return NONE if value in (None, "") else _value(value)
