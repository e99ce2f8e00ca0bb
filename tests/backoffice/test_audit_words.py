"""An audit entry in words (services.audit_words), on the details the services record: no
Python dict, no internal row id, nested values spelt out; worked by hand."""

from __future__ import annotations

import ast
from pathlib import Path

import ratingdb
from ratingdb.backoffice.i18n import Reader
from ratingdb.repositories.player_records import EDITABLE
from ratingdb.services.audit_words import INTERNAL, KEY_WORDS, action_words, entry_words

NB, NN = "\u00a0", "\u202f"  # no-break spaces before ":" and ";"


def test_a_game_correction_reads_as_words() -> None:
    details = {
        "correction_id": 7,
        "kind": "game",
        "tournament_id": "T000003",
        "before": {"game_id": 12, "result": "1-0"},
        "after": {"game_id": 31, "result": "+-"},
        "reason": "Ben never came",
    }
    assert action_words("correction").english() == "correction applied"
    assert entry_words({"revisions": 2}, details).english() == (
        "revisions: 2; kind: game; tournament id: T000003; before: result 1-0; "
        "after: result +-; reason: Ben never came"
    )


def test_lists_booleans_empties_and_unknown_actions() -> None:
    details = {"players": ["2001", "2002"], "override": None, "late": True, "notes": []}
    assert entry_words({}, details).english() == "players: 2001, 2002; late: yes"
    assert action_words("players-renamed").english() == "players renamed"


def test_a_player_edit_reads_from_before_to_after() -> None:
    details = {
        "player": "1001",
        "name": "Anna, Petra",
        "changes": {
            "federation": {"before": "FRA", "after": "GER"},
            "title": {"before": None, "after": "WIM"},
            "fide_id": {"before": "25012345", "after": None},
        },
        "reason": "passport seen",
    }
    assert action_words("player-edit").english() == "player record edited"
    assert entry_words({}, details).english() == (
        "player: 1001; name: Anna, Petra; changes: federation from FRA to GER, title from none "
        "to WIM, fide id from 25012345 to none; reason: passport seen"
    )


def _recorded_keys() -> set[str]:
    """The keys of the dicts written inside every ``audit.record(...)`` call of the package
    (counts, details and the dicts nested in them), read from the source."""
    keys: set[str] = set()
    for path in Path(ratingdb.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            call = node if isinstance(node, ast.Call) else None
            if call is None or not (
                isinstance(call.func, ast.Attribute) and call.func.attr == "record"
                and isinstance(call.func.value, ast.Name) and call.func.value.id == "audit"
            ):  # fmt: skip
                continue
            for keyword in call.keywords:
                for inner in ast.walk(keyword.value):
                    if isinstance(inner, ast.Dict):
                        keys |= {
                            k.value
                            for k in inner.keys
                            if isinstance(k, ast.Constant) and isinstance(k.value, str)
                        }
    return keys


def test_every_recorded_key_has_words_in_the_catalogue() -> None:
    recorded = _recorded_keys() - INTERNAL
    assert {"submission_id", "late_reason", "tournaments", "revisions"} <= recorded  # the scan
    # Keys recorded through a variable: a sign-in's, an imported tournament's (as_json), a
    # game's before and after, a player's edited fields (player_records.EDITABLE).
    through_variables = {"address", "known_browser", "tournament_id", "period", "late", "games",
                         "rated_games", "result", *EDITABLE}  # fmt: skip
    missing = {k for k in recorded | through_variables if k.replace("_", " ") not in KEY_WORDS}
    assert missing == set()


def test_an_entry_in_french() -> None:
    french = Reader("fr", True, ())
    details = {
        "player": "1001",
        "changes": {"title": {"before": None, "after": "WIM"}},
        "late": False,
        "tournaments": [{"tournament_id": "T000001", "period": "2026-11", "games": 12}],
    }
    assert french.message(action_words("player-edit")) == "fiche du joueur modifiée"
    assert french.message(entry_words({"revisions": 2}, details)) == (
        f"révisions{NB}: 2{NN}; joueur{NB}: 1001{NN}; modifications{NB}: titre aucune → WIM"
        f"{NN}; en retard{NB}: non{NN}; tournois{NB}: identifiant du tournoi T000001, période "
        "2026-11, parties 12"
    )
    assert entry_words({"revisions": 2}, details).english() == (
        "revisions: 2; player: 1001; changes: title from none to WIM; late: no; tournaments: "
        "tournament id T000001, period 2026-11, games 12"
    )
    # An action not known: its words as they are.
    assert french.message(action_words("players-renamed")) == "players renamed"
