"""A shared store in PostgreSQL: checkpoints, records, the run log and the game locks of one namespace.

Where SQLite files under the data directory hold one machine's games, a
`Database` holds them in PostgreSQL so that every worker, on any machine, and
the report read one store (docs/experiments.md#shared-database):

- checkpoints through LangGraph's own ``PostgresSaver`` (``langgraph-checkpoint-postgres``);
- records in ``roundtable_records`` (the JSON text as written, so key order and bytes are those of a record file);
- the run log (one line per attempt at a game, ``runs.jsonl`` on files) in ``roundtable_runs``;
- a game's lock as a session-level advisory lock keyed by the namespace and the game id, held on a connection of
  its own for as long as the game is driven: the server releases it when that connection ends, however the
  worker ended (``kill -9``, a lost machine: the server's TCP keepalives, set here, notice within about a minute);
- the schema version in ``roundtable_meta``; a namespace written by another version is refused.

Each namespace is a PostgreSQL schema (an experiment's: `namespace_of` its name), so experiments whose game ids
coincide never meet. A process opens a store from its URL and namespace alone (`open_database`), so a worker
process elsewhere needs nothing else. While a store is active (`use_database`), the data-directory functions
(`roundtable.store.records`, `roundtable.store.locks`, `roundtable.store.checkpoints`) read and write it instead
of files; the rest of the code does not know which it is.

``psycopg`` and ``langgraph-checkpoint-postgres`` are the optional extra ``postgres``; without them opening a
store fails with a one-line `DatabaseError` saying how to install them.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

if TYPE_CHECKING:
    import psycopg
    from langgraph.checkpoint.postgres import PostgresSaver

SCHEMA_VERSION = 1
"""The version of the ``roundtable_*`` tables written now; a namespace holding another one is refused."""

INSTALL = "pip install -e '.[postgres]'"

_KEEPALIVES = "-c tcp_keepalives_idle=20 -c tcp_keepalives_interval=10 -c tcp_keepalives_count=3"
"""Server-side TCP keepalives: a worker's machine that vanishes without closing its connections loses its game
locks within about 50 s (on a Unix socket they do not apply, and are not needed: the kernel closes it)."""

_SETUP_LOCK = 0x726F756E64746162  # 'roundtab': one setup at a time across every worker of every namespace
_SETUP_POLL = 0.05
"""Seconds between tries for `_SETUP_LOCK`. A worker waits with no statement running: LangGraph's checkpointer
setup builds its indexes with ``CREATE INDEX CONCURRENTLY``, which waits for every open transaction, so a worker
blocked inside ``pg_advisory_lock`` would deadlock with the one holding the lock, unseen by the server."""

_TABLES = (
    "CREATE TABLE IF NOT EXISTS roundtable_records (game_id text PRIMARY KEY, status text NOT NULL, "
    "updated text, record text NOT NULL)",
    "CREATE TABLE IF NOT EXISTS roundtable_runs (id bigserial PRIMARY KEY, game_id text NOT NULL, line text NOT NULL)",
)


class DatabaseError(RuntimeError):
    """The store cannot be used: the package is missing, the server cannot be reached, or the namespace holds
    another schema version. The message is one line, with the URL's password left out."""


