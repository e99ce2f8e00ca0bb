"""Quality-control flags (issue 28 item 8): what an officer should look at before accepting a
tournament or publishing a list, explained with its numbers, never a refusal.

From plain data (the played games, who was unrated, the changes, the new players' facts):

- **closed groups**: players whose games in the scope (a period, or a period with the
  tournament a submission brings) are mostly among themselves, most of them unrated, so that
  their first ratings rest on each other. Precisely: start from the unrated players who played
  and everyone who played one of them; keep the largest set of those in which every member
  played at least ``group_min_inside_share`` (4/5) of all their games of the scope against
  other members (found by peeling off, one after another, every player below that share: any
  such set survives the peeling, so what is left is the union of them all); each connected
  part of it (players linked by games) with at least ``group_min_unrated`` (3) unrated members,
  who are at least ``group_min_unrated_share`` (1/2) of it, is flagged. A player who met an
  unrated player but plays mostly elsewhere is peeled off, and then counts as outside.
- **repeated pairings**: the same two players met in at least ``pairing_min_events`` (3)
  distinct events of the scope.
- **large gains**: a rated player's change greater than ``gain_min_points`` (100) and more than
  ``gain_min_deviations`` (3) standard deviations above the mean change of the rated players
  who played in the period (both: an outlier of the period and a large change). The standard
  deviation is the population's; with n players no change can be more than (n - 1) / sqrt(n)
  deviations above the mean, so a period of 10 players or fewer never flags one.
- **new players without a birth date or sex**: the K factor of juniors and the age lists need
  the first, the women's lists the second.

The rules core's: pure, no I/O; the services load the data (set-based) and show the flags.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ratingdb.rules.messages import N_, Message, Number, Param, listed

CLOSED_GROUP = "closed-group"
REPEATED_PAIRING = "repeated-pairing"
LARGE_GAIN = "large-gain"
MISSING_IDENTITY = "missing-identity"

#: The event name of the file a check report looks at, among the period's stored tournaments.
THIS_FILE = N_("this file")

#: The names an explanation lists before it says how many more.
NAMES_SHOWN = 12


@dataclass(frozen=True, slots=True)
class Thresholds:
    """When a flag is raised (docs/rules.md, "Quality-control flags")."""

    group_min_unrated: int = 3
    group_min_unrated_share: Fraction = Fraction(1, 2)
    group_min_inside_share: Fraction = Fraction(4, 5)
    pairing_min_events: int = 3
    gain_min_deviations: int = 3
    gain_min_points: int = 100


THRESHOLDS = Thresholds()


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A played game (no forfeit) of an event, each game once."""

    event_id: str
    white_id: str
    black_id: str


def _name(player_id: str, names: Mapping[str, str]) -> str:
    name = names.get(player_id)
    return f"{name} ({player_id})" if name else player_id


def _listed(player_ids: Sequence[str], names: Mapping[str, str]) -> Param:
    return listed([_name(p, names) for p in player_ids], NAMES_SHOWN)


def _percent(share: Fraction) -> Number:
    return Number(float(share * 100), "g")


def _json(message: Message) -> dict[str, Any]:
    """A flag's explanation: in English (``message``), and as a message with its values
    (``i18n``, which the back office words in the officer's language)."""
    return {"message": message.english(), "i18n": message.as_json()}


# --- closed groups ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Member:
    player_id: str
    games: int
    inside: int
    unrated: bool


@dataclass(frozen=True, slots=True)
class ClosedGroup:
    members: tuple[Member, ...]  # by player id
    inside: int  # games between two members
    games: int  # games with at least one member
    min_share: Fraction

    kind = CLOSED_GROUP

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(m.player_id for m in self.members)

    @property
    def unrated(self) -> tuple[str, ...]:
        return tuple(m.player_id for m in self.members if m.unrated)

    def explain(self, names: Mapping[str, str]) -> Message:
        size, unrated = len(self.members), self.unrated
        who = (
            Message(N_("all %(size)s were unrated"), {"size": size})
            if len(unrated) == size
            else Message(
                N_("%(unrated)s of the %(size)s were unrated (%(names)s)"),
                {"unrated": len(unrated), "size": size, "names": _listed(unrated, names)},
            )
        )
        return Message(
            N_(
                "closed group: %(players)s played %(inside)s of their %(games)s games among "
                "themselves (each at least %(share)s%% of their own); %(who)s, so their first "
                "ratings rest on each other"
            ),
            {"players": _listed(self.players, names), "inside": self.inside,
             "games": self.games, "share": _percent(self.min_share), "who": who},
        )  # fmt: skip

    def as_json(self, names: Mapping[str, str]) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "players": list(self.players),
            **_json(self.explain(names)),
            "games": self.games,
            "inside": self.inside,
            "members": [
                {
                    "player_id": m.player_id,
                    "games": m.games,
                    "inside": m.inside,
                    "unrated": m.unrated,
                }
                for m in self.members
            ],
        }


