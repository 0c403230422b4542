"""The Avalon game graph: one node per phase, a ``seat`` node for every decision.

::

    START -> setup -> reveal -> proposal <-> discussion -> team_vote -> quest -> ... -> game_over -> END
                                   \\___________ seat (Send per request) ___________/

Simultaneous decisions (team votes, quest cards) fan out with `Send` and run
in parallel; each phase node applies the answers with the pure rules library
(`roundtable.games.avalon`). ``graph`` is compiled without a checkpointer for
``langgraph.json``; the CLI compiles `build_avalon_graph()` with SQLite.
"""

from __future__ import annotations

from collections.abc import Mapping

from langgraph.graph import END, START, StateGraph

from roundtable.nodes.avalon import phases
from roundtable.nodes.avalon.seat import make_seat_node
from roundtable.nodes.avalon.setup import make_setup_node
from roundtable.nodes.avalon.state import AvalonGraphState, AvalonInput
from roundtable.nodes.seat import AgentFn
from roundtable.prompts.context import LgaContext

from roundtable.graphs.agents import AGENT_KINDS, MODEL_KINDS, OPTION_PARSERS


class GameContext(LgaContext):
    """Per-run context of a game: every agent prompt and temperature, overridable per run.

    It is the agents' context (`LgaContext`), so LangGraph Studio shows and
    edits the prompts on the game graph itself, and the agent subgraphs
    receive the run's context unchanged. Pass ``context=GameContext(...)`` (or
    a dict) to ``invoke``/``stream``.
    """


def build_avalon_graph(
    agents: Mapping[str, AgentFn] | None = None, model_kinds: frozenset[str] | None = None
) -> StateGraph:
    """The uncompiled game graph.

    Args:
        agents: ``{kind: agent function}``; default `AGENT_KINDS`.
        model_kinds: kinds that need a model; default `MODEL_KINDS`.

    Returns:
        A `StateGraph` over `AvalonGraphState` taking `AvalonInput`, with context `GameContext`.
    """
    agents = dict(AGENT_KINDS if agents is None else agents)
    model_kinds = MODEL_KINDS if model_kinds is None else model_kinds
    builder = StateGraph(AvalonGraphState, input_schema=AvalonInput, context_schema=GameContext)
    builder.add_node("setup", make_setup_node(frozenset(agents), model_kinds, OPTION_PARSERS))
    builder.add_node("reveal", phases.reveal_node)
    builder.add_node("proposal", phases.proposal)
    builder.add_node("discussion", phases.discussion)
    builder.add_node("team_vote", phases.team_vote)
    builder.add_node("quest", phases.quest)
    builder.add_node("assassination", phases.assassination)
    builder.add_node("game_over", phases.game_over)
    builder.add_node("seat", make_seat_node(agents))
    builder.add_edge(START, "setup")
    builder.add_edge("game_over", END)
    return builder


graph = build_avalon_graph().compile()
graph.name = "avalon"
