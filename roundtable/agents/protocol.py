"""What every agent kind shares: its input and output in the game graph, and its registry record.

An agent kind is a node of the game graph (a compiled subgraph for the
model-driven kinds, a function for rule bots) reached by a `Send` carrying an
`AgentInput`: the player's view (only the events not delivered before), the
request with its legal options, the player's own memory (``pool``), its seat
specification and its seed. It never sees the game state. It returns an
`AgentOutput`, which the game graph merges: the decision under the request's
id, the new memory under the player's number.
"""

from __future__ import annotations

import json
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from langgraph.config import get_config
from langgraph.runtime import Runtime
from langgraph.types import interrupt
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from typing_extensions import TypedDict

from roundtable.agents.common.model_calls import seeded_calls
from roundtable.aids.interface import with_aids
from roundtable.games import GAMES
from roundtable.games.errors import ConfigurationError
from roundtable.games.protocol import Decision, PlayerView, Request


class SeatSpec(BaseModel):
    """Who plays a seat.

    Attributes:
        kind: agent kind (``naive``, ``random``, ``lga``, ...).
        model: model spec for model-driven kinds (``local``, a hosted model
            name, or an OpenAI-compatible URL with a model name); ``None`` for
            bots, and for a model-driven seat before the game fills in the default.
        options: kind-specific switches (e.g. the ``lga`` ablations).
    """

    model_config = ConfigDict(extra="forbid")

    kind: str
    model: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)


class AgentInput(TypedDict):
    """One decision's inputs, JSON-ready: what a `Send` carries to an agent node.

    ``view`` is a dumped `PlayerView` of the player's game (only the events not
    delivered before), ``request`` a dumped `Request`, ``pool`` the player's
    own memory (``{}`` at first), ``seat`` a dumped `SeatSpec`, ``seed`` the
    agent's own seed (derived from the game seed, which it must not learn).
    """

    view: dict[str, Any]
    request: dict[str, Any]
    pool: dict[str, Any]
    seat: dict[str, Any]
    seed: int


class AgentOutput(TypedDict, total=False):
    """What an agent node returns to the game graph.

    ``decisions``: ``{request id: dumped Decision}``; ``memory``: ``{player
    number as a string: new pool}`` (absent when the kind keeps no memory).
    """

    decisions: dict[str, dict[str, Any]]
    memory: dict[str, dict[str, Any]]


class DecisionChannels(TypedDict, total=False):
    """The working channels every model-driven agent graph (``lga``, ``codeact``/``cot``, ``cga``) keeps
    for one decision: ``action`` and ``words`` read so far, and, appended by each call, ``raw`` replies,
    ``problems`` (fallback reasons) and ``usage`` records."""

    action: dict[str, Any] | None
    utterance: str | None
    raw: Annotated[list[str], operator.add]
    problems: Annotated[list[str], operator.add]
    usage: Annotated[list[dict[str, Any]], operator.add]


class CheckChannels(TypedDict, total=False):
    """The channels of an agent's own checks of its answer before it gives it (docs/agents/checks.md), kept by
    every model-driven kind: ``recheck``, the Host's note when the answer is asked for again (None: not asked);
    ``reviewed``, the answer in hand is the second one (no third is asked); ``copied``, the words asked for again
    were a near copy (sampled warmer); ``checks``, what the checks found (`Decision.checks`); ``thoughts``, the
    private texts written for this decision (`Decision.thoughts`), appended by each step that writes one;
    ``unchecked``, the step whose answer the aids' step checks next (None: nothing to check), ``chose``, that
    answer chose the action (a choice kept from a first answer is not checked again), and ``checked_after``, the
    step whose answer it checked last (`roundtable.aids.interface`)."""

    recheck: str | None
    unchecked: str | None
    chose: bool
    checked_after: str | None
    reviewed: bool
    copied: bool
    checks: Annotated[list[str], operator.add]
    thoughts: Annotated[list[str], operator.add]


FRESH_CHECKS: dict[str, Any] = {"recheck": None, "reviewed": False, "copied": False, "unchecked": None,
                                 "chose": False, "checked_after": None}
"""The `CheckChannels` a decision starts with (with ``checks`` and ``thoughts`` emptied by ``Overwrite([])``)."""


