"""Planning (Lan et al. 2024, module 4): a plan from the summary, analysis, previous plan, role, goal and strategy.

Refreshed once per round (skipped when ``no_plan`` or when the analysis call
already wrote it under ``merge_plan``).
"""

from __future__ import annotations

import logging
from typing import Any

from langgraph.runtime import Runtime

from roundtable.agents.common.model_calls import ModelProvider, call_text
from roundtable.agents.common.text import clean_text
from roundtable.agents.lga.calls import agent_model
from roundtable.agents.lga.context import LgaContext
from roundtable.agents.lga.state import LgaState
from roundtable.agents.lga.turn import Turn

log = logging.getLogger(__name__)


def make_plan(models: ModelProvider):
    """The ``plan`` node over ``models``: one call of at most ``plan_words`` words."""

    def plan(state: LgaState, runtime: Runtime[LgaContext]) -> dict[str, Any]:
        turn = Turn.of(state, runtime, models)
        opts, view = turn.options, turn.view
        if opts.no_plan or turn.memory.get("plan_round") == view.round:
            log.info("player %s: plan skipped", view.player)
            return {}
        words = opts.plan_words
        variables = turn.base_variables()
        context = turn.context_text(variables, variables["analysis"], variables["plan"], previous_plan=True)
        prompt = turn.context.render(turn.template("plan"), **variables | {"context": context}, words=words)
        text, usage = call_text(agent_model(models, turn, words), turn.messages(prompt), "plan")
        memory = {**turn.memory, "plan": clean_text(text, words), "plan_round": view.round}
        return {"pool": memory, "usage": [usage]}

    return plan
