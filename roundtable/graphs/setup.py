"""Checking a game's input and the ``setup`` node: deal, seat the agents.

Every problem with the input (a missing or unknown key, a wrong type, a bad
configuration, an unknown agent kind or one that does not play this game, a
bad model spec, unknown seat options, the wrong number of seats) is refused
with a message naming it, before the game is dealt and before any model call.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langgraph.runtime import Runtime
from pydantic import TypeAdapter, ValidationError

from roundtable.agents.protocol import AgentKind
from roundtable.games.errors import ConfigurationError
from roundtable.games.protocol import GameRules
from roundtable.graphs.state import GameInput, GameState
from roundtable.models import check_model, parse_model_spec

_INPUT = TypeAdapter(GameInput)
SEED_LIMIT = 2**63
"""Seeds are 0 .. 2**63 - 1 (the checkpointer stores them as signed 64-bit integers)."""


def _problems(error: ValidationError) -> str:
    return "; ".join(f"{'.'.join(map(str, e['loc'])) or 'input'}: {e['msg']}" for e in error.errors())


def check_options(kind: AgentKind, options: dict[str, Any], where: str, model: str | None = None) -> None:
    """Validate a seat's options with the kind's options model, for a seat playing ``model`` (a model spec).

    Raises:
        ConfigurationError: options for a kind that takes none, or invalid ones (named).
    """
    if not options:
        return
    if kind.options is None:
        raise ConfigurationError(f"agent kind {kind.name!r} of {where} takes no options (given: {sorted(options)})")
    parse = getattr(kind.options, "parse", None)
    if parse is not None:
        parse(options, model)
        return
    try:
        kind.options.model_validate(options)
    except ValidationError as error:
        raise ConfigurationError(f"invalid {kind.name} options of {where}: {_problems(error)}") from None


def check_input(data: Any, rules: GameRules, kinds: Mapping[str, AgentKind],
                default_model: str | None = None) -> dict[str, Any]:
    """A game's input, checked: ``{"config", "seed", "seats"}`` with the configuration normalized and
    each seat a full `SeatSpec` dict (a seat that plays a model, `AgentKind.plays_model`: a model-driven kind's,
    or a naive seat with ``words=model``, gets ``default_model`` when it names none).

    Raises:
        ConfigurationError: the first problem found, named in the message.
    """
    if not isinstance(data, dict):
        raise ConfigurationError(f"a game's input is an object with config, seed and seats, not {type(data).__name__}")
    try:
        checked = _INPUT.validate_python(data)
    except ValidationError as error:
        raise ConfigurationError(f"invalid game input: {_problems(error)}") from None
    if default_model is not None:
        try:
            parse_model_spec(default_model)
        except ValueError as error:
            raise ConfigurationError(f"default model ($ROUNDTABLE_MODEL): {error}") from None
    seed = checked["seed"]
    if not 0 <= seed < SEED_LIMIT:
        raise ConfigurationError(f"seed {seed} is out of range: 0 to 2**63 - 1")
    config = rules.config_dict(rules.config(checked["config"]))
    seats = [check_seat(seat, player, rules, kinds, default_model)
             for player, seat in enumerate(checked["seats"], start=1)]
    players = len(rules.seats(rules.new_game(rules.config(config), seed)))
    if len(seats) != players:
        raise ConfigurationError(f"{len(seats)} seats given for {players} players")
    return {"config": config, "seed": seed, "seats": seats}


def check_seat(seat: Mapping[str, Any], player: int, rules: GameRules, kinds: Mapping[str, AgentKind],
               default_model: str | None) -> dict[str, Any]:
    """One seat, checked and filled in (see `check_input`).

    Raises:
        ConfigurationError: unknown kind, a kind that does not play this game, a bad model or options.
    """
    where = f"player {player}"
    kind = kinds.get(seat["kind"])
    if kind is None:
        raise ConfigurationError(f"unknown agent kind {seat['kind']!r} for {where}; "
                                 f"valid kinds: {', '.join(sorted(kinds))}")
    if rules.name not in kind.games:
        playing = sorted(k for k, v in kinds.items() if rules.name in v.games)
        raise ConfigurationError(f"agent kind {kind.name!r} does not play {rules.name}; "
                                 f"kinds that do: {', '.join(playing)}")
    model = seat.get("model")
    options = dict(seat.get("options") or {})
    plays = kind.plays_model(options)  # a kind's own need, or its seat options' (a naive seat with words=model)
    if plays:
        try:
            spec = parse_model_spec(model or default_model or "local")
            check_model(spec)
        except ValueError as error:  # a malformed spec, or an environment it cannot be used in
            raise ConfigurationError(f"model of {where}: {error}") from None
        model = str(spec)
    elif model:
        with_options = ", ".join(f"{k}={v}" for k, v in (kind.model_options or {}).items())
        raise ConfigurationError(f"agent kind {kind.name!r} of {where} plays no model (given {model!r})"
                                 + (f" unless its options say {with_options}" if with_options else ""))
    check_options(kind, options, where, model)
    return {"kind": kind.name, "model": model if plays else None, "options": options}


def seat_records(rules: GameRules, seats: list[dict[str, Any]], kinds: Mapping[str, AgentKind]) -> list[dict[str, Any]]:
    """What the seats record when the game is dealt: for each seat whose kind has an ``at_setup``
    (`roundtable.agents.protocol.AtSetup`), its entry as an analysis-only log entry (``to: []``, no player
    sees it) with the seat's ``player``, in seat order."""
    out = []
    for player, seat in enumerate(seats, start=1):
        kind = kinds.get(seat["kind"])
        entry = kind.at_setup(rules.name, seat) if kind is not None and kind.at_setup is not None else None
        if entry is not None:
            out.append({**entry, "to": [], "player": player})
    return out


def make_setup(rules: GameRules, kinds: Mapping[str, AgentKind]):
    """The ``setup`` node of ``rules``'s game graph over the agent kinds ``kinds``."""

    def setup(state: GameState, runtime: Runtime[Any]) -> dict[str, Any]:
        default_model = getattr(runtime.context, "default_model", None)
        start = check_input({k: state[k] for k in ("config", "seed", "seats") if k in state},
                            rules, kinds, default_model)
        game = rules.new_game(rules.config(start["config"]), start["seed"])
        return start | {"game": rules.snapshot(game),
                        "events": [*rules.events(game), *seat_records(rules, start["seats"], kinds)]}

    setup.__doc__ = (f"Setup of {rules.name}: check the input, deal the roles from the seed, seat the agents "
                     "(and log what each seat's kind records at the start, e.g. a cga seat's experience pool).")
    return setup
