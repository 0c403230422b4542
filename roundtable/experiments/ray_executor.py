"""Running an experiment's games as Ray tasks (``roundtable experiment run --executor ray``).

Ray (Ray Core: ``ray.init``, ``@ray.remote``, task options) schedules, places and
retries the games; this module only says what one task is and what it needs:

- **A task** plays one series of games (`roundtable.experiments.runner.series_of`):
  one game, or a learning series in seed order, since its games need what the
  earlier ones taught. A worker opens the experiment directory itself (the
  SQLite checkpoints and records under ``DIR``, so every worker must see the
  same path: one machine, or a shared file system) and plays each game of its
  series that is not finished, as the in-process runner does: resumed from its
  last checkpoint if it has one (`GameRunner.resume`), else started.
- **Idempotent**, so a task is safe to run again: Ray retries a task whose worker
  died (``max_retries``; a game that raises is reported ``failed`` and left to the
  next run, as in-process, so exceptions are not retried: ``retry_exceptions``
  off). The retry skips the finished games and resumes the interrupted one from
  its last checkpoint; `GameRunner`'s per-game lock (`roundtable.store.locks`)
  keeps two workers from driving one game, and a game whose lock is held
  elsewhere is left to its holder.
- **Resources**: each task asks for ``num_cpus`` (default 1) and any custom
  resources given (for example ``{"model_calls": 8}`` on a cluster whose nodes
  were started with ``ray start --resources '{"model_calls": 32}'``), so Ray
  places no more games on a node than it offers. In a worker, model calls are
  bounded per endpoint by ``model_calls_per_endpoint`` as in-process (per worker
  process, not across the cluster).

The driver (this process) plays nothing: it submits the series, hears each
game's start, events and outcome from the workers through a Ray queue, tells
the `Listener`, writes ``runs.jsonl``, and keeps the runner's order: conditions
reading a frozen pool (`roundtable.experiments.pools`) are submitted after the
games their pool is built from have finished and the pool is built.

Without an address a local Ray instance is started with as many CPUs as the
configuration's ``parallel_games`` (or ``workers``); with ``auto`` or
``HOST:PORT`` (or ``ray://HOST:PORT``) the driver joins that cluster. Ray is the
optional extra ``cluster``; a missing Ray or a cluster that does not answer is
refused (`RayExecutorError`, a one-line message) before any game starts.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from roundtable.experiments.config import ExperimentConfig, ExperimentConfigError, PlannedGame
from roundtable.experiments.learning import Learning
from roundtable.experiments.manifest import experiment_store
from roundtable.experiments.pools import build_frozen_pool, pool_plan
from roundtable.experiments.retention import apply_retention, compact
from roundtable.experiments.runner import Listener, Outcome, RunSummary, _log_run, game_status, series_of
from roundtable.models.limits import set_endpoint_limit
from roundtable.play.runner import open_runner
from roundtable.settings import data_home
from roundtable.store.database import active
from roundtable.store.locks import GameBusyError, game_lock
from roundtable.store.records import read_record

INSTALL = "pip install -e '.[cluster]'"
PROBE_SECONDS = 5.0
"""How long a cluster's address is given to accept a connection before it is refused."""

WorkerHook = Callable[[str, list[dict[str, Any]]], None]
"""Called in the worker with ``(game id, events)`` as a game adds events (a test seam: slow or kill a worker)."""


class RayExecutorError(ExperimentConfigError):
    """Ray cannot be used: not installed, or the cluster's address does not answer (nothing has started)."""


def import_ray() -> Any:
    """The ``ray`` module.

    Raises:
        RayExecutorError: Ray is not installed.
    """
    try:
        import ray
    except ImportError as missing:
        raise RayExecutorError(f"--executor ray needs Ray, which is not installed ({missing}); "
                               f"install the extra: {INSTALL}") from None
    return ray