def parse_view(data: dict[str, Any]) -> PlayerView:
    """A dumped view as its game's view model (`GameRules.view_model`)."""
    rules = GAMES.get(str(data.get("game")))
    model = rules.view_model if rules is not None else PlayerView
    return model.model_validate(data)


def agent_output(decision: Decision, pool: dict[str, Any] | None = None) -> AgentOutput:
    """The node update of an agent that answered: the decision keyed by request id, and its pool if any."""
    out: AgentOutput = {"decisions": {decision.request_id: decision.model_dump(mode="json")}}
    if pool is not None:
        out["memory"] = {str(decision.player): pool}
    return out


Policy = Callable[[PlayerView, Request, int], Decision]
"""A memoryless rule policy: ``policy(view, request, seed) -> Decision``."""


Remembers = Callable[[dict[str, Any]], bool]
"""Which events a rule policy reads from the past: ``remembers(event) -> bool`` (see `policy_node`)."""


def policy_node(kind: str, policies: Mapping[str, Policy],
                memories: Mapping[str, Remembers] | None = None) -> Callable[[AgentInput], AgentOutput]:
    """The game-graph node of a rule-bot kind: ``policies[game](view, request, seed)``.

    A game graph sends each agent only the events it has not been given yet.
    A policy that reads past events declares which (``memories[game]``): the
    node keeps those in the player's pool (``{"events": [...]}``, small) and
    hands the policy a view whose events are the remembered ones followed by
    the new ones, so it decides as it would on the full view.

    Raises (from the node):
        KeyError: the kind has no policy for the view's game.
    """

    def node(task: AgentInput) -> AgentOutput:
        view = parse_view(task["view"])
        policy = policies[view.game]
        request = Request.model_validate(task["request"])
        remembers = (memories or {}).get(view.game)
        if remembers is None:
            return agent_output(policy(view, request, task["seed"]))
        past = list((task["pool"] or {}).get("events") or [])
        seen = view.model_copy(update={"events": (*past, *view.events), "first_event": 0})
        kept = past + [e for e in view.events if remembers(e)]
        return agent_output(policy(seen, request, task["seed"]), {"events": kept})

    node.__name__ = kind
    node.__doc__ = f"Agent kind {kind!r}: " + (next(iter(policies.values())).__doc__ or "").strip().split("\n")[0]
    return node


Belief = Callable[[PlayerView], Mapping[int, float]]
"""An agent kind's belief in the other players' sides: ``belief(view) -> {other player: P(good) in [0, 1]}``,
a pure function of the player's view (the naive bots' `roundtable.games.avalon.bots.naive.beliefs`)."""

AtSetup = Callable[[str, Mapping[str, Any]], dict[str, Any] | None]
"""What a seat of a kind records when its game is dealt: ``at_setup(game, seat) -> entry | None``, ``entry`` a
JSON-ready dict with a ``type`` (the setup node adds ``to: []`` and ``player``), e.g. the ``cga`` kind's
experience pool size (`roundtable.agents.cga.experience.pool_at_start`)."""


