"""Services name domain fields (``period``, ``tournament``), never a command's options; the
command line's one table (ratingdb.cli.fields) shows each under the option of the command that
gives it, and leaves the fields of files alone. No database."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from ratingdb.cli import build_parser
from ratingdb.cli.fields import OPTIONS, as_typed
from ratingdb.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
#: What a field raised below the edges must not look like: a command's option.
FLAG_FIELD = re.compile(r"""(field|option)\s*(=|: str =)\s*f?["']--""")


def test_no_service_names_an_option() -> None:
    below_the_edges = ["services", "repositories", "formats", "rules", "db", "models"]
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for folder in below_the_edges
        for path in sorted((ROOT / "ratingdb" / folder).rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if FLAG_FIELD.search(line)
    ]
    assert found == []


def _sub_parsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _names(command: str, action: str) -> set[str]:
    """The options and the positional arguments' metavars of ``ratingdb command action``."""
    parser = _sub_parsers(_sub_parsers(build_parser())[command])[action]
    names: set[str] = set()
    for argument in parser._actions:
        names.update(argument.option_strings)
        if not argument.option_strings and isinstance(argument.metavar, str):
            names.add(argument.metavar)
    return names


@pytest.mark.parametrize("command", sorted(OPTIONS), ids=" ".join)
def test_every_option_of_the_table_is_one_of_its_command(command: tuple[str, str]) -> None:
    assert set(OPTIONS[command].values()) <= _names(*command)


@pytest.mark.parametrize(
    ("command", "action", "field", "shown"),
    [
        ("games", "correct", "tournament", "--tournament"),
        ("tournaments", "import", "replacement", "--replace"),
        ("lists", "import", "replacement", "--replace"),
        ("lists", "export", "revision", "--revision"),
        ("players", "merge", "drop", "DROP"),
        ("users", "token", "username", "USERNAME"),
    ],
)
def test_a_service_field_is_shown_as_the_option_that_gives_it(
    command: str, action: str, field: str, shown: str
) -> None:
    error = InputError("what is wrong", field=field, source="f.trf", line=3)
    assert str(as_typed(error, command, action)) == f"f.trf:3: {shown}: what is wrong"


@pytest.mark.parametrize(
    ("command", "action", "field"),
    [
        # A games CSV's column (tournaments import has no --tournament).
        ("tournaments", "import", "tournament"),
        # The calculator's document has a category and a period; calc has no such options.
        ("calc", "", "category"),
        ("lists", "diff", "from"),
        ("audit", "close", "period"),  # audit's --action is not a sub-command
    ],
)
def test_a_field_without_an_option_is_shown_as_it_is(command: str, action: str, field: str) -> None:
    error = InputError("what is wrong", field=field)
    assert str(as_typed(error, command, action)) == f"{field}: what is wrong"
