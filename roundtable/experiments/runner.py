"""Running an experiment: its games in parallel, resumable, each recorded once.

An experiment directory is a data directory of its own (`roundtable.store.paths`):
``checkpoints.sqlite``, ``records/``, ``locks/``, plus ``experiment.toml``
(the configuration it runs), ``runs.jsonl`` (one line per attempt at a game:
status, wall seconds, error) and ``manifest.json`` (`roundtable.experiments.manifest`).

`run_experiment` plays every game of the configuration that is not finished:
a game with a finished record is skipped, one with a record or checkpoints is
resumed from its last checkpoint (`roundtable.play.runner.GameRunner.resume`), a
missing one is started. At most ``parallel_games`` games run at once (threads
of this process, sharing one SQLite checkpointer); model calls are bounded per
endpoint (`roundtable.models.limits`). A game that raises (a dead endpoint) is
reported, stays resumable and is retried by the next run; it never counts as a
result, since results are read from finished records only. The games of a
learning series (`roundtable.experiments.learning`) run one after another, in
seed order. A condition reading a frozen pool (`roundtable.experiments.pools`)
plays after the others, once the games its pool is built from have finished.

With a shared database (``database``: a PostgreSQL URL, docs/experiments.md#shared-database) the checkpoints,
records and run log go there instead (`roundtable.store.database`), and the directory keeps the URL without its
password (``store.json``). Every game is played under its lock (the database's advisory lock, else its lock
file), and whether it is still to play is asked again once the lock is held, so processes on several machines
running the same experiment against one database never play a game twice: a game another process holds or has
just finished is left to it (`RunSummary.elsewhere`).
"""

from __future__ import annotations

import json
import os
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from roundtable.experiments.config import (
    ExperimentConfig,
    ExperimentConfigError,
    PlannedGame,
    load_config,
    parse_config,
    resolve_games,
)
from roundtable.experiments.learning import Learning
from roundtable.experiments.manifest import (
    RUNS_FILE,
    STORE_FILE,
    experiment_store,
    recorded_database,
    write_manifest,
)
from roundtable.experiments.pools import build_frozen_pool, pool_plan
from roundtable.experiments.retention import apply_retention, compact
from roundtable.models.limits import set_endpoint_limit
from roundtable.play.runner import open_runner
from roundtable.settings import data_home
from roundtable.store import paths
from roundtable.store.database import Database, active, redact
from roundtable.store.locks import GameBusyError, game_lock
from roundtable.store.records import read_record

CONFIG_FILE = "experiment.toml"

Executor = Callable[..., None]
"""What plays a run's games: ``(config, games, directory, listener, summary, learning, models)``, as `_run_all`."""


@dataclass
class Outcome:
    """How one attempt at a game ended: ``finished``, ``failed`` (raised; resumable) or ``interrupted``
    (stopped unfinished without an error); wall ``seconds``; ``error`` text when it failed."""

    game_id: str
    condition: str
    seed: int
    status: str
    seconds: float
    error: str | None = None


class Listener:
    """What a progress display hears from `run_experiment` (every method is called from game threads)."""

    def planned(self, total: int, done: int) -> None:
        """``total`` games in the experiment, ``done`` of them already finished."""

    def started(self, game: PlannedGame) -> None:
        """A game starts or resumes."""

    def events(self, game: PlannedGame, events: list[dict[str, Any]]) -> None:
        """A game added ``events`` (decisions carry their model ``usage`` and ``fallback``)."""

    def ended(self, outcome: Outcome) -> None:
        """A game's attempt ended."""


@dataclass
class RunSummary:
    """What a run did: games finished before it (``skipped``), finished now, failed now (with errors),
    still unfinished, left to another process that was playing or had just finished them (``elsewhere``); the
    experiment directory."""

    directory: Path
    skipped: int = 0
    finished: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    unfinished: list[str] = field(default_factory=list)
    elsewhere: list[str] = field(default_factory=list)


