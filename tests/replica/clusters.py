"""Scratch PostgreSQL clusters on this machine: a primary and a streaming replica of it, each in
a temporary folder of its own, on a free port, run by the ``postgres`` OS user (the server
refuses to run as root) with the server binaries of /usr/lib/postgresql/<newest>/bin.

The replica is made the way docker-compose.yml's ``replica`` profile makes it: the same two
scripts, docker/replica-primary.sh on the primary, then docker/replica-bootstrap.sh
(``pg_basebackup -R`` from the primary, then the start command).
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.engine import URL

ROOT = Path(__file__).resolve().parents[2]
PRIMARY_SCRIPT = ROOT / "docker" / "replica-primary.sh"
BOOTSTRAP_SCRIPT = ROOT / "docker" / "replica-bootstrap.sh"
SERVER_BINARIES = ("initdb", "pg_ctl", "pg_basebackup", "pg_isready", "postgres", "psql")
OS_USER = "postgres"
SUPERUSER, SUPERUSER_PASSWORD = "postgres", "scratch-superuser"
REPLICATOR, REPLICATOR_PASSWORD = "ratingdb_replicator", "scratch-replicator"
SLOT = "ratingdb_replica"
DATABASE = "ratingdb"
START_SECONDS = 60


def why_not() -> str | None:
    """Why this machine cannot run scratch clusters (None: it can)."""
    if binaries() is None:
        return "no PostgreSQL server binaries in /usr/lib/postgresql/<version>/bin"
    try:
        pwd.getpwnam(OS_USER)
    except KeyError:
        return f"no {OS_USER!r} OS user to run the PostgreSQL server as"
    if os.geteuid() != 0 and pwd.getpwuid(os.geteuid()).pw_name != OS_USER:
        return f"neither root nor {OS_USER!r}: cannot run the server as {OS_USER!r}"
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        return "root without runuser: cannot run the server as postgres"
    return None


def binaries() -> Path | None:
    """The bin folder of the newest PostgreSQL installed with every binary needed."""
    base = Path("/usr/lib/postgresql")
    if not base.is_dir():
        return None
    versions = sorted(
        (folder for folder in base.iterdir() if folder.name.isdigit()),
        key=lambda folder: int(folder.name),
        reverse=True,
    )
    for version in versions:
        if all((version / "bin" / name).is_file() for name in SERVER_BINARIES):
            return version / "bin"
    return None


def as_postgres(
    args: list[str], env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """``args`` run as the postgres OS user (through runuser when we are root), with
    ``env`` added to a minimal environment whose PATH starts with the server binaries."""
    bin_folder = binaries()
    assert bin_folder is not None
    environment = {
        "PATH": f"{bin_folder}:/usr/bin:/bin",
        "LC_ALL": "C.UTF-8",
        "HOME": tempfile.gettempdir(),
        **(env or {}),
    }
    prefix = ["runuser", "-u", OS_USER, "--"] if os.geteuid() == 0 else []
    command = [*prefix, "env", "-i", *(f"{k}={v}" for k, v in environment.items()), *args]
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=timeout, check=False, cwd="/"
    )
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed ({done.returncode}):\n{done.stderr}")
    return done


def scratch_folder(prefix: str) -> Path:
    """A new empty folder the postgres OS user owns (pytest's tmp_path is root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    entry = pwd.getpwnam(OS_USER)
    os.chown(folder, entry.pw_uid, entry.pw_gid)
    return folder


@dataclass
class Cluster:
    """One running (or stopped) scratch cluster."""

    folder: Path
    port: int

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def url(
        self,
        user: str = SUPERUSER,
        password: str = SUPERUSER_PASSWORD,
        database: str = DATABASE,
    ) -> str:
        return URL.create(
            "postgresql+psycopg",
            username=user,
            password=password,
            host="127.0.0.1",
            port=self.port,
            database=database,
            query={"connect_timeout": "5"},
        ).render_as_string(hide_password=False)

    def start_command(self) -> list[str]:
        """``pg_ctl start`` on this cluster's port, listening on 127.0.0.1 and on a socket in
        its own folder only (never the system cluster's), as a hot standby if it is one."""
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 "
            f"-c unix_socket_directories={self.folder} "
            "-c wal_level=replica -c max_wal_senders=5 -c hot_standby=on "
            "-c fsync=off -c shared_buffers=32MB"
        )
        return [
            "pg_ctl", "start", "--wait", f"--timeout={START_SECONDS}", "-D", str(self.data),
            "-l", str(self.folder / "server.log"), "-o", options,
        ]  # fmt: skip

    def stop(self, mode: str = "fast") -> None:
        """Stop the server if it runs (``mode``: fast, a clean shutdown; immediate)."""
        if (self.data / "postmaster.pid").exists():
            as_postgres(["pg_ctl", "stop", "--wait", "-m", mode, "-D", str(self.data)])

    def log(self) -> str:
        path = self.folder / "server.log"
        return path.read_text(errors="replace") if path.exists() else "(no server log)"

    def remove(self) -> None:
        """Stop it at once if it still runs, and remove its folder."""
        try:
            self.stop("immediate")
        finally:
            shutil.rmtree(self.folder, ignore_errors=False)

    def scalar(
        self, query: str, database: str = DATABASE, parameters: dict[str, object] | None = None
    ) -> object:
        """One value, read as the superuser."""
        engine = create_engine(self.url(database=database), isolation_level="AUTOCOMMIT")
        try:
            with engine.connect() as connection:
                return connection.execute(text(query), parameters or {}).scalar()
        finally:
            engine.dispose()