def redact(url: str) -> str:
    """``url`` without its password (for messages and for what an experiment directory keeps)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "the database URL"
    if not parts.scheme or parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)
    user = netloc[0].split(":", 1)[0]
    return urlunsplit(parts._replace(netloc=f"{user}@{netloc[1]}"))


def namespace_of(name: str) -> str:
    """The PostgreSQL schema of the experiment ``name``: ``rt_`` with its name in lower case (other characters as
    ``_``) and a hash of the exact name, at most 63 characters; every worker computes the same one."""
    digest = hashlib.blake2b(name.encode(), digest_size=4).hexdigest()
    return f"rt_{re.sub(r'[^a-z0-9_]', '_', name.lower())[:48]}_{digest}"


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


def _modules() -> tuple[Any, Any, Any]:
    """``psycopg``, its ``dict_row`` and ``PostgresSaver``.

    Raises:
        DatabaseError: they are not installed.
    """
    try:
        import psycopg
        from langgraph.checkpoint.postgres import PostgresSaver
        from psycopg.rows import dict_row
    except ImportError as error:
        raise DatabaseError(f"--database needs PostgreSQL support ({error.name} is missing): {INSTALL}") from None
    return psycopg, dict_row, PostgresSaver


def _game_key(namespace: str, game_id: str) -> int:
    """The advisory lock key (a signed 64-bit integer) of ``game_id`` in ``namespace``."""
    digest = hashlib.blake2b(f"{namespace}\x00{game_id}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class Database:
    """An open store: one namespace (schema) of one PostgreSQL database. Build it with `open_database`.

    Args:
        url: a libpq URL or connection string (``postgresql://user:password@host:5432/db``,
            ``postgresql:///db?host=/run/socket-dir``); its ``options`` are replaced by the namespace's.
        namespace: the schema (`namespace_of`).
    """

    def __init__(self, url: str, namespace: str):
        self.url = url
        self.namespace = namespace
        self.where = f"{redact(url)} (schema {namespace})"
        self._lock = threading.Lock()
        self._conn: psycopg.Connection[Any] | None = None
        self._saver_conn: psycopg.Connection[Any] | None = None
        self.saver: PostgresSaver | None = None

    def connect(self, **kwargs: Any) -> psycopg.Connection[Any]:
        """A new autocommit connection whose search path is the namespace.

        Raises:
            DatabaseError: the server cannot be reached (or refuses the login).
        """
        psycopg, _, _ = _modules()
        name = f"roundtable {socket.gethostname()} pid {os.getpid()}"[:63]
        try:
            return psycopg.connect(self.url, autocommit=True, connect_timeout=10, application_name=name,
                                   options=f"-c search_path={self.namespace} {_KEEPALIVES}", **kwargs)
        except psycopg.Error as error:
            raise DatabaseError(f"cannot reach the database {redact(self.url)}: {_one_line(error)}") from None

    def open(self) -> Database:
        """Connect, create the namespace's tables if missing, check their version and set up the checkpointer.

        Raises:
            DatabaseError: unreachable, or the namespace holds another schema version (nothing is changed then).
        """
        psycopg, dict_row, saver_class = _modules()
        from psycopg import sql

        conn = self.connect()
        try:
            while not (conn.execute("SELECT pg_try_advisory_lock(%s)", (_SETUP_LOCK,)).fetchone() or (False,))[0]:
                time.sleep(_SETUP_POLL)
            try:
                conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(self.namespace)))
                conn.execute("CREATE TABLE IF NOT EXISTS roundtable_meta (key text PRIMARY KEY, value text NOT NULL)")
                row = conn.execute("SELECT value FROM roundtable_meta WHERE key = 'schema_version'").fetchone()
                if row is not None and row[0] != str(SCHEMA_VERSION):
                    older = row[0].isdigit() and int(row[0]) < SCHEMA_VERSION
                    raise DatabaseError(
                        f"{self.where} holds roundtable's schema version {row[0]}, "
                        + (f"older than this roundtable's {SCHEMA_VERSION}: play on in a fresh database or schema, "
                           "or with the roundtable that wrote it" if older else
                           f"not this roundtable's {SCHEMA_VERSION}: upgrade roundtable"))
                for statement in _TABLES:
                    conn.execute(statement)
                conn.execute("INSERT INTO roundtable_meta VALUES ('schema_version', %s) ON CONFLICT DO NOTHING",
                             (str(SCHEMA_VERSION),))
                self._saver_conn = self.connect(prepare_threshold=0, row_factory=dict_row)
                self.saver = saver_class(self._saver_conn)
                self.saver.setup()
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s)", (_SETUP_LOCK,))
        except psycopg.Error as error:
            conn.close()
            self.close()
            raise DatabaseError(f"{self.where}: {_one_line(error)}") from None
        except BaseException:
            conn.close()
            self.close()
            raise
        self._conn = conn
        return self

    def close(self) -> None:
        """Close the connections (a lock held by `acquire` has its own)."""
        for conn in (self._conn, self._saver_conn):
            if conn is not None:
                conn.close()
        self._conn = self._saver_conn = None
        self.saver = None

    def _execute(self, query: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        if self._conn is None:
            raise DatabaseError(f"{self.where} is not open")
        with self._lock:
            cursor = self._conn.execute(query, params)
            return cursor.fetchall() if cursor.description is not None else []

    # records

    def read_record(self, game_id: str) -> dict[str, Any] | None:
        """The stored record of ``game_id`` as written (not upgraded), or ``None``."""
        rows = self._execute("SELECT record FROM roundtable_records WHERE game_id = %s", (game_id,))
        return json.loads(rows[0][0]) if rows else None

    def write_record(self, record: dict[str, Any]) -> None:
        """Store ``record`` (in one statement: a reader sees the old one or the new one). A finished record is
        never replaced by an unfinished one: a game is recorded once."""
        self._execute(
            "INSERT INTO roundtable_records AS r VALUES (%s, %s, %s, %s) ON CONFLICT (game_id) DO UPDATE SET "
            "status = EXCLUDED.status, updated = EXCLUDED.updated, record = EXCLUDED.record "
            "WHERE r.status <> 'finished' OR EXCLUDED.status = 'finished'",
            (record["game_id"], str(record.get("status")), record.get("updated"),
             json.dumps(record, indent=1, ensure_ascii=False)))

    def records(self) -> list[tuple[str, str]]:
        """``(game id, record text)`` of every stored record."""
        return [(str(g), str(r)) for g, r in self._execute("SELECT game_id, record FROM roundtable_records")]

    # the run log

    def append_run(self, line: dict[str, Any]) -> None:
        """Append one attempt at a game (``line`` holds its ``game_id``) to the run log."""
        self._execute("INSERT INTO roundtable_runs (game_id, line) VALUES (%s, %s)",
                      (str(line["game_id"]), json.dumps(line)))

    def runs(self) -> list[dict[str, Any]]:
        """The run log, oldest first."""
        return [json.loads(line) for (line,) in self._execute("SELECT line FROM roundtable_runs ORDER BY id")]

    # sizes

    def sizes(self) -> tuple[int, int]:
        """Bytes of the namespace's checkpoint tables (with their indexes) and of its records' text."""
        rows = self._execute(
            "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c JOIN pg_namespace n "
            "ON n.oid = c.relnamespace WHERE n.nspname = %s AND c.relkind = 'r' AND c.relname LIKE 'checkpoint%%'",
            (self.namespace,))
        records = self._execute("SELECT coalesce(sum(octet_length(record)), 0) FROM roundtable_records")
        return int(rows[0][0]), int(records[0][0])

    # meta

    def claim(self, key: str, value: str) -> str:
        """The value of ``key`` in ``roundtable_meta``, set to ``value`` if it had none (first writer wins)."""
        self._execute("INSERT INTO roundtable_meta VALUES (%s, %s) ON CONFLICT DO NOTHING", (key, value))
        return str(self._execute("SELECT value FROM roundtable_meta WHERE key = %s", (key,))[0][0])

    # game locks

    def acquire(self, game_id: str) -> psycopg.Connection[Any] | None:
        """Take ``game_id``'s lock on a connection of its own, returned (close it to release the lock); ``None``
        when another session holds it."""
        conn = self.connect()
        try:
            taken = conn.execute("SELECT pg_try_advisory_lock(%s)", (_game_key(self.namespace, game_id),)).fetchone()
        except BaseException:
            conn.close()
            raise
        if taken is None or not taken[0]:
            conn.close()
            return None
        return conn

    def holder(self, game_id: str) -> str | None:
        """Who holds ``game_id``'s lock now (the holder's application name: host and process id), or ``None``."""
        key = _game_key(self.namespace, game_id) & 0xFFFFFFFFFFFFFFFF
        rows = self._execute(
            "SELECT coalesce(a.application_name, '') FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid "
            "WHERE l.locktype = 'advisory' AND l.granted AND l.database = (SELECT oid FROM pg_database "
            "WHERE datname = current_database()) AND l.classid = %s AND l.objid = %s AND l.objsubid = 1",
            (key >> 32, key & 0xFFFFFFFF))
        if not rows:
            return None
        return str(rows[0][0]) or "another worker"


_active: Database | None = None


def active() -> Database | None:
    """The store in use now (`use_database`), or ``None``: the data directory's files."""
    return _active


@contextmanager
def use_database(database: Database | None) -> Iterator[None]:
    """Make ``database`` the store of this process for the block (``None``: the data directory's files)."""
    global _active
    previous, _active = _active, database
    try:
        yield
    finally:
        _active = previous


@contextmanager
def open_database(url: str, namespace: str) -> Iterator[Database]:
    """Open the store at ``url`` in ``namespace`` (`Database.open`), use it for the block, then close it.

    Raises:
        DatabaseError: the package is missing, the server cannot be reached, or another schema version.
    """
    database = Database(url, namespace).open()
    try:
        with use_database(database):
            yield database
    finally:
        database.close()
