"""A new game's checked inputs from the words a person gives them (the CLI's ``play`` options, the browser's form).

One function turns a game name, a preset or setting, a player count, rule variants, seat assignments, models,
agent options and context overrides into the game graph's input, checked before anything is played or any
model is called (`roundtable.graphs.setup.check_input`), so the terminal and the browser refuse the same
configurations with the same words.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from roundtable.games import GAMES
from roundtable.games.errors import ConfigurationError
from roundtable.games.protocol import named_setting
from roundtable.graphs.game import build_game_graph
from roundtable.graphs.setup import check_input
from roundtable.play.forks import parse_overrides
from roundtable.play.seating import resolve_seats


@dataclass(frozen=True)
class NewGame:
    """A checked new game: ``game`` (its name), ``seed``, ``inputs`` (`GameInput`: ``config``, ``seed``,
    ``seats``) and ``context`` (the context overrides, ``{}`` for none)."""

    game: str
    seed: int
    inputs: dict[str, Any]
    context: dict[str, Any] = field(default_factory=dict)


def config_dict(preset: str | None, players: int | None, rules: Sequence[str]) -> dict[str, Any]:
    """A game's configuration dict from a preset, a player count and rule variants ``KEY=VALUE``.

    Raises:
        ConfigurationError: a rule variant that is not ``KEY=VALUE``.
    """
    variants: dict[str, str] = {}
    for text in rules:
        key, sep, value = text.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise ConfigurationError(f"rule {text!r} is not of the form KEY=VALUE")
        variants[key.strip()] = value.strip()
    data: dict[str, Any] = {"rules": variants}
    if preset is not None:
        data["preset"] = preset
    if players is not None:
        data["players"] = players
    return data


def new_game(game: str, *, preset: str | None = None, players: int | None = None, rules: Sequence[str] = (),
             setting: str | None = None, agents: str = "naive", model: str = "", options: Sequence[str] = (),
             seed: int | None = None, context: Sequence[str] = ()) -> NewGame:
    """The checked inputs of a new game of ``game``.

    Args:
        game: a registered game's name.
        preset: its role set (``None``: the game's default).
        players: its player count (``None``: the preset's).
        rules: rule variants, ``KEY=VALUE``.
        setting: a paper's named setting (its preset and variants; ``preset`` and ``rules`` override them).
        agents: who plays each seat, an assignment string (``naive,merlin=lga``).
        model: the model per seat or side, the same syntax (``""``: the default model).
        options: agent options ``[TARGET:]KEY=VALUE``.
        seed: the game seed (``None``: a random one).
        context: context overrides ``KEY=VALUE`` (``KEY`` dotted).

    Raises:
        ConfigurationError: an unknown game, setting, kind, role or seat, a bad rule, option, model spec or
            context override, or a configuration the game refuses (the message names it).
    """
    if game not in GAMES:
        raise ConfigurationError(f"unknown game {game!r}; available: {', '.join(GAMES)}")
    rules_of = GAMES[game]
    seed = secrets.randbelow(2**31) if seed is None else seed
    builder = build_game_graph(rules_of)
    try:
        variants = list(rules)
        if setting is not None:
            preset, variants = named_setting(game, rules_of.settings, setting, preset, variants)
        config = rules_of.config_dict(rules_of.config(config_dict(preset, players, variants)))
        seats = resolve_seats(rules_of, config, seed, agents, model, list(options))
        inputs = check_input({"config": config, "seed": seed, "seats": seats}, rules_of, builder.known,
                             builder.context_model().default_model)
        overrides = parse_overrides(list(context))
        builder.context_model.model_validate(overrides)
    except ValidationError as error:
        raise ConfigurationError(str(error)) from None
    return NewGame(game, seed, inputs, overrides)
