"""Discussion (Light et al. 2023, §3.3, *Discuss*): one sentence to the table when words are asked.

One call (module ``speak``, temperature 0.1): *Rules*, *Role*, *Summary*, the round's *Minutes* so far, the
Host's instruction and, when the turn also chose an action (a leader's team, the Assassin's target), that action,
so the sentence goes with it (template ``react/speak``). The reply is cleaned (`sanitize_utterance`: lines posing
as the Host or another player are dropped, named as a fallback) and cut to its first sentence
(`roundtable.agents.common.words.first_sentence`; a cut is named in ``checks``): AvalonBench's players say one
sentence a turn (its discussion prompt, ``src/server/tasks/avalon/prompts.py``).
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from roundtable.agents.common.model_calls import ModelProvider, call_text
from roundtable.agents.common.words import first_sentence
from roundtable.agents.react.state import ReactState
from roundtable.agents.react.turn import ReactTurn
from roundtable.games.fallbacks import sanitize_utterance


def make_speak(models: ModelProvider):
    """The ``speak`` node over ``models``: one call."""

    def speak(state: ReactState, runtime: Runtime[Any]) -> dict[str, Any]:
        turn = ReactTurn.of(state, runtime)
        words = turn.options.response_words
        prompt = turn.context.render(
            "react/speak", context=turn.context_text(), instruction=turn.table.instruction(),
            decided=turn.table.decided(state.get("action")), speech=turn.table.speech(), words=words)
        raw, usage = call_text(turn.writer(models, words), turn.messages(prompt), "speak")
        clean, reason = sanitize_utterance(raw, turn.view.player, words)
        said, sentences = first_sentence(clean)
        update: dict[str, Any] = {"utterance": said, "raw": [raw], "usage": [usage]}
        if reason:
            update["problems"] = [reason]
        if sentences > 1:
            update["checks"] = [f"speak: {sentences} sentences cut to the first"]
        return update

    return speak
