"""A game configuration's dict form, checked field by field before a game builds its configuration from it."""

from __future__ import annotations

from typing import Any, NamedTuple

from roundtable.games.errors import ConfigurationError

FIELDS = ("roles", "rules", "preset", "players")


class ConfigInput(NamedTuple):
    """The fields of ``{"roles": [...], "rules": {...}, "preset": name, "players": n}``, each ``None`` when absent
    (``rules`` ``{}``)."""

    roles: list[str] | None
    rules: dict[str, Any]
    preset: str | None
    players: int | None


def config_input(data: Any, game: str) -> ConfigInput:
    """The checked fields of a configuration dict of ``game`` (its name as users read it, ``Avalon``).

    Raises:
        ConfigurationError: not an object, an unknown field, or a field of the wrong type, named.
    """
    if not isinstance(data, dict):
        raise ConfigurationError(f"a {game} configuration is an object with roles, rules and preset, not {data!r}")
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise ConfigurationError(f"unknown configuration field(s) {unknown}; valid: {', '.join(FIELDS)}")
    rules = data.get("rules") or {}
    if not isinstance(rules, dict):
        raise ConfigurationError(f"config.rules must be an object {{variant: value}}, not {rules!r}")
    roles = data.get("roles")
    if roles is not None and (not isinstance(roles, list) or not all(isinstance(r, str) for r in roles)):
        raise ConfigurationError(f"config.roles must be a list of role names, not {roles!r}")
    players = data.get("players")
    if players is not None and (not isinstance(players, int) or isinstance(players, bool)):
        raise ConfigurationError(f"config.players must be a number, not {players!r}")
    preset = data.get("preset")
    if preset is not None and not isinstance(preset, str):
        raise ConfigurationError(f"config.preset must be a preset name, not {preset!r}")
    return ConfigInput(roles, rules, preset, players)
