"""The experiment's progress bar (Rich): games done and running, ETA, model calls, tokens, fallbacks."""

from __future__ import annotations

import threading
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from roundtable.experiments.config import PlannedGame
from roundtable.experiments.runner import Listener, Outcome
from roundtable.games.fallbacks import fell_back


class ProgressBar(Listener):
    """A `Listener` drawing one Rich progress bar; use as a context manager around `run_experiment`.

    The counters (model calls, prompt + completion tokens, fallbacks) add up the ``usage`` and
    ``fallback`` of every decision event the running games add, so they grow during a game.
    """

    def __init__(self, console: Console | None = None):
        self._lock = threading.Lock()
        self.running = 0
        self.failed = 0
        self.calls = 0
        self.tokens = 0
        self.fallbacks = 0
        self._progress = Progress(
            TextColumn("[bold]games"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[running]} running, {task.fields[failed]} failed"),
            TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
            TextColumn("{task.fields[calls]} calls, {task.fields[tokens]} tokens, {task.fields[fallbacks]} fallbacks"),
            console=console, transient=False)
        self._task = self._progress.add_task("games", total=None, running=0, failed=0, calls=0, tokens=0, fallbacks=0)

    def __enter__(self) -> ProgressBar:
        self._progress.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._progress.stop()

    def _show(self, **advance: Any) -> None:
        self._progress.update(self._task, running=self.running, failed=self.failed, calls=self.calls,
                              tokens=self.tokens, fallbacks=self.fallbacks, **advance)

    def planned(self, total: int, done: int) -> None:
        """Set the bar's total and the games already finished before this run."""
        with self._lock:
            self._progress.update(self._task, total=total, completed=done)

    def started(self, game: PlannedGame) -> None:
        """Count a running game."""
        with self._lock:
            self.running += 1
            self._show()

    def events(self, game: PlannedGame, events: list[dict[str, Any]]) -> None:
        """Add the model calls, tokens and fallbacks of the decisions among ``events``."""
        with self._lock:
            for event in events:
                if event.get("type") != "decision":
                    continue
                usage = event.get("usage") or {}
                self.calls += int(usage.get("calls", 0) or 0)
                self.tokens += int(usage.get("prompt_tokens", 0) or 0) + int(usage.get("completion_tokens", 0) or 0)
                self.fallbacks += 1 if fell_back(event) else 0
            self._show()

    def ended(self, outcome: Outcome) -> None:
        """Count a finished (or failed) game."""
        with self._lock:
            self.running -= 1
            self.failed += 1 if outcome.status == "failed" else 0
            self._show(advance=1 if outcome.status == "finished" else 0)
