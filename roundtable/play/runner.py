"""Running games with persistence: the SQLite checkpointer, streaming, records.

The CLI and the experiments run every game through `GameRunner`: the game
graph compiled with a `SqliteSaver` on ``<data dir>/checkpoints.sqlite`` (or,
while a shared database is in use, its ``PostgresSaver``: `roundtable.store.checkpoints`),
durability ``"sync"`` by default (every superstep is on disk before the next starts) and
the game id as thread id, so a game killed at any point resumes from its last
step with `GameRunner.resume`. An experiment may ask for durability ``"exit"``
instead (docs/experiments.md#checkpoint-durability): the checkpoint is written
once, when the run ends (finished, raised or paused), so a killed process
replays the game from its start.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Literal

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.types import Command

from roundtable.agents.human import is_question
from roundtable.agents.registry import AGENT_KINDS
from roundtable.games import GAMES
from roundtable.graphs.game import GameGraph, build_game_graph
from roundtable.store import paths
from roundtable.store.checkpoints import open_checkpointer
from roundtable.store.locks import game_lock, is_driven
from roundtable.store.records import build_record, read_record, write_record

STEP_NODES = ["setup", "apply"]
"""``--step`` pauses after these: once the game is dealt, then after each decision point's answers are applied."""

EventSink = Callable[[list[dict[str, Any]]], None]
Person = Callable[[dict[str, Any]], Any]
"""Who answers a human seat's question: ``person(interrupt payload) -> resume payload``
(`roundtable.agents.human.question`; may raise to stop the game resumably)."""

CARRIED = ("context", "fork_of")
"""Record keys a game keeps across its record rewrites: the run's context overrides and where it was forked."""


def new_game_id(game: str = "avalon") -> str:
    """A fresh game id such as ``avalon-3f9c2a71d0``."""
    return f"{game}-{uuid.uuid4().hex[:10]}"


def thread_config(game_id: str) -> RunnableConfig:
    """The LangGraph run config of a game (its id is the checkpoint thread id)."""
    return {"configurable": {"thread_id": game_id}, "recursion_limit": 10_000}

Durability = Literal["sync", "exit"]
"""When a run's checkpoints reach the store: after every step, or once when the run ends."""


