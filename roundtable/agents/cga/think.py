"""The chain-of-thought answer (Xu et al. 2023; docs/agents/cga.md#the-modules): reason step by step, then the concise
words and the action.

One call at the thought temperature (0): a JSON object ``{"thought", <answer>,
"words"}`` where the endpoint takes JSON schemas (the schema of
`roundtable.agents.common.thought.think_schema`), else prose with ``Thought:``,
``Choice:`` and ``Words:`` lines; an unreadable choice goes to the extractor,
and a ``pick`` through the pick rules (too few players named is asked again),
as in the ``lga`` agent (`roundtable.agents.lga.reading`). The call that writes words is sampled with the DRY
sampler where the seat's ``dry`` is on. With the aids' checks on, the answer is marked ``unchecked`` and the
graph's ``aids`` step checks it (`roundtable.agents.cga.aids`): on a problem this step runs once more with the
Host's note, keeping the action when only the words were at fault (the prompt states it) and sampled warmer after
a near copy. Each call's chain of thought is kept in
``thoughts`` (`Decision.thoughts`).
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from roundtable.agents.cga.state import CgaState
from roundtable.agents.cga.suggest import current_reflection
from roundtable.agents.cga.turn import CgaTurn
from roundtable.agents.common.extraction import needs_answer
from roundtable.agents.common.model_calls import UNUSABLE, ModelProvider
from roundtable.agents.common.reading import extract_action, settle
from roundtable.agents.common.thought import ask_thought, think_budget


def make_think(models: ModelProvider):
    """The ``think`` node over ``models``."""

    def think(state: CgaState, runtime: Runtime[Any]) -> dict[str, Any]:
        turn = CgaTurn.of(state, runtime, models)
        request, opts = turn.request, turn.options
        attempt = int(state.get("attempts") or 0)
        recheck = state.get("recheck") or ""
        decided = state.get("action") if recheck else None  # only the words are asked again: the action stands
        ask_choice = needs_answer(request) and not decided
        with_words = request.wants_words
        if not ask_choice and not with_words:  # one legal answer, no words: no call
            return {"action": {}, "attempts": attempt + 1, "retry": False}
        structured = turn.structured(models)
        pool = state.get("pool") or {}
        suggestion = state.get("suggestion") if state.get("refresh") else pool.get("suggestion")
        retry = turn.retry_note(attempt) if state.get("retry") else ""
        prompt = turn.context.render(
            turn.prompt("think"), history=turn.history(state.get("recent") or [], state.get("informative") or []),
            game=turn.view.game, round_name=turn.round_name, round=request.round,
            tip=turn.table.kind_text("think_tip"), reflection=current_reflection(state), suggestion=suggestion or "",
            instruction="\n".join(p for p in (turn.instruction(), retry, recheck) if p),
            decided=turn.table.decided(decided) if decided else "",
            choice_help=turn.choice_help(structured) if ask_choice else "", with_words=with_words,
            speech=turn.speech() if opts.aided else "",  # the paper's prompt says how to talk in its own words
            thought_words=opts.thought_words, format="json" if structured else "prose")
        model = turn.model(models, turn.temperature("thought_temperature"), think_budget(opts, with_words, ask_choice),
                           speaking=with_words, again=bool(state.get("copied")))
        action, words, thought, raw, usage = ask_thought(model, turn.messages(prompt), request, turn.view.players,
                                                         opts, with_words, ask_choice, structured,
                                                         turn.context.describe)
        raws, usages = [raw], [usage]
        if ask_choice and not action and not raw.startswith(UNUSABLE):
            action, more_raw, more_usage = extract_action(turn.extractor(models), turn.context, request,
                                                          turn.view.players, raw, structured)
            raws += more_raw
            usages += more_usage
        update: dict[str, Any] = (settle(request, turn.seed, opts.retries, action, attempt) if ask_choice
                                  else {"retry": False} if decided else
                                  {"action": {}, "attempts": attempt + 1, "retry": False})
        update |= {"utterance": words, "raw": raws, "usage": usages, "thoughts": [thought] if thought else [],
                   "recheck": None, "copied": False}
        if not update["retry"] and opts.checks_answers():
            update |= {"unchecked": "think", "chose": ask_choice}  # the aids step checks it next (cga.aids)
        return update

    return think