def _opponents(games: Iterable[PlayedGame]) -> dict[str, Counter[str]]:
    against: dict[str, Counter[str]] = defaultdict(Counter)
    for game in games:
        if game.white_id == game.black_id:
            continue
        against[game.white_id][game.black_id] += 1
        against[game.black_id][game.white_id] += 1
    return against


def closed_groups(
    games: Iterable[PlayedGame],
    unrated: Collection[str],
    thresholds: Thresholds = THRESHOLDS,
    partial: Collection[str] = (),
) -> list[ClosedGroup]:
    """The closed groups of these games (module docstring), largest first. ``partial``: the
    players whose games are not all given (a check loads its players' opponents' games, not
    those of the opponents' opponents): never members, their games given count as outside."""
    against = _opponents(games)
    total = {p: sum(c.values()) for p, c in against.items()}
    kept = {p for p in against if p in unrated}
    kept |= {q for p in kept for q in against[p]}  # and everyone who met one
    kept -= set(partial)
    inside = {p: sum(n for q, n in against[p].items() if q in kept) for p in kept}
    share = thresholds.group_min_inside_share
    waiting = sorted(kept)
    while waiting:
        player = waiting.pop()
        if player not in kept or Fraction(inside[player], total[player]) >= share:
            continue
        kept.discard(player)
        for opponent, count in against[player].items():
            if opponent in kept:
                inside[opponent] -= count
                waiting.append(opponent)
    found = []
    seen: set[str] = set()
    for start in sorted(kept):
        if start in seen:
            continue
        part, stack = [], [start]
        seen.add(start)
        while stack:
            player = stack.pop()
            part.append(player)
            for opponent in against[player]:
                if opponent in kept and opponent not in seen:
                    seen.add(opponent)
                    stack.append(opponent)
        members = tuple(Member(p, total[p], inside[p], p in unrated) for p in sorted(part))
        count = sum(m.unrated for m in members)
        if count < thresholds.group_min_unrated:
            continue
        if Fraction(count, len(members)) < thresholds.group_min_unrated_share:
            continue
        between = sum(m.inside for m in members) // 2
        found.append(
            ClosedGroup(members, between, between + sum(m.games - m.inside for m in members),
                        share)
        )  # fmt: skip
    return sorted(found, key=lambda g: (-len(g.members), g.players))


# --- repeated pairings ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RepeatedPairing:
    players: tuple[str, str]
    events: tuple[str, ...]
    games: int

    kind = REPEATED_PAIRING

    def explain(self, names: Mapping[str, str]) -> Message:
        first, second = (_name(p, names) for p in self.players)
        return Message(
            N_(
                "repeated pairing: %(first)s and %(second)s met in %(count)s events of the "
                "period (%(events)s), %(games)s games in all"
            ),
            {"first": first, "second": second, "count": len(self.events),
             "events": _events(self.events), "games": self.games},
        )  # fmt: skip

    def as_json(self, names: Mapping[str, str]) -> dict[str, Any]:
        return {"kind": self.kind, "players": list(self.players),
                **_json(self.explain(names)), "events": list(self.events),
                "games": self.games}  # fmt: skip


def _events(events: Sequence[str]) -> Message:
    """The events joined by commas; the file a check looks at (``THIS_FILE``) in words."""
    values: dict[str, Param] = {
        f"e{i}": Message(THIS_FILE) if event == THIS_FILE else event
        for i, event in enumerate(events)
    }
    return Message(", ".join(f"%({name})s" for name in values), values)


def repeated_pairings(
    games: Iterable[PlayedGame],
    thresholds: Thresholds = THRESHOLDS,
    among: Collection[frozenset[str]] | None = None,
) -> list[RepeatedPairing]:
    """The pairs of players who met in at least ``pairing_min_events`` distinct events
    (``among``: only those pairs), the most events first."""
    events: dict[frozenset[str], set[str]] = defaultdict(set)
    counts: Counter[frozenset[str]] = Counter()
    for game in games:
        pair = frozenset((game.white_id, game.black_id))
        if len(pair) < 2 or (among is not None and pair not in among):
            continue
        events[pair].add(game.event_id)
        counts[pair] += 1
    found = []
    for pair, met in events.items():
        if len(met) >= thresholds.pairing_min_events:
            first, second = sorted(pair)
            found.append(RepeatedPairing((first, second), tuple(sorted(met)), counts[pair]))
    return sorted(found, key=lambda r: (-len(r.events), r.players))


