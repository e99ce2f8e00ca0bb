"""Why the list a close computes now is not the previewed one: what a preview was computed
from (the lists it starts from, the last correction, each tournament's games used) and the
entries that change, kept with the preview, compared with the computation of now."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.models import PublicationPreviewRow
from ratingdb.repositories import periods as period_repo
from ratingdb.repositories import players as player_repo
from ratingdb.repositories import publication as repo
from ratingdb.repositories import tournaments as tournament_repo
from ratingdb.rules import Category, Period
from ratingdb.rules.messages import N_, Day, Message, Nn_, Number, Param, counted
from ratingdb.services.close import STANDARD_SEEDED, Computation
from ratingdb.services.publication.shown import Change, changes_of, games_used

#: How many differing entries a refusal names (the rest are counted).
DIFFERENCES_NAMED = 10


# --- what a preview is computed from, kept to explain a difference ---------------------------


def inputs_of(session: Session, computation: Computation) -> dict[str, Any]:
    """The lists the period starts from, the last correction, and each tournament's games."""
    rules = computation.rules
    standard = (
        period_repo.lists_of(session, Category.FIDE_STANDARD)
        if rules.category in STANDARD_SEEDED
        else []
    )
    return {
        "rule_version": rules.version.name,
        "lists": {str(Period.of_list_date(r.list_date)): r.revision for r in computation.lists},
        "standard_lists": {str(Period.of_list_date(r.list_date)): r.revision for r in standard},
        "corrections": computation.corrections,
        "tournaments": {
            tournament_id: [len(ids), _fingerprint(ids)]
            for tournament_id, ids in sorted(games_used(computation).items())
        },
    }


def _fingerprint(game_ids: Sequence[int]) -> str:
    return hashlib.sha256(",".join(map(str, game_ids)).encode()).hexdigest()[:16]


def entries_of(computation: Computation, changed: Sequence[Change]) -> dict[str, list[Any]]:
    """player id -> [rating, previous rating, change, games, K] of every player who changes
    (the others keep their entry of the previous list)."""
    results = computation.results
    return {
        c.player_id: [c.rating, c.previous_rating, c.change, c.games,
                      results[c.player_id].next_k_factor]
        for c in changed
    }  # fmt: skip


def explain(
    session: Session, shown: PublicationPreviewRow, computation: Computation
) -> list[Message]:
    """Why the list computed now is not the previewed one, in words."""
    before, now = shown.inputs, inputs_of(session, computation)
    category = computation.rules.category
    reasons: list[Message] = []
    if before["rule_version"] != now["rule_version"]:
        reasons.append(
            Message(
                N_("the rules are now %(now)s (the preview used %(before)s)"),
                {"now": now["rule_version"], "before": before["rule_version"]},
            )
        )
    for key, what in (("lists", category.value), ("standard_lists", "fide-standard")):
        was, is_ = before[key], now[key]
        for name in sorted(was.keys() | is_.keys()):
            if was.get(name) != is_.get(name):
                reasons.append(
                    Message(
                        N_(
                            "the %(category)s list of %(period)s it reads was %(was)s at the "
                            "preview and is %(now)s now"
                        ),
                        {
                            "category": what,
                            "period": name,
                            "was": _revision(was.get(name)),
                            "now": _revision(is_.get(name)),
                        },
                    )
                )
    reasons += _tournament_differences(session, before["tournaments"], now["tournaments"])
    for correction in repo.corrections_between(session, before["corrections"],
                                               now["corrections"]):  # fmt: skip
        if correction.category in (None, category.value):
            values: dict[str, Param] = {"id": correction.id, "kind": str(correction.kind),
                                        "actor": str(correction.actor),
                                        "reason": str(correction.reason)}  # fmt: skip
            reasons.append(
                Message(
                    N_(
                        "correction %(id)s (%(kind)s, tournament %(tournament)s) recorded "
                        "since the preview by %(actor)s: %(reason)s"
                    ),
                    values | {"tournament": str(correction.tournament_id)},
                )
                if correction.tournament_id
                else Message(
                    N_(
                        "correction %(id)s (%(kind)s) recorded since the preview by "
                        "%(actor)s: %(reason)s"
                    ),
                    values,
                )
            )
    reasons += _entry_differences(session, shown.entries, computation)
    return reasons


