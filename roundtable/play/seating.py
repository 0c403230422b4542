"""Seating: who plays each seat, from the ``--agents``, ``--model`` and ``--agent-option`` strings.

The strings use one syntax (`roundtable.games.assignments`): ``KIND`` (every seat),
``good=KIND``, ``evil=KIND``, ``ROLE=KIND``, ``SEAT=KIND``, applied in order, so
they can depend on the dealt roles. The result is the ``seats`` input of a
game graph, which checks it (`roundtable.graphs.setup.check_input`)
against the agent-kind registry.
"""

from __future__ import annotations

from typing import Any

from roundtable.agents.registry import AGENT_KINDS
from roundtable.games.assignments import Assignment, normalize_name, parse_assignments, resolve_assignments
from roundtable.games.errors import ConfigurationError
from roundtable.games.protocol import GameRules
from roundtable.models.spec import parse_model_spec


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


def parse_agent_options(options: list[str] | tuple[str, ...]) -> list[Assignment[tuple[str, Any]]]:
    """Parse ``--agent-option`` values ``KEY=VALUE`` (every seat) or ``TARGET:KEY=VALUE``.

    ``TARGET`` is a side, a role or a seat number, as in ``--agents``.

    Returns:
        `Assignment` objects whose values are ``(key, value)`` pairs.

    Raises:
        ConfigurationError: a malformed option (the message names it).
    """
    parsed = []
    for text in options:
        head, colon, tail = text.partition(":")
        target, body = (head.strip(), tail) if colon and "=" not in head else (None, text)
        if colon and "=" not in head and not target:
            raise ConfigurationError(f"agent option {text!r} has an empty target before ':'; "
                                     "write KEY=VALUE or TARGET:KEY=VALUE (a side, role or seat)")
        key, eq, value = body.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise ConfigurationError(f"agent option {text!r} is not of the form [TARGET:]KEY=VALUE")
        where = None if not target else int(target) if target.isdigit() else normalize_name(target)
        parsed.append(Assignment(value=(key.strip(), _option_value(value)), target=where, text=text))
    return parsed


def resolve_seats(rules: GameRules, config: dict[str, Any], seed: int, agents: str = "naive", models: str = "",
                  options: list[str] | tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """One seat specification per player of the game ``(config, seed)`` deals.

    Args:
        rules: the game.
        config: its configuration dict.
        seed: the game seed (the deal decides roles).
        agents: an assignment string of agent kinds (``naive,merlin=lga``).
        models: an assignment string of model specs (``good=gpt-4o,evil=local``).
        options: ``--agent-option`` strings.

    Returns:
        ``[{"kind": ..., "model": ..., "options": {...}}]``, players 1..N in
        order (``model`` ``None`` where the seat plays none, `AgentKind.plays_model`: a naive seat takes its
        model only with ``words=model``; or where it is left to the game's default model).

    Raises:
        ConfigurationError: an unknown kind, role, side or seat; a bad model spec or option.
    """
    seats_of = rules.seats(rules.new_game(rules.config(config), seed))
    roles = [role for role, _ in seats_of]
    sides = [side for _, side in seats_of]

    def kind_of(text: str) -> str:
        if text not in AGENT_KINDS:
            raise ConfigurationError(f"unknown agent kind {text!r}; valid kinds: {', '.join(sorted(AGENT_KINDS))}")
        return text

    try:
        seat_kinds: list[str | None] = resolve_assignments(parse_assignments(agents or "naive", kind_of), roles,
                                                           sides, None, known_roles=rules.roles)
        seat_models: list[str | None] = (
            resolve_assignments(parse_assignments(models, lambda t: str(parse_model_spec(t))), roles, sides, None,
                                known_roles=rules.roles)
            if models else [None] * len(roles))
        seat_options: list[dict[str, Any]] = [{} for _ in roles]
        for assignment in parse_agent_options(options):
            key, value = assignment.value
            hits = resolve_assignments([Assignment(True, assignment.target, assignment.text)], roles, sides, False,
                                       known_roles=rules.roles)
            for seat, hit in enumerate(hits):
                if hit:
                    seat_options[seat][key] = value
    except ConfigurationError:
        raise
    except ValueError as err:
        raise ConfigurationError(str(err)) from None
    seats = []
    for player, (kind, model, opts) in enumerate(zip(seat_kinds, seat_models, seat_options, strict=True), start=1):
        if kind is None:
            raise ConfigurationError(f"no agent kind for player {player}; give a default kind first in --agents")
        seats.append({"kind": kind, "model": model if AGENT_KINDS[kind].plays_model(opts) else None, "options": opts})
    return seats
