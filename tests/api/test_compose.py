"""docker-compose.yml and the Dockerfile: ``docker compose config`` where a Docker client with
compose is usable, and always a structure check of the file (PyYAML): PostgreSQL with a health
check, a one-shot migrate, the API (scalable: no single fixed host port) connecting as a role
that can only read (created by the one-shot ``roles`` service), the back office on its own port
with a writing role, exactly one scheduler, each
started with the project's own command, all from one image. And the role's SQL, run for real
on PostgreSQL exactly as the ``roles`` service runs it."""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ProgrammingError

from ratingdb.api import create_app
from ratingdb.cli import build_parser
from ratingdb.config import Settings
from ratingdb.db import upgrade

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"
DOCKERFILE = ROOT / "Dockerfile"
APP_SERVICES = ("migrate", "api", "backoffice", "scheduler")
READER = "ratingdb_reader"


def with_defaults(text: str) -> str:
    """``text`` with compose's ``${NAME:-default}`` replaced by the default."""
    return re.sub(r"\$\{(\w+):-([^}]*)\}", lambda match: match.group(2), text)


def structure_problems(services: dict[str, Any]) -> list[str]:
    """What is wrong with the services of a compose file (normalised or as written)."""
    problems = []
    if set(services) != {"db", "roles", *APP_SERVICES}:
        problems.append(f"services: {sorted(services)}")
        return problems
    db = services["db"]
    if not str(db["image"]).startswith("postgres:"):
        problems.append(f"db image {db['image']}")
    test = db.get("healthcheck", {}).get("test")
    if not test or "pg_isready" not in " ".join(test if isinstance(test, list) else [test]):
        problems.append(f"db healthcheck {test}")
    commands = {
        "migrate": ["ratingdb", "db", "upgrade"],
        "api": ["ratingdb", "serve", "--host", "0.0.0.0", "--port", "8000"],
        "backoffice": ["ratingdb", "backoffice", "--host", "0.0.0.0", "--port", "8001"],
        "scheduler": ["python", "-m", "jobs", "scheduler"],
    }
    for name, command in commands.items():
        if services[name].get("command") != command:
            problems.append(f"{name} command {services[name].get('command')}")
        if "build" not in services[name] or services[name].get("image") != "ratingdb:latest":
            problems.append(f"{name} is not built from the one image")
        if "RATINGDB_DATABASE_URL" not in services[name].get("environment", {}):
            problems.append(f"{name} has no RATINGDB_DATABASE_URL")
    conditions = {
        "migrate": {"db": "service_healthy"},
        "api": {
            "db": "service_healthy",
            "migrate": "service_completed_successfully",
            "roles": "service_completed_successfully",
        },
        "roles": {"db": "service_healthy", "migrate": "service_completed_successfully"},
        "backoffice": {"db": "service_healthy", "migrate": "service_completed_successfully"},
        "scheduler": {"db": "service_healthy", "migrate": "service_completed_successfully"},
    }
    for name, wanted in conditions.items():
        depends = {k: v.get("condition") for k, v in services[name].get("depends_on", {}).items()}
        if depends != wanted:
            problems.append(f"{name} depends_on {depends}")
    if str(services["migrate"].get("restart", "no")) != "no":
        problems.append("migrate restarts: it must run once")
    if services["scheduler"].get("deploy", {}).get("replicas") != 1:
        problems.append("scheduler: not exactly one replica")
    for port in services["api"].get("ports", []):
        published = str(port.get("published", "")) if isinstance(port, dict) else port
        host = str(published).rsplit(":", 1)[0] if ":" in str(published) else str(published)
        if host and "-" not in host:
            problems.append(f"api port {port}: one fixed host port stops --scale api=3")
    api_environment = services["api"].get("environment", {})
    for variable in ("RATINGDB_DATABASE_URL", "RATINGDB_READ_DATABASE_URL"):
        user = make_url(with_defaults(str(api_environment.get(variable)))).username
        if user != READER:
            problems.append(f"api {variable} connects as {user}, not the read-only {READER}")
    # The back office writes: the main credentials, never the reader's; its own port.
    backoffice_user = make_url(
        with_defaults(
            str(services["backoffice"].get("environment", {}).get("RATINGDB_DATABASE_URL"))
        )
    ).username
    if backoffice_user == READER or backoffice_user is None:
        problems.append(f"backoffice connects as {backoffice_user}, not a writing role")
    published = [
        str(port.get("published")) if isinstance(port, dict) else str(port).rsplit(":", 1)[0]
        for port in services["backoffice"].get("ports", [])
    ]
    if published != ["8001"]:
        problems.append(f"backoffice ports {published}: not its own port 8001")
    roles = services["roles"]
    if not str(roles.get("image")).startswith("postgres:"):
        problems.append(f"roles image {roles.get('image')}")
    if str(roles.get("restart", "no")) != "no":
        problems.append("roles restarts: it must run once")
    command = [str(part) for part in roles.get("command", [])]
    if command[:1] != ["psql"] or f"reader={READER}" not in command:
        problems.append(f"roles command {command}")
    return problems