@dataclass(frozen=True)
class AgentKind:
    """One agent kind, declared once (see `roundtable.agents.registry`).

    Attributes:
        name: the kind's name, also its node's name in every game graph.
        description: one line for ``--help``, the README and Studio.
        games: the games it plays (keys of `roundtable.games.GAMES`).
        node: ``node(models)`` builds its game-graph node (a compiled agent
            graph or a function over `AgentInput`); ``models`` is a
            `roundtable.agents.common.model_calls.ModelProvider` or ``None`` for the default.
        needs_model: seats of this kind play a model (``--model``).
        model_options: for a kind that needs no model, the seat options with which a seat of it plays one
            anyway (``{option: value}``, all of them given with these values; the ``naive`` kind's
            ``{"words": "model"}``): such a seat takes the run's model as a model-driven seat does
            (`plays_model`); ``None``: its seats never play one.
        options: the pydantic model of its seat options (``--agent-option``),
            ``None`` when it takes none.
        context: the pydantic model of its per-run context (prompts,
            temperatures), nested in the game graph's context under ``name``.
        asks_person: its node pauses with ``interrupt()`` for a person's answer
            (`roundtable.agents.human`); drivers answer with ``Command(resume=...)``.
        after_game: ``after_game(game_id, values)``, called by the runner once a game with seats of this
            kind has finished (``values``: the game graph's final state), e.g. the ``cga`` kind's experience
            pool (`roundtable.agents.cga.experience.record_game`); it must be idempotent (a finished game
            driven again calls it again).
        beliefs: ``{game: Belief}``: the games in which the kind states a belief in the other players'
            sides when the game's belief probe asks (`roundtable.games.protocol.GameRules.belief_probe`;
            the game-over node records it); a kind that states none is left out of the record's ``beliefs``.
        probed: the games in which its own graph answers the game graph's belief probe (a request of kind
            `roundtable.games.protocol.BELIEF`, answer shape ``belief``) from its memory with model calls
            (`roundtable.graphs.probe`); a kind with a pure ``beliefs`` function needs none.
        at_setup: see `AtSetup`; ``None``: its seats record nothing at setup.
        prepares_rounds: its seats keep notes written once a round (``lga``: Lan et al.'s summary,
            analysis and plan). With a round's first requests the game graph sends every other such seat
            a `roundtable.games.protocol.prepare_round` notice, so they all write their notes at once
            (one batch on a server with parallel slots); the node returns only the seat's memory, which
            must carry the notes' cost into the seat's next `Decision.usage` so no call goes unrecorded
            (Avalon, the one game of the one such kind, ``lga``, asks every player again in every round it
            starts: each team is voted on by all).
        graph: where its own graph, compiled without a checkpointer, is served to ``langgraph dev`` and Studio
            beside the game graphs (``"module:attribute"``, `roundtable.graphs.served`); ``None``: the kind has
            no graph of its own (rule bots).
    """

    name: str
    description: str
    games: frozenset[str]
    node: Callable[[Any], Any]
    needs_model: bool = False
    model_options: Mapping[str, Any] | None = None
    options: type[BaseModel] | None = None
    context: type[BaseModel] | None = None
    asks_person: bool = False
    after_game: Callable[[str, dict[str, Any]], Any] | None = None
    beliefs: Mapping[str, Belief] | None = None
    probed: frozenset[str] = frozenset()
    at_setup: AtSetup | None = None
    prepares_rounds: bool = False
    graph: str | None = None

    def plays_model(self, options: Mapping[str, Any] | None = None) -> bool:
        """Whether a seat of this kind with the seat ``options`` (as given, before validation) plays a model:
        always for a kind that needs one, else when the options hold every item of `model_options`."""
        if self.needs_model:
            return True
        given = options or {}
        return self.model_options is not None and all(
            key in given and given[key] == value for key, value in self.model_options.items())


OptionsT = TypeVar("OptionsT", bound=BaseModel)
ContextT = TypeVar("ContextT", bound=BaseModel)


def validated_options(model: type[OptionsT], options: dict[str, Any] | None, kind: str,
                      model_spec: str | None = None) -> OptionsT:
    """A seat's options of an agent kind, validated by its options model.

    The seat's ``aids`` option (when the options model has one) is resolved to ``on`` or ``off`` for ``model_spec``,
    and the switches the options model lists in its ``PAPER`` class attribute (``{option: the paper's value}``)
    that are absent or ``auto`` take the paper's value with the aids off (`roundtable.aids.switch.with_aids`,
    docs/agents/paper-values.md).

    Args:
        model: the kind's options model.
        options: the seat's options as given.
        kind: the kind's name, for the message.
        model_spec: the seat's model spec (``None``: the embedded model).

    Each distinct ``(model, options, model_spec)`` is validated once (`_OPTIONS`): every node and routing edge of a
    decision reads its seat's options, and gets a copy of the one validated.

    Raises:
        ConfigurationError: an unknown option or a bad value (the message names it and lists the valid options).
    """
    try:
        key = (model, json.dumps(options or {}, sort_keys=True, default=str), model_spec)
    except (TypeError, ValueError):
        key = None
    if key is not None and (done := _OPTIONS.get(key)) is not None:
        return done.model_copy()
    parsed = _validated(model, options, kind, model_spec)
    if key is not None:
        if len(_OPTIONS) >= 512:
            _OPTIONS.clear()
        _OPTIONS[key] = parsed
    return parsed.model_copy()


_OPTIONS: dict[tuple[Any, ...], Any] = {}
"""The seat options validated so far, by ``(options model, options as JSON, model spec)``."""