def prepare_directory(config_path: str | Path,
                      out: str | Path | None) -> tuple[ExperimentConfig, list[PlannedGame], Path]:
    """Check the configuration and every game of it, then create (or reopen) the experiment directory.

    Args:
        config_path: the TOML file.
        out: the experiment directory (default ``<data dir>/experiments/NAME``).

    Returns:
        The configuration, its games, the directory (holding ``experiment.toml``).

    Raises:
        ExperimentConfigError: an invalid configuration (nothing is created), or a directory that holds
            another configuration, one whose games differ (`ExperimentConfig.games_part`: a rerun may change
            only how the games run, as ``parallel_games`` or ``durability``).
    """
    config, text = load_config(config_path)
    games = resolve_games(config)
    directory = Path(out) if out else paths.home_path() / "experiments" / config.name
    directory = directory.expanduser().resolve()
    stored = directory / CONFIG_FILE
    if stored.is_file():
        previous = parse_config(stored.read_text(encoding="utf-8"), str(stored))
        if previous.games_part() != config.games_part():
            raise ExperimentConfigError(
                f"{directory} holds another configuration ({stored}); rerun with that one, or choose another --out")
    elif directory.exists() and any(directory.iterdir()):
        raise ExperimentConfigError(f"{directory} is not empty and holds no {CONFIG_FILE}; choose another --out")
    directory.mkdir(parents=True, exist_ok=True)
    tmp = stored.with_suffix(".tmp")  # the configuration run last (it may differ in how the games run: RUNNING)
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, stored)
    return config, games, directory


def open_directory(directory: str | Path) -> tuple[ExperimentConfig, list[PlannedGame], Path]:
    """The configuration and games of an existing experiment directory.

    Raises:
        ExperimentConfigError: no experiment there, or its configuration no longer checks.
    """
    directory = Path(directory).expanduser().resolve()
    stored = directory / CONFIG_FILE
    if not stored.is_file():
        raise ExperimentConfigError(f"{directory} is not an experiment directory (no {CONFIG_FILE})")
    config, _ = load_config(stored)
    return config, resolve_games(config), directory


def game_status(game: PlannedGame) -> str:
    """``finished`` (its record says so), ``unfinished`` (a record that does not) or ``missing``; read in the
    current data directory."""
    record = read_record(game.game_id)
    if record is None:
        return "missing"
    return "finished" if record.get("status") == "finished" else "unfinished"


def series_of(games: list[PlannedGame]) -> list[list[PlannedGame]]:
    """The games grouped into series that run in order: a learning condition's learners share a store,
    so its games form one series (seed order); every other game is a series of its own."""
    series: dict[str, list[PlannedGame]] = {}
    out: list[list[PlannedGame]] = []
    for game in games:
        if game.learning is not None:
            key = game.learning.store or game.condition
            if key not in series:
                series[key] = []
                out.append(series[key])
            series[key].append(game)
        else:
            out.append([game])
    return out


def run_experiment(config_path: str | Path, out: str | Path | None = None, listener: Listener | None = None,
                   models: Any = None, first: int | None = None, database: str | None = None,
                   executor: Executor | None = None, conditions: list[str] | None = None,
                   parallel: int | None = None) -> RunSummary:
    """Play every unfinished game of an experiment (see the module docstring).

    Args:
        config_path: the TOML configuration.
        out: the experiment directory (`prepare_directory`).
        listener: progress callbacks.
        models: the agents' and learners' `ModelProvider` (``None``: the model factory; tests pass scripted
            models).
        first: play only each condition's first ``first`` games (its first seeds) this time: a run at a smaller
            scale, which a later run without it continues (``None``: every game).
        executor: what plays the games (``None``: threads of this process, `_run_all`; `roundtable.experiments.
            ray_executor.RayExecutor`: Ray tasks), called as `_run_all` is.
        database: the PostgreSQL URL of a shared store (``None``: the one the directory was run with, if any
            (`roundtable.experiments.manifest.experiment_store`), else the directory's files).
        conditions: play only these conditions' games this time (``None``: every condition's); a later run
            without it plays the others. A condition reading a frozen pool still waits for the games its pool is
            built from.
        parallel: games played at once this time, instead of the configuration's ``parallel_games`` (which
            games are played and their results do not depend on it); ``None``: the configuration's.

    Returns:
        A `RunSummary`; the manifest is rewritten at the end.

    Raises:
        ExperimentConfigError: an invalid configuration, a condition named in ``conditions`` that the
            configuration does not have, a tournament's ``first`` games that are not whole blocks of its
            rotation, a directory whose games are in its files given a database, or a database holding another
            configuration of the same name, before any game starts.
        DatabaseError: a database that cannot be reached or holds another schema version, before any game starts.
    """
    config, games, directory = prepare_directory(config_path, out)
    if parallel is not None:
        if not 1 <= parallel <= 64:
            raise ExperimentConfigError(f"parallel games {parallel}: give 1 to 64")
        config = config.model_copy(update={"parallel_games": parallel})
    unknown = sorted(set(conditions or ()) - {c.name for c in config.conditions})
    if unknown:
        raise ExperimentConfigError(f"no condition {', '.join(map(repr, unknown))} in {config.name!r}; its "
                                    f"conditions: {', '.join(c.name for c in config.conditions)}")
    if config.tournament is not None and first is not None:  # a tournament plays whole blocks of its rotation
        cut = any(first < len(config.seeds_of(c)) for c in config.conditions)
        if cut and (uneven := config.tournament.uneven(first)) is not None:
            raise ExperimentConfigError(f"--games {first}: {uneven}")
    listener = listener or Listener()
    summary = RunSummary(directory)
    set_endpoint_limit(config.model_calls_per_endpoint)
    started_at = time.time()
    if database is not None and recorded_database(directory) is None and (
            (directory / "records").is_dir() or (directory / "checkpoints.sqlite").exists()):
        raise ExperimentConfigError(f"{directory} keeps its games in its own files, not in a database; run it "
                                    "without --database and $ROUNDTABLE_DATABASE_URL, or choose another --out")
    try:
        with data_home(directory), experiment_store(directory, config, database) as shared:
            if shared is not None:
                _claim(shared, config, directory, database)
            chosen = [g for g in games if (first is None or g.index < first)
                      and (conditions is None or g.condition in conditions)]
            (executor or _run_all)(config, chosen, directory, listener, summary, Learning(directory, models), models)
            write_manifest(directory, config, games, run_seconds=time.time() - started_at)
    finally:
        set_endpoint_limit(None)
    return summary


