"""Experience learning between the games of an experiment (placeholder until the learner is wired in)."""

from __future__ import annotations

from typing import Any

from .config import PlannedGame


def before_game(game: PlannedGame) -> dict[str, Any]:
    """Context overrides that load what the game's learners learned so far (none without learning)."""
    return {}


def after_game(game: PlannedGame, record: dict[str, Any]) -> None:
    """Let the game's learners learn from its record (nothing without learning)."""
