"""The embedded model: llama.cpp's OpenAI-compatible server, inside this process.

:func:`local_server` assembles the weights on first use
(:func:`roundtable.models.weights.ensure_weights`), starts one
:class:`LocalServer` on a free loopback port, and stops it at interpreter exit.
Every ``local`` chat model talks to it through ``base_url``.

Defaults, chosen by measurement on 2 cores with Qwen2.5-Coder-1.5B Q4_K_M
(measured figures and their commands: docs/measurements.md#the-embedded-models-speed):

* ten slots (``n_parallel=10``), each with a KV cache of its own
  (``kv_unified`` off; 81,920 tokens in all, 8,192 per slot): each decode
  attends only to its slot's cells, where a unified cache makes it span every
  busy slot's (docs/measurements.md#prompt-caches-and-slots, ``kv_split.py``). llama.cpp keeps a
  prompt cache per slot and decodes the requests of busy slots together in
  one batch (continuous batching). An agent pins each player's calls to a slot of its own (``id_slot``; see
  `roundtable.models.factory.prompt_slots`), so a call only processes what is
  new since that player's last call, and simultaneous calls (a table's votes)
  are decoded as one batch instead of queueing. Ten slots seat the largest
  Avalon table; a slot holds only the tokens of its player's last prompt.
  Idle slots keep their prompts (``cache_idle_slots`` off): llama.cpp's
  default saves and clears every idle slot when another one runs, which
  leaves a pinned player nothing cached. A fresh slot is seeded, before its
  first call, with the prompt cache of the first slot used
  (`roundtable.models.slot_seeding`), so only the first player reads the rules.
* the host-memory prompt cache (``cache_ram_mib``) keeps the states of earlier
  prompts, so alternating between prompts with different prefixes restores a
  prefix instead of recomputing it.
* llama.cpp reports ``usage.prompt_tokens_details.cached_tokens`` with no flag.
* the build: xllamacpp's prebuilt CPU wheel uses AVX2 only. Built from source
  for a CPU with AVX-512 (the README's "Faster embedded model" command), it
  processes prompts faster; over whole games, only prompt processing gains.
  :class:`LocalServer` logs a warning when the CPU has AVX-512 and the loaded
  build does not use it.
* measured and not used: flash attention and batch sizes 256-2048; n-gram
  speculative decoding (``ngram_simple``, ``ngram_mod``, ``ngram_map_k``) on
  this game's short answers; the weights requantized to Q4_0 or Q8_0.

Environment overrides: ``ROUNDTABLE_LOCAL_CTX``, ``ROUNDTABLE_LOCAL_PARALLEL``,
``ROUNDTABLE_LOCAL_KV_UNIFIED`` (1: on), ``ROUNDTABLE_LOCAL_SEED_SLOTS`` (0: off), ``ROUNDTABLE_LOCAL_THREADS``,
``ROUNDTABLE_LOCAL_CACHE_MIB``, ``ROUNDTABLE_LOCAL_VERBOSITY`` (llama.cpp log level; 0 is quiet),
``ROUNDTABLE_LOCAL_PORT`` (0: a free port); read by `roundtable.settings.LocalServerSettings`.

Source: docs/embedded-model.md#the-server; the xllamacpp package (``CommonParams``,
``Server``), which wraps llama.cpp's ``tools/server``.
"""

from __future__ import annotations

import atexit
import logging
import os
import shutil
import threading
import time
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from roundtable.models.errors import LocalServerError
from roundtable.models.slot_seeding import SlotSeeder, make_save_dir
from roundtable.models.spec import LOCAL
from roundtable.models.weights import ensure_weights
from roundtable.settings import local_server_settings

log = logging.getLogger(__name__)

NATIVE_BUILD_HINT = (
    "this CPU has AVX-512 but the installed llama.cpp build (xllamacpp's prebuilt wheel) uses AVX2 only; "
    "building it for this CPU processes prompts about 15% faster, a game about 6% (README: 'Faster embedded model')"
)
"""Warning logged when the host CPU could run a faster llama.cpp build than the one loaded."""


