"""The embedded server's lifecycle without loading a model: settings, singleton, start errors."""

from __future__ import annotations

import importlib.util
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

from roundtable.models import local
from roundtable.models.errors import LocalServerError
from roundtable.models.local import LocalServer, LocalSettings, local_server


def test_settings_defaults_and_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("CTX", "PARALLEL", "THREADS", "CACHE_MIB", "VERBOSITY", "KV_UNIFIED", "SEED_SLOTS"):
        monkeypatch.delenv(f"ROUNDTABLE_LOCAL_{name}", raising=False)
    assert LocalSettings.from_env() == LocalSettings(n_ctx=81920, n_parallel=10, n_threads=2, kv_unified=False,
                                                     seed_slots=True)
    monkeypatch.setenv("ROUNDTABLE_LOCAL_KV_UNIFIED", "1")
    monkeypatch.setenv("ROUNDTABLE_LOCAL_SEED_SLOTS", "0")
    assert LocalSettings.from_env().kv_unified and not LocalSettings.from_env().seed_slots
    monkeypatch.setenv("ROUNDTABLE_LOCAL_PARALLEL", "3")
    monkeypatch.setenv("ROUNDTABLE_LOCAL_CTX", "8192")
    assert LocalSettings.from_env().n_parallel == 3
    assert LocalSettings.from_env().n_ctx == 8192
    monkeypatch.setenv("ROUNDTABLE_LOCAL_THREADS", "two")
    with pytest.raises(ValueError, match=r"\$ROUNDTABLE_LOCAL_THREADS must be an integer, got 'two'"):
        LocalSettings.from_env()


class FakeServer:
    """Stands in for LocalServer: slow to start, counts instances."""

    started: ClassVar[list[FakeServer]] = []

    def __init__(self, model_path: Path) -> None:
        time.sleep(0.05)
        self.model_path = model_path
        self.running = True
        FakeServer.started.append(self)

    def stop(self) -> None:
        self.running = False


@pytest.fixture
def fake_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[FakeServer]]:
    FakeServer.started = []
    monkeypatch.setattr(local, "LocalServer", FakeServer)
    monkeypatch.setattr(local, "ensure_weights", lambda: Path("/cache/model.gguf"))
    monkeypatch.setattr(local, "_singleton", None)
    registered: list[object] = []
    monkeypatch.setattr(local.atexit, "register", registered.append)
    yield FakeServer.started
    assert registered == [server.stop for server in FakeServer.started]


def test_one_server_per_process_even_under_concurrency(fake_server: list[FakeServer]) -> None:
    results: list[object] = []
    threads = [threading.Thread(target=lambda: results.append(local_server())) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(fake_server) == 1
    assert all(result is fake_server[0] for result in results)
    assert fake_server[0].model_path == Path("/cache/model.gguf")


def test_a_stopped_server_is_replaced(fake_server: list[FakeServer]) -> None:
    first = local_server()
    first.stop()
    assert local_server() is not first
    assert len(fake_server) == 2


@pytest.mark.skipif(importlib.util.find_spec("xllamacpp") is None, reason="xllamacpp is not installed")
def test_start_failure_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(LocalServerError, match=r"could not start the embedded model server on .*missing\.gguf"):
        LocalServer(tmp_path / "missing.gguf", LocalSettings())
