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
from ratingdb.models import Base
from ratingdb.models.visibility import BACK_OFFICE_TABLES, PUBLIC_TABLES
from tests.replica import clusters

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"
DOCKERFILE = ROOT / "Dockerfile"
APP_SERVICES = ("migrate", "api", "backoffice", "scheduler")
READER = "ratingdb_reader"


def with_defaults(text: str) -> str:
    """``text`` with compose's ``${NAME:-default}`` replaced by the default."""
    return re.sub(r"\$\{(\w+):-([^}]*)\}", lambda match: match.group(2), text)


def structure_problems(services: dict[str, Any]) -> list[str]:
    """What is wrong with the services of a compose file (normalised or as written); the
    services of a profile are checked on their own (:func:`replica_problems`)."""
    problems = []
    services = {name: service for name, service in services.items() if not service.get("profiles")}
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
    # The site's settings reach the public pages, passed on from the host (empty: unset).
    for variable in ("RATINGDB_PUBLIC_BASE_URL", "RATINGDB_FEDERATION_NAME",
                     "RATINGDB_FEDERATION_LOGO", "RATINGDB_CONTACT_EMAIL"):  # fmt: skip
        if variable not in api_environment:
            problems.append(f"api: {variable} not passed on")
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


@pytest.mark.processes
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


@pytest.mark.processes
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


@pytest.mark.processes
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


def test_every_table_is_public_or_the_back_offices() -> None:
    """The role script and the code name the same back-office tables, and every table of the
    metadata is classified: a new table is a decision about who may read it."""
    script = (ROOT / "docker" / "read-only-role.sql").read_text(encoding="utf-8")
    listed = re.search(r"\\set back_office_tables '([^']*)'", script)
    assert listed is not None
    assert set(listed.group(1).split(",")) == BACK_OFFICE_TABLES
    assert not BACK_OFFICE_TABLES & PUBLIC_TABLES
    assert set(Base.metadata.tables) == (BACK_OFFICE_TABLES | PUBLIC_TABLES) - {"alembic_version"}


@pytest.mark.processes
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
            # A table made after the script ran is not readable (no default privilege: a
            # back-office table a later migration adds never leaks) until the script runs again.
            with reader.connect() as connection, pytest.raises(ProgrammingError):
                connection.exec_driver_sql("SELECT count(*) FROM later_table")
            done = subprocess.run(
                _roles_command(role), capture_output=True, text=True, env=environment,
                check=False, timeout=60,
            )  # fmt: skip
            assert done.returncode == 0, done.stderr
            with reader.connect() as connection:
                for table in sorted(PUBLIC_TABLES):
                    connection.exec_driver_sql(f"SELECT count(*) FROM {table}")
                # The back office's accounts, secrets, uploads and audit log stay out of reach.
                for table in sorted(BACK_OFFICE_TABLES):
                    with pytest.raises(ProgrammingError, match="permission denied"):
                        connection.exec_driver_sql(f"SELECT count(*) FROM {table}")
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


# --- profile `replica`: a streaming replica the API reads -------------------------------------

REPLICA_SERVICES = ("replication", "replica")


def _url_host(url: object, environ: dict[str, str] | None = None) -> str | None:
    """The host of a compose URL, its ``${NAME:-default}`` taken from ``environ`` if set there."""
    environ = environ or {}
    resolved = re.sub(
        r"\$\{(\w+):-([^}]*)\}", lambda match: environ.get(match.group(1), match.group(2)), str(url)
    )
    return make_url(resolved).host


def _mounts(service: dict[str, Any]) -> dict[str, str]:
    """A service's bind mounts and volumes, target -> source (short or long syntax)."""
    mounts = {}
    for volume in service.get("volumes", []):
        if isinstance(volume, dict):
            mounts[str(volume["target"])] = str(volume["source"])
        else:
            source, target = volume.split(":")[:2]
            mounts[target] = source
    return mounts


