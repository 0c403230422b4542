"""Agent kind ``lga``: Lan et al.'s Avalon agent as a LangGraph graph (docs/agents/lga.md#the-modules, modules 1-6).

Source: Lan, Hu, Wang et al., *LLM-Based Agent Society Investigation:
Collaboration and Confrontation in Avalon Gameplay* (EMNLP 2024). Experience
learning between games is not part of this graph.

One invocation answers one request::

    START -> observe -> [summarize] -> [analyze] -> [plan] -> [act] -> [aids] -> [respond] -> [aids] -> decide -> END

- ``observe`` (memory storage): the view's new events become records
  ``(speaker, text, round, phase, public|private)`` in the agent's memory pool;
- ``summarize``: once a round has ended, ``M_t = SMR(M_{t-1}, round t records)``;
- ``analyze``: the other players' likely roles and strategies (once per round);
- ``plan``: the plan for the rest of the game (once per round);
- ``act``: the answer to the request (with the words in the same call when asked);
- ``respond``: the words, when still needed (and the whole answer under ``no_action``);
- ``aids``: the small-model aids' check of the answer act or respond just gave, when a check is on (the aids on:
  `roundtable.agents.lga.aids`, docs/agents/aids.md#the-aids-step): a re-ask sends the graph back to that step;
- ``decide``: the fallback rules of docs/games/protocol.md#fallback-rules, word cleaning, cost summing.

The belief probe at game over (`roundtable.games.protocol.belief_request`) goes ``observe -> believe ->
decide``: the player's probabilities that each other player is good, from its memory.

A `prepare_round` notice (the game graph's word that a round has begun,
sent to every ``lga`` seat not asked first) goes ``observe -> [summarize] ->
[analyze] -> [plan] -> decide`` and returns only the memory, so the six
players' notes are written at once.

A bracketed step is taken only when needed (conditional edges), so a decision
later in the same round goes ``observe -> act -> decide`` and Studio shows the
jump. Input `roundtable.agents.protocol.AgentInput` ``{view, request, pool, seat,
seed}``, output `AgentOutput` ``{decisions, memory}``: inside a game graph the
compiled graph is the ``lga`` node, reached by a `Send`, and its output merges
into the game's channels. Per-run prompts and temperatures: the context
schema `roundtable.agents.lga.context.LgaContext`; per-seat switches (the
paper's ablations and cost options): `roundtable.agents.lga.options.LgaOptions`.
The call budget and measured cost: docs/measurements.md#the-lga-call-budget.
"""

from __future__ import annotations

from typing import Any

from langgraph.graph import END, START, StateGraph

from roundtable.agents.common.model_calls import FactoryModels, ModelProvider
from roundtable.agents.lga import (
    LgaOptions,
    LgaState,
    decide,
    make_act,
    make_analyze,
    make_believe,
    make_plan,
    make_respond,
    make_summarize,
    observe,
    route_after,
)
from roundtable.agents.lga.aids import aids
from roundtable.agents.lga.context import LgaContext
from roundtable.agents.protocol import AgentInput, AgentKind, AgentOutput, agent_step
from roundtable.games import GAMES
from roundtable.tables.protocol import games_with_tables

_AFTER: dict[str, list[str]] = {
    "observe": ["summarize", "analyze", "plan", "act", "respond", "believe", "decide"],
    "believe": ["decide"],
    "summarize": ["analyze", "plan", "act", "respond", "decide"],
    "analyze": ["plan", "act", "respond", "decide"],
    "plan": ["act", "respond", "decide"],
    "act": ["act", "respond", "aids", "decide"],
    "respond": ["respond", "aids", "decide"],
    "aids": ["act", "respond", "decide"],
}


def build_lga_graph(models: ModelProvider | None = None) -> StateGraph[Any, Any, Any, Any]:
    """The uncompiled ``lga`` agent graph.

    Args:
        models: where the nodes get chat models; default `FactoryModels`
            (``roundtable.models.factory``). Tests pass scripted models.

    Returns:
        A `StateGraph` over `LgaState` with input `AgentInput`, output
        `AgentOutput` and context `LgaContext`. Each node reads its own
        `LgaContext` (inside a game, the ``lga`` field of the game's context)
        and pauses first when the run's context lists it in ``breakpoints`` as
        ``lga:<node>`` (`roundtable.agents.protocol.agent_step`).
    """
    models = models or FactoryModels()
    builder = StateGraph(LgaState, context_schema=LgaContext, input_schema=AgentInput, output_schema=AgentOutput)
    steps = {
        "observe": observe,
        "summarize": make_summarize(models),
        "analyze": make_analyze(models),
        "plan": make_plan(models),
        "act": make_act(models),
        "respond": make_respond(models),
        "aids": aids,
        "believe": make_believe(models),
        "decide": decide,
    }
    for name, fn in steps.items():
        builder.add_node(name, agent_step("lga", name, fn, LgaContext))
    builder.add_edge(START, "observe")
    for step, targets in _AFTER.items():
        builder.add_conditional_edges(step, route_after(step), targets)
    builder.add_edge("decide", END)
    return builder


graph = build_lga_graph().compile()
graph.name = "lga"

KIND = AgentKind(
    name="lga",
    graph="roundtable.agents.lga.graph:graph",
    description="Lan et al.'s Avalon agent: summarize, analyze, plan, act, respond (needs a model).",
    games=games_with_tables(),  # any game that describes its table (roundtable.tables.protocol)
    node=lambda models: build_lga_graph(models).compile() if models is not None else graph,
    needs_model=True,
    options=LgaOptions,
    context=LgaContext,
    prepares_rounds=True,
    probed=frozenset(game for game in games_with_tables() if GAMES[game].belief_probe is not None),
)