def build_features(system_info: str) -> frozenset[str]:
    """The CPU features a llama.cpp build uses, from ggml's system info.

    Args:
        system_info: ``xllamacpp.get_system_info()``, e.g. ``"CPU : SSE3 = 1 | AVX2 = 1 | AVX512 = 1 | "``.

    Returns:
        The names whose value is 1, e.g. ``frozenset({"SSE3", "AVX2", "AVX512"})``.
    """
    features = set()
    for item in system_info.replace(":", "|").split("|"):
        name, _, value = item.partition("=")
        if value.strip() == "1":
            features.add(name.strip())
    return frozenset(features)


def host_has_avx512(cpuinfo: Path = Path("/proc/cpuinfo")) -> bool:
    """Whether the host CPU advertises AVX-512 (``avx512f`` in Linux's ``/proc/cpuinfo``; False where unreadable)."""
    try:
        text = cpuinfo.read_text()
    except OSError:
        return False
    return any(line.startswith("flags") and "avx512f" in line.split() for line in text.splitlines())


class LocalSettings(BaseModel):
    """How the embedded server runs.

    Attributes:
        n_ctx: Context size in tokens of all slots together (KV cache: about 28 KB/token, so 2.2 GiB); each slot
            holds ``n_ctx / n_parallel`` tokens (a prompt and its reply), unless ``kv_unified``.
        n_parallel: Slots, i.e. requests decoded concurrently; more wait in a queue.
        kv_unified: One KV cache shared by all slots (any slot may use the whole context, and every decode
            attends over all slots' cells) instead of one per slot.
        seed_slots: Before a slot's first call, copy into it the prompt cache of the first slot used
            (`roundtable.models.slot_seeding`), so each player's first call finds the rules cached.
        n_threads: CPU threads for prompt processing and generation.
        cache_ram_mib: Host-memory prompt cache in MiB (0 disables it).
        verbosity: llama.cpp log verbosity (0 quiet, 3 informative).
        port: loopback port to listen on; 0 picks a free one.
    """

    model_config = ConfigDict(frozen=True)

    n_ctx: int = Field(default=81920, ge=512)
    n_parallel: int = Field(default=10, ge=1)
    kv_unified: bool = False
    seed_slots: bool = True
    n_threads: int = Field(default=2, ge=1)
    cache_ram_mib: int = Field(default=2048, ge=0)
    verbosity: int = Field(default=0, ge=0)
    port: int = Field(default=0, ge=0, le=65535)

    @classmethod
    def from_env(cls) -> LocalSettings:
        """Defaults overridden by the ``ROUNDTABLE_LOCAL_*`` environment variables.

        Raises:
            ValueError: A variable is not an integer or out of range.
        """
        env = local_server_settings()
        defaults = cls()
        return cls(
            n_ctx=_or(env.ctx, defaults.n_ctx),
            n_parallel=_or(env.parallel, defaults.n_parallel),
            kv_unified=bool(_or(env.kv_unified, int(defaults.kv_unified))),
            seed_slots=bool(_or(env.seed_slots, int(defaults.seed_slots))),
            n_threads=_or(env.threads, defaults.n_threads),
            cache_ram_mib=_or(env.cache_mib, defaults.cache_ram_mib),
            verbosity=_or(env.verbosity, defaults.verbosity),
            port=_or(env.port, defaults.port),
        )


def _or(value: int | None, default: int) -> int:
    return default if value is None else value


def server_params(model_path: Path | str, settings: LocalSettings, slot_save_path: Path | str | None = None) -> Any:
    """The ``xllamacpp.CommonParams`` of an embedded server for ``model_path`` with ``settings`` (the module
    docstring's defaults: slots with a KV cache each, idle slots keeping their prompts, the host-memory prompt
    cache); ``slot_save_path``: the directory of llama.cpp's slot save and restore actions (None: actions off).

    Raises:
        ImportError: xllamacpp is not installed.
    """
    import xllamacpp  # here: an optional dependency (the local extra), needed only to start the server

    params = xllamacpp.CommonParams()
    params.model.path = str(model_path)
    params.model_alias = {LOCAL}
    params.hostnames = ["127.0.0.1"]
    params.port = settings.port  # 0: a free port
    params.n_ctx = settings.n_ctx
    params.n_parallel = settings.n_parallel
    params.kv_unified = settings.kv_unified
    params.cache_idle_slots = False  # an idle slot keeps its player's prompt (llama.cpp would clear it)
    params.cpuparams.n_threads = settings.n_threads
    params.cpuparams_batch.n_threads = settings.n_threads
    params.cache_prompt = True
    params.cache_ram_mib = settings.cache_ram_mib
    params.verbosity = settings.verbosity
    if slot_save_path is not None:  # llama.cpp joins it and a file name without a separator (its CLI adds one)
        params.slot_save_path = os.path.join(str(slot_save_path), "")
    return params


