"""The ``lga`` agent: Lan et al.'s Avalon agent as a LangGraph graph (SPEC.md §3.1, modules 1-6).

Source: Lan, Hu, Wang et al., *LLM-Based Agent Society Investigation:
Collaboration and Confrontation in Avalon Gameplay* (EMNLP 2024). Experience
learning between games is not part of this graph.

One invocation answers one request::

    START -> observe -> [summarize] -> [analyze] -> [plan] -> [act] -> [respond] -> decide -> END

- ``observe`` (memory storage): the view's new events become records
  ``(speaker, text, round, phase, public|private)`` in the agent's memory pool;
- ``summarize``: once a round has ended, ``M_t = SMR(M_{t-1}, round t records)``;
- ``analyze``: the other players' likely roles and strategies (once per round);
- ``plan``: the plan for the rest of the game (once per round);
- ``act``: the action for the request (with the words in the same call when asked);
- ``respond``: the words, when still needed (and the whole answer under ``no_action``);
- ``decide``: the fallback rules of SPEC.md §3.2, word cleaning, cost summing.

A bracketed step is taken only when needed (conditional edges), so a decision
later in the same round goes ``observe -> act -> decide`` and Studio shows the
jump. Input ``{view, request, memory, seat, seed}``, output ``{decision, memory}``
(dicts; see `roundtable.nodes.lga.state`). Per-run prompt overrides and
temperatures: the context schema `roundtable.prompts.context.LgaContext`.
Per-seat switches (the paper's ablations and cost options):
`roundtable.nodes.lga.options.LgaOptions`.

Call budget (a 6-player ``lan6`` game, six ``lga`` agents). Let R be the rounds
played (3 to 5), A the proposals per round (1 to 5), N = 6:

- refresh, per agent and round: summary (from round 2), analysis, plan:
  ``N(3R - 1)`` calls; ``N(2R - 1)`` when one call writes analysis and plan
  (``merge_plan``); ``N R`` when, from round 2, the summary call also writes
  them (``merge_summary``). Both switches are on by default for the embedded
  ``local`` model only;
- per voted proposal with talk (``leader_first_and_last``: first proposal, 5
  speakers, final proposal; ``before_proposal``: 6 speakers with team
  suggestions, then the proposal), each turn ONE call (action and words in
  one JSON object), then N votes of one short call each: ``2N + 1 = 13``;
  an unvoted fifth proposal (``leader_assigns``, ``auto_approve``): ``N + 1 = 7``;
  without talk: ``N + 1 = 7``;
- per quest: only evil members call (a good player's card has one legal
  value, so no call): about 1 (teams of 2 to 4 drawn from 6 with 2 evil);
- assassination: the evil council's words (1) and the Assassin's choice (1);
- extractor calls and retries only on unreadable replies (rare with JSON schemas).

So, with voted proposals, ``calls = N R + 13 R A + R + 2`` (both merged):

=====================================  =====  =====  =================================  ==================
game                                   R      A      calls (both merged)                merge_plan / none
=====================================  =====  =====  =================================  ==================
short                                  3      1.0    18 + 39 + 3 + 2 = 62               74 / 92
typical                                4      1.5    24 + 78 + 4 + 2 = 108              126 / 150
long                                   5      2.0    30 + 130 + 5 + 2 = 167             191 / 221
Lan rules, every round to the 5th      3      5      18 + 3 x 59 + 3 + 2 = 200          212 / 230
Lan rules, every round to the 5th      5      5      30 + 5 x 59 + 5 + 2 = 332          356 / 386
=====================================  =====  =====  =================================  ==================

(a round that reaches the unvoted fifth proposal costs ``4 x 13 + 7 = 59``.)
The count stays under 250 unless rounds average more than about 3 proposals,
which the proposals, not the agent's modules, decide: the embedded 1.5B model
rejects most teams (measured: 0-33 % approvals on round-1 votes across prompt
variants), so long rounds are what to watch.

Time on the embedded model (2 cores; one server slot with a prefix cache and
a host-memory prompt cache): the system prompt (rules) and the start of the
user prompt (earlier quests' facts, this proposal's public records, identical
for every player at a moment and only growing within a proposal) come from the
cache; a call pays for the private part (role card, knowledge, summary,
analysis, plan: about 220 tokens), the task (60-100 tokens) and its output.
Outputs are bounded by ``max_tokens`` from the word limits (summary 40,
analysis 30, plan 20, words 30; the paper's maxima are 100). llama.cpp's own
timings over a game (``benchmarks/models/server_log.py``): the server is busy
99.5% of the time, processing 78 uncached prompt tokens and generating 24
tokens a second with llama.cpp built for the CPU (68 and 26 with xllamacpp's
prebuilt AVX2 wheel; see ``models/local.py``). Measured per call
(``benchmarks/bench_lga_game.py``): a vote about 330 uncached prompt tokens
and 44 generated (about 6 s), a talk turn about 320 and 29 (5 s), a round's
merged refresh about 410 and 150 (11 s per agent). Over six games on the
native build, a game took about 84 s per team voted plus 50 s per quest
played, 8.6-16.5 minutes (README, Measurements): its time follows the number
of proposals, which the model's votes decide.
"""