def replica_problems(services: dict[str, Any], root: Path = ROOT) -> list[str]:
    """What is wrong with the ``replica`` profile: the one-shot ``replication`` service runs
    docker/replica-primary.sh on db's own data volume, then ``replica`` runs
    docker/replica-bootstrap.sh (pg_basebackup from db, then ``postgres``) on a volume of its
    own, as the role and slot ``replication`` made; the very scripts tests/replica/ runs for
    real. The API reads the replica when RATINGDB_READ_HOST=replica; everything else writes
    to db."""
    problems = []
    if any(name not in services for name in REPLICA_SERVICES):
        return [f"services: {sorted(services)}, no {' and '.join(REPLICA_SERVICES)}"]
    replication, replica = (services[name] for name in REPLICA_SERVICES)
    for name in REPLICA_SERVICES:
        if services[name].get("profiles") != ["replica"]:
            problems.append(f"{name} profiles {services[name].get('profiles')}")
        if not str(services[name].get("image")).startswith("postgres:"):
            problems.append(f"{name} image {services[name].get('image')}")
        if services[name].get("user") != "postgres":
            problems.append(f"{name} does not run as the postgres OS user")
    scripts = {
        "replication": (replication, clusters.PRIMARY_SCRIPT, []),
        "replica": (replica, clusters.BOOTSTRAP_SCRIPT, ["postgres"]),
    }
    for name, (service, script, then) in scripts.items():
        command = [str(part) for part in service.get("command", [])]
        mounts = _mounts(service)
        if command[:1] != ["sh"] or len(command) < 2 or command[2:] != then:
            problems.append(f"{name} command {command}")
            continue
        source = mounts.get(command[1])
        if source is None or (root / source).resolve() != script.resolve():
            problems.append(f"{name} runs {command[1]}, mounted from {source}, not {script}")
    data = "/var/lib/postgresql/data"
    for name, service in (("replication", replication), ("replica", replica)):
        if service.get("environment", {}).get("PGDATA") != data:
            problems.append(f"{name} PGDATA is not {data}")
    if _mounts(replication).get(data) != "pgdata":
        problems.append("replication does not edit db's own data volume (pgdata)")
    if _mounts(replica).get(data) in (None, "pgdata"):
        problems.append("replica has no data volume of its own")
    primary_side = {k: with_defaults(str(v)) for k, v in replication["environment"].items()}
    replica_side = {k: with_defaults(str(v)) for k, v in replica["environment"].items()}
    if primary_side.get("PGHOST") != "db" or replica_side.get("PGHOST") != "db":
        problems.append("replication and replica do not both connect to db")
    if replica_side.get("PGUSER") != primary_side.get("REPLICATOR"):
        problems.append("replica connects as another role than the one replication makes")
    if replica_side.get("PGPASSWORD") != primary_side.get("REPLICATOR_PASSWORD"):
        problems.append("replica's password is not the replication role's")
    if not primary_side.get("REPLICATION_SLOT") or (
        replica_side.get("REPLICATION_SLOT") != primary_side.get("REPLICATION_SLOT")
    ):
        problems.append("replica streams through another slot than the one replication makes")
    if str(replication.get("restart", "no")) != "no":
        problems.append("replication restarts: it must run once")
    depends = {k: v.get("condition") for k, v in replica.get("depends_on", {}).items()}
    if depends != {"db": "service_healthy", "replication": "service_completed_successfully"}:
        problems.append(f"replica depends_on {depends}")
    test = " ".join(replica.get("healthcheck", {}).get("test", []))
    if "pg_isready" not in test or "-h /var/run/postgresql" not in test:
        problems.append(f"replica healthcheck {test} (PGHOST is db: it must ask its own socket)")
    api = services["api"]["environment"]
    for environ, host in (({}, "db"), ({"RATINGDB_READ_HOST": "replica"}, "replica")):
        read_host = _url_host(api["RATINGDB_READ_DATABASE_URL"], environ)
        if read_host != host:
            problems.append(f"api reads {read_host} with {environ}, not {host}")
    for name, service in services.items():
        if name in REPLICA_SERVICES or "RATINGDB_DATABASE_URL" not in service.get(
            "environment", {}
        ):
            continue
        written = _url_host(service["environment"]["RATINGDB_DATABASE_URL"])
        if written != "db":
            problems.append(f"{name}'s RATINGDB_DATABASE_URL is on {written}, not the primary db")
    return problems


def test_compose_replica_profile() -> None:
    document = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    assert replica_problems(document["services"]) == []
    assert "replica-data" in document["volumes"]


def test_compose_replica_profile_check_finds_faults() -> None:
    """The check above is not blind: each of these breaks it."""
    document = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))

    def broken(change: Any) -> list[str]:
        services = json.loads(json.dumps(document["services"]))
        change(services)
        return replica_problems(services)

    assert broken(
        lambda s: s["replica"]["volumes"].__setitem__(0, "pgdata:/var/lib/postgresql/data")
    )
    assert broken(lambda s: s["replica"]["environment"].__setitem__("REPLICATION_SLOT", "other"))
    assert broken(lambda s: s["replica"]["environment"].__setitem__("PGUSER", "ratingdb"))
    assert broken(lambda s: s["replica"].pop("profiles"))
    assert broken(lambda s: s["replica"]["command"].__setitem__(1, "/replica/other.sh"))
    assert broken(
        lambda s: s["scheduler"]["environment"].__setitem__(
            "RATINGDB_DATABASE_URL", "postgresql+psycopg://ratingdb:x@replica:5432/ratingdb"
        )
    )


@pytest.mark.processes
def test_docker_compose_config_with_the_replica_profile() -> None:
    """Compose's own validation of the profile, where a client exists."""
    docker = _compose_client()
    if docker is None:
        pytest.skip("no Docker client with the compose plugin: the YAML structure check stands")
    done = subprocess.run(
        [docker, "compose", "-f", str(COMPOSE), "--profile", "replica", "config", "--format",
         "json"],
        capture_output=True, text=True, check=False, timeout=60, cwd=ROOT,
        env={**os.environ, "RATINGDB_READ_HOST": "replica"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    services = json.loads(done.stdout)["services"]
    assert structure_problems(services) == []
    # Normalised: ${...} already resolved (RATINGDB_READ_HOST=replica), mounts absolute.
    api_read = services["api"]["environment"]["RATINGDB_READ_DATABASE_URL"]
    assert make_url(api_read).host == "replica"
