"""One place for settings: every knob is a field of ``Settings``, read from its RATINGDB_
variable, overridden by its command-line option, checked, and handed whole to the worker
processes of ``serve --workers N``."""

from __future__ import annotations

import os
import pickle

import pytest

from ratingdb.cli import build_parser, main
from ratingdb.cli.common import settings
from ratingdb.config import ConfigurationError, Settings


@pytest.fixture(autouse=True)
def no_settings_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("RATINGDB_"):
            monkeypatch.delenv(name)


def test_an_option_overrides_its_variable_which_overrides_the_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    parse = build_parser().parse_args
    assert settings(parse(["serve"])).serve_page_cache_mb == 64
    monkeypatch.setenv("RATINGDB_SERVE_PAGE_CACHE_MB", "8")
    monkeypatch.setenv("RATINGDB_SERVE_ACCESS_LOG", "false")
    monkeypatch.setenv("RATINGDB_BACKOFFICE_SECURE_COOKIES", "1")
    assert settings(parse(["serve"])).serve_page_cache_mb == 8
    assert settings(parse(["serve"])).serve_access_log is False
    assert settings(parse(["serve", "--page-cache-mb", "0"])).serve_page_cache_mb == 0
    assert settings(parse(["backoffice"])).backoffice_secure_cookies is True
    # The demo serves: its address is serve's.
    monkeypatch.setenv("RATINGDB_SERVE_PORT", "9100")
    assert settings(parse(["demo"])).serve_port == 9100
    assert settings(parse(["demo", "--port", "9200"])).serve_port == 9200


def test_a_bad_variable_is_a_configuration_failure_naming_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("RATINGDB_SERVE_PORT", "eighty")
    assert main(["serve"]) == 1
    assert capsys.readouterr().err == (
        "ratingdb serve: RATINGDB_SERVE_PORT: input should be a valid integer, unable to parse "
        "string as an integer, got 'eighty'\n"
    )
    monkeypatch.setenv("RATINGDB_SERVE_PORT", "70000")
    assert main(["serve"]) == 1
    assert "RATINGDB_SERVE_PORT: must be 0..65535, got 70000" in capsys.readouterr().err
    # The option, given, wins over the bad variable.
    monkeypatch.setenv("RATINGDB_SERVE_WORKERS", "0")
    assert main(["serve", "--port", "8000", "--workers", "65"]) == 2
    assert capsys.readouterr().err == "ratingdb serve: --workers: must be 1..64, got 65\n"


def test_a_bad_option_is_bad_usage_naming_it(capsys: pytest.CaptureFixture[str]) -> None:
    for option, bad, message in (
        ("--page-cache-mb", "-1", "must be 0..1048576, got -1"),
        ("--port", "65536", "must be 0..65535, got 65536"),
    ):
        assert main(["serve", option, bad]) == 2
        assert capsys.readouterr().err == f"ratingdb serve: {option}: {message}\n"
    assert main(["backoffice", "--port", "-1"]) == 2
    assert capsys.readouterr().err == "ratingdb backoffice: --port: must be 0..65535, got -1\n"


def test_settings_come_back_whole_from_their_variables() -> None:
    """What the workers of ``serve --workers N`` receive: every field, password included
    (the environment of the server's own processes), the actor unset when it is."""
    given = Settings.from_env(
        {"RATINGDB_READ_DATABASE_URL": "postgresql://reader:pw@replica/db"},
        database_url="postgresql://writer:secret@primary/db",
        serve_host="::1", serve_port=0, serve_workers=3, serve_threads=7,
        serve_page_cache_mb=0, serve_access_log=False, serve_limit_request_head=2048,
        serve_limit_request_fields=9, serve_timeout_request_head=3, serve_timeout_keep_alive=2,
        serve_timeout_request_body=7, serve_trusted_proxies="10.0.0.0/8,::1",
        backoffice_host="0.0.0.0", backoffice_port=9001, backoffice_secure_cookies=True,
        backoffice_limit_request_head=4096, backoffice_limit_request_fields=11,
        backoffice_timeout_request_head=4, backoffice_timeout_keep_alive=6,
        backoffice_timeout_request_body=8, backoffice_limit_connections=9,
        backoffice_upload_concurrency=3, backoffice_trusted_proxies="172.16.0.0/12",
        debug=True, publication_approval="ffe-rapid,fide-standard",
        metrics=False, log_format="json", scheduler_metrics_host="0.0.0.0",
        scheduler_metrics_port=9102,
    )  # fmt: skip
    variables = given.environment()
    assert variables["RATINGDB_DATABASE_URL"] == "postgresql+psycopg://writer:secret@primary/db"
    assert variables["RATINGDB_ACTOR"] is None
    assert variables["RATINGDB_PUBLICATION_APPROVAL"] == "fide-standard,ffe-rapid"
    assert set(variables) == {f"RATINGDB_{name.upper()}" for name in Settings.model_fields}
    back = Settings.from_env({k: v for k, v in variables.items() if v is not None})
    assert back == given
    assert "secret" not in repr(given)
    assert "pw@" not in repr(given)


