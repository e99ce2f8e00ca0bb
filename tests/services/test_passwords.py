"""The reasons zxcvbn gives for a guessable password, each one marked for the back office's
catalogue (services/passwords.py): zxcvbn words them in English only."""

from __future__ import annotations

import ast
from pathlib import Path

import zxcvbn.feedback

from ratingdb.services.passwords import GUESSABLE_BECAUSE


def _zxcvbn_warnings() -> set[str]:
    """Every text zxcvbn's feedback module assigns as a warning (``warning = _(...)`` or
    ``'warning': _(...)``), read from its source."""
    tree = ast.parse(Path(zxcvbn.feedback.__file__).read_text(encoding="utf-8"))
    found: set[str] = set()

    def text(node: ast.expr) -> str | None:
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "_":
            argument = node.args[0]
            assert isinstance(argument, ast.Constant)
            assert isinstance(argument.value, str)
            return argument.value
        return None

    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "warning" for t in node.targets
        ):
            value = text(node.value)
            if value is not None:
                found.add(value)
        if isinstance(node, ast.Dict):
            for key, value_node in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value == "warning":
                    value = text(value_node)
                    if value is not None:
                        found.add(value)
    return found


def test_every_zxcvbn_warning_is_in_the_catalogue() -> None:
    warnings = _zxcvbn_warnings()
    assert len(warnings) == 14  # zxcvbn 4.x: 14 warnings; a new one must be marked
    assert {w.rstrip(".").lower() for w in warnings} == GUESSABLE_BECAUSE
