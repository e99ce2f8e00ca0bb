"""No module of the package or the jobs is over 450 lines, the rule tables aside (issue 26
item 5): past that a module holds more than one thing, and its reader has to find which part
is theirs. A module that grows past it is split by what each part owns."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 450
#: The rule tables: every rule version's figures, one row each, read as one table.
TABLES = {"ratingdb/rules/versions.py"}


def long_modules(root: Path) -> dict[str, int]:
    """The modules under ``root``'s ``ratingdb`` and ``jobs`` over LIMIT lines (the tables
    aside): path -> lines."""
    found = {}
    for package in ("ratingdb", "jobs"):
        for path in sorted((root / package).rglob("*.py")):
            name = path.relative_to(root).as_posix()
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > LIMIT and name not in TABLES:
                found[name] = lines
    return found


def test_no_module_is_over_450_lines_outside_the_rule_tables() -> None:
    assert long_modules(ROOT) == {}


def test_a_long_module_is_found(tmp_path: Path) -> None:
    (tmp_path / "ratingdb").mkdir()
    (tmp_path / "jobs").mkdir()
    (tmp_path / "ratingdb" / "short.py").write_text("x = 1\n" * LIMIT, encoding="utf-8")
    (tmp_path / "jobs" / "long.py").write_text("x = 1\n" * (LIMIT + 1), encoding="utf-8")
    assert long_modules(tmp_path) == {"jobs/long.py": LIMIT + 1}
