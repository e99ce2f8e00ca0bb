"""Speed of the rules core alone: one FIDE standard period for N players with G games each.

Prints players per second and the time per game; the last line is one JSON object. A benchmark,
not a test: run it by hand (or from CI at a small size) and compare figures across commits.

    python benchmarks/core_period.py --players 500000 --games 2
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import time

from ratingdb.rules import (
    Category,
    Event,
    Game,
    Period,
    PeriodRules,
    PlayerStatus,
    Score,
    rate_player,
)


def synthetic_players(
    count: int, games_each: int, seed: int
) -> list[tuple[PlayerStatus, tuple[Event, ...]]]:
    """Ratings spread like a national list, some juniors, some 2400+ players, and opponents
    drawn near the player's own rating."""
    rng = random.Random(seed)
    scores = (Score.LOSS, Score.DRAW, Score.WIN)
    players = []
    for _ in range(count):
        rating = max(1400, min(2850, int(rng.gauss(1750, 250))))
        status = PlayerStatus(
            rating=rating,
            rated_games=rng.choice((5, 40, 200)),
            peak_rating=rating + rng.choice((0, 0, 50)),
            birth_year=rng.choice((1960, 1985, 2010)),
        )
        games = tuple(
            Game(max(1400, rating + int(rng.gauss(0, 200))), rng.choice(scores))
            for _ in range(games_each)
        )
        players.append((status, (Event(games),)))
    return players


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=500_000)
    parser.add_argument("--games", type=int, default=2, help="games per player")
    parser.add_argument("--period", default="2026-12")
    parser.add_argument("--seed", type=int, default=20261130)
    args = parser.parse_args()

    rules = PeriodRules.for_period(Category.FIDE_STANDARD, Period.parse(args.period))
    started = time.perf_counter()
    players = synthetic_players(args.players, args.games, args.seed)
    generated = time.perf_counter()
    changed = 0
    for status, events in players:
        if rate_player(rules, status, events).change:
            changed += 1
    computed = time.perf_counter()

    compute_s = computed - generated
    rate = args.players / compute_s
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"generated {args.players:,} players in {generated - started:.2f} s")
    print(
        f"rules core: {args.players:,} players x {args.games} games in {compute_s:.2f} s = "
        f"{rate:,.0f} players/s, {compute_s / (args.players * args.games) * 1e6:.2f} us/game"
    )
    print(f"{changed:,} ratings changed; peak memory {peak_mb:.0f} MB")
    print(
        json.dumps(
            {
                "players": args.players,
                "games_per_player": args.games,
                "compute_s": round(compute_s, 3),
                "players_per_s": round(rate),
                "target_s": 10.0,
                "ratio_to_target": round(compute_s / 10.0, 3),
                "peak_rss_mb": round(peak_mb),
            }
        )
    )


if __name__ == "__main__":
    main()
