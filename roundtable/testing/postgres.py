"""A PostgreSQL server of its own, for tests and benchmarks of the shared database
(docs/experiments.md#shared-database).

`local_postgres` runs the installed server binaries (Debian's ``postgresql`` package): ``initdb`` into a temporary
directory and ``pg_ctl start`` on a Unix socket there, with no TCP port, as an unprivileged user when run as root
(the server refuses root). `database_url` creates a fresh database on it and returns its URL.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

USER = "nobody"
"""Who runs the server when the caller is root."""


class NoPostgresError(RuntimeError):
    """The PostgreSQL server binaries (``initdb``, ``pg_ctl``) are not installed."""


def server_binaries() -> Path | None:
    """The directory of initdb and pg_ctl: on PATH, else Debian's /usr/lib/postgresql/VERSION/bin (newest)."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3]))
    return versions[-1].parent if versions else None


@contextmanager
def local_postgres(durable: bool = False, max_connections: int = 60) -> Iterator[str]:
    """A PostgreSQL server on a Unix socket in a temporary directory, stopped and removed on exit.

    Args:
        durable: keep the server's default durability (fsync and synchronous commit on), as a production server
            runs, for benchmarks; ``False`` (tests) turns them off, which changes no result, only speed.
        max_connections: the server's connection limit.

    Yields:
        The socket directory (``host`` of a ``postgresql:///DB?host=...&user=roundtable`` URL; user
        ``roundtable``, trust authentication).

    Raises:
        NoPostgresError: no server binaries (``apt-get install postgresql``).
        subprocess.CalledProcessError: initdb or pg_ctl failed (the message holds their output).
    """
    binaries = server_binaries()
    if binaries is None:
        raise NoPostgresError("no PostgreSQL server binaries (initdb, pg_ctl): apt-get install postgresql")
    root = Path(tempfile.mkdtemp(prefix="rtpg"))
    as_user: list[str] = []
    if os.geteuid() == 0:  # postgres refuses to run as root
        entry = pwd.getpwnam(USER)
        os.chown(root, entry.pw_uid, entry.pw_gid)
        as_user = ["runuser", "-u", USER, "--"]
    data = root / "data"

    def run(*args: str) -> None:
        subprocess.run([*as_user, *args], check=True, capture_output=True, text=True, timeout=120, cwd=root)

    try:
        run(str(binaries / "initdb"), "-D", str(data), "-U", "roundtable", "--auth=trust", "-E", "UTF8",
            "--no-locale")
        fast = "" if durable else " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        options = f"-k {root} -c listen_addresses=''{fast} -c max_connections={max_connections}"
        run(str(binaries / "pg_ctl"), "-D", str(data), "-l", str(root / "log"), "-o", options, "-w", "start")
        yield str(root)
    finally:
        if (data / "postmaster.pid").exists():
            subprocess.run([*as_user, str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                           capture_output=True, timeout=60, cwd=root)
        shutil.rmtree(root, ignore_errors=True)


def database_url(socket: str, name: str) -> str:
    """A fresh, empty database ``name`` on the server at ``socket`` (dropped first if it exists): its URL.

    Raises:
        ImportError: psycopg is not installed (the ``postgres`` extra).
    """
    import psycopg

    with psycopg.connect(f"postgresql:///postgres?host={socket}&user=roundtable", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"postgresql:///{name}?host={socket}&user=roundtable"