def test_compose_file_structure() -> None:
    document = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    assert structure_problems(document["services"]) == []
    assert "pgdata" in document["volumes"]


def test_compose_commands_are_the_project_commands() -> None:
    document = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    for name in ("migrate", "api", "backoffice"):
        args = build_parser().parse_args(document["services"][name]["command"][1:])
        assert args.command in ("db", "serve", "backoffice")
    jobs_help = subprocess.run(
        [sys.executable, "-m", "jobs", "--help"], capture_output=True, text=True, check=True
    ).stdout
    assert "scheduler" in jobs_help


def test_dockerfile() -> None:
    lines = [line.strip() for line in DOCKERFILE.read_text(encoding="utf-8").splitlines()]
    assert lines[[line.startswith("FROM") for line in lines].index(True)] == (
        "FROM python:3.11-slim"
    )
    for needed in ("pyproject.toml", "ratingdb", "jobs", "migrations"):
        assert any(line.startswith("COPY") and needed in line for line in lines), needed
    # The dependencies, pinned by constraints.txt, are a layer of their own before the code.
    dependencies = next(i for i, line in enumerate(lines) if "-r /tmp/requirements.txt" in line)
    code = next(i for i, line in enumerate(lines) if line.startswith("COPY ratingdb"))
    installs = [i for i, line in enumerate(lines) if "pip install -c constraints.txt" in line]
    assert dependencies < code < installs[-1]
    assert len(installs) == 2
    assert "PYTHONPATH" not in DOCKERFILE.read_text(encoding="utf-8")


