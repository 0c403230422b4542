"""The experiment progress bar's counters: model calls, tokens and fallbacks as the cost tables count them."""

from __future__ import annotations

from io import StringIO

from rich.console import Console

from roundtable.experiments.config import PlannedGame
from roundtable.experiments.progress import ProgressBar
from roundtable.games.fallbacks import PLAIN_WORDS


def test_the_bar_counts_fallbacks_as_the_cost_tables_do() -> None:
    """Plain words said after the agent's own check dropped every sentence are its rule, not a fallback."""
    game = PlannedGame(game_id="c-s0000", condition="c", index=0, seed=0, inputs={})
    events = [
        {"type": "decision", "player": 1, "fallback": "no usable reply",
         "usage": {"calls": 2, "prompt_tokens": 100, "completion_tokens": 10}},
        {"type": "decision", "player": 2, "fallback": PLAIN_WORDS, "checks": ["words expose: sentences dropped"],
         "usage": {"calls": 1, "prompt_tokens": 50, "completion_tokens": 5}},
        {"type": "decision", "player": 3, "fallback": PLAIN_WORDS, "usage": {"calls": 1}},
        {"type": "utterance", "speaker": 1, "text": "hi", "usage": {"calls": 99}},
    ]
    with ProgressBar(Console(file=StringIO())) as bar:
        bar.started(game)
        bar.events(game, events)
    assert (bar.calls, bar.tokens, bar.fallbacks, bar.running) == (4, 165, 2, 1)
