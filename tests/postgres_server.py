"""A throw-away PostgreSQL server for the tests of the server store (:mod:`bot.store.postgres`).

``UMPIRE_TEST_POSTGRES`` names a server already running (``.ci/run`` starts one and exports it); otherwise the
tests start their own from the Debian packages' binaries (``/usr/lib/postgresql/<version>/bin``): a cluster in a
temporary folder, listening only on a Unix socket there, fsync off. PostgreSQL refuses to run as root, so as
root the cluster is made and run by the ``postgres`` user the packages create. Each pytest-xdist worker gets its
own database (``umpire_test_<worker>``), emptied before each test.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

SERVER_USER = "postgres"
"""Who runs the server when the tests run as root."""


def binaries() -> Path | None:
    """The folder of PostgreSQL's server programs, if they are installed."""
    override = os.environ.get("UMPIRE_PG_BIN")
    found = [Path(override)] if override else sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)
    return next((p for p in found if (p / "pg_ctl").exists() and (p / "initdb").exists()), None)


def _as_server_user(command: list[str]) -> list[str]:
    return ["runuser", "-u", SERVER_USER, "--", *command] if os.geteuid() == 0 else command


@dataclass
class Cluster:
    """A server started for the tests, in its own folder."""

    folder: Path
    bin: Path

    @property
    def url(self) -> str:
        """The maintenance database's address, through the Unix socket in the folder."""
        return f"postgresql://umpire@/postgres?host={self.folder}&port=5432"

    @classmethod
    def start(cls, bin_folder: Path) -> Cluster:
        folder = Path(tempfile.mkdtemp(prefix="umpire-pg-"))
        folder.chmod(0o777)
        if os.geteuid() == 0:
            shutil.chown(folder, SERVER_USER)
        data = folder / "data"
        run = subprocess.run
        run(
            _as_server_user([str(bin_folder / "initdb"), "-D", str(data), "-U", "umpire", "--auth=trust"]),
            check=True,
            capture_output=True,
        )
        options = (
            f"-k {folder} -p 5432 -c listen_addresses='' -c fsync=off -c synchronous_commit=off "
            "-c full_page_writes=off -c max_connections=60 -c shared_buffers=32MB"
        )
        run(
            _as_server_user(
                [str(bin_folder / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(folder / "log"), "-w", "start"]
            ),
            check=True,
            capture_output=True,
        )
        return cls(folder, bin_folder)

    def stop(self) -> None:
        subprocess.run(
            _as_server_user([str(self.bin / "pg_ctl"), "-D", str(self.folder / "data"), "-m", "immediate", "stop"]),
            capture_output=True,
        )
        shutil.rmtree(self.folder, ignore_errors=True)


def psql(url: str, sql: str) -> None:
    """Run SQL on a server with its client (``psql``), stopping at the first error."""
    client = shutil.which("psql") or str((binaries() or Path("/usr/bin")) / "psql")
    subprocess.run([client, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql], check=True, capture_output=True)


def database_url(server: str, name: str) -> str:
    """The address of database ``name`` on the server of ``server``."""
    return urlunsplit(urlsplit(server)._replace(path=f"/{name}"))


def worker_database(server: str) -> str:
    """This test worker's own empty database on ``server`` (made once, emptied each time)."""
    name = f"umpire_test_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"
    try:
        psql(server, f"CREATE DATABASE {name}")
    except subprocess.CalledProcessError as error:
        if b"already exists" not in error.stderr:
            raise
    url = database_url(server, name)
    psql(url, "DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    return url
