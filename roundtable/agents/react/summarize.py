"""Summary (Light et al. 2023, §3.2): once a round has ended, ``Summary_t = LLM(Summary_t-1, Minutes_t, Outcome)``.

Taken with the first request of the next round, while the ended round's minutes are still in the pool: one call
(module ``summarize``) whose prompt holds the player's role, its previous summary, that round's minutes and its
outcome: with the aids off AvalonBench's Recap as its agent asks it (template ``react/summarize``; the round's Host
lines hold its outcome), with them on ours (``aids/react/summarize``, the outcome lines listed apart). The reply,
cleaned to at most ``summary_words`` words, replaces the summary and the round's lines leave the pool. An empty
reply keeps the previous summary with the round's outcome lines appended, so no outcome is lost (named in
``checks``).
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from roundtable.agents.common.model_calls import ModelProvider, call_text
from roundtable.agents.common.text import clean_text
from roundtable.agents.react import memory as mem
from roundtable.agents.react.state import ReactState
from roundtable.agents.react.turn import ReactTurn


def make_summarize(models: ModelProvider):
    """The ``summarize`` node over ``models``: one call when a round's minutes wait to be folded in, else none."""

    def summarize(state: ReactState, runtime: Runtime[Any]) -> dict[str, Any]:
        turn = ReactTurn.of(state, runtime)
        old = mem.ended(turn.memory, turn.view.round)
        if not old:
            return {}
        words = turn.options.summary_words
        rounds = sorted({int(m["round"]) for m in old})
        outcome = [m["text"] for m in old if m.get("outcome")]
        prompt = turn.context.render(
            turn.game_prompt("summarize"), context=turn.context_text([m["text"] for m in old], rounds),
            summary=str(turn.memory.get("summary") or ""), outcome=outcome, rounds=rounds, words=words,
            round_name=turn.table.round_name)
        raw, usage = call_text(turn.writer(models, words), turn.messages(prompt), "summarize")
        summary = clean_text(raw, words)
        update: dict[str, Any] = {"usage": [usage]}  # the reply is in the usage's log, not the decision's raw
        if not summary:
            summary = " ".join([str(turn.memory.get("summary") or ""), *outcome]).strip()
            update["checks"] = ["summarize: empty reply: the previous summary kept, with the round's outcome"]
        return update | {"pool": mem.after_summary(turn.memory, turn.view.round, summary)}

    return summarize
