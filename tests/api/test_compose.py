"""docker-compose.yml and the Dockerfile: ``docker compose config`` where a Docker client with
compose is usable, and always a structure check of the file (PyYAML): PostgreSQL with a health
check, a one-shot migrate, the API (scalable: no single fixed host port), exactly one
scheduler, each started with the project's own command, all from one image."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

from ratingdb.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"
DOCKERFILE = ROOT / "Dockerfile"
APP_SERVICES = ("migrate", "api", "scheduler")


def structure_problems(services: dict[str, Any]) -> list[str]:
    """What is wrong with the services of a compose file (normalised or as written)."""
    problems = []
    if set(services) != {"db", *APP_SERVICES}:
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
        "api": {"db": "service_healthy", "migrate": "service_completed_successfully"},
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
    if "RATINGDB_READ_DATABASE_URL" not in services["api"].get("environment", {}):
        problems.append("api cannot be pointed at a replica")
    return problems


def test_compose_file_structure() -> None:
    document = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    assert structure_problems(document["services"]) == []
    assert "pgdata" in document["volumes"]


def test_compose_commands_are_the_project_commands() -> None:
    document = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    for name in ("migrate", "api"):
        args = build_parser().parse_args(document["services"][name]["command"][1:])
        assert args.command in ("db", "serve")
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