def _validated(model: type[OptionsT], options: dict[str, Any] | None, kind: str, model_spec: str | None) -> OptionsT:
    """`validated_options` without its cache."""
    try:
        resolved = (with_aids(options, getattr(model, "PAPER", {}), model_spec) if "aids" in model.model_fields
                    else dict(options or {}))
        return model.model_validate(resolved)
    except ValueError as error:
        if not isinstance(error, ValidationError):
            raise ConfigurationError(f"invalid {kind} options ({error})") from None
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'options'}: {e['msg']}" for e in error.errors())
        valid = ", ".join(model.model_fields)
        raise ConfigurationError(f"invalid {kind} options ({problems}); valid options: {valid}") from None


def player_slot(player: int, slots: int) -> int | None:
    """The server slot a player's calls are pinned to, so that its prompt cache holds its own last prompt.

    Args:
        player: the player's seat number, 1-based.
        slots: the endpoint's slots with a prompt cache (`ModelProvider.slots`); 0 for none.

    Returns:
        ``player - 1`` modulo ``slots`` (llama.cpp's ``id_slot``, 0-based), or None when there are no slots.
    """
    return (player - 1) % slots if slots > 0 else None


def agent_context(model: type[ContextT], kind: str, context: Any) -> ContextT:
    """An agent kind's own context from the run's: itself, the ``kind`` field (attribute or key) of a game
    graph's context, a dict of its fields, or the defaults for ``None``.

    Raises:
        pydantic.ValidationError: a dict with an unknown key or a bad value.
    """
    if isinstance(context, model):
        return context
    inner = context.get(kind) if isinstance(context, dict) else getattr(context, kind, None)
    if inner is not None:
        return agent_context(model, kind, inner)
    if isinstance(context, dict):
        return model.model_validate(context)
    return model()


def agent_step(kind: str, step: str, fn: Callable[..., Any], context: type[BaseModel]) -> Callable[..., Any]:
    """A node of an agent graph: ``fn(state, runtime)`` with ``runtime.context`` the kind's own context
    (`agent_context`), pausing first (LangGraph `interrupt`) when the run's context lists
    ``"<kind>:<step>"`` in ``breakpoints`` (e.g. ``lga:respond``).

    LangGraph's static breakpoints (``interrupt_before``) stop only at the
    nodes of the graph that is run, not inside its subgraphs, and a subgraph
    node receives its parent's context; this is how a game run stops inside an
    agent's turn, and how each agent's nodes read their own context. The
    interrupt's value names the breakpoint, the player and the request; resume
    with ``Command(resume=...)`` (any value).

    The step's model calls carry seeds derived from the agent's seed, the
    request id, the step and the agent graph's step counter (so a step taken
    again, say a retry, samples afresh) (`roundtable.agents.common.model_calls.seeded_calls`),
    unless the run's context sets ``seeded_calls`` false.
    """
    name = f"{kind}:{step}"

    def node(state: Any, runtime: Runtime[Any]) -> Any:
        request = state.get("request") or {}
        if name in (getattr(runtime.context, "breakpoints", None) or ()):
            interrupt({"breakpoint": name, "player": request.get("player"), "request": request.get("id")})
        seed = state.get("seed") if getattr(runtime.context, "seeded_calls", True) else None
        visit = (get_config().get("metadata") or {}).get("langgraph_step")  # a step taken twice (a retry) differs
        with seeded_calls(None if seed is None else int(seed), request.get("id"), name, visit):
            return fn(state, runtime.override(context=agent_context(context, kind, runtime.context)))

    node.__name__ = step
    node.__doc__ = fn.__doc__
    return node


def bot_kind(name: str, description: str, policies: Mapping[str, Policy],
             memories: Mapping[str, Remembers] | None = None,
             beliefs: Mapping[str, Belief] | None = None) -> AgentKind:
    """The `AgentKind` of a rule bot: ``policies[game](view, request, seed)`` per game it plays, no model
    (``memories[game]``: the past events a policy reads, see `policy_node`; ``beliefs[game]``: its belief
    in the other players' sides, see `AgentKind`)."""
    return AgentKind(name=name, description=description, games=frozenset(policies),
                     node=lambda models: policy_node(name, policies, memories), beliefs=beliefs)