from __future__ import annotations

from typing import Any

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from roundtable.games.avalon import Decision
from roundtable.nodes.lga import (
    LgaInput,
    LgaOutput,
    LgaState,
    decide,
    make_act,
    make_analyze,
    make_plan,
    make_respond,
    make_summarize,
    observe,
    route_after,
)
from roundtable.nodes.seat import AgentCall, AgentFn, AgentResult
from roundtable.prompts.context import LgaContext
from roundtable.tools.model_calls import FactoryModels, ModelProvider

_AFTER: dict[str, list[str]] = {
    "observe": ["summarize", "analyze", "plan", "act", "respond", "decide"],
    "summarize": ["analyze", "plan", "act", "respond", "decide"],
    "analyze": ["plan", "act", "respond", "decide"],
    "plan": ["act", "respond", "decide"],
    "act": ["act", "respond", "decide"],
    "respond": ["respond", "decide"],
}


def build_lga_graph(models: ModelProvider | None = None) -> StateGraph:
    """The uncompiled ``lga`` agent graph.

    Args:
        models: where the nodes get chat models; default `FactoryModels`
            (``roundtable.models.factory``). Tests pass scripted models.

    Returns:
        A `StateGraph` over `LgaState` with input `LgaInput`, output
        `LgaOutput` and context `LgaContext`.
    """
    models = models or FactoryModels()
    builder = StateGraph(LgaState, context_schema=LgaContext, input_schema=LgaInput, output_schema=LgaOutput)
    builder.add_node("observe", observe)
    builder.add_node("summarize", make_summarize(models))
    builder.add_node("analyze", make_analyze(models))
    builder.add_node("plan", make_plan(models))
    builder.add_node("act", make_act(models))
    builder.add_node("respond", make_respond(models))
    builder.add_node("decide", decide)
    builder.add_edge(START, "observe")
    for step, targets in _AFTER.items():
        builder.add_conditional_edges(step, route_after(step), targets)
    builder.add_edge("decide", END)
    return builder


def lga_input(call: AgentCall) -> dict[str, Any]:
    """The graph input for one agent call: ``{view, request, memory, seat, seed}`` as JSON-ready dicts."""
    return {
        "view": call.view.model_dump(mode="json"),
        "request": call.request.model_dump(mode="json"),
        "memory": dict(call.memory or {}),
        "seat": call.seat.model_dump(mode="json"),
        "seed": call.seed,
    }


def make_lga_agent(compiled: CompiledStateGraph | None = None) -> AgentFn:
    """An agent function (`roundtable.nodes.seat.AgentFn`) over a compiled ``lga`` graph.

    The graph is invoked with the calling node's config (``call.config``), so
    inside a game it runs as a checkpointed subgraph of the game's thread: a
    game killed in the middle of an agent's turn resumes that turn after the
    last finished module instead of calling the model again for it. The
    run's context reaches the agent through the config (`LgaContext.coerce`
    takes an `LgaContext`, a dict, or a parent context with an ``lga`` field).

    Args:
        compiled: the compiled graph; default: this module's `graph`.
    """

    def lga(call: AgentCall) -> AgentResult:
        runnable = compiled if compiled is not None else graph
        out = runnable.invoke(lga_input(call), config=call.config)
        return AgentResult(decision=Decision.model_validate(out["decision"]), memory=out["memory"])

    lga.__doc__ = "Play one decision with the lga agent (Lan et al. 2024); see roundtable.graphs.lga."
    return lga


graph = build_lga_graph().compile()
graph.name = "lga"

lga_agent: AgentFn = make_lga_agent()
"""The ``lga`` agent kind: ``lga_agent(AgentCall) -> AgentResult``."""