class GameRunner:
    """Runs, resumes and inspects games stored in one checkpoint database.

    Args:
        graph: the compiled game graph (with a checkpointer). game: its game's name.
        durability: LangGraph's durability of every run: ``"sync"`` (each step on disk before the next) or
            ``"exit"`` (one checkpoint when a run ends: finished, raised or paused).
    """

    def __init__(self, graph: GameGraph, game: str = "avalon", durability: Durability = "sync"):
        self.graph = graph
        self.game = game
        self.durability = durability

    @property
    def saver(self) -> BaseCheckpointSaver:
        """The game graph's checkpoint saver.

        Raises:
            TypeError: the graph was compiled without one.
        """
        saver = self.graph.checkpointer
        if not isinstance(saver, BaseCheckpointSaver):
            raise TypeError("the game graph was compiled without a checkpoint saver")
        return saver

    def start(self, game_id: str, inputs: dict[str, Any], context: dict[str, Any] | None = None,
              **kwargs: Any) -> dict[str, Any]:
        """Play a new game from ``inputs`` (`GameInput`) to its end; see `drive` for ``kwargs``.

        The record (``running``, with the inputs and the ``context`` overrides) is
        written first, so a game killed before its first checkpoint can be started
        again from it (`resume`), with the same context.

        Raises:
            GameBusyError: another process drives this game.
        """
        with game_lock(game_id):
            record = build_record(game_id, inputs, "running", self.game)
            write_record(record | ({"context": context} if context else {}))
            return self.drive(game_id, inputs, **kwargs)

    def resume(self, game_id: str, **kwargs: Any) -> dict[str, Any]:
        """Continue a stopped game from its last checkpoint, or, if it stopped before its first
        checkpoint, start it from the configuration and seed its record holds.

        Raises:
            KeyError: no checkpoint and no record to start from.
            GameBusyError: another process drives this game.
        """
        with game_lock(game_id):
            if self.exists(game_id):
                return self.drive(game_id, None, **kwargs)
            inputs = recorded_inputs(game_id)
            if inputs is None:
                raise KeyError(f"no game {game_id!r} in {paths.checkpoint_db()}")
            return self.drive(game_id, inputs, **kwargs)

    def exists(self, game_id: str) -> bool:
        """Whether ``game_id`` has a checkpoint."""
        return self.saver.get_tuple(thread_config(game_id)) is not None

    def values(self, game_id: str) -> dict[str, Any]:
        """The latest state values of a game."""
        return dict(self.graph.get_state(thread_config(game_id)).values)

    def state(self, game_id: str) -> tuple[dict[str, Any], bool]:
        """The latest state values of a game and whether it reached ``game_over``, from one state read
        (each read replays the log's deltas)."""
        snapshot = self.graph.get_state(thread_config(game_id))
        values = dict(snapshot.values)
        finished = not snapshot.next and any(e["type"] == "game_over" for e in values.get("events", []))
        return values, finished

    def is_finished(self, game_id: str) -> bool:
        """Whether the game reached ``game_over`` (nothing left to run)."""
        return self.state(game_id)[1]

    def drive(
        self,
        game_id: str,
        inputs: dict[str, Any] | None,
        *,
        on_events: EventSink | None = None,
        step: Callable[[], bool] | None = None,
        pace: float = 0.0,
        person: Person | None = None,
        until_decision: bool = False,
        stop: Callable[[], bool] | None = None,
    ) -> dict[str, Any]:
        """Run the game until it ends, writing its record.

        The run's context is the one its record holds (``context``: overrides of
        the game graph's context, e.g. an edited prompt of a fork).

        Args:
            game_id: the thread id.
            inputs: `GameInput` for a new game, ``None`` to resume.
            on_events: called with each batch of new events as the game goes.
            step: called after each decision point that added events; the run
                stops (resumable) when it returns ``False``.
            pace: seconds to wait after each step, to watch a game live.
            person: answers the questions of human seats, one at a time
                (`Person`); ``None``: the run stops at the first question,
                which stays pending (resume it later, or answer it with ``Command(resume=...)``).
            until_decision: stop once the next decision point's answers are applied.
            stop: asked after each node's update; the run stops there (resumable, the record marked
                ``interrupted``) once it returns True: how an experiment stopped by Ctrl-C or SIGTERM ends the
                games its worker threads play before it closes their checkpoints.

        Returns:
            The final state values.

        Raises:
            Whatever a node raised; the last completed step is checkpointed and
            the record is marked ``interrupted``.
        """
        config = thread_config(game_id)
        context = (read_record(game_id) or {}).get("context") or None
        pause_after = ["apply"] if until_decision else STEP_NODES if step else None
        run_input: Any = inputs
        try:
            while True:
                added = False
                for chunk in self.graph.stream(run_input, config, stream_mode="updates", durability=self.durability,
                                               interrupt_after=pause_after, context=context):
                    for update in chunk.values():
                        events = update.get("events") if isinstance(update, dict) else None
                        if events:
                            added = True
                            if on_events:
                                on_events(events)
                    if pace:
                        time.sleep(pace)
                    if stop is not None and stop():
                        break
                if stop is not None and stop():
                    break
                run_input = None
                snapshot = self.graph.get_state(config)
                if not snapshot.next:
                    break
                questions = [i for i in snapshot.interrupts if is_question(i.value)]
                if questions:
                    if person is None:
                        break
                    run_input = Command(resume={i.id: person(i.value) for i in questions})
                    continue
                if until_decision and "apply" not in snapshot.next:
                    break
                if step and added and not step():
                    break
        except BaseException:
            self._write(game_id, self.values(game_id) or inputs or recorded_inputs(game_id) or {}, "interrupted")
            raise
        values, finished = self.state(game_id)
        self._write(game_id, values, "finished" if finished else "interrupted")
        if finished:
            after_game(game_id, values)
        return values

    def _write(self, game_id: str, values: dict[str, Any], status: str) -> None:
        """Write the record of ``game_id`` from ``values``, keeping the `CARRIED` keys of the stored one."""
        old = read_record(game_id) or {}
        write_record(build_record(game_id, values, status, self.game) | {k: old[k] for k in CARRIED if k in old})

    def questions(self, game_id: str) -> list[dict[str, Any]]:
        """The questions human seats are waiting to have answered (interrupt payloads), oldest request first."""
        snapshot = self.graph.get_state(thread_config(game_id))
        return [i.value for i in snapshot.interrupts if is_question(i.value)]

    def sync_record(self, game_id: str) -> bool:
        """Rewrite the record of ``game_id`` from its checkpoints when it is out of step with them (a process
        killed between its last checkpoint and its record write), unless a process is driving the game now.

        Returns:
            Whether the record was rewritten.
        """
        if is_driven(game_id) or not self.exists(game_id):
            return False
        values, finished = self.state(game_id)
        record = read_record(game_id) or {}
        status = "finished" if finished else "interrupted"
        if record.get("status") == status and len(record.get("events") or []) == len(values.get("events") or []):
            return False
        self._write(game_id, values, status)
        return True

    def history(self, game_id: str) -> Iterator[dict[str, Any]]:
        """The game's checkpoints, oldest first: step, next nodes, events added since the previous one."""
        snapshots = list(self.graph.get_state_history(thread_config(game_id)))
        previous = 0
        for snap in reversed(snapshots):
            events = snap.values.get("events") or []
            yield {
                "step": snap.metadata.get("step") if snap.metadata else None,
                "checkpoint_id": snap.config["configurable"]["checkpoint_id"],
                "next": list(snap.next),
                "phase": (snap.values.get("game") or {}).get("phase"),
                "new_events": events[previous:],
            }
            previous = len(events)