# --- large gains ------------------------------------------------------------------------------


#: Whose norm a large gain is far above: the period's players', or a submitted file's.
PERIOD_SCOPE = N_("the period's")
FILE_SCOPE = N_("this file's")


@dataclass(frozen=True, slots=True)
class LargeGain:
    player_id: str
    change: int
    mean: Fraction
    variance: Fraction
    rated_players: int  # rated players who played, the norm's
    thresholds: Thresholds
    scope: str = PERIOD_SCOPE  # whose norm: FILE_SCOPE for a check

    kind = LARGE_GAIN

    @property
    def players(self) -> tuple[str, ...]:
        return (self.player_id,)

    @property
    def deviation(self) -> float:
        return math.sqrt(self.variance)

    def explain(self, names: Mapping[str, str]) -> Message:
        t = self.thresholds
        return Message(
            N_(
                "large gain: %(player)s gained %(change)s, far above %(scope)s norm (mean "
                "%(mean)s, standard deviation %(deviation)s, over %(players)s rated players who "
                "played): more than %(deviations)s standard deviations above the mean and more "
                "than %(points)s points"
            ),
            {"player": _name(self.player_id, names), "change": Number(self.change, "+d"),
             "scope": Message(self.scope), "mean": Number(float(self.mean), "+.1f"),
             "deviation": Number(self.deviation, ".1f"), "players": self.rated_players,
             "deviations": t.gain_min_deviations, "points": t.gain_min_points},
        )  # fmt: skip

    def as_json(self, names: Mapping[str, str]) -> dict[str, Any]:
        return {"kind": self.kind, "players": [self.player_id],
                **_json(self.explain(names)), "change": self.change,
                "mean": round(float(self.mean), 2), "deviation": round(self.deviation, 2),
                "rated_players": self.rated_players}  # fmt: skip


def large_gains(
    changes: Mapping[str, int], thresholds: Thresholds = THRESHOLDS, scope: str = PERIOD_SCOPE
) -> list[LargeGain]:
    """The changes (of the rated players who played) far above the norm of them all, the
    largest first. Exact: (change - mean)^2 > k^2 variance, in fractions. ``scope``: whose
    norm the explanation says it is."""
    if not changes:
        return []
    n = len(changes)
    mean = Fraction(sum(changes.values()), n)
    variance = sum(((c - mean) ** 2 for c in changes.values()), Fraction(0)) / n
    k = thresholds.gain_min_deviations
    found = [
        LargeGain(player_id, change, mean, variance, n, thresholds, scope)
        for player_id, change in changes.items()
        if change > thresholds.gain_min_points
        and change > mean
        and (change - mean) ** 2 > k * k * variance
    ]
    return sorted(found, key=lambda g: (-g.change, g.player_id))


# --- new players without a birth date or sex -------------------------------------------------


@dataclass(frozen=True, slots=True)
class NewPlayerFacts:
    player_id: str
    birth_known: bool  # a birth year or date
    sex: str | None


_MISSING = {
    "birth date": (
        N_("%(count)s new player without a birth date (%(why)s): %(players)s"),
        N_("%(count)s new players without a birth date (%(why)s): %(players)s"),
        N_("the K factor of juniors and the age lists need it"),
    ),
    "sex": (
        N_("%(count)s new player without sex (%(why)s): %(players)s"),
        N_("%(count)s new players without sex (%(why)s): %(players)s"),
        N_("the women's lists need it"),
    ),
}


@dataclass(frozen=True, slots=True)
class MissingIdentity:
    field: str  # "birth date" or "sex"
    players: tuple[str, ...]

    kind = MISSING_IDENTITY

    def explain(self, names: Mapping[str, str]) -> Message:
        n = len(self.players)
        one, more, why = _MISSING[self.field]
        return Message(
            one if n == 1 else more,
            {"count": n, "why": Message(why), "players": _listed(self.players, names)},
        )

    def as_json(self, names: Mapping[str, str]) -> dict[str, Any]:
        return {"kind": self.kind, "players": list(self.players),
                **_json(self.explain(names)), "field": self.field}  # fmt: skip


def missing_identity(players: Iterable[NewPlayerFacts]) -> list[MissingIdentity]:
    """The new players without a birth date, then those without sex (each flag only when some)."""
    facts = sorted(players, key=lambda p: p.player_id)
    found = [
        MissingIdentity("birth date", tuple(p.player_id for p in facts if not p.birth_known)),
        MissingIdentity("sex", tuple(p.player_id for p in facts if p.sex is None)),
    ]
    return [flag for flag in found if flag.players]


Flag = ClosedGroup | RepeatedPairing | LargeGain | MissingIdentity
