"""The ``codeact`` and ``cot`` agent graphs (Shi et al., *Cooperation on the Fly*, 2023; docs/agents/codeact.md).

One invocation answers one request. Every step of CodeAct's loop is a node::

    START -> observe -+-> gather -+-> write -> run -+-> answer -+-> think [-> aids [-> think]] -> decide -> END
                      |           |          ^      |           +-> decide
                      |           |          +- debug <- (error, attempts left)
                      |           +-> react (loops) -> answer
                      +-> answer (the final naming keeps the team)
                      +-> think [-> aids [-> think]] -> decide
                      +-> believe -> decide
                      +-> decide

- ``observe``: global memory (key information and the last k = 15 messages);
- ``gather``: leader memory, the facts its player may know, as plain statements;
- ``write``: a program that encodes the facts and prints the team (temperature 0);
- ``run``: the program in the agent's sandboxed ``Python_REPL`` worker
  (`roundtable.tools.sandbox`: a separate, confined process);
- ``debug``: the previous program, its error and traceback in, a new program
  out, then ``run`` again, up to ``max_attempts`` (3) programs;
- ``react``: the ReAct leader (``leader=react``): thought, action, observation;
- ``answer``: the team, or the fallback rules when every attempt failed (recorded);
- ``think``: chain of thought in prose (temperature 0.7) for every other
  decision, and the words that go with a chosen team;
- ``aids``: with the small-model aids' checks on (docs/agents/aids.md), the answer checked before it is given,
  and ``think`` run once more with the Host's note on a problem (`roundtable.agents.codeact.aids`);
- ``believe``: the belief probe at game over (`roundtable.games.protocol.belief_request`): chain of
  thought over the global memory and the facts, then how likely each other player is to be good, read by a
  parser call at temperature 0 (the same for ``cot`` and ``codeact``: the probe needs no program);
- ``decide``: the fallback rules of docs/games/protocol.md#fallback-rules, words cleaned, cost summed,
  each program attempt and what the checks found in ``Decision.checks``, the reasoning in ``Decision.thoughts``.

The ``cot`` kind is the same graph whose leader reasons in prose (no tool);
the ``codeact`` kind's ``leader`` option picks ``codeact``, ``cot`` or ``react``.
Every program, output and attempt is in the graph state, so Studio shows the
self-debug loop step by step and reruns any node from its checkpoint.
"""

from __future__ import annotations

from typing import Any

from langgraph.graph import END, START, StateGraph

from roundtable.agents.codeact import (
    CodeActState,
    aids,
    answer,
    decide,
    gather_facts,
    make_believe,
    make_debug,
    make_react,
    make_think,
    make_write,
    observe,
    routing,
    run,
)
from roundtable.agents.codeact.context import CodeActContext
from roundtable.agents.common.model_calls import FactoryModels, ModelProvider
from roundtable.agents.protocol import AgentInput, AgentOutput, agent_step


def build_codeact_graph(kind: str = "codeact",
                        models: ModelProvider | None = None) -> StateGraph[Any, Any, Any, Any]:
    """The uncompiled agent graph of ``kind`` (``codeact`` or ``cot``; the same nodes, see the module docstring).

    Args:
        kind: the agent kind whose breakpoints (``<kind>:<node>``) and context field the nodes read.
        models: where the nodes get chat models; default `FactoryModels`. Tests pass scripted models.

    Returns:
        A `StateGraph` over `CodeActState` with input `AgentInput`, output `AgentOutput`, context `CodeActContext`.
    """
    models = models or FactoryModels()
    builder = StateGraph(CodeActState, context_schema=CodeActContext, input_schema=AgentInput,
                         output_schema=AgentOutput)
    steps = {
        "observe": observe, "gather": gather_facts, "write": make_write(models), "run": run,
        "debug": make_debug(models), "react": make_react(models), "answer": answer, "think": make_think(models),
        "aids": aids, "believe": make_believe(models), "decide": decide,
    }
    for name, fn in steps.items():
        builder.add_node(name, agent_step(kind, name, fn, CodeActContext))
    builder.add_edge(START, "observe")
    builder.add_conditional_edges("observe", routing.after_observe, ["gather", "answer", "think", "believe", "decide"])
    builder.add_conditional_edges("gather", routing.after_gather, ["write", "react"])
    builder.add_edge("write", "run")
    builder.add_conditional_edges("run", routing.after_run, ["debug", "answer"])
    builder.add_edge("debug", "run")
    builder.add_conditional_edges("react", routing.after_react, ["react", "answer"])
    builder.add_conditional_edges("answer", routing.after_answer, ["think", "decide"])
    builder.add_conditional_edges("think", routing.after_think, ["aids", "decide"])
    builder.add_conditional_edges("aids", routing.after_aids, ["think", "decide"])
    builder.add_edge("believe", "decide")
    builder.add_edge("decide", END)
    return builder


graph = build_codeact_graph("codeact").compile()
graph.name = "codeact"
cot_graph = build_codeact_graph("cot").compile()
cot_graph.name = "cot"
