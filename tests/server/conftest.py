"""A real LangGraph API server (``langgraph dev``, in-memory runtime) for tests, offline.

Fixtures
--------
``langgraph_server`` (session scope)
    A factory: ``langgraph_server(config_path=REPO_CONFIG, **options)`` returns a
    context manager that starts ``langgraph dev`` on that ``langgraph.json``, waits
    until it answers, yields a :class:`LangGraphServer` and stops it (with every
    process it started) on exit.  Session scope, so module-scoped fixtures can
    use it::

        @pytest.fixture(scope="module")
        def toy_server(langgraph_server, tmp_path_factory):
            config = write_my_config(tmp_path_factory.mktemp("toy"))
            with langgraph_server(config) as server:
                yield server

``repo_langgraph_server`` (module scope)
    One server per test module on the repository's own ``langgraph.json``.

A :class:`LangGraphServer` has ``url``, ``log_path``, ``sync_client``
(``langgraph_sdk.get_sync_client``, what tests should use: pytest-asyncio is not
installed), ``client`` (``langgraph_sdk.get_client``, async, created on first
use) and ``log_text()``.

Every test under ``tests/server`` (and any test using these fixtures) carries the
``server`` marker, so ``pytest -m "not server"`` leaves them out.

How the server is run
---------------------
* ``<venv>/bin/langgraph dev --no-browser --no-reload --host 127.0.0.1 --port N
  --server-log-level info --config <rewritten copy>``, in its own session
  (process group), stdout and stderr into ``server.log`` in a temporary directory.
* The in-memory runtime keeps its state in ``./.langgraph_api`` of its working
  directory (``langgraph_runtime_inmem.store`` creates that directory at import
  time whatever ``disable_persistence`` says) and reloads it on the next start.
  So the server runs in a fresh temporary working directory, never the
  repository.  ``langgraph dev`` resolves the config's relative paths (graph
  files, ``.`` dependencies, an ``env`` file) against its working directory,
  not against the config file, so the fixture passes a copy of the config with
  those paths made absolute (relative to the original config's directory).
* The port is picked by binding port 0; if it is taken by the time the server
  binds, ``langgraph dev`` silently moves to another port, so the URL is read
  from the server's own log ("API: http://..."), and readiness needs both the
  uvicorn line "Uvicorn running on ..." from this process and ``GET /ok``.  A
  lost race at bind time ("address already in use") is retried on a new port.
  (``--port 0`` is no use: the banner then announces ``http://127.0.0.1:0``.)
* Teardown SIGTERMs the process group, SIGKILLs it after a few seconds and
  checks it is gone; on Linux the server also gets SIGTERM if pytest itself is
  killed before it can clean up (``PR_SET_PDEATHSIG``).
* Offline: no CLI analytics, no PyPI version check, no LangSmith tracing, no
  licence metadata loop (see ``OFFLINE_ENV``); ``--no-browser``, ``--no-reload``.
* A graph given by file path (``./pkg/graph.py:graph``) is loaded as a top-level
  module with no package, so relative imports inside it fail ("attempted relative
  import with no known parent package"); module syntax (``pkg.graph:graph``) works.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

SERVER_TESTS_DIR = Path(__file__).resolve().parent
REPO_ROOT = SERVER_TESTS_DIR.parents[1]
REPO_CONFIG = REPO_ROOT / "langgraph.json"
LANGGRAPH_BIN = Path(sys.executable).parent / "langgraph"

STARTUP_TIMEOUT = 120.0
STOP_GRACE = 5.0
BIND_ATTEMPTS = 3

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_API_URL = re.compile(r"API:\s*(https?://\S+)")
_UVICORN_RUNNING = re.compile(r"Uvicorn running on (https?://\S+)")
_BIND_FAILED = re.compile(r"address already in use|Errno 98", re.IGNORECASE)

# Environment for an offline server: no CLI analytics, no PyPI version check,
# no LangSmith tracing (which would also make it ask LangSmith for an org id),
# no licence / control-plane metadata loop, no proxy for loopback, plain logs.
OFFLINE_ENV = {
    "LANGGRAPH_CLI_NO_ANALYTICS": "1",
    "LANGGRAPH_NO_VERSION_CHECK": "true",
    "LANGSMITH_TRACING": "false",
    "LANGSMITH_TRACING_V2": "false",
    "LANGCHAIN_TRACING_V2": "false",
    "LANGCHAIN_TRACING": "false",
    "LOG_COLOR": "false",
    "PYTHONUNBUFFERED": "1",
    "NO_PROXY": "127.0.0.1,localhost",
    "no_proxy": "127.0.0.1,localhost",
}
REMOVED_ENV = ("LANGGRAPH_CLOUD_LICENSE_KEY", "LANGSMITH_CONTROL_PLANE_API_KEY", "LANGGRAPH_API_URL")


class LangGraphServerError(RuntimeError):
    """The server did not come up (the message ends with the tail of its log)."""


@dataclass
class LangGraphServer:
    """A running ``langgraph dev``: where it listens, its log and SDK clients."""

    url: str
    log_path: Path
    config_path: Path
    workdir: Path
    process: subprocess.Popen = field(repr=False)

    @functools.cached_property
    def sync_client(self) -> Any:
        """``langgraph_sdk.get_sync_client`` for this server (closed at teardown)."""
        from langgraph_sdk import get_sync_client

        return get_sync_client(url=self.url, api_key=None)

    @functools.cached_property
    def client(self) -> Any:
        """``langgraph_sdk.get_client`` (async) for this server, created on first use."""
        from langgraph_sdk import get_client

        return get_client(url=self.url, api_key=None)

    def log_text(self) -> str:
        return _read_log(self.log_path)

    def log_tail(self, lines: int = 60) -> str:
        return _tail(self.log_text(), lines)

    def _close_clients(self) -> None:
        if "sync_client" in self.__dict__:
            with contextlib.suppress(Exception):
                self.sync_client.close()
        if "client" in self.__dict__:
            with contextlib.suppress(Exception):
                asyncio.run(self.client.aclose())


def _read_log(path: Path) -> str:
    try:
        return _ANSI.sub("", path.read_text(errors="replace"))
    except FileNotFoundError:
        return ""


def _tail(text: str, lines: int) -> str:
    return "\n".join(text.splitlines()[-lines:])


def free_loopback_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _absolute_spec(spec: str, base: Path) -> str:
    """``./file.py:var`` -> ``/abs/file.py:var``; module specs (``pkg.mod:var``) unchanged."""
    target, sep, variable = spec.rpartition(":")
    if not sep:
        target, variable = spec, ""
    if "/" not in target or Path(target).is_absolute():
        return spec
    absolute = str((base / target).resolve())
    return f"{absolute}:{variable}" if sep else absolute


def materialize_config(config_path: Path, dest_dir: Path) -> Path:
    """Copy a langgraph.json into ``dest_dir`` with its relative paths made absolute.

    ``langgraph dev`` resolves graph paths, ``.`` dependencies and an ``env`` file
    against its working directory; the copy lets the server run anywhere.
    """
    config_path = Path(config_path).resolve()
    base = config_path.parent
    data = json.loads(config_path.read_text())

    dependencies = []
    for dep in data.get("dependencies", []):
        candidate = base / dep
        dependencies.append(str(candidate.resolve()) if not Path(dep).is_absolute() and candidate.exists() else dep)
    if "dependencies" in data:
        data["dependencies"] = dependencies

    graphs = {}
    for name, value in data.get("graphs", {}).items():
        if isinstance(value, dict) and isinstance(value.get("path"), str):
            value = {**value, "path": _absolute_spec(value["path"], base)}
        elif isinstance(value, str):
            value = _absolute_spec(value, base)
        graphs[name] = value
    data["graphs"] = graphs

    if isinstance(data.get("env"), str) and not Path(data["env"]).is_absolute():
        data["env"] = str((base / data["env"]).resolve())
    if isinstance(data.get("ui"), dict):
        data["ui"] = {k: _absolute_spec(v, base) if isinstance(v, str) else v for k, v in data["ui"].items()}
    for section, key in (("http", "app"), ("auth", "path")):
        value = data.get(section, {}).get(key) if isinstance(data.get(section), dict) else None
        if isinstance(value, str):
            data[section] = {**data[section], key: _absolute_spec(value, base)}

    dest = Path(dest_dir) / "langgraph.json"
    dest.write_text(json.dumps(data, indent=2))
    return dest


def _server_env(extra: Mapping[str, str] | None) -> dict[str, str]:
    env = dict(os.environ)
    for name in REMOVED_ENV:
        env.pop(name, None)
    env.update(OFFLINE_ENV)
    if extra:
        env.update(extra)
    return env


def _get_ok(url: str, timeout: float = 2.0) -> bool:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(f"{url}/ok", timeout=timeout) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError, ValueError):
        return False


def _stop(process: subprocess.Popen, grace: float = STOP_GRACE) -> None:
    """SIGTERM the whole process group, SIGKILL it after ``grace`` seconds, reap."""
    pgid = process.pid  # start_new_session=True: the server leads its own group

    def signal_group(sig: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, sig)

    if process.poll() is None:
        signal_group(signal.SIGTERM)
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
    # Whatever is left of the group (the leader, or children that outlived it).
    signal_group(signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=grace)
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except (ProcessLookupError, PermissionError):
            return
        time.sleep(0.05)
    raise LangGraphServerError(f"processes of group {pgid} survived SIGKILL")


def _die_with_parent() -> Callable[[], None] | None:
    """A ``preexec_fn`` asking Linux to SIGTERM the server if pytest dies without cleaning up."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        prctl = libc.prctl
    except (OSError, AttributeError):
        return None
    pr_set_pdeathsig = 1

    def preexec() -> None:
        prctl(pr_set_pdeathsig, int(signal.SIGTERM), 0, 0, 0)

    return preexec


