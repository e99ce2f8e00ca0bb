"""An audit entry in words (services.audit_words), on the details the services record: no
Python dict, no internal row id, nested values spelt out; worked by hand."""

from __future__ import annotations

from ratingdb.services.audit_words import action_words, entry_words


def test_a_game_correction_reads_as_words() -> None:
    details = {
        "correction_id": 7,
        "kind": "game",
        "tournament_id": "T000003",
        "before": {"game_id": 12, "result": "1-0"},
        "after": {"game_id": 31, "result": "+-"},
        "reason": "Ben never came",
    }
    assert action_words("correction") == "correction applied"
    assert entry_words({"revisions": 2}, details) == (
        "revisions: 2; kind: game; tournament id: T000003; before: result 1-0; "
        "after: result +-; reason: Ben never came"
    )


def test_lists_booleans_empties_and_unknown_actions() -> None:
    details = {"players": ["2001", "2002"], "override": None, "late": True, "notes": []}
    assert entry_words({}, details) == "players: 2001, 2002; late: yes"
    assert action_words("players-renamed") == "players renamed"


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
    assert action_words("player-edit") == "player record edited"
    assert entry_words({}, details) == (
        "player: 1001; name: Anna, Petra; changes: federation from FRA to GER, title from none "
        "to WIM, fide id from 25012345 to none; reason: passport seen"
    )
