"""The game graph of any game: its phases, its agents drawn as nodes, and its context.

`build_game_graph(rules)` wires the shared phase machinery
(`roundtable.graphs`) for one rules module record
(`roundtable.games.protocol.GameRules`) and the agent kinds that play it::

    START -> setup -> <phase> -(Send per request)-> <agent kind> -> apply -> <phase> ... -> game_over -> END

Each agent kind is a node (model-driven kinds as their compiled subgraphs,
so ``get_graph(xray=True)`` and Studio draw their steps inside the game). A
game adds only its rules and a builder (see `roundtable.graphs.avalon`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, cast

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from pydantic import BaseModel, ConfigDict, Field, create_model

from roundtable.agents.protocol import AgentKind
from roundtable.agents.registry import AGENT_KINDS
from roundtable.games.errors import ConfigurationError
from roundtable.games.protocol import GameRules
from roundtable.graphs import phases, probe
from roundtable.graphs.setup import check_input, make_setup
from roundtable.graphs.state import GameInput, GameOutput, GameState
from roundtable.settings import settings

RESERVED = frozenset({"setup", phases.APPLY, phases.GAME_OVER, probe.BELIEF_PROBE})


class GameContextBase(BaseModel):
    """The run's settings every game graph's context has (`game_context` adds one field per agent kind)."""

    model_config = ConfigDict(extra="forbid")

    default_model: str = Field(
        default_factory=lambda: settings().model,
        description="Model spec of model-driven seats given none ($ROUNDTABLE_MODEL, else local).")
    breakpoints: list[str] = Field(
        default_factory=list,
        description="Agent steps to pause before, as KIND:STEP (e.g. lga:respond); resume with "
                    "Command(resume=...).")
    belief_probe: bool = Field(
        default=True,
        description="At game over, before any role is revealed, ask each good player how likely every other "
                    "player is to be good (AvalonBench's belief probe, scored as deduction accuracy); false: "
                    "skip it, and its model calls.")
    seeded_calls: bool = Field(
        default=True,
        description="Model calls carry a seed derived from the game seed, the request and the module, so a "
                    "rerun with the same prompts samples the same replies; false: unseeded.")


def game_context(kinds: Iterable[AgentKind]) -> type[GameContextBase]:
    """The context schema of a game graph: the run's settings, and one nested context per agent kind.

    Fields: ``default_model`` (model spec of model-driven seats without one;
    default ``$ROUNDTABLE_MODEL``, else ``local``), ``breakpoints`` (agent
    steps to pause before, ``"<kind>:<step>"``, e.g. ``lga:respond``),
    ``seeded_calls`` (model calls carry derived seeds; default true),
    ``belief_probe`` (ask the game's belief probe at game over; default true), and for
    each kind with a context, a field of that name (e.g. ``lga``: every
    prompt and temperature of the Lan et al. agent). Unknown keys are refused.
    """
    fields: dict[str, Any] = {}
    for kind in kinds:
        if kind.context is not None:
            fields[kind.name] = (kind.context, Field(
                default_factory=kind.context,
                description=f"Context of the {kind.name} agent kind: {kind.description}",
                json_schema_extra={"langgraph_nodes": [kind.name]}))
    model = create_model("GameContext", __base__=GameContextBase, **fields)
    model.__doc__ = game_context.__doc__
    return model


class GameGraph(CompiledStateGraph):
    """A compiled game graph that checks a new game's input before running (`check_input`): a missing,
    unknown or wrong field is refused with a `ConfigurationError` naming it, not dropped or met later."""

    rules: GameRules
    kinds: Mapping[str, AgentKind]
    known: Mapping[str, AgentKind]
    context_model: type[GameContextBase]
    """The graph's context schema (`game_context`), typed."""

    def __init__(self, *args: Any, rules: GameRules, kinds: Mapping[str, AgentKind],
                 known: Mapping[str, AgentKind] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rules, self.kinds, self.known = rules, kinds, known if known is not None else kinds

    def _check(self, input: Any) -> None:
        if isinstance(input, dict):
            check_input(input, self.rules, self.known)

    def stream(self, input: Any, config: Any = None, **kwargs: Any) -> Any:  # noqa: D102
        self._check(input)
        return super().stream(input, config, **kwargs)

    async def astream(self, input: Any, config: Any = None, **kwargs: Any) -> Any:  # noqa: D102
        self._check(input)
        async for chunk in super().astream(input, config, **kwargs):
            yield chunk


class GameBuilder(StateGraph[GameState, Any, GameInput, GameOutput]):
    """A game's uncompiled graph; `compile` gives a `GameGraph` (the input check included).

    Attributes:
        rules: the game's rules module record.
        kinds: the agent kinds seated in it, by name.
        known: every agent kind the input may name (those that do not play this game are refused by
            name, before any model call, with the kinds that do).
        context_model: the context schema (`game_context`), typed.
    """

    def __init__(self, rules: GameRules, kinds: Mapping[str, AgentKind], known: Mapping[str, AgentKind] | None = None,
                 *, context_schema: type[GameContextBase], **kwargs: Any) -> None:
        super().__init__(GameState, context_schema=context_schema, **kwargs)
        self.rules, self.kinds, self.known = rules, kinds, known if known is not None else kinds
        self.context_model = context_schema

    def compile(self, *args: Any, **kwargs: Any) -> GameGraph:
        """``StateGraph.compile`` (same arguments: checkpointer, breakpoints, ...), as a `GameGraph`."""
        compiled = super().compile(*args, **kwargs)
        compiled.__class__ = GameGraph
        graph = cast(GameGraph, compiled)  # its class is GameGraph now
        graph.rules, graph.kinds, graph.known = self.rules, self.kinds, self.known
        graph.context_model = self.context_model
        return graph


def build_game_graph(rules: GameRules, kinds: Mapping[str, AgentKind] | None = None,
                     models: Any = None) -> GameBuilder:
    """The uncompiled game graph of ``rules``.

    Args:
        rules: the game's rules module record.
        kinds: the agent kinds that may be seated (default: every registered
            kind that plays this game, `roundtable.agents.registry.AGENT_KINDS`).
        models: the `ModelProvider` of model-driven agent nodes (tests pass
            scripted models); ``None`` for the model factory.

    Returns:
        A `GameBuilder` (a `StateGraph` over `GameState` with input `GameInput`,
        output `GameOutput` and the context schema `game_context(kinds)`).

    Raises:
        ConfigurationError: an agent kind's name clashes with a node of the game.
    """
    known = AGENT_KINDS if kinds is None else kinds
    playing = {name: kind for name, kind in known.items() if rules.name in kind.games}
    clash = (set(playing) & (set(rules.phases) | RESERVED))
    if clash:
        raise ConfigurationError(f"agent kinds {sorted(clash)} clash with nodes of the {rules.name} graph")
    builder = GameBuilder(rules, playing, known, input_schema=GameInput, output_schema=GameOutput,
                          context_schema=game_context(playing.values()))
    builder.add_node("setup", make_setup(rules, known))
    for phase in rules.phases:
        builder.add_node(phase, phases.make_phase(rules, phase))
    for name, kind in playing.items():
        builder.add_node(name, kind.node(models))
        builder.add_edge(name, phases.APPLY)
    apply, route = phases.make_apply(rules, playing), phases.make_route(rules)
    to_phase = [*rules.phases, phases.GAME_OVER]
    if rules.belief_probe is not None:
        apply, route = probe.with_beliefs(rules, apply), probe.with_probe_route(rules, route)
        to_phase.append(probe.BELIEF_PROBE)
        builder.add_node(probe.BELIEF_PROBE, probe.make_belief_probe(rules, playing))
        asked = [name for name, kind in playing.items() if rules.name in kind.probed]
        builder.add_conditional_edges(probe.BELIEF_PROBE, probe.make_ask_beliefs(rules, playing),
                                      [*asked, phases.GAME_OVER])
    builder.add_node(phases.APPLY, apply)
    builder.add_node(phases.GAME_OVER, phases.make_game_over(rules, playing))
    builder.add_edge(START, "setup")
    builder.add_conditional_edges("setup", route, to_phase)
    ask = phases.make_ask(rules, playing)
    for phase in rules.phases:
        builder.add_conditional_edges(phase, ask, [*playing, phases.APPLY])
    builder.add_conditional_edges(phases.APPLY, route, to_phase)
    builder.add_edge(phases.GAME_OVER, END)
    return builder