def _start_once(
    config: Path,
    workdir: Path,
    log_path: Path,
    *,
    startup_timeout: float,
    env: Mapping[str, str] | None,
    extra_args: Sequence[str],
    port: int | None,
) -> tuple[subprocess.Popen, str]:
    port = port or free_loopback_port()
    # Our "--server-log-level info" makes uvicorn log its bind; a later one in extra_args wins.
    bind_line_expected = "--server-log-level" not in extra_args
    command = [
        str(LANGGRAPH_BIN), "dev",
        "--no-browser", "--no-reload",
        "--host", "127.0.0.1", "--port", str(port),
        "--server-log-level", "info",  # makes uvicorn log "Uvicorn running on <url>" once bound
        "--config", str(config),
        *extra_args,
    ]
    with open(log_path, "ab") as log:
        log.write(f"$ {' '.join(command)}\n".encode())
        log.flush()
        process = subprocess.Popen(
            command,
            cwd=workdir,
            env=_server_env(env),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=_die_with_parent(),
        )
    def attempt_log() -> str:  # only this attempt's part of the log
        text = _read_log(log_path)
        return text[text.rfind("$ " + str(LANGGRAPH_BIN)):]

    deadline = time.monotonic() + startup_timeout
    try:
        while True:
            text = attempt_log()
            if process.poll() is not None:
                time.sleep(0.2)  # let the last lines reach the file
                raise LangGraphServerError(
                    f"langgraph dev exited with code {process.returncode} before it was ready "
                    f"(log: {log_path}):\n{_tail(attempt_log(), 60)}"
                )
            api = _API_URL.search(text)
            if api and (_UVICORN_RUNNING.search(text) or not bind_line_expected):
                url = api.group(1).rstrip("/")
                if _get_ok(url):
                    return process, url
            if time.monotonic() > deadline:
                raise LangGraphServerError(
                    f"langgraph dev was not ready after {startup_timeout:.0f}s "
                    f"(log: {log_path}):\n{_tail(attempt_log(), 60)}"
                )
            time.sleep(0.1)
    except BaseException:
        _stop(process)
        raise


