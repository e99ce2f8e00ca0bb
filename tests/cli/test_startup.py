"""The command line starts in a blink: building its parser imports no web stack, no database
layer and no pydantic (each command imports what it needs when it runs); every command's
``--help`` works; the option names, choices and defaults the parser shows without importing
the rest of ratingdb are the ones the rest of ratingdb uses."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest

from ratingdb import defaults
from ratingdb.cli import build_parser, main

#: What building the parsers must not import (checked on the module set, not on time).
HEAVY = (
    "fastapi",
    "uvicorn",
    "starlette",
    "ratingdb.api",
    "ratingdb.backoffice",
    "sqlalchemy",
    "alembic",
    "pydantic",
    "pydantic_settings",
    "psycopg",
    "apscheduler",
    "jobs.scheduler",
    "jobs.close_periods",
)

LOADED = """
import json, sys
{setup}
print(json.dumps(sorted(sys.modules)))
"""


def modules_after(setup: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", LOADED.format(setup=setup)],
        capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    loaded: list[str] = json.loads(done.stdout.splitlines()[-1])
    return loaded


def heavy(modules: list[str]) -> list[str]:
    return [m for m in modules if any(m == h or m.startswith(f"{h}.") for h in HEAVY)]


@pytest.mark.processes
def test_building_the_parser_imports_nothing_heavy() -> None:
    loaded = modules_after("import ratingdb.cli\nratingdb.cli.build_parser()")
    assert "ratingdb.cli.serve" in loaded  # the check sees the command modules
    assert heavy(loaded) == []


@pytest.mark.processes
def test_the_jobs_parser_imports_nothing_heavy() -> None:
    setup = "import jobs.__main__ as m\ntry:\n    m.main(['--help'])\nexcept SystemExit:\n    pass"
    assert heavy(modules_after(setup)) == []


@pytest.mark.processes
def test_a_command_imports_what_it_needs_when_it_runs() -> None:
    """The other side: running the calculator still works, and imports no database either."""
    setup = (
        "import io\nsys.stdin = io.StringIO('{}')\nimport ratingdb.cli\n"
        "ratingdb.cli.main(['calc', '-'])"
    )
    loaded = modules_after(setup)
    assert "ratingdb.rules.calculator" in loaded
    assert heavy(loaded) == []


def command_paths(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> list[tuple[str, ...]]:
    """Every command and sub-command of ``parser`` (``("lists", "import")`` ...)."""
    found: list[tuple[str, ...]] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found.append((*path, name))
                found.extend(command_paths(sub, (*path, name)))
    return found


PATHS = command_paths(build_parser())


def test_the_walk_finds_every_command() -> None:
    for expected in [("calc",), ("lists", "import"), ("serve",), ("users", "token"), ("audit",)]:
        assert expected in PATHS


@pytest.mark.parametrize("path", PATHS, ids=" ".join)
def test_every_command_has_help(path: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([*path, "--help"])
    assert stopped.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: ratingdb {' '.join(path)}"), out[:200]


@pytest.mark.processes
@pytest.mark.parametrize(
    "command", [["-m", "ratingdb", "--help"], ["-m", "jobs", "--help"]], ids=" ".join
)
def test_the_modules_have_help(command: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, *command], capture_output=True, text=True, check=False, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: ")


def test_the_parser_shows_what_the_rest_of_ratingdb_uses() -> None:
    """Copies kept in the command line so that building it imports nothing heavy."""
    from jobs import __main__ as jobs_main
    from jobs import close_periods, expire_previews
    from ratingdb.api import app, protocol
    from ratingdb.backoffice import app as backoffice_app
    from ratingdb.cli import lists, tournaments, users
    from ratingdb.config import Settings
    from ratingdb.enums import Role, TokenScope
    from ratingdb.services import accounts
    from ratingdb.services import lists as list_service
    from ratingdb.services import tournaments as tournament_service
    from ratingdb.services.published import export

    ROLES = list(Role)

    assert lists.IMPORT_FORMATS == list_service.IMPORT_FORMATS
    assert lists.EXPORT_FORMATS == export.EXPORT_FORMATS
    assert tournaments.FORMATS == tournament_service.FORMATS
    assert list(users.ROLES) == ROLES
    assert (users.DEFAULT_TOKEN_LABEL, users.DEFAULT_TOKEN_DAYS, users.MAX_TOKEN_DAYS) == (
        accounts.DEFAULT_TOKEN_LABEL, accounts.DEFAULT_TOKEN_DAYS, accounts.MAX_TOKEN_DAYS,
    )  # fmt: skip
    assert users.DEFAULT_TOKEN_SCOPE == accounts.DEFAULT_TOKEN_SCOPE
    assert list(users.SCOPES) == list(TokenScope)
    assert jobs_main.CLOSE_PERIODS == close_periods.NAME
    assert jobs_main.EXPIRE_PREVIEWS == expire_previews.NAME
    assert (
        protocol.HttpLimits(
            max_head_bytes=defaults.SERVE_LIMIT_REQUEST_HEAD,
            max_headers=defaults.SERVE_LIMIT_REQUEST_FIELDS,
            head_timeout=defaults.SERVE_TIMEOUT_REQUEST_HEAD,
            keep_alive_timeout=defaults.SERVE_TIMEOUT_KEEP_ALIVE,
            body_timeout=defaults.SERVE_TIMEOUT_REQUEST_BODY,
        )
        == protocol.DEFAULT_LIMITS
    )
    assert Settings().serve_threads == app.DEFAULT_THREADS
    assert (
        Settings().backoffice_host, Settings().backoffice_port,
    ) == (backoffice_app.DEFAULT_HOST, backoffice_app.DEFAULT_PORT)  # fmt: skip


def test_each_setting_option_is_the_one_the_settings_name() -> None:
    """An option whose destination is a setting is the option ``defaults.OPTIONS`` gives it
    (the error messages name it), and every option there belongs to a setting."""
    from ratingdb.config import Settings

    assert set(defaults.OPTIONS) <= set(Settings.model_fields)
    parsers = [build_parser()]
    seen = set()
    while parsers:
        parser = parsers.pop()
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                parsers.extend(action.choices.values())
            elif action.dest in Settings.model_fields:
                assert defaults.OPTIONS[action.dest] in action.option_strings, action
                assert action.default is None, action  # not given: the variable decides
                seen.add(action.dest)
    assert seen == set(defaults.OPTIONS)
