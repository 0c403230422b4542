"""Agent kind ``cga``: Xu et al.'s communication-game agent as a LangGraph graph, for any game that describes its table
(`roundtable.tables.protocol.GameTable`: Werewolf and Avalon today; docs/agents/cga.md).

Source: Xu, Wang, Yang et al., *Exploring Large Language Models for
Communication Games: An Empirical Study on Werewolf* (2023); reference code
github.com/xuyuzhuang11/Werewolf. One invocation answers one request::

    START -> observe -> freshness -> informativeness -> [questions -> retrieve -> answer -> [reflect]]
          -> suggest -> think [-> aids [-> think]] -> decide -> END

The belief probe at game over (`roundtable.games.protocol.belief_request`, Avalon) goes ``observe ->
freshness -> informativeness -> believe -> decide``: no question asked afresh, the answer from the history
and the last reflection.

- ``observe``: the view's new events become scored messages of the agent's memory;
- ``freshness``: the last K = 15 messages; ``informativeness``: the top N earlier ones by score
  (5 own role, 4 an elimination, 3 a role revealed or guessed, 2 a potion, 1 otherwise);
- ``questions``: the questions always asked, a few chosen from the role's set and two of its own;
- ``retrieve``: per question, the top T = 5 messages of memory by embedding similarity (Chroma, MiniLM offline);
- ``answer``: each question answered in at most two sentences (merged: all answers and the reflection at once);
- ``reflect``: "As the <role>, I observed that ...";
- ``suggest``: one suggestion from the experience pool (`roundtable.agents.cga.experience`), when it has some;
- ``think``: the chain-of-thought answer at temperature 0, ending in the words and the action;
- ``aids``: with the small-model aids' checks on (docs/agents/aids.md), the answer checked before it is given
  (`roundtable.agents.cga.aids`), and ``think`` asked once more with the Host's note on a problem;
- ``believe``: the belief probe: how likely each other player is to be good, then a parser call at temperature 0;
- ``decide``: the fallback rules of docs/games/protocol.md#fallback-rules; the memory and the experience tuple kept.

The bracketed steps run when the decision refreshes its questions: every
action in the paper's mode, once per day or round under ``refresh=round``
(default for the embedded model; `roundtable.agents.cga.options.CgaOptions`);
a request with one legal answer and no words goes straight to ``decide``.
Input `roundtable.agents.protocol.AgentInput`, output `AgentOutput`, context
`roundtable.agents.cga.context.CgaContext`. Cost: docs/measurements.md#cga-games.
"""

from __future__ import annotations

from typing import Any

from langgraph.graph import END, START, StateGraph

from roundtable.agents.cga import (
    CgaOptions,
    CgaState,
    decide,
    freshness,
    informativeness,
    make_answer,
    make_believe,
    make_questions,
    make_reflect,
    make_suggest,
    make_think,
    observe,
    retrieve,
)
from roundtable.agents.cga.aids import aids
from roundtable.agents.cga.context import CgaContext
from roundtable.agents.cga.experience import pool_at_start, record_game
from roundtable.agents.common.model_calls import FactoryModels, ModelProvider
from roundtable.agents.protocol import AgentInput, AgentKind, AgentOutput, agent_step
from roundtable.games import GAMES
from roundtable.games.protocol import BELIEF, Request
from roundtable.tables.protocol import games_with_tables


def _after_observe(state: CgaState) -> str:
    return "decide" if Request.model_validate(state["request"]).forced else "freshness"


def _after_informativeness(state: CgaState) -> str:
    if state["request"].get("kind") == BELIEF:
        return "believe"
    return "questions" if state.get("refresh") else "suggest"


def _after_answer(state: CgaState) -> str:
    return "suggest" if state.get("reflection") else "reflect"


def _after_think(state: CgaState) -> str:
    return "think" if state.get("retry") else "aids" if state.get("unchecked") else "decide"


def _after_aids(state: CgaState) -> str:
    return "think" if state.get("recheck") else "decide"


def build_cga_graph(models: ModelProvider | None = None) -> StateGraph[Any, Any, Any, Any]:
    """The uncompiled ``cga`` agent graph.

    Args:
        models: where the nodes get chat models; default `FactoryModels`. Tests pass scripted models.

    Returns:
        A `StateGraph` over `CgaState` with input `AgentInput`, output `AgentOutput` and context
        `CgaContext`; each node pauses first when the run's context lists ``cga:<node>`` in ``breakpoints``.
    """
    models = models or FactoryModels()
    builder = StateGraph(CgaState, context_schema=CgaContext, input_schema=AgentInput, output_schema=AgentOutput)
    steps: dict[str, Any] = {
        "observe": observe,
        "freshness": freshness,
        "informativeness": informativeness,
        "questions": make_questions(models),
        "retrieve": retrieve,
        "answer": make_answer(models),
        "reflect": make_reflect(models),
        "suggest": make_suggest(models),
        "think": make_think(models),
        "aids": aids,
        "believe": make_believe(models),
        "decide": decide,
    }
    for name, fn in steps.items():
        builder.add_node(name, agent_step("cga", name, fn, CgaContext))
    builder.add_edge(START, "observe")
    builder.add_conditional_edges("observe", _after_observe, ["freshness", "decide"])
    builder.add_edge("freshness", "informativeness")
    builder.add_conditional_edges("informativeness", _after_informativeness, ["questions", "suggest", "believe"])
    builder.add_edge("questions", "retrieve")
    builder.add_edge("retrieve", "answer")
    builder.add_conditional_edges("answer", _after_answer, ["reflect", "suggest"])
    builder.add_edge("reflect", "suggest")
    builder.add_edge("suggest", "think")
    builder.add_conditional_edges("think", _after_think, ["think", "aids", "decide"])
    builder.add_conditional_edges("aids", _after_aids, ["think", "decide"])
    builder.add_edge("believe", "decide")
    builder.add_edge("decide", END)
    return builder


graph = build_cga_graph().compile()
graph.name = "cga"

KIND = AgentKind(
    name="cga",
    graph="roundtable.agents.cga.graph:graph",
    description="Xu et al.'s communication-game agent: freshness, informativeness, questions answered from "
                "retrieved memory, reflection, experience pool, chain of thought (needs a model).",
    games=games_with_tables(),  # any game that describes its table (roundtable.tables.protocol)
    node=lambda models: build_cga_graph(models).compile() if models is not None else graph,
    needs_model=True,
    options=CgaOptions,
    context=CgaContext,
    after_game=record_game,
    at_setup=pool_at_start,
    probed=frozenset(game for game in games_with_tables() if GAMES[game].belief_probe is not None),
)
