"""Werewolf roles, sides, the preset role set and role-set validation.

Source: docs/games/werewolf.md, the 7-player game of Xu, Wang, Li et al., *Exploring Large
Language Models for Communication Games: An Empirical Study on Werewolf* (2023):
two Werewolves, two Villagers, a Seer, a Witch and a Guard.
"""

from __future__ import annotations

from collections import Counter
from enum import Enum

from roundtable.games.errors import ConfigurationError


class Side(str, Enum):
    """The two sides of Werewolf: the village (every role but the Werewolf) and the werewolves."""

    VILLAGE = "village"
    WEREWOLVES = "werewolves"


class Role(str, Enum):
    """The five Werewolf roles. Values are the lowercase names used in configuration."""

    WEREWOLF = "werewolf"
    VILLAGER = "villager"
    SEER = "seer"
    WITCH = "witch"
    GUARD = "guard"

    @property
    def side(self) -> Side:
        """The side this role plays for."""
        return Side.WEREWOLVES if self is Role.WEREWOLF else Side.VILLAGE

    @property
    def title(self) -> str:  # type: ignore[override]  # the role's name, shadowing str.title on purpose
        """The role's name as printed, e.g. ``Werewolf``."""
        return self.value.title()

    @classmethod
    def parse(cls, text: str) -> Role:
        """Parse a role name, case-insensitively (``"Seer"``, ``"werewolves"``, ``"villagers"``).

        Raises:
            ConfigurationError: the name is not a Werewolf role (the message lists the valid names).
        """
        key = text.strip().lower().replace("-", "_").replace(" ", "_")
        key = key[:-1] if key.endswith("s") and key[:-1] in _BY_NAME else key
        key = "werewolf" if key == "werewolve" else key
        if key not in _BY_NAME:
            raise ConfigurationError(f"unknown Werewolf role {text!r}; valid roles: {', '.join(r.value for r in cls)}")
        return _BY_NAME[key]


_BY_NAME = {r.value: r for r in Role}

SPECIAL_ROLES = frozenset({Role.SEER, Role.WITCH, Role.GUARD})
"""Roles with a night action besides the Werewolf's; each appears at most once."""

MIN_PLAYERS = 4
MAX_PLAYERS = 12

PRESETS: dict[str, tuple[Role, ...]] = {
    "xu7": (Role.WEREWOLF, Role.WEREWOLF, Role.VILLAGER, Role.VILLAGER, Role.SEER, Role.WITCH, Role.GUARD),
}
"""Named role sets: ``xu7`` is the 7-player game of Xu et al. (docs/games/werewolf.md#presets-and-role-sets)."""

PRESET_NAMES = tuple(PRESETS)
DEFAULT_PRESET = "xu7"


def preset_roles(name: str, players: int | None = None) -> tuple[Role, ...]:
    """Roles of a named preset.

    Raises:
        ConfigurationError: unknown preset, or a player count other than the preset's.
    """
    if name not in PRESETS:
        raise ConfigurationError(f"unknown Werewolf preset {name!r}; valid presets: {', '.join(PRESET_NAMES)}")
    roles = PRESETS[name]
    if players is not None and players != len(roles):
        raise ConfigurationError(f"Werewolf preset {name!r} is for {len(roles)} players, not {players}")
    return roles


def validate_roles(roles: list[Role] | tuple[Role, ...], *, villagers_needed: bool = True) -> None:
    """Check that a role set can be played.

    A role set is valid when it has 4 to 12 players, at least one Werewolf,
    fewer Werewolves than other players (else the werewolves have won before
    the first night, docs/games/werewolf.md#end-of-the-game), each of Seer, Witch and Guard
    at most once, and, under the Xu et al. win condition (``villagers_needed``),
    at least one plain Villager (else the werewolves have won at once).

    Raises:
        ConfigurationError: with a message that names the problem.
    """
    n = len(roles)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise ConfigurationError(f"Werewolf is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}")
    counts = Counter(roles)
    wolves = counts[Role.WEREWOLF]
    if wolves == 0:
        raise ConfigurationError("a Werewolf role set needs at least one werewolf")
    if wolves >= n - wolves:
        raise ConfigurationError(f"{wolves} werewolves among {n} players would win before the first night; "
                                 "werewolves must be fewer than the other players")
    repeated = sorted(r.value for r in SPECIAL_ROLES if counts[r] > 1)
    if repeated:
        raise ConfigurationError(f"these roles may appear only once: {', '.join(repeated)}")
    if villagers_needed and counts[Role.VILLAGER] == 0:
        raise ConfigurationError("the werewolf_win=parity_or_villagers rule (Xu et al.) needs at least one villager; "
                                 "add one or play werewolf_win=parity")