class LocalServer:
    """llama.cpp's OpenAI-compatible HTTP server running in this process on 127.0.0.1.

    Serving starts in the constructor, which loads the weights
    (``startup_seconds``), and ends with :meth:`stop` or the ``with`` block.
    The model name in requests is ignored; the server answers as ``"local"``.

    Attributes:
        model_path: The GGUF file served.
        settings: The :class:`LocalSettings` used.
        address: ``http://127.0.0.1:PORT``.
        base_url: ``address + "/v1"``, for ``ChatOpenAI(base_url=...)``.
        startup_seconds: Time the constructor took to load the model and listen.
        seeder: The :class:`SlotSeeder` of fresh slots (None when ``settings.seed_slots`` is off).
        features: CPU features the loaded llama.cpp build uses (:func:`build_features`).
    """

    def __init__(self, model_path: Path | str, settings: LocalSettings | None = None) -> None:
        """Load ``model_path`` and start serving.

        Raises:
            LocalServerError: xllamacpp is not installed, or the server failed to start.
        """
        try:
            import xllamacpp  # here: an optional dependency (the local extra)
        except ImportError as error:
            raise LocalServerError(
                "the embedded model needs the xllamacpp package: pip install 'roundtable[local]'"
            ) from error
        self.model_path = Path(model_path)
        self.settings = settings or LocalSettings.from_env()
        self._save_dir = make_save_dir() if self.settings.seed_slots else None
        # removed on stop(), when the server is collected, or at interpreter exit, whichever comes first
        self._remove_save_dir: Callable[[], object] = (
            weakref.finalize(self, shutil.rmtree, self._save_dir, True) if self._save_dir else lambda: None)
        params = server_params(self.model_path, self.settings, self._save_dir)
        started = time.perf_counter()
        try:
            self._server = xllamacpp.Server(params)
        except RuntimeError as error:
            self._remove_save_dir()
            raise LocalServerError(
                f"could not start the embedded model server on {self.model_path}: {error}"
            ) from error
        self.startup_seconds = time.perf_counter() - started
        self.features = build_features(xllamacpp.get_system_info())
        if host_has_avx512() and "AVX512" not in self.features:
            log.warning(NATIVE_BUILD_HINT)
        self.address: str = self._server.listening_address.rstrip("/")
        self.base_url = f"{self.address}/v1"
        self.seeder = SlotSeeder(self.address, self._save_dir, self.settings.n_parallel) if self._save_dir else None
        self._lock = threading.Lock()
        log.info("local model server on %s (%.1f s to start, %s)", self.address, self.startup_seconds, self.settings)

    @property
    def running(self) -> bool:
        """Whether the server has not been stopped."""
        return self._server is not None

    def stop(self) -> None:
        """Stop serving and free the model (idempotent). In-flight requests fail."""
        with self._lock:
            server, self._server = self._server, None
        del server  # the C++ destructor stops the HTTP and decoding threads
        self._remove_save_dir()

    def prepare_slot(self, slot: int | None) -> None:
        """Called before each call pinned to ``slot``: seeds a fresh slot's prompt cache
        (`roundtable.models.slot_seeding.SlotSeeder.prepare`; nothing when ``seed_slots`` is off). Never raises."""
        if self.seeder is not None and self.running:
            self.seeder.prepare(slot)

    def __enter__(self) -> LocalServer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = self.address if self.running else "stopped"
        return f"LocalServer({self.model_path.name}, {state})"


_singleton: LocalServer | None = None
_singleton_lock = threading.Lock()


def local_server() -> LocalServer:
    """The process's embedded server, started on first call (thread-safe), stopped at exit.

    Assembles the weights first if needed (once per cache directory).

    Raises:
        MissingModelPartsError: The weight packages are not installed.
        ModelChecksumError: The assembled weights are corrupt.
        LocalServerError: The server could not start.
    """
    global _singleton
    with _singleton_lock:
        if _singleton is None or not _singleton.running:
            _singleton = LocalServer(ensure_weights())
            atexit.register(_singleton.stop)
        return _singleton