def _revision(revision: int | None) -> Message:
    if revision is None:
        return Message(N_("not published"))
    return Message(N_("revision %(revision)s"), {"revision": revision})


def _tournament_differences(
    session: Session, before: Mapping[str, list[Any]], now: Mapping[str, list[Any]]
) -> list[Message]:
    names: dict[str, Param] = {
        row.tournament_id: Message(
            N_("%(id)s (%(name)s, %(start)s to %(end)s)"),
            {"id": row.tournament_id, "name": row.name, "start": Day(row.start_date),
             "end": Day(row.end_date)},
        )
        for row in tournament_repo.with_ids(session, before.keys() | now.keys())
    }  # fmt: skip
    reasons = []
    for tournament_id in sorted(before.keys() | now.keys()):
        was, is_ = before.get(tournament_id), now.get(tournament_id)
        name = names.get(tournament_id, tournament_id)
        if was is None and is_ is not None:
            reasons.append(
                counted(
                    Nn_(
                        "tournament %(name)s was added since the preview: %(now)s rated game",
                        "tournament %(name)s was added since the preview: %(now)s rated games",
                    ),
                    "now",
                    {"name": name, "now": is_[0]},
                )
            )
        elif is_ is None and was is not None:
            reasons.append(
                counted(
                    Nn_(
                        "tournament %(name)s is no longer rated in the period (%(was)s rated game "
                        "at the preview)",
                        "tournament %(name)s is no longer rated in the period (%(was)s rated games "
                        "at the preview)",
                    ),
                    "was",
                    {"name": name, "was": was[0]},
                )
            )
        elif was != is_ and was is not None and is_ is not None:
            reasons.append(
                counted(
                    Nn_(
                        "tournament %(name)s was corrected or replaced since the preview: %(was)s "
                        "rated game at the preview, %(now)s now",
                        "tournament %(name)s was corrected or replaced since the preview: %(was)s "
                        "rated games at the preview, %(now)s now",
                    ),
                    "was",
                    {"name": name, "was": was[0], "now": is_[0]},
                )
            )
    return reasons


def _entry_differences(
    session: Session, before: Mapping[str, list[Any]], computation: Computation
) -> list[Message]:
    """The entries that are not what the preview showed (a player missing from a side kept
    the previous list's entry there)."""
    now = entries_of(computation, list(changes_of(session, computation)))
    differing = sorted(p for p in before.keys() | now.keys() if before.get(p) != now.get(p))
    if not differing:
        return []
    named = differing[:DIFFERENCES_NAMED]
    names = player_repo.names(session, named)
    lines = [
        Message(
            N_("%(player)s %(name)s: %(before)s at the preview, %(now)s now"),
            {"player": player_id, "name": names.get(player_id, ""),
             "before": _entry(before.get(player_id)), "now": _entry(now.get(player_id))},
        )
        for player_id in named
    ]  # fmt: skip
    joined = lines[-1]
    for line in reversed(lines[:-1]):
        joined = Message(N_("%(first)s; %(rest)s"), {"first": line, "rest": joined})
    more = len(differing) - len(named)
    if more > 0:
        return [
            counted(
                Nn_(
                    "%(count)s entry differs (and %(more)s more): %(entries)s",
                    "%(count)s entries differ (and %(more)s more): %(entries)s",
                ),
                "count",
                {"count": len(differing), "more": more, "entries": joined},
            )
        ]
    return [
        counted(
            Nn_("%(count)s entry differs: %(entries)s", "%(count)s entries differ: %(entries)s"),
            "count",
            {"count": len(differing), "entries": joined},
        )
    ]


def _entry(entry: list[Any] | None) -> Message:
    if entry is None:
        return Message(N_("unchanged"))
    rating, _, change, games, k = entry
    if rating is None:
        return Message(N_("not on the list"))
    values: dict[str, Param] = {"rating": rating, "games": games, "k": str(k)}
    if change is None:
        return counted(
            Nn_("%(rating)s, %(games)s game, K %(k)s", "%(rating)s, %(games)s games, K %(k)s"),
            "games",
            values,
        )
    return counted(
        Nn_(
            "%(rating)s, %(change)s, %(games)s game, K %(k)s",
            "%(rating)s, %(change)s, %(games)s games, K %(k)s",
        ),
        "games",
        values | {"change": Number(change, "+d")},
    )