def test_dockerfile_dependency_list_is_the_projects() -> None:
    """The Dockerfile's first layer installs exactly pyproject.toml's dependencies: the same
    one-liner it runs, run here."""
    line = next(
        line
        for line in DOCKERFILE.read_text(encoding="utf-8").splitlines()
        if line.startswith("RUN python -c")
    )
    program = line.split('"', 1)[1].rsplit('"', 1)[0]
    printed = subprocess.run(
        [sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split("\n")
    with (ROOT / "pyproject.toml").open("rb") as file:
        declared = tomllib.load(file)["project"]["dependencies"]
    assert [line for line in printed if line] == declared


def _compose_client() -> str | None:
    docker = shutil.which("docker")
    if docker is None:
        return None
    probe = subprocess.run(
        [docker, "compose", "version"], capture_output=True, text=True, check=False, timeout=30
    )
    return docker if probe.returncode == 0 else None


def test_docker_compose_config() -> None:
    """Compose's own validation, where a client with the compose plugin exists (no engine
    needed); the structure check above runs everywhere."""
    docker = _compose_client()
    if docker is None:
        pytest.skip("no Docker client with the compose plugin: the YAML structure check stands")
    done = subprocess.run(
        [docker, "compose", "-f", str(COMPOSE), "config", "--format", "json"],
        capture_output=True, text=True, check=False, timeout=60, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert structure_problems(json.loads(done.stdout)["services"]) == []


def _roles_command(role: str) -> list[str]:
    """The ``roles`` service's command, as compose runs it (default password, the mounted
    file at its path here), for ``role`` instead of ratingdb_reader."""
    service = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))["services"]["roles"]
    mounts = {}
    for volume in service["volumes"]:
        source, target = volume.split(":")[:2]
        mounts[target] = str((ROOT / source).resolve())
    command = []
    for part in service["command"]:
        part = with_defaults(part)
        command.append(mounts.get(part, part).replace(f"reader={READER}", f"reader={role}"))
    return command


def test_the_read_only_role_can_read_and_nothing_else(postgresql_admin: Engine) -> None:
    """docker/read-only-role.sql, run by psql as compose runs it, before the migrations and
    again after (it is idempotent): the role reads every table, those created later
    included, and the app serves through it; it cannot insert, update, delete, truncate or
    create a table, even in a transaction it makes read-write."""
    psql = shutil.which("psql")
    if psql is None:
        pytest.skip("no psql client here: the compose structure check stands")
    suffix = secrets.token_hex(4)
    database, role = f"ratingdb_roles_{suffix}", f"{READER}_{suffix}"
    with postgresql_admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{database}"')
    owner_url = postgresql_admin.url.set(database=database)
    environment = {
        **os.environ,
        "PGHOST": owner_url.host or "127.0.0.1",
        "PGPORT": str(owner_url.port or 5432),
        "PGUSER": owner_url.username or "postgres",
        "PGPASSWORD": owner_url.password or "",
        "PGDATABASE": database,
    }
    reader_url = owner_url.set(username=role, password="ratingdb_reader")
    try:
        for step in ("before the migrations", "after them"):
            done = subprocess.run(
                _roles_command(role), capture_output=True, text=True, env=environment,
                check=False, timeout=60,
            )  # fmt: skip
            assert done.returncode == 0, (step, done.stderr)
            if step == "before the migrations":
                upgrade(owner_url.render_as_string(hide_password=False))
        owner = create_engine(owner_url, isolation_level="AUTOCOMMIT")
        with owner.connect() as connection:
            connection.exec_driver_sql("CREATE TABLE later_table (x integer)")
        owner.dispose()
        reader = create_engine(reader_url, isolation_level="AUTOCOMMIT")
        try:
            with reader.connect() as connection:
                assert connection.scalar(text("SELECT count(*) FROM players")) == 0
                assert connection.scalar(text("SELECT count(*) FROM later_table")) == 0
                assert connection.scalar(text("SELECT version_num FROM alembic_version"))
                assert connection.scalar(text("SHOW default_transaction_read_only")) == "on"
                connection.exec_driver_sql("SET default_transaction_read_only = off")
                for statement in (
                    "INSERT INTO players (player_id, name) VALUES ('9', 'Intruder')",
                    "UPDATE players SET name = 'x'",
                    "DELETE FROM players",
                    "TRUNCATE players",
                    "INSERT INTO later_table VALUES (1)",
                    "CREATE TABLE intruder (x integer)",
                    "CREATE TEMP TABLE intruder (x integer)",
                    "CREATE SCHEMA intruder",
                ):
                    with pytest.raises(ProgrammingError, match="permission denied"):
                        connection.exec_driver_sql(statement)
        finally:
            reader.dispose()
        url = reader_url.render_as_string(hide_password=False)
        with TestClient(create_app(Settings(url, url))) as client:
            assert client.get("/health").json()["status"] == "ok"
            assert client.get("/v1/lists").status_code == 200
    finally:
        with postgresql_admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
            connection.exec_driver_sql(f'DROP ROLE IF EXISTS "{role}"')
