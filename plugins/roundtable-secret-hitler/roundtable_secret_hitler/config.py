"""Secret Hitler configuration: the player count and the rule variants (docs/games/secret-hitler.md#rule-variants).

| variant | values (default first) | meaning |
|---|---|---|
| ``discussion`` | ``after_nomination`` / ``none`` | after each nomination every living player speaks once, from the
President clockwise, before the vote; or no table talk at all |

The rulebook lets the table talk at any time (*Gameplay*: "players are encouraged to discuss"); the game asks for it
at one point per round, after the nomination, as Avalon's ``discussion`` variant asks for it around a proposal.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from functools import lru_cache
from typing import Any

from roundtable.games.config_input import config_input
from roundtable.games.errors import ConfigurationError
from roundtable_secret_hitler.roles import Role, role_set


class Discussion(str, Enum):
    """When the table talks (docs/games/secret-hitler.md#discussion)."""

    AFTER_NOMINATION = "after_nomination"
    NONE = "none"


VARIANTS: dict[str, tuple[str, ...]] = {"discussion": tuple(d.value for d in Discussion)}
"""Every rule variant and its values, the default first."""
DEFAULT_PLAYERS = 5
PRESET = "rulebook"
"""The only preset: the rulebook's roles for the player count."""


@dataclass(frozen=True)
class Rules:
    """The rule variants of one game (see the module docstring)."""

    discussion: Discussion = Discussion.AFTER_NOMINATION

    def with_overrides(self, pairs: list[str] | tuple[str, ...]) -> Rules:
        """A copy with ``KEY=VALUE`` overrides applied in order.

        Raises:
            ConfigurationError: malformed pair, unknown variant or value (the message lists the valid ones).
        """
        rules = self
        for pair in pairs:
            key, sep, value = pair.partition("=")
            key, value = key.strip().replace("-", "_"), value.strip()
            if not sep or not key or not value:
                raise ConfigurationError(f"rule {pair!r} is not of the form KEY=VALUE")
            if key != "discussion":
                raise ConfigurationError(f"unknown Secret Hitler rule variant {key!r}; valid variants: "
                                         f"{', '.join(VARIANTS)}")
            try:
                rules = replace(rules, discussion=Discussion(value))
            except ValueError:
                raise ConfigurationError(f"rule discussion cannot be {value!r}; valid values: "
                                         f"{', '.join(VARIANTS['discussion'])}") from None
        return rules

    def to_dict(self) -> dict[str, str]:
        """JSON-ready ``{variant: value}``."""
        return {"discussion": self.discussion.value}


@dataclass(frozen=True)
class SecretHitlerConfig:
    """Everything that defines a game before the deal.

    Attributes:
        players: 5 to 10. rules: the rule variants.
        roles: the rulebook's roles for the count (`roundtable_secret_hitler.roles.role_set`), dealt at random.
    """

    players: int = DEFAULT_PLAYERS
    rules: Rules = field(default_factory=Rules)

    @property
    def roles(self) -> tuple[Role, ...]:
        """The role set (before the deal)."""
        return role_set(self.players)

    def __post_init__(self) -> None:
        role_set(self.players)  # raises for a count the rulebook has no board for

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: ``{"players": n, "rules": {...}}``."""
        return {"players": self.players, "rules": self.rules.to_dict()}


def config_of(data: dict[str, Any]) -> SecretHitlerConfig:
    """A configuration from its dict: ``{"players": n, "rules": {"discussion": ...}}``; ``preset`` may only be
    ``rulebook``, and ``roles``, when given, must be the rulebook's role set for their count (in any order).

    Raises:
        ConfigurationError: a malformed field or an unplayable configuration, named.
    """
    roles, rules, preset, players = config_input(data, "Secret Hitler")
    if preset not in (None, PRESET):
        raise ConfigurationError(f"unknown Secret Hitler preset {preset!r}; valid presets: {PRESET}")
    if roles is not None:
        if players is not None and players != len(roles):
            raise ConfigurationError(f"{len(roles)} roles were given for {players} players")
        expected = sorted(r.value for r in role_set(len(roles)))
        if sorted(r.strip().lower() for r in roles) != expected:
            raise ConfigurationError(f"Secret Hitler's roles follow from the player count: for {len(roles)} players "
                                     f"they are {', '.join(expected)}")
        players = len(roles)
    return _config(players or DEFAULT_PLAYERS, tuple(sorted((k, str(v)) for k, v in rules.items())))


@lru_cache(maxsize=64)
def _config(players: int, rules: tuple[tuple[str, str], ...]) -> SecretHitlerConfig:
    return SecretHitlerConfig(players=players, rules=Rules().with_overrides([f"{k}={v}" for k, v in rules]))


def configurations() -> list[dict[str, Any]]:
    """Configurations covering every board (5, 7 and 9 players) and both ``discussion`` values, and the largest
    table (for the conformance suite)."""
    return [{"players": 5, "rules": {"discussion": "after_nomination"}},
            {"players": 6, "rules": {"discussion": "none"}},
            {"players": 7, "rules": {"discussion": "after_nomination"}},
            {"players": 8, "rules": {"discussion": "none"}},
            {"players": 9, "rules": {"discussion": "none"}},
            {"players": 10, "rules": {"discussion": "after_nomination"}}]
