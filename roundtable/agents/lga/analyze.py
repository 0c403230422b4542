"""Analysis (Lan et al. 2024, module 3): the likely roles and strategies of the other players.

Refreshed once per round. ``analysis_scope`` (seat option) restricts it to
teammates or adversaries (the paper's Table 8 ablation); with ``merge_plan``
the same call also writes the plan (one call fewer per round).
"""

from __future__ import annotations

import logging
from typing import Any

from langgraph.runtime import Runtime

from roundtable.agents.common.model_calls import ModelProvider, call_text
from roundtable.agents.common.text import clean_text, split_sections
from roundtable.agents.lga.calls import agent_model
from roundtable.agents.lga.context import LgaContext
from roundtable.agents.lga.state import LgaState
from roundtable.agents.lga.turn import Turn

log = logging.getLogger(__name__)


def scope_players(turn: Turn) -> list[int]:
    """Players the analysis scope names, where the player knows them (``[]``: unknown or everyone).

    Evil players (but Oberon) know their teammates; Merlin knows the evil
    players; the others do not know sides, so the prompt describes the scope in words.
    """
    view, scope = turn.view, turn.options.analysis_scope
    known = [k["player"] for k in view.knowledge if k.get("is") == "evil"]
    if scope == "all" or not known:
        return []
    others = [p for p in range(1, view.players + 1) if p != view.player]
    if view.side == "evil":  # knowledge lists teammates
        return known if scope == "teammates" else [p for p in others if p not in known]
    return [p for p in others if p not in known] if scope == "teammates" else known


def make_analyze(models: ModelProvider):
    """The ``analyze`` node over ``models``: one call of at most ``analysis_words`` words (plus the plan when
    merged)."""

    def analyze(state: LgaState, runtime: Runtime[LgaContext]) -> dict[str, Any]:
        turn = Turn.of(state, runtime, models)
        opts, view = turn.options, turn.view
        if opts.no_analysis or turn.memory.get("analysis_round") == view.round:
            log.info("player %s: analyze skipped", view.player)
            return {}
        merged = opts.merges_plan()
        words = opts.analysis_words + (opts.plan_words if merged else 0)
        variables = turn.base_variables()
        context = turn.context_text(variables, plan=variables["plan"] if merged else "", previous_plan=True)
        prompt = turn.context.render(
            turn.template("analyze"),
            **variables | {"context": context},
            scope=opts.analysis_scope,
            scope_players=scope_players(turn),
            words=opts.analysis_words,
            merge_plan=merged,
            plan_words=opts.plan_words,
        )
        text, usage = call_text(agent_model(models, turn, words), turn.messages(prompt), "analyze")
        memory = {**turn.memory, "analysis_round": view.round}
        if merged:
            parts = split_sections(text, ("analysis", "plan"))
            memory["analysis"] = clean_text(parts["analysis"], opts.analysis_words)
            memory["plan"] = clean_text(parts["plan"], opts.plan_words)
            memory["plan_round"] = view.round
        else:
            memory["analysis"] = clean_text(text, opts.analysis_words)
        return {"pool": memory, "usage": [usage]}

    return analyze