@contextlib.contextmanager
def run_langgraph_server(
    config_path: str | os.PathLike[str] = REPO_CONFIG,
    tmp_dir: str | os.PathLike[str] | None = None,
    *,
    startup_timeout: float = STARTUP_TIMEOUT,
    env: Mapping[str, str] | None = None,
    extra_args: Sequence[str] = (),
    port: int | None = None,
) -> Iterator[LangGraphServer]:
    """Start ``langgraph dev`` on ``config_path``; yield it once ``/ok`` answers; stop it.

    ``tmp_dir`` (created if missing) receives the rewritten config, the server's
    working directory (``cwd/``, where ``.langgraph_api`` goes) and ``server.log``.
    ``env`` adds environment variables for the server; ``extra_args`` adds CLI
    options (e.g. ``["--n-jobs-per-worker", "4"]``; the default is one run at a time,
    or ``["--allow-blocking"]``).  ``port`` asks for a port instead of a free one
    (if it is taken, the server moves to another one and ``url`` says which).
    """
    config_path = Path(config_path).resolve()
    if not config_path.is_file():
        raise FileNotFoundError(config_path)
    if not LANGGRAPH_BIN.exists():
        raise LangGraphServerError(f"no langgraph CLI next to {sys.executable} (install langgraph-cli[inmem])")
    if tmp_dir is None:
        import tempfile

        with tempfile.TemporaryDirectory(prefix="langgraph_server_") as scratch:
            with run_langgraph_server(
                config_path, scratch, startup_timeout=startup_timeout, env=env, extra_args=extra_args, port=port
            ) as server:
                yield server
        return

    tmp_dir = Path(tmp_dir)
    workdir = tmp_dir / "cwd"
    workdir.mkdir(parents=True, exist_ok=True)
    config = materialize_config(config_path, tmp_dir)
    log_path = tmp_dir / "server.log"

    for attempt in range(1, BIND_ATTEMPTS + 1):
        try:
            process, url = _start_once(
                config, workdir, log_path,
                startup_timeout=startup_timeout, env=env, extra_args=extra_args,
                port=port if attempt == 1 else None,
            )
            break
        except LangGraphServerError as error:
            if attempt == BIND_ATTEMPTS or not _BIND_FAILED.search(str(error)):
                raise
    server = LangGraphServer(url=url, log_path=log_path, config_path=config_path, workdir=workdir, process=process)
    _live.append(server)
    try:
        yield server
    finally:
        server._close_clients()
        try:
            _stop(process)
        finally:
            _live.remove(server)