def _claim(shared: Database, config: ExperimentConfig, directory: Path, database: str | None) -> None:
    """Check that ``shared`` may hold this experiment, and note in the directory where its games are.

    Raises:
        ExperimentConfigError: a retention the database does not offer, or another configuration of the same name
            already in the database.
    """
    if config.retention == "keep_last":
        raise ExperimentConfigError("retention = \"keep_last\" is not available with a shared database yet; "
                                    "use \"delete\" or \"keep_all\"")
    ours = json.dumps(config.games_part(), sort_keys=True)
    if shared.claim("experiment", ours) != ours:
        raise ExperimentConfigError(f"{shared.where} holds another configuration of the experiment {config.name!r}; "
                                    "rename the experiment, or use another database")
    if database is not None:
        store = directory / STORE_FILE
        tmp = store.with_suffix(".tmp")
        tmp.write_text(json.dumps({"database": redact(database)}) + "\n", encoding="utf-8")
        os.replace(tmp, store)


def _log_run(directory: Path, outcome: Outcome) -> None:
    """Append ``outcome`` to the run log: the shared database's, else ``runs.jsonl``."""
    shared = active()
    if shared is not None:
        shared.append_run(outcome.__dict__)
        return
    with (directory / RUNS_FILE).open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(outcome.__dict__) + "\n")


STOP_WAIT = 600.0
"""Seconds a run stopped by Ctrl-C or SIGTERM waits for each game in play to end its current node (a model call
of a slow agent takes a minute or two on the embedded model) before it closes their checkpoints."""