def after_game(game_id: str, values: dict[str, Any]) -> None:
    """Call the ``after_game`` hook of every agent kind seated in a finished game (e.g. the ``cga`` experience pool)."""
    for name in sorted({str(seat.get("kind")) for seat in values.get("seats") or [] if isinstance(seat, dict)}):
        kind = AGENT_KINDS.get(name)
        if kind is not None and kind.after_game is not None:
            kind.after_game(game_id, values)


def recorded_inputs(game_id: str) -> dict[str, Any] | None:
    """The inputs (``config``, ``seed``, ``seats``) a game's record holds, or ``None``."""
    record = read_record(game_id) or {}
    if all(record.get(key) is not None for key in ("config", "seed", "seats")):
        return {key: record[key] for key in ("config", "seed", "seats")}
    return None


def game_of(game_id: str) -> str:
    """The game a stored game id plays, from its record (``avalon`` when no record says)."""
    record = read_record(game_id) or {}
    game = record.get("game")
    return game if game in GAMES else "avalon"


@contextmanager
def open_runner(game: str = "avalon", models: Any = None, durability: Durability = "sync") -> Iterator[GameRunner]:
    """A `GameRunner` of ``game`` on the store's checkpointer (`open_checkpointer`: the data directory's SQLite
    file, closed on exit, or the shared database in use);
    ``models``: the `roundtable.agents.common.model_calls.ModelProvider` of its agents (``None``: the model factory;
    tests pass scripted models); ``durability``: as `GameRunner`'s.

    Raises:
        KeyError: no such game.
    """
    rules = GAMES[game]
    with open_checkpointer() as saver:
        yield GameRunner(build_game_graph(rules, models=models).compile(checkpointer=saver), game, durability)
