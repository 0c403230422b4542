"""The seats the learner does not hold: who plays them and how they decide, in the process
(docs/envs.md#opponents).

``opponents`` is an assignment string in the syntax of ``--agents`` (`roundtable.games.assignments`:
``evil=naive``, ``merlin=lga,evil=naive``); a seat no assignment covers is the learner's. A seat of the ``naive``
kind without options is the game's own rule bot (`roundtable.games.protocol.RuleBot`, ``GameRules.bot``) called on
the pure rules; any other kind is driven through its own game-graph node (`roundtable.agents.protocol.AgentKind`),
fed exactly what a game graph sends it (the events not given yet, its memory, its seat, its seed), with its seat
spec resolved as ``roundtable play`` resolves it (`roundtable.play.seating.resolve_seats`: models, options), so a
model kind calls its model as at the table. Their model calls are counted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from roundtable.agents.protocol import AgentInput
from roundtable.agents.registry import AGENT_KINDS
from roundtable.envs.config import EnvConfig
from roundtable.games.assignments import parse_assignments, resolve_assignments
from roundtable.games.errors import ConfigurationError
from roundtable.games.protocol import Decision, PlayerView, Request, check_decision
from roundtable.graphs.phases import agent_seed
from roundtable.graphs.state import merge_memory
from roundtable.play.seating import resolve_seats

BOT = "naive"
"""The kind whose seats without options are the game's rule bot, called directly on the pure rules."""


def seat_kinds(config: EnvConfig, state: Any) -> list[str | None]:
    """The opponents' kind per seat (0-based) of the dealt ``state``, ``None`` at the learner's seats.

    Raises:
        ConfigurationError: an unknown kind, side, role or seat; a kind that asks a person (``human``: no
            person sits in an environment); no seat left to the learner; a kind that does not play the game.
    """
    rules = config.rules
    seats = rules.seats(state)

    def kind_of(text: str) -> str:
        if text not in AGENT_KINDS:
            raise ConfigurationError(f"unknown agent kind {text!r}; valid kinds: {', '.join(sorted(AGENT_KINDS))}")
        if AGENT_KINDS[text].asks_person:
            raise ConfigurationError(f"agent kind {text!r} asks a person: no person sits at an environment's seats")
        if config.game not in AGENT_KINDS[text].games:
            raise ConfigurationError(f"agent kind {text!r} does not play {config.game}")
        return text

    if not config.opponents:
        return [None] * len(seats)
    try:
        kinds: list[str | None] = resolve_assignments(
            parse_assignments(config.opponents, kind_of), [r for r, _ in seats], [s for _, s in seats], None,
            known_roles=rules.roles)
    except ConfigurationError:
        raise
    except ValueError as error:
        raise ConfigurationError(str(error)) from None
    if all(kind is not None for kind in kinds):
        raise ConfigurationError(f"opponents {config.opponents!r} hold every seat: leave the learner at least one")
    return kinds


@dataclass
class Opponents:
    """The opponents of one game: their kinds, seat specs, nodes and memories, and their model calls.

    Attributes:
        kinds: per seat (0-based), the opponent's kind or ``None`` (the learner's).
        seats: per seat, the seat spec ``{"kind", "model", "options"}`` (`roundtable.play.seating.resolve_seats`).
        seed: the game seed (each seat gets `roundtable.graphs.phases.agent_seed` of it, as in a game graph).
        memory: each opponent's memory by player (``"3"``), as the game graph keeps it.
        delivered: per player, how many of its visible events its agent was given.
        calls: model calls made by opponents, summed from their decisions' usage.
    """

    kinds: list[str | None]
    seats: list[dict[str, Any]]
    seed: int
    nodes: dict[str, Callable[[AgentInput], Any]] = field(default_factory=dict)
    memory: dict[str, Any] = field(default_factory=dict)
    delivered: dict[str, int] = field(default_factory=dict)
    calls: int = 0

    @property
    def learner(self) -> tuple[int, ...]:
        """The learner's players (1-based)."""
        return tuple(p for p, kind in enumerate(self.kinds, start=1) if kind is None)

    def holds(self, player: int) -> bool:
        """Whether an opponent plays ``player``."""
        return self.kinds[player - 1] is not None

    def decide(self, config: EnvConfig, view: PlayerView, request: Request) -> Decision:
        """The opponent's decision on ``request`` given its full ``view``.

        Raises:
            IllegalActionError: the kind answered illegally (a bug of that kind, named).
        """
        seat = self.seats[request.player - 1]
        kind = str(seat["kind"])
        seed = agent_seed(self.seed, request.player)
        bot = config.rules.bot
        if kind == BOT and not seat.get("options") and bot is not None:
            decision = bot.decide(view, request, seed)
        else:
            decision = self._node_decision(config, kind, seat, view, request, seed)
        check_decision(request, decision)
        self.calls += int(decision.usage.get("calls", 0) or 0)
        return decision

    def _node_decision(self, config: EnvConfig, kind: str, seat: dict[str, Any], view: PlayerView,
                       request: Request, seed: int) -> Decision:
        if kind not in self.nodes:
            self.nodes[kind] = AGENT_KINDS[kind].node(config.models_provider)
        node = self.nodes[kind]
        key = str(request.player)
        task: AgentInput = {"view": view.since(self.delivered.get(key, 0)).model_dump(mode="json"),
                            "request": request.model_dump(mode="json"), "pool": self.memory.get(key, {}),
                            "seat": seat, "seed": seed}
        out = node.invoke(task) if hasattr(node, "invoke") else node(task)
        self.memory = merge_memory(self.memory, [out.get("memory") or {}])
        self.delivered[key] = view.first_event + len(view.events)
        return Decision.model_validate(out["decisions"][request.id])


def opponents_for(config: EnvConfig, state: Any, seed: int) -> Opponents:
    """The opponents of the game ``state`` dealt with ``seed``.

    Raises:
        ConfigurationError: as `seat_kinds`, or a bad model spec or seat option (`resolve_seats`).
    """
    kinds = seat_kinds(config, state)
    seats: list[dict[str, Any]] = [{"kind": None, "model": None, "options": {}} for _ in kinds]
    if any(kind is not None for kind in kinds):
        resolved = resolve_seats(config.rules, config.config, seed, agents=f"{BOT},{config.opponents}",
                                 models=config.models, options=config.agent_options)
        seats = [spec if kind is not None else seats[i] for i, (spec, kind) in enumerate(zip(resolved, kinds,
                                                                                              strict=True))]
    return Opponents(kinds=kinds, seats=seats, seed=seed)
