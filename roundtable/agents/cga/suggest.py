"""A suggestion from experience (Xu et al. 2023; docs/agents/cga.md#experience-pool): contrast a bad and good
experiences of earlier games.

Only when the seat names a pool and reads it (options ``pool``, ``experience``)
and at least two experiences of the same game and role have a reflection
similar to the current one (`roundtable.agents.cga.experience`); otherwise no
call is made and there is no suggestion. A reply that says "No useful
experience can be used" leaves none either.
"""

from __future__ import annotations

import re
from typing import Any

from langgraph.runtime import Runtime

from roundtable.agents.cga.experience import ExperiencePool, select
from roundtable.agents.cga.state import CgaState
from roundtable.agents.cga.turn import CgaTurn
from roundtable.agents.common.model_calls import ModelProvider, call_text
from roundtable.agents.common.text import clean_text

NO_USE = "No useful experience can be used"
_BEST = re.compile(r"The best way.*", re.IGNORECASE | re.DOTALL)


def current_reflection(state: CgaState) -> str:
    """This decision's reflection, else the round's in the pool (``""``: none)."""
    return str(state.get("reflection") or (state.get("pool") or {}).get("reflection") or "")


def private_texts(state: CgaState) -> list[str]:
    """The private texts behind the decision in hand: its reflection (this decision's, else the round's), the
    answers to its questions (likewise) and every chain of thought written so far (`Decision.thoughts`)."""
    pool = state.get("pool") or {}
    answers = state.get("answers") if state.get("refresh") else pool.get("answers")
    texts = [current_reflection(state), *(str(a.get("answer") or "") for a in answers or [])]
    return [text for text in (*texts, *(state.get("thoughts") or [])) if text]


def make_suggest(models: ModelProvider):
    """The ``suggest`` node over ``models``."""

    def suggest(state: CgaState, runtime: Runtime[Any]) -> dict[str, Any]:
        turn = CgaTurn.of(state, runtime, models)
        opts = turn.options
        reflection = current_reflection(state)
        if not (opts.pool and opts.experience and reflection):
            return {"suggestion": ""}
        found = ExperiencePool(opts.pool, opts.embeddings).similar(
            reflection, game=turn.view.game, role=turn.view.role, epsilon=opts.epsilon, limit=opts.max_experiences)
        picked = select(found)
        if picked is None:
            return {"suggestion": ""}
        bad, good = picked
        prompt = turn.context.render(turn.prompt("suggest"), reflection=reflection, bad=bad.__dict__,
                                     good=[e.__dict__ for e in good], words=opts.suggestion_words,
                                     decision=turn.request.answer != "words")
        model = turn.model(models, turn.temperature("temperature"), opts.suggestion_words)
        raw, usage = call_text(model, turn.messages(prompt), "suggest")
        said = _BEST.search(raw)
        text = "" if NO_USE.lower() in raw.lower() else clean_text(said.group(0) if said else raw,
                                                                     opts.suggestion_words)
        return {"suggestion": text, "raw": [raw], "usage": [usage]}

    return suggest
