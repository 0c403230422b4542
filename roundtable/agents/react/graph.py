"""The ``react`` agent graph: AvalonBench's ReAct agent (Light et al. 2023, §3; docs/agents/react.md).

One invocation answers one request. Every step is a node::

    START -> observe -+-> summarize -+-> think -> parse -+-> speak -> decide -> END
                      |              |        ^          +-> think (too few players, a retry left)
                      +--------------+        +----------+-> decide
                                     +-> speak
                                     +-> decide

- ``observe``: the view's new events become lines of the minutes (no model call);
- ``summarize``: with the first request of a new round, ``Summary_t = LLM(Summary_t-1, Minutes_t, Outcome)``;
- ``think``: Rules, Role, Summary, Minutes and the Request, then zero-shot "think step by step" (free prose);
- ``parse``: the parser, a separate call at temperature 0, maps that prose to a team, yes or no, or one player; a
  team vote against what the player knows sends the turn back to ``think`` once with the Host's note;
- ``speak``: one sentence to the table when words are asked;
- ``aids``: with a check of the aids on, the answer parsed and the sentence said are checked before they count, and
  asked once more on a problem (`roundtable.agents.react.aids`, docs/agents/aids.md#the-aids-step);
- ``believe``: at game over, the belief probe (`roundtable.graphs.probe`): step by step, then a probability of
  being good per other player, read by the parser call (``observe -> [summarize] -> believe -> decide``);
- ``decide``: the fallback rules of docs/games/protocol.md#fallback-rules, words cleaned, cost summed.

Each node is an `roundtable.agents.protocol.agent_step`, so a run stops at ``react:<step>`` when its context
lists it in ``breakpoints``, and reads its own `ReactContext` (inside a game, the ``react`` field of the game's
context). Input `roundtable.agents.protocol.AgentInput`, output `AgentOutput`: inside a game graph the compiled
graph is the ``react`` node, reached by a `Send`.
"""

from __future__ import annotations

from typing import Any

from langgraph.graph import END, START, StateGraph

from roundtable.agents.common.model_calls import FactoryModels, ModelProvider
from roundtable.agents.protocol import AgentInput, AgentOutput, agent_step
from roundtable.agents.react import (
    ReactState,
    after_aids,
    after_observe,
    after_parse,
    after_speak,
    after_summarize,
    decide,
    make_believe,
    make_parse,
    make_speak,
    make_summarize,
    make_think,
    observe,
)
from roundtable.agents.react.aids import aids
from roundtable.agents.react.context import ReactContext


def build_react_graph(models: ModelProvider | None = None) -> StateGraph[Any, Any, Any, Any]:
    """The uncompiled ``react`` agent graph (see the module docstring).

    Args:
        models: where the nodes get chat models; default `FactoryModels`. Tests pass scripted models.

    Returns:
        A `StateGraph` over `ReactState` with input `AgentInput`, output `AgentOutput`, context `ReactContext`.
    """
    models = models or FactoryModels()
    builder = StateGraph(ReactState, context_schema=ReactContext, input_schema=AgentInput, output_schema=AgentOutput)
    steps = {
        "observe": observe, "summarize": make_summarize(models), "think": make_think(models),
        "parse": make_parse(models), "speak": make_speak(models), "aids": aids, "believe": make_believe(models),
        "decide": decide,
    }
    for name, fn in steps.items():
        builder.add_node(name, agent_step("react", name, fn, ReactContext))
    builder.add_edge(START, "observe")
    builder.add_conditional_edges("observe", after_observe, ["summarize", "think", "speak", "believe", "decide"])
    builder.add_conditional_edges("summarize", after_summarize, ["think", "speak", "believe", "decide"])
    builder.add_edge("believe", "decide")
    builder.add_edge("think", "parse")
    builder.add_conditional_edges("parse", after_parse, ["think", "speak", "aids", "decide"])
    builder.add_conditional_edges("speak", after_speak, ["speak", "aids", "decide"])
    builder.add_conditional_edges("aids", after_aids, ["think", "speak", "decide"])
    builder.add_edge("decide", END)
    return builder


graph = build_react_graph().compile()
graph.name = "react"
