"""Start-up time of the command line: the median of N runs of each case, in seconds, and its
ratio to a bare ``python -c pass``; the last line is one JSON object. A benchmark, not a test:
run it by hand on an idle machine and compare figures across commits. The CPU time (user and
system) of each run is shown too: unlike the wall time, it hardly grows on a busy machine.

    python benchmarks/startup.py --runs 5
    python benchmarks/startup.py --runs 5 --every-command   # each command's --help too

Target (issue 12): under 0.3 s for ``ratingdb --help``, ``ratingdb calc FILE`` and any
command's ``--help``. The ``ratingdb`` console script next to this Python is used when it is
installed, else ``python -m ratingdb``.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_S = 0.3

#: A published calculation (tests/cli/test_calc.py, TV05): what ``ratingdb calc FILE`` reads.
CALCULATION = {
    "category": "fide-standard",
    "period": "2025-12",
    "player": {"rating": 2813, "k_factor": 10},
    "events": [
        {
            "start_date": "2025-11-07",
            "rating_used": 2813,
            "games": [
                {"opponent_rating": 1787, "score": 1},
                {"opponent_rating": 2025, "score": 1},
                {"opponent_rating": 2310, "score": 1},
                {"opponent_rating": 2400, "score": 1},
                {"opponent_rating": 2505, "score": 0.5},
            ],
        }
    ],
}


def ratingdb_command() -> list[str]:
    script = shutil.which("ratingdb", path=str(Path(sys.executable).parent))
    return [script] if script else [sys.executable, "-m", "ratingdb"]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def median_seconds(command: list[str], runs: int) -> tuple[float, float]:
    """The median wall time and CPU time of ``runs`` runs of ``command``, which must
    succeed."""
    times, cpu = [], []
    for _ in range(runs):
        started, used = time.perf_counter(), _children_cpu()
        done = subprocess.run(command, capture_output=True, check=False)
        times.append(time.perf_counter() - started)
        cpu.append(_children_cpu() - used)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr.decode()}")
    return statistics.median(times), statistics.median(cpu)


def command_paths() -> list[list[str]]:
    """Every command and sub-command (``lists import`` ...), from the parser itself."""
    from ratingdb.cli import build_parser

    found: list[list[str]] = []

    def walk(parser: argparse.ArgumentParser, path: list[str]) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    found.append([*path, name])
                    walk(sub, [*path, name])

    walk(build_parser(), [])
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per case (default: 5)")
    parser.add_argument("--every-command", action="store_true", help="also each command's --help")
    args = parser.parse_args()
    ratingdb = ratingdb_command()
    with tempfile.TemporaryDirectory() as folder:
        calculation = Path(folder) / "calculation.json"
        calculation.write_text(json.dumps(CALCULATION), encoding="utf-8")
        cases = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "ratingdb --help": [*ratingdb, "--help"],
            "ratingdb calc FILE": [*ratingdb, "calc", str(calculation)],
            "ratingdb lists import --help": [*ratingdb, "lists", "import", "--help"],
            "ratingdb serve --help": [*ratingdb, "serve", "--help"],
            "python -m ratingdb --help": [sys.executable, "-m", "ratingdb", "--help"],
            "python -m jobs --help": [sys.executable, "-m", "jobs", "--help"],
        }
        if args.every_command:
            for path in command_paths():
                cases.setdefault(f"ratingdb {' '.join(path)} --help", [*ratingdb, *path, "--help"])
        both = {name: median_seconds(command, args.runs) for name, command in cases.items()}
    medians = {name: wall for name, (wall, _) in both.items()}
    cpu = {name: used for name, (_, used) in both.items()}
    bare = medians["python -c pass"]
    for name, seconds in medians.items():
        print(f"{name:<45} {seconds:6.3f} s  {seconds / bare:5.1f} x python -c pass  "
              f"(CPU {cpu[name]:.3f} s)")  # fmt: skip
    measured = {name: s for name, s in medians.items() if name != "python -c pass"}
    slowest = max(measured, key=measured.__getitem__)
    print(
        json.dumps(
            {
                "runs": args.runs,
                "python_pass_s": round(bare, 3),
                "median_s": {name: round(s, 3) for name, s in measured.items()},
                "median_cpu_s": {name: round(cpu[name], 3) for name in measured},
                "python_pass_cpu_s": round(cpu["python -c pass"], 3),
                "ratio_to_python_pass": {name: round(s / bare, 1) for name, s in measured.items()},
                "slowest": slowest,
                "slowest_s": round(measured[slowest], 3),
                "target_s": TARGET_S,
                "under_target": measured[slowest] < TARGET_S,
            }
        )
    )


if __name__ == "__main__":
    main()