def start_primary(folder: Path, port: int) -> Cluster:
    """initdb (the superuser with a password, scram over TCP), start, and a database."""
    cluster = Cluster(folder, port)
    password_file = folder / "superuser-password"
    password_file.write_text(SUPERUSER_PASSWORD + "\n")
    entry = pwd.getpwnam(OS_USER)
    os.chown(password_file, entry.pw_uid, entry.pw_gid)
    as_postgres(
        ["initdb", "-D", str(cluster.data), "-U", SUPERUSER, f"--pwfile={password_file}",
         "--auth-local=trust", "--auth-host=scram-sha-256", "--encoding=UTF8", "--no-sync"]
    )  # fmt: skip
    as_postgres(cluster.start_command())
    engine = create_engine(cluster.url(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            connection.exec_driver_sql(f'CREATE DATABASE "{DATABASE}"')
    finally:
        engine.dispose()
    return cluster


def prepare_primary(primary: Cluster) -> None:
    """docker/replica-primary.sh on the primary (compose's ``replication`` service)."""
    as_postgres(
        ["sh", str(PRIMARY_SCRIPT)],
        {
            "PGDATA": str(primary.data),
            "PGHOST": "127.0.0.1",
            "PGPORT": str(primary.port),
            "PGUSER": SUPERUSER,
            "PGPASSWORD": SUPERUSER_PASSWORD,
            "PGDATABASE": "postgres",
            "REPLICATOR": REPLICATOR,
            "REPLICATOR_PASSWORD": REPLICATOR_PASSWORD,
            "REPLICATION_SLOT": SLOT,
        },
    )


def bootstrap_replica(primary: Cluster, replica: Cluster) -> None:
    """docker/replica-bootstrap.sh (compose's ``replica`` service): the first time a copy of
    the primary by pg_basebackup, then ``pg_ctl start`` of the standby."""
    as_postgres(
        ["sh", str(BOOTSTRAP_SCRIPT), *replica.start_command()],
        {
            "PGDATA": str(replica.data),
            "PGHOST": "127.0.0.1",
            "PGPORT": str(primary.port),
            "PGUSER": REPLICATOR,
            "PGPASSWORD": REPLICATOR_PASSWORD,
            "REPLICATION_SLOT": SLOT,
        },
    )


def start_replica(primary: Cluster, folder: Path, port: int) -> Cluster:
    """The scripts compose runs, with this machine's ports and folders: docker/
    replica-primary.sh on the primary, then docker/replica-bootstrap.sh making and starting
    the standby."""
    prepare_primary(primary)
    replica = Cluster(folder, port)
    bootstrap_replica(primary, replica)
    return replica


def wait_for_replay(primary: Cluster, replica: Cluster, timeout: float = 60) -> None:
    """Until the replica has replayed everything the primary has written so far."""
    target = primary.scalar("SELECT pg_current_wal_lsn()::text")
    deadline = time.monotonic() + timeout
    while not replica.scalar(f"SELECT pg_last_wal_replay_lsn() >= '{target}'::pg_lsn"):
        if time.monotonic() > deadline:
            raise AssertionError(f"the replica did not replay up to {target} in {timeout} s")
        time.sleep(0.1)


def wait_for_receipt(primary: Cluster, replica: Cluster, timeout: float = 60) -> None:
    """Until the replica has received (not necessarily replayed) everything written so far."""
    target = primary.scalar("SELECT pg_current_wal_lsn()::text")
    deadline = time.monotonic() + timeout
    while not replica.scalar(f"SELECT pg_last_wal_receive_lsn() >= '{target}'::pg_lsn"):
        if time.monotonic() > deadline:
            raise AssertionError(f"the replica did not receive up to {target} in {timeout} s")
        time.sleep(0.1)