def resolve_address(address: str) -> str:
    """The ``HOST:PORT`` (or ``ray://HOST:PORT``) that ``address`` names, checked to accept a connection.

    ``auto`` is the cluster ``ray start`` last started on this machine (or ``$RAY_ADDRESS``), as Ray finds it.

    Raises:
        RayExecutorError: no cluster found for ``auto``, a malformed address, or one that does not answer within
            `PROBE_SECONDS`.
    """
    ray = import_ray()
    if address == "auto":
        try:
            from ray._private.services import canonicalize_bootstrap_address_or_die

            address = canonicalize_bootstrap_address_or_die("auto")
        except Exception as error:  # ConnectionError: nothing started with `ray start` here
            raise RayExecutorError(f"--ray-address auto: no running Ray cluster found on this machine "
                                   f"(start one with `ray start --head`): {_line(error)}") from None
    del ray
    hostport = address.removeprefix("ray://")
    host, _, port = hostport.rpartition(":")
    if not host or not port.isdigit():
        raise RayExecutorError(f"--ray-address {address}: not HOST:PORT, ray://HOST:PORT or auto")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=PROBE_SECONDS):
            pass
    except OSError as error:
        raise RayExecutorError(f"--ray-address {address}: the Ray cluster does not answer ({_line(error)}); "
                               "start it with `ray start --head` or give the head's address") from None
    return address


def _line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}".strip()


@dataclass
class RayExecutor:
    """Plays an experiment's games as Ray tasks; pass it as ``run_experiment(..., executor=...)``.

    Call `connect` before the run (the CLI does, so that refusals come before any game); a run connects itself
    otherwise. A Ray connection that was already open in this process is used and left open.

    Args:
        address: ``None`` (start a local instance), ``auto``, ``HOST:PORT`` or ``ray://HOST:PORT``.
        workers: CPUs of a started local instance (``None``: the configuration's ``parallel_games``).
        num_cpus: CPUs each game's task asks for.
        resources: custom resources each game's task asks for.
        max_retries: how often Ray runs again a task whose worker died.
        worker_hook: see `WorkerHook`.
    """

    address: str | None = None
    workers: int | None = None
    num_cpus: float = 1
    resources: dict[str, float] = field(default_factory=dict)
    max_retries: int = 3
    worker_hook: WorkerHook | None = None
    _owned: bool = False

    def connect(self, config: ExperimentConfig | None = None) -> None:
        """Import Ray and join the cluster, or start a local instance.

        Raises:
            RayExecutorError: Ray missing, an address that does not answer, or ``ray.init`` failing.
        """
        ray = import_ray()
        address = resolve_address(self.address) if self.address is not None else None
        if ray.is_initialized():
            return
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                  "configure_logging": False}
        if address is None:
            workers = self.workers or (config.parallel_games if config is not None else None)
            kwargs["num_cpus"] = workers
            # the games are the work: workers at the driver's own priority, not Ray's default niceness 15
            kwargs["_system_config"] = {"worker_niceness": 0}
        else:
            kwargs["address"] = address
        try:
            ray.init(**kwargs)
        except Exception as error:
            raise RayExecutorError(f"Ray did not start{'' if self.address is None else f' at {self.address}'}: "
                                   f"{_line(error)}") from None
        self._owned = True

    def close(self) -> None:
        """Leave the cluster (stopping a local instance this executor started)."""
        if self._owned:
            import_ray().shutdown()
            self._owned = False

    def __call__(self, config: ExperimentConfig, games: list[PlannedGame], directory: Path, listener: Listener,
                 summary: RunSummary, learning: Any, models: Any) -> None:
        """Play ``games`` (the runner's ``_run_all`` contract: the same order, summary, listener and run log)."""
        ray = import_ray()
        if not ray.is_initialized():
            self.connect(config)
        try:
            _Driver(self, ray, config, directory, listener, summary, models).run(games)
        finally:
            self.close()


def executor_for(name: str, address: str | None, config: ExperimentConfig) -> RayExecutor | None:
    """The executor ``--executor NAME [--ray-address ADDR]`` names, connected (``None``: in-process).

    Raises:
        RayExecutorError: an unknown executor, an address without ``--executor ray``, Ray missing, or a cluster
            that does not answer.
    """
    if name not in ("in-process", "ray"):
        raise RayExecutorError(f"--executor {name}: not in-process or ray")
    if name != "ray":
        if address is not None:
            raise RayExecutorError("--ray-address needs --executor ray")
        return None
    executor = RayExecutor(address=address)
    executor.connect(config)
    return executor