# Servers not stopped yet: a safety net for the end of the session.
_live: list[LangGraphServer] = []


@pytest.fixture(scope="session")
def langgraph_server(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Callable[..., contextlib.AbstractContextManager[LangGraphServer]]]:
    """Factory: ``with langgraph_server(config_path, **options) as server: ...``.

    ``config_path`` defaults to the repository's langgraph.json; options are those
    of :func:`run_langgraph_server` (``startup_timeout``, ``env``, ``extra_args``,
    ``port``, ``tmp_dir``).
    """

    def start(
        config_path: str | os.PathLike[str] = REPO_CONFIG, **options: Any
    ) -> contextlib.AbstractContextManager[LangGraphServer]:
        tmp_dir = options.pop("tmp_dir", None) or tmp_path_factory.mktemp("langgraph_server")
        return run_langgraph_server(config_path, tmp_dir, **options)

    yield start
    for server in list(_live):
        with contextlib.suppress(Exception):
            _stop(server.process)


@pytest.fixture(scope="module")
def repo_langgraph_server(langgraph_server) -> Iterator[LangGraphServer]:
    """One ``langgraph dev`` per test module on the repository's langgraph.json."""
    with langgraph_server(REPO_CONFIG) as server:
        yield server


@pytest.fixture(scope="module")
def client(repo_langgraph_server):
    """The module's server's synchronous SDK client."""
    return repo_langgraph_server.sync_client


_SERVER_FIXTURES = {"langgraph_server", "repo_langgraph_server"}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark everything under tests/server, and any test using the fixtures, ``server``."""
    for item in items:
        in_dir = SERVER_TESTS_DIR in Path(str(item.path)).resolve().parents
        if in_dir or _SERVER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.server)
