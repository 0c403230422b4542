"""The ``setup`` node: deal the roles and seat the agents."""

from __future__ import annotations

from typing import Any, Literal

from langgraph.types import Command

from roundtable.games.avalon import AvalonConfig, AvalonState, ConfigurationError, Role, deal

from .state import AvalonGraphState


def resolve_seats(game: AvalonState, agents: str, models: str, kinds: frozenset[str] | set[str],
                  model_kinds: frozenset[str] | set[str]) -> list[dict[str, Any]]:
    """One seat specification per player from the ``--agents`` and ``--model`` assignment strings.

    Assignments apply in order (``KIND``, ``good=KIND``, ``evil=KIND``,
    ``ROLE=KIND``, ``SEAT=KIND``), so they can depend on the dealt roles.

    Returns:
        ``[{"kind": ..., "model": ...}]``, one per seat, players 1..N in order.

    Raises:
        ConfigurationError: unknown kind, role or seat; a model-driven kind without a model.
    """
    from roundtable.assignments import parse_assignments, resolve_assignments
    from roundtable.models.spec import parse_model_spec

    roles = [r.value for r in game.roles]
    sides = [r.side.value for r in game.roles]

    def kind_of(text: str) -> str:
        if text not in kinds:
            raise ConfigurationError(f"unknown agent kind {text!r}; valid kinds: {', '.join(sorted(kinds))}")
        return text

    try:
        every_role = [r.value for r in Role]
        seat_kinds = resolve_assignments(parse_assignments(agents or "naive", kind_of), roles, sides, None,
                                         known_roles=every_role)
        seat_models = (resolve_assignments(parse_assignments(models, lambda t: str(parse_model_spec(t))), roles, sides, None,
                                           known_roles=every_role)
                       if models else [None] * len(roles))
    except ValueError as err:
        raise ConfigurationError(str(err)) from None
    seats = []
    for player, (kind, model) in enumerate(zip(seat_kinds, seat_models), start=1):
        if kind is None:
            raise ConfigurationError(f"no agent kind for player {player}; give a default kind first in --agents")
        if kind in model_kinds and model is None:
            model = "local"
        seats.append({"kind": kind, "model": model if kind in model_kinds else None})
    return seats


def make_setup_node(kinds: frozenset[str] | set[str], model_kinds: frozenset[str] | set[str]):
    """Build the ``setup`` node for the given agent kinds."""

    def setup(state: AvalonGraphState) -> Command[Literal["reveal"]]:
        """Setup: deal the roles and draw the first leader from the seed; seat the agents."""
        game = deal(AvalonConfig.from_dict(state["config"]), state["seed"])
        seats = state.get("seats") or resolve_seats(game, state.get("agents", ""), state.get("models", ""),
                                                   kinds, model_kinds)
        if len(seats) != len(game.roles):
            raise ConfigurationError(f"{len(seats)} seats given for {len(game.roles)} players")
        return Command(update={"game": game.snapshot(), "events": list(game.events), "seats": seats}, goto="reveal")

    return setup