def _run_all(config: ExperimentConfig, games: list[PlannedGame], directory: Path, listener: Listener,
             summary: RunSummary, learning: Any, models: Any) -> None:
    status = {g.game_id: game_status(g) for g in games}
    summary.skipped = sum(1 for s in status.values() if s == "finished")
    listener.planned(len(games), summary.skipped)
    runs_lock = threading.Lock()
    stopping = threading.Event()  # Ctrl-C or SIGTERM reached the main thread: start nothing more
    with open_runner(config.game, models, config.durability) as runner:

        def settle(game: PlannedGame) -> None:
            """Learn from a finished game (once), then release its checkpoints."""
            if game.learning is not None:
                learning.after_game(game, read_record(game.game_id) or {}, runner.values(game.game_id)
                                    if runner.exists(game.game_id) else {})
            apply_retention(runner, game.game_id, config.retention)

        for game in games:  # finished games a killed run had not learned from or released yet
            if status[game.game_id] == "finished":
                settle(game)
        def play(game: PlannedGame) -> bool:
            """Play ``game`` under its lock if it is still to play; whether it is finished now."""
            try:
                with game_lock(game.game_id):
                    status[game.game_id] = game_status(game)  # asked again under the lock: another process may
                    if status[game.game_id] == "finished":    # have finished it since this run looked
                        with runs_lock:
                            summary.elsewhere.append(game.game_id)
                        return True
                    return attempt(game)
            except GameBusyError:  # another process plays it now
                with runs_lock:
                    summary.elsewhere.append(game.game_id)
                return False

        def attempt(game: PlannedGame) -> bool:
            listener.started(game)
            begin = time.perf_counter()
            error: str | None = None
            try:
                sink = lambda events: listener.events(game, events)  # noqa: E731
                if status[game.game_id] == "missing" and not runner.exists(game.game_id):
                    runner.start(game.game_id, learning.before_game(game), game.context or None, on_events=sink,
                                 stop=stopping.is_set)
                else:
                    runner.resume(game.game_id, on_events=sink, stop=stopping.is_set)
                record = read_record(game.game_id) or {}
                finished = record.get("status") == "finished"
                if finished:
                    settle(game)
            except Exception as raised:  # a dead endpoint, a bug in an agent: reported, retried next run
                finished, error = False, None if stopping.is_set() else f"{type(raised).__name__}: {raised}"
            outcome = Outcome(game.game_id, game.condition, game.seed,
                              "finished" if finished else "failed" if error else "interrupted",
                              round(time.perf_counter() - begin, 3), error)
            with runs_lock:
                _log_run(directory, outcome)
                if finished:
                    summary.finished.append(game.game_id)
                elif error:
                    summary.failed[game.game_id] = error
                else:
                    summary.unfinished.append(game.game_id)
            listener.ended(outcome)
            return finished

        def run(batch: list[list[PlannedGame]]) -> None:
            """Play the unfinished games of ``batch``'s series, ``parallel_games`` series at a time."""
            todo: queue.Queue[list[PlannedGame]] = queue.Queue()
            for series in batch:
                pending = [g for g in series if status[g.game_id] != "finished"]
                if pending:
                    todo.put(pending)

            def worker() -> None:
                while not stopping.is_set():
                    try:
                        series = todo.get_nowait()
                    except queue.Empty:
                        return
                    for game in series:
                        if stopping.is_set() or not play(game):
                            # a learning series stops at its first unfinished game: later games need what it teaches
                            summary.unfinished.extend(g.game_id for g in series[series.index(game) + 1:])
                            break

            ended = [threading.Event() for _ in range(min(config.parallel_games, todo.qsize()))]

            def work(done: threading.Event) -> None:
                try:
                    worker()
                finally:
                    done.set()

            for i, done in enumerate(ended):
                threading.Thread(target=work, args=(done,), daemon=True, name=f"experiment-{i}").start()
            try:
                for done in ended:
                    while not done.wait(0.2):  # a short wait, so Ctrl-C reaches the main thread
                        pass
            except BaseException:
                # Ctrl-C or SIGTERM: no game starts after, and each game in play stops after its current node
                # (logged "interrupted", resumed by a rerun) before the runner closes its checkpoints under it
                # (a checkpoint written into a closed database crashed the process); a second Ctrl-C stops at
                # once. The workers' own events are waited on: a Thread.join interrupted by the signal may take a
                # running thread for ended (Python 3.11)
                stopping.set()
                for done in ended:
                    done.wait(STOP_WAIT)
                raise

        # conditions reading a frozen pool play after the games it is built from (roundtable.experiments.pools)
        plans = {c.name: plan for c in config.conditions if (plan := pool_plan(config, c)) is not None}
        run([s for s in series_of(games) if s[0].condition not in plans])
        ready = []
        for name, plan in plans.items():
            waiting = [g for g in plan.games if (read_record(g) or {}).get("status") != "finished"]
            own = [g for g in games if g.condition == name]
            if waiting:  # its source games did not all finish: the condition waits for the next run
                summary.unfinished.extend(g.game_id for g in own if status[g.game_id] != "finished")
                continue
            build_frozen_pool(plan)
            ready.append(name)
        run([s for s in series_of(games) if s[0].condition in ready])
        # a game left to another process counts as unfinished here until that process has finished it
        summary.unfinished.extend(g for g in summary.elsewhere if (read_record(g) or {}).get("status") != "finished")
    if config.retention != "keep_all":
        compact(directory / "checkpoints.sqlite")  # no file with a shared database: nothing to do
