"""Summarization (Lan et al. 2024, module 2): once a round ends, ``M_t = SMR(M_{t-1}, round t records)``."""

from __future__ import annotations

import logging
from typing import Any

from langgraph.runtime import Runtime

from roundtable.tools.model_calls import ModelProvider, call_text

from . import memory as mem
from .calls import agent_model, clean_text
from .turn import Turn

log = logging.getLogger(__name__)


def make_summarize(models: ModelProvider):
    """The ``summarize`` node over ``models``.

    The node compresses the previous summary and the records of the rounds
    that ended (all players' words and the Host's statements the player saw)
    into a new summary of at most ``summary_words`` words; those records leave
    the memory, their key Host facts stay on the board. One model call.
    """

    def summarize(state: dict[str, Any], runtime: Runtime[Any]) -> dict[str, Any]:
        turn = Turn.of(state, runtime)
        old = mem.stale_records(turn.memory, turn.view.round)
        if not old:
            log.info("player %s: summarize skipped (summary current)", turn.view.player)
            return {}
        rounds = sorted({r["round"] for r in old})
        label = f"quest {rounds[0]}" if len(rounds) == 1 else f"quests {rounds[0]} to {rounds[-1]}"
        words = turn.options.summary_words
        prompt = turn.context.render(
            "lga/summarize",
            **turn.base_variables(),
            rounds_label=label,
            round_public=mem.lines([r for r in old if r["vis"] == "public"]),
            round_private=mem.lines([r for r in old if r["vis"] == "private"]),
            words=words,
        )
        text, usage = call_text(agent_model(models, turn, words), turn.messages(prompt), "summarize")
        memory = mem.after_summary(turn.memory, turn.view.round, clean_text(text, words))
        return {"memory": memory, "usage": [usage]}

    return summarize
