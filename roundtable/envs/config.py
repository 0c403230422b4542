"""An environment's configuration: the game, its settings as an experiment's game settings name them, who sits at
the seats the learner does not hold, and how talk, forced answers and invalid actions are handled
(docs/envs.md#configuration).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from roundtable.games import GAMES
from roundtable.games.errors import ConfigurationError
from roundtable.games.protocol import GameRules, named_setting

KEYS = ("preset", "players", "setting", "rules", "opponents", "models", "agent_options", "talk", "forced",
        "retries", "models_provider")
"""The keyword arguments `roundtable.envs.make` takes besides the game's name."""


@dataclass(frozen=True)
class EnvConfig:
    """A checked environment configuration.

    Attributes:
        game: a registered game's name (`roundtable.games.GAMES`, plugins included).
        config: the game's configuration dict (``preset``, ``players``, ``rules``), checked by the game.
        opponents: who plays the seats the learner does not hold, an assignment string of agent kinds in the
            syntax of ``--agents`` (`roundtable.games.assignments`: ``evil=naive,merlin=lga``); ``""``: the learner
            holds every seat.
        models: the opponents' models, the syntax of ``--model`` (``evil=local``); ``""``: none.
        agent_options: the opponents' seat options, ``[TARGET:]KEY=VALUE`` as ``--agent-option``.
        talk: a speaking request is the learner's action (free text); ``False``: the game's plain words are said
            for it and talk never reaches the learner.
        forced: a request with one legal answer and no words (a good Avalon player's quest card) is asked too;
            ``False``: it is answered for the learner.
        retries: how many times an invalid action is asked for again, with the game's error message, before the
            fallback rules decide (docs/games/protocol.md#fallback-rules); TextArena's ``on_invalid_limit``.
        models_provider: the `roundtable.agents.common.model_calls.ModelProvider` model opponents call (``None``:
            the model factory, as ``roundtable play``); tests pass the scripted model.
    """

    game: str
    config: dict[str, Any]
    opponents: str = ""
    models: str = ""
    agent_options: tuple[str, ...] = ()
    talk: bool = True
    forced: bool = False
    retries: int = 1
    models_provider: Any = field(default=None, compare=False)

    @property
    def rules(self) -> GameRules:
        """The game's rules record."""
        return GAMES[self.game]


def rule_variants(rules: Mapping[str, Any] | Sequence[str] | None) -> dict[str, str]:
    """Rule variants from ``{variant: value}`` or ``["variant=value", ...]``.

    Raises:
        ConfigurationError: an item that is not ``KEY=VALUE``.
    """
    if rules is None:
        return {}
    if isinstance(rules, Mapping):
        return {str(k): str(v) for k, v in rules.items()}
    variants: dict[str, str] = {}
    for text in rules:
        key, sep, value = str(text).partition("=")
        if not sep or not key.strip() or not value.strip():
            raise ConfigurationError(f"rule {text!r} is not of the form KEY=VALUE")
        variants[key.strip()] = value.strip()
    return variants


def assignment_text(value: str | Mapping[str, str] | None) -> str:
    """An assignment string from ``"evil=naive"`` or ``{"evil": "naive"}`` (``{"*": kind}``: every other seat)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return ",".join(kind if target in ("*", "") else f"{target}={kind}" for target, kind in value.items())


def env_config(game: str, **config: Any) -> EnvConfig:
    """The checked configuration of ``make(game, **config)``.

    Args:
        game: a registered game's name.
        config: `KEYS`: ``preset``, ``players``, ``setting`` (a paper's named setting), ``rules``
            (``{variant: value}`` or ``["variant=value"]``, over the setting's), ``opponents`` (a dict
            ``{"evil": "naive"}`` or an assignment string), ``models``, ``agent_options``, ``talk``, ``forced``,
            ``retries``, ``models_provider``.

    Raises:
        ConfigurationError: an unknown game, key, preset, setting or rule variant (named), or a negative
            ``retries``.
    """
    if game not in GAMES:
        raise ConfigurationError(f"unknown game {game!r}; available: {', '.join(sorted(GAMES))}")
    unknown = sorted(set(config) - set(KEYS))
    if unknown:
        raise ConfigurationError(f"unknown environment option(s) {unknown}; valid: {', '.join(KEYS)}")
    rules = GAMES[game]
    variants = rule_variants(config.get("rules"))
    preset = config.get("preset")
    if config.get("setting") is not None:
        preset, overrides = named_setting(game, rules.settings, str(config["setting"]), preset,
                                          [f"{k}={v}" for k, v in variants.items()])
        variants = rule_variants(overrides)
    data: dict[str, Any] = {"rules": variants}
    if preset is not None:
        data["preset"] = preset
    if config.get("players") is not None:
        data["players"] = int(config["players"])
    retries = int(config.get("retries", 1))
    if retries < 0:
        raise ConfigurationError(f"retries must be 0 or more, not {retries}")
    return EnvConfig(game=game, config=rules.config_dict(rules.config(data)),
                     opponents=assignment_text(config.get("opponents")),
                     models=assignment_text(config.get("models")),
                     agent_options=tuple(config.get("agent_options") or ()), talk=bool(config.get("talk", True)),
                     forced=bool(config.get("forced", False)), retries=retries,
                     models_provider=config.get("models_provider"))