def test_an_actor_names_where_it_came_from(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RATINGDB_ACTOR", "x" * 101)
    with pytest.raises(ConfigurationError, match=r"^RATINGDB_ACTOR: at most 100"):
        Settings.from_env(os.environ).audit_actor()
    with pytest.raises(ConfigurationError, match=r"^--actor: at most 100"):
        Settings.from_env(os.environ, actor="y" * 101).audit_actor()
    assert Settings.from_env(os.environ, actor="Ada").audit_actor() == "Ada"


def test_the_workers_configuration_is_built_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """uvicorn pickles the configuration to each worker: what a worker gets is built from the
    settings in the environment, not a copy of the parent's objects."""
    from ratingdb.api.server import WORKER_APP, WorkerConfig, worker_config

    monkeypatch.setenv("RATINGDB_SERVE_WORKERS", "2")
    monkeypatch.setenv("RATINGDB_SERVE_LIMIT_REQUEST_FIELDS", "7")
    config = worker_config()
    assert (config.workers, config.limits.max_headers, config.app) == (2, 7, WORKER_APP)
    monkeypatch.setenv("RATINGDB_SERVE_LIMIT_REQUEST_FIELDS", "8")
    monkeypatch.setenv("RATINGDB_SERVE_TIMEOUT_KEEP_ALIVE", "3")
    monkeypatch.setenv("RATINGDB_SERVE_ACCESS_LOG", "0")
    copy = pickle.loads(pickle.dumps(config))
    assert isinstance(copy, WorkerConfig)
    assert (copy.limits.max_headers, copy.timeout_keep_alive, copy.access_log) == (8, 3, False)
    assert copy.factory is True


def test_the_servers_log_json_lines_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """``RATINGDB_LOG_FORMAT=json``: every worker's uvicorn logs through the JSON formatter, its
    access log too; text (the default) keeps uvicorn's own configuration."""
    from uvicorn.config import LOGGING_CONFIG

    from ratingdb.api.server import worker_config

    monkeypatch.setenv("RATINGDB_SERVE_WORKERS", "2")
    assert worker_config().log_config == LOGGING_CONFIG
    monkeypatch.setenv("RATINGDB_LOG_FORMAT", "json")
    config = pickle.loads(pickle.dumps(worker_config()))
    assert isinstance(config.log_config, dict)
    formatters = config.log_config["formatters"]
    assert formatters == {"json": {"()": "ratingdb.observability.logs.JsonFormatter"}}
    handlers = config.log_config["handlers"]
    assert {handlers[name]["formatter"] for name in ("default", "access")} == {"json"}


def test_publication_approval_lists_categories_and_refuses_unknown_ones(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``RATINGDB_PUBLICATION_APPROVAL``: the categories whose scheduled close waits for an
    officer (default none: every category automatic); a name that is not a category stops the
    back office and the jobs at start-up, naming the variable."""
    from jobs.__main__ import main as jobs_main
    from ratingdb.rules import Category

    assert Settings.from_env({}).publication_approval == ()
    given = Settings.from_env({"RATINGDB_PUBLICATION_APPROVAL": " ffe-rapid , fide-standard "})
    assert given.publication_approval == (Category.FIDE_STANDARD, Category.FFE_RAPID)
    expected = (
        "RATINGDB_PUBLICATION_APPROVAL: unknown category 'fide-std' (expected one of: "
        "fide-standard, fide-rapid, fide-blitz, ffe-rapid)"
    )
    monkeypatch.setenv("RATINGDB_PUBLICATION_APPROVAL", "fide-standard,fide-std")
    assert main(["backoffice"]) == 1
    assert capsys.readouterr().err == f"ratingdb backoffice: {expected}\n"
    assert jobs_main(["run", "close-periods"]) == 1
    assert capsys.readouterr().err == f"python -m jobs run: {expected}\n"
    monkeypatch.setenv("RATINGDB_PUBLICATION_APPROVAL", "fide-standard,,ffe-rapid")
    assert main(["backoffice"]) == 1
    assert "RATINGDB_PUBLICATION_APPROVAL: a category name is missing in " in (
        capsys.readouterr().err)  # fmt: skip