class _Driver:
    """One run's submissions, the queue the workers report on, and what it tells the listener."""

    def __init__(self, executor: RayExecutor, ray: Any, config: ExperimentConfig, directory: Path,
                 listener: Listener, summary: RunSummary, models: Any):
        from ray.util.queue import Queue

        self.executor, self.ray, self.config = executor, ray, config
        self.directory, self.listener, self.summary, self.models = directory, listener, summary, models
        self.queue = Queue(actor_options={"num_cpus": 0})
        self.forward_events = type(listener).events is not Listener.events
        self.running: dict[str, PlannedGame] = {}
        self.by_id: dict[str, PlannedGame] = {}
        self.ended: set[str] = set()
        shared = active()  # the run's shared database: every worker opens it from its URL
        self.database = shared.url if shared is not None else None
        self.task = ray.remote(_play_series).options(
            num_cpus=executor.num_cpus, resources=executor.resources or None, max_retries=executor.max_retries,
            retry_exceptions=False)

    def run(self, games: list[PlannedGame]) -> None:
        self.by_id = {g.game_id: g for g in games}
        status = {g.game_id: game_status(g) for g in games}
        self.summary.skipped = sum(1 for s in status.values() if s == "finished")
        self.listener.planned(len(games), self.summary.skipped)
        finished = [g for g in games if status[g.game_id] == "finished"]
        if finished:  # finished games a killed run had not learned from or released yet
            learning = Learning(self.directory, self.models)
            with open_runner(self.config.game, self.models, self.config.durability) as runner:
                for game in finished:
                    _settle(runner, learning, self.config, game)
        plans = {c.name: plan for c in self.config.conditions if (plan := pool_plan(self.config, c)) is not None}
        self._submit_and_wait([s for s in series_of(games) if s[0].condition not in plans], status)
        ready = []
        for name, plan in plans.items():
            waiting = [g for g in plan.games if (read_record(g) or {}).get("status") != "finished"]
            own = [g for g in games if g.condition == name]
            if waiting:  # its source games did not all finish: the condition waits for the next run
                self.summary.unfinished.extend(g.game_id for g in own if status[g.game_id] != "finished")
                continue
            build_frozen_pool(plan)
            ready.append(name)
        self._submit_and_wait([s for s in series_of(games) if s[0].condition in ready], status)
        self.queue.shutdown()
        if self.config.retention != "keep_all":
            compact(self.directory / "checkpoints.sqlite")

    def _submit_and_wait(self, batch: list[list[PlannedGame]], status: dict[str, str]) -> None:
        pending: dict[Any, list[PlannedGame]] = {}
        for series in batch:
            todo = [g for g in series if status[g.game_id] != "finished"]
            if todo:
                ref = self.task.remote(str(self.directory), self.database, self.config, todo, self.models,
                                       self.queue, self.forward_events, self.executor.worker_hook)
                pending[ref] = todo
        while pending:
            done, _ = self.ray.wait(list(pending), num_returns=1, timeout=0.2)
            self._drain()
            for ref in done:
                series = pending.pop(ref)
                try:
                    self.ray.get(ref)
                except Exception as error:  # the task's worker died more often than max_retries allows
                    self._drain()
                    self._lost(series, error)
        self._drain()

    def _drain(self) -> None:
        while True:
            try:
                message = self.queue.get_nowait()
            except Exception:  # ray.util.queue.Empty
                return
            self._hear(*message)

    def _hear(self, kind: str, game_id: str, payload: Any) -> None:
        game = self.by_id[game_id]
        if kind == "started":
            if game_id not in self.running:  # a retried task restarts a game that was running: counted once
                self.running[game_id] = game
                self.listener.started(game)
        elif kind == "events":
            self.listener.events(game, payload)
        elif kind == "ended":
            self._end(Outcome(**payload))
        elif kind == "elsewhere":  # another process drives it, and records it
            self.summary.elsewhere.append(game_id)
        elif kind == "unfinished":
            self.summary.unfinished.append(game_id)

    def _end(self, outcome: Outcome) -> None:
        self.running.pop(outcome.game_id, None)
        self.ended.add(outcome.game_id)
        _log_run(self.directory, outcome)
        if outcome.status == "finished":
            self.summary.finished.append(outcome.game_id)
        elif outcome.status == "failed":
            self.summary.failed[outcome.game_id] = outcome.error or "failed"
        else:
            self.summary.unfinished.append(outcome.game_id)
        self.listener.ended(outcome)

    def _lost(self, series: list[PlannedGame], error: BaseException) -> None:
        """A series whose task Ray gave up on: its first game not ended failed, the later ones stay unfinished."""
        left = [g for g in series if g.game_id not in self.ended and game_status(g) != "finished"]
        if not left:
            return
        game = left[0]
        reason = f"Ray task lost after {self.executor.max_retries} retries: {_line(error)}"
        self._end(Outcome(game.game_id, game.condition, game.seed, "failed", 0.0, reason))
        self.summary.unfinished.extend(g.game_id for g in left[1:])


