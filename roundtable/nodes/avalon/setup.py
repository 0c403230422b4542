"""The ``setup`` node: deal the roles and seat the agents."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any, Literal

from langgraph.types import Command

from roundtable.games.avalon import AvalonConfig, AvalonState, ConfigurationError, Role, deal

from .state import AvalonGraphState


def _option_value(text: str) -> Any:
    """``true``/``false`` -> bool, numbers -> int/float, anything else stays a string."""
    lowered = text.strip().lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text.strip()


def parse_agent_options(options: list[str] | tuple[str, ...]) -> list[Any]:
    """Parse ``--agent-option`` values ``KEY=VALUE`` (every seat) or ``TARGET:KEY=VALUE``.

    ``TARGET`` is a side, a role or a seat number, as in ``--agents``.

    Returns:
        `Assignment` objects whose values are ``(key, value)`` pairs.

    Raises:
        ConfigurationError: a malformed option.
    """
    from roundtable.assignments import Assignment, normalize_name

    parsed = []
    for text in options:
        head, colon, tail = text.partition(":")
        target, body = (head.strip(), tail) if colon and "=" not in head else (None, text)
        key, eq, value = body.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise ConfigurationError(f"agent option {text!r} is not of the form [TARGET:]KEY=VALUE")
        where = None if not target else int(target) if target.isdigit() else normalize_name(target)
        parsed.append(Assignment(value=(key.strip(), _option_value(value)), target=where, text=text))
    return parsed


def resolve_seats(game: AvalonState, agents: str, models: str, kinds: frozenset[str] | set[str],
                  model_kinds: frozenset[str] | set[str], options: list[str] | tuple[str, ...] = (),
                  option_parsers: Mapping[str, Callable[[dict[str, Any]], Any]] | None = None,
                  ) -> list[dict[str, Any]]:
    """One seat specification per player from the ``--agents``, ``--model`` and ``--agent-option`` strings.

    Assignments apply in order (``KIND``, ``good=KIND``, ``evil=KIND``,
    ``ROLE=KIND``, ``SEAT=KIND``), so they can depend on the dealt roles.
    A model-driven kind with no model gets ``$ROUNDTABLE_MODEL`` or ``local``.

    Args:
        option_parsers: ``{kind: parse(options)}`` validating each seat's
            options before the game starts (e.g. the ``lga`` ablations).

    Returns:
        ``[{"kind": ..., "model": ..., "options": {...}}]``, one per seat, players 1..N in order.

    Raises:
        ConfigurationError: unknown kind, role or seat; a bad model spec or agent option.
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
    seat_options: list[dict[str, Any]] = [{} for _ in roles]
    try:
        for assignment in parse_agent_options(options):
            key, value = assignment.value
            for seat, hit in enumerate(resolve_assignments([assignment], roles, sides, False, known_roles=every_role)):
                if hit:
                    seat_options[seat][key] = value
    except ValueError as err:
        raise ConfigurationError(str(err)) from None
    default_model = str(parse_model_spec(os.environ.get("ROUNDTABLE_MODEL") or "local"))
    seats = []
    for player, (kind, model, opts) in enumerate(zip(seat_kinds, seat_models, seat_options), start=1):
        if kind is None:
            raise ConfigurationError(f"no agent kind for player {player}; give a default kind first in --agents")
        if kind in model_kinds and model is None:
            model = default_model
        if opts:
            parse = (option_parsers or {}).get(kind)
            if parse is None:
                raise ConfigurationError(f"agent kind {kind!r} of player {player} takes no options")
            parse(opts)
        seats.append({"kind": kind, "model": model if kind in model_kinds else None, "options": opts})
    return seats


def make_setup_node(kinds: frozenset[str] | set[str], model_kinds: frozenset[str] | set[str],
                    option_parsers: Mapping[str, Callable[[dict[str, Any]], Any]] | None = None):
    """Build the ``setup`` node for the given agent kinds (see `resolve_seats`)."""

    def setup(state: AvalonGraphState) -> Command[Literal["reveal"]]:
        """Setup: deal the roles and draw the first leader from the seed; seat the agents."""
        game = deal(AvalonConfig.from_dict(state["config"]), state["seed"])
        seats = state.get("seats") or resolve_seats(game, state.get("agents", ""), state.get("models", ""),
                                                   kinds, model_kinds, state.get("agent_options", []),
                                                   option_parsers)
        if len(seats) != len(game.roles):
            raise ConfigurationError(f"{len(seats)} seats given for {len(game.roles)} players")
        return Command(update={"game": game.snapshot(), "events": list(game.events), "seats": seats}, goto="reveal")

    return setup
