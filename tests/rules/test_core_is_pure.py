"""The rules core imports only the standard library and itself (no database, no I/O package,
no third-party code), so it can be trusted and tested on its own."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "ratingdb" / "rules"
FORBIDDEN_STDLIB = {"os", "io", "socket", "sqlite3", "subprocess", "time", "random", "pathlib"}


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                names.append("ratingdb.rules")
            elif node.module:
                names.append(node.module)
    return names


def test_the_core_imports_only_the_standard_library_and_itself() -> None:
    files = sorted(CORE.glob("*.py"))
    assert files
    offenders = []
    for path in files:
        for name in _imports(path):
            top = name.split(".")[0]
            if name == "ratingdb.rules" or name.startswith("ratingdb.rules."):
                continue
            if top == "__future__" or (
                top in sys.stdlib_module_names and top not in FORBIDDEN_STDLIB
            ):
                continue
            offenders.append(f"{path.name}: {name}")
    assert offenders == []


def test_the_core_reads_no_clock() -> None:
    for path in sorted(CORE.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        for call in ("date.today(", "datetime.now(", "datetime.utcnow(", "time.time("):
            assert call not in text, f"{path.name} reads the clock ({call})"