def _settle(runner: Any, learning: Any, config: ExperimentConfig, game: PlannedGame) -> None:
    """Learn from a finished game (once), then release its checkpoints (as the in-process runner does)."""
    if game.learning is not None:
        learning.after_game(game, read_record(game.game_id) or {}, runner.values(game.game_id)
                            if runner.exists(game.game_id) else {})
    apply_retention(runner, game.game_id, config.retention)


def _play_series(directory: str, database: str | None, config: ExperimentConfig, series: list[PlannedGame],
                 models: Any, queue: Any, forward_events: bool, hook: WorkerHook | None) -> None:
    """The Ray task: play each unfinished game of ``series`` in order, stopping at the first that does not finish.

    Runs in a worker process; reports ``(kind, game id, payload)`` messages on ``queue``. Safe to run again after
    a lost worker: finished games are skipped and an interrupted one resumes from its last checkpoint.
    """
    set_endpoint_limit(config.model_calls_per_endpoint)
    try:
        with data_home(Path(directory)), experiment_store(Path(directory), config, database):
            learning = Learning(Path(directory), models)
            with open_runner(config.game, models, config.durability) as runner:
                for index, game in enumerate(series):
                    if game_status(game) == "finished":
                        continue
                    done = _play_one(runner, learning, config, game, queue, forward_events, hook)
                    if not done:  # a learning series stops at its first unfinished game
                        for later in series[index + 1:]:
                            queue.put(("unfinished", later.game_id, None))
                        return
    finally:
        set_endpoint_limit(None)


def _play_one(runner: Any, learning: Any, config: ExperimentConfig, game: PlannedGame, queue: Any,
              forward_events: bool, hook: WorkerHook | None) -> bool:
    """Play ``game`` under its lock if it is still to play (asked again once the lock is held); whether it is
    finished now. A game another process holds, or has just finished, is left to it."""
    try:
        with game_lock(game.game_id):
            if game_status(game) == "finished":
                queue.put(("elsewhere", game.game_id, None))
                return True
            return _attempt(runner, learning, config, game, queue, forward_events, hook)
    except GameBusyError:
        queue.put(("elsewhere", game.game_id, None))
        return False


def _attempt(runner: Any, learning: Any, config: ExperimentConfig, game: PlannedGame, queue: Any,
              forward_events: bool, hook: WorkerHook | None) -> bool:
    """One attempt at ``game`` in a worker (the in-process runner's attempt); whether it is finished now."""
    queue.put(("started", game.game_id, None))
    begin = time.perf_counter()
    error: str | None = None

    def sink(events: list[dict[str, Any]]) -> None:
        if hook is not None:
            hook(game.game_id, events)
        if forward_events:
            queue.put(("events", game.game_id, events))

    try:
        if game_status(game) == "missing" and not runner.exists(game.game_id):
            runner.start(game.game_id, learning.before_game(game), game.context or None, on_events=sink)
        else:
            runner.resume(game.game_id, on_events=sink)
        finished = (read_record(game.game_id) or {}).get("status") == "finished"
        if finished:
            _settle(runner, learning, config, game)
    except Exception as raised:  # a dead endpoint, a bug in an agent: reported, retried by the next run
        finished, error = False, f"{type(raised).__name__}: {raised}"
    outcome = Outcome(game.game_id, game.condition, game.seed,
                      "finished" if finished else "failed" if error else "interrupted",
                      round(time.perf_counter() - begin, 3), error)
    queue.put(("ended", game.game_id, dict(outcome.__dict__)))
    return finished
