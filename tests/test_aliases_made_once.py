"""No function of the package makes an ``aliased()`` at each call: SQLAlchemy adapts an alias's
columns the first time they are used, so an alias made per call is adapted again per call
(0.7-1 ms; a third of a player page's CPU before they were made once). An alias is made once,
at module level (``repositories.players.WHITE``), or in a statement builder called once
(decorated with ``functools.cache``)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: What marks a function called once per process (its result kept).
ONCE = {"cache", "lru_cache"}


def _decorator_name(node: ast.expr) -> str:
    target = node.func if isinstance(node, ast.Call) else node
    if isinstance(target, ast.Attribute):
        return target.attr
    return target.id if isinstance(target, ast.Name) else ""


def aliases_made_per_call(root: Path) -> list[str]:
    """``path:line function`` of each ``aliased(...)`` call inside a function not kept once
    (ONCE), in the modules of ``root``'s ``ratingdb`` and ``jobs``."""
    found = []
    for package in ("ratingdb", "jobs"):
        for path in sorted((root / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for function in ast.walk(tree):
                if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                if {_decorator_name(d) for d in function.decorator_list} & ONCE:
                    continue
                for node in ast.walk(function):
                    if isinstance(node, ast.Call) and _decorator_name(node) == "aliased":
                        name = path.relative_to(root).as_posix()
                        found.append(f"{name}:{node.lineno} {function.name}")
    return sorted(set(found))


def test_no_alias_is_made_at_each_call() -> None:
    assert aliases_made_per_call(ROOT) == []


def test_an_alias_made_at_each_call_is_found(tmp_path: Path) -> None:
    (tmp_path / "ratingdb").mkdir()
    (tmp_path / "jobs").mkdir()
    (tmp_path / "ratingdb" / "reads.py").write_text(
        "from functools import cache\n"
        "from sqlalchemy.orm import aliased\n"
        "from sqlalchemy import orm\n"
        "ONCE = aliased(object)\n"
        "@cache\n"
        "def built_once():\n"
        "    return aliased(object)\n"
        "def per_call():\n"
        "    return aliased(object)\n"
        "def per_call_too():\n"
        "    def inner():\n"
        "        return orm.aliased(object)\n"
        "    return inner\n",
        encoding="utf-8",
    )
    assert aliases_made_per_call(tmp_path) == [
        "ratingdb/reads.py:12 inner",
        "ratingdb/reads.py:12 per_call_too",
        "ratingdb/reads.py:9 per_call",
    ]
