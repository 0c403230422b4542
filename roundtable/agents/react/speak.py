"""Discussion (Light et al. 2023, §3.3, *Discuss*): one sentence to the table when words are asked.

One call (module ``speak``, temperature 0.1): *Rules*, *Role*, *Summary*, the round's *Minutes* so far, the
Host's instruction and, when the turn also chose an action (a leader's team, the Assassin's target), that action,
so the sentence goes with it (template ``react/speak``). The reply is cleaned
(`roundtable.aids.cleaning.said_words`: lines posing as the Host or another player are dropped, named as a
fallback unless all came after the first sentence, which the cut drops anyway). AvalonBench's discussion prompt
asks for one sentence (``src/server/tasks/avalon/prompts.py``); with the aids on the reply is also cut to its
first sentence (`roundtable.detectors.words.first_sentence`; a cut is named in ``checks``). The call is
sampled with the DRY sampler where the seat's ``dry`` is on.

The sentence is then checked (`roundtable.aids.review`, docs/agents/checks.md#words-checks): a near copy
of the talk in the minutes or of the player's own summary and reasoning, a team other than the one chosen, words
that give it away. On a problem ``speak`` runs once more with the Host's note (sampled warmer after a near copy);
the second sentence is kept.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from roundtable.agents.common.model_calls import ModelProvider, call_text
from roundtable.agents.react.state import ReactState
from roundtable.agents.react.turn import ReactTurn
from roundtable.aids.cleaning import said_words
from roundtable.aids.review import words_update
from roundtable.detectors.words import first_sentence


def make_speak(models: ModelProvider):
    """The ``speak`` node over ``models``: one call."""

    def speak(state: ReactState, runtime: Runtime[Any]) -> dict[str, Any]:
        turn = ReactTurn.of(state, runtime)
        opts = turn.options
        words = opts.response_words
        action = state.get("action")
        prompt = turn.context.render(
            "react/speak", context=turn.context_text(), instruction=turn.table.instruction(),
            decided=turn.table.decided(action), me=turn.view.player, speech=turn.table.speech(), words=words,
            note=state.get("recheck") or "")
        model = turn.writer(models, words, speaking=True, again=bool(state.get("copied")))
        raw, usage = call_text(model, turn.messages(prompt), "speak")
        clean, reason = said_words(raw, turn.view.player, words, opts.aided)
        # AvalonBench's prompt asks for one sentence; cutting the reply to it is an aid (docs/agents/aids.md)
        said, sentences = first_sentence(clean) if opts.aided else (clean, 1)
        if reason and said_words(first_sentence(raw)[0], turn.view.player, words, opts.aided) == (said, None):
            reason = None  # what posed as the Host came after the sentence said, which the cut drops anyway
        update: dict[str, Any] = {"utterance": said, "raw": [raw], "usage": [usage], "recheck": None, "copied": False}
        if reason:
            update["problems"] = [reason]
        cut = [f"speak: {sentences} sentences cut to the first"] if sentences > 1 else []
        checked = words_update(turn.context, turn.view, turn.request, said, (action or {}).get("players"),
                               heard=turn.heard(), thoughts=turn.private_texts(list(state.get("thoughts") or [])),
                               checks=opts.word_checks, response_words=words, reviewed=bool(state.get("reviewed")),
                               drop=opts.drops_sentences())
        update |= checked | {"checks": [*cut, *(checked.get("checks") or [])]}
        if checked.get("recheck"):
            update["utterance"] = None
        return update

    return speak
