"""Avalon roles, sides, the setup table and role-set validation.

Source: the standard rules of *The Resistance: Avalon* (Indie Boards & Cards),
as condensed in docs/games/avalon.md#setup-table.
"""

from __future__ import annotations

from collections import Counter
from enum import Enum

from roundtable.games.errors import ConfigurationError


class Side(str, Enum):
    """The two teams of Avalon."""

    GOOD = "good"
    EVIL = "evil"


class Role(str, Enum):
    """The eight Avalon roles. Values are the lowercase names used in configuration."""

    MERLIN = "merlin"
    PERCIVAL = "percival"
    SERVANT = "servant"
    MORGANA = "morgana"
    ASSASSIN = "assassin"
    MINION = "minion"
    MORDRED = "mordred"
    OBERON = "oberon"

    @property
    def side(self) -> Side:
        """The side this role plays for."""
        return Side.GOOD if self in GOOD_ROLES else Side.EVIL

    @property
    def title(self) -> str:  # type: ignore[override]  # the role's name, shadowing str.title on purpose
        """The role's name as the rulebook prints it, e.g. ``Loyal Servant of Arthur``."""
        return ROLE_TITLES[self]

    @classmethod
    def parse(cls, text: str) -> Role:
        """Parse a role name, case-insensitively, accepting common aliases.

        Args:
            text: e.g. ``"Merlin"``, ``"servant"``, ``"loyal servant"``, ``"minion of mordred"``.

        Raises:
            ConfigurationError: the name is not an Avalon role (the message lists the valid names).
        """
        key = " ".join(text.strip().lower().replace("_", " ").replace("-", " ").split())
        role = _ALIASES.get(key)
        if role is None:
            valid = ", ".join(r.value for r in cls)
            raise ConfigurationError(f"unknown Avalon role {text!r}; valid roles: {valid}")
        return role


GOOD_ROLES = frozenset({Role.MERLIN, Role.PERCIVAL, Role.SERVANT})
EVIL_ROLES = frozenset({Role.MORGANA, Role.ASSASSIN, Role.MINION, Role.MORDRED, Role.OBERON})

ROLE_TITLES: dict[Role, str] = {
    Role.MERLIN: "Merlin",
    Role.PERCIVAL: "Percival",
    Role.SERVANT: "Loyal Servant of Arthur",
    Role.MORGANA: "Morgana",
    Role.ASSASSIN: "Assassin",
    Role.MINION: "Minion of Mordred",
    Role.MORDRED: "Mordred",
    Role.OBERON: "Oberon",
}

_ALIASES: dict[str, Role] = {r.value: r for r in Role} | {
    "loyal servant": Role.SERVANT,
    "loyal servant of arthur": Role.SERVANT,
    "minion of mordred": Role.MINION,
}

# Setup table, docs/games/avalon.md#setup-table: players -> (good, evil, team sizes of quests 1..5,
# fails needed on quest 4). Every other quest needs one fail.
SETUP: dict[int, tuple[int, int, tuple[int, int, int, int, int], int]] = {
    5: (3, 2, (2, 3, 2, 3, 3), 1),
    6: (4, 2, (2, 3, 4, 3, 4), 1),
    7: (4, 3, (2, 3, 3, 4, 4), 2),
    8: (5, 3, (3, 4, 4, 5, 5), 2),
    9: (6, 3, (3, 4, 4, 5, 5), 2),
    10: (6, 4, (3, 4, 4, 5, 5), 2),
}

MIN_PLAYERS = min(SETUP)
MAX_PLAYERS = max(SETUP)
QUESTS = 5
MAX_PROPOSALS = 5
QUESTS_TO_WIN = 3


def check_player_count(players: int) -> None:
    """Raise `ConfigurationError` unless Avalon supports ``players`` (5 to 10)."""
    if players not in SETUP:
        raise ConfigurationError(
            f"Avalon is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}"
        )


def team_size(players: int, quest: int) -> int:
    """Number of players on the team of quest ``quest`` (1-based) in a game of ``players``."""
    check_player_count(players)
    if not 1 <= quest <= QUESTS:
        raise ValueError(f"quest must be 1..{QUESTS}, not {quest}")
    return SETUP[players][2][quest - 1]


def fails_needed(players: int, quest: int, two_fail_quests: str = "official") -> int:
    """Fail cards needed to fail quest ``quest`` (1-based).

    ``two_fail_quests="official"`` (the rulebook): 2 on quest 4 with 7+ players,
    else 1. ``"four_and_five"`` (Shi et al., *Cooperation on the Fly*, as their
    AvalonPlay setting states it): 2 on quests 4 and 5 with 7+ players.

    Raises:
        ValueError: a player count outside 5..10 or an unknown ``two_fail_quests`` value.
    """
    check_player_count(players)
    if two_fail_quests not in ("official", "four_and_five"):
        raise ValueError(f"two_fail_quests must be official or four_and_five, not {two_fail_quests!r}")
    two_fail = (4, 5) if two_fail_quests == "four_and_five" else (4,)
    return SETUP[players][3] if quest in two_fail else 1


def side_counts(players: int) -> tuple[int, int]:
    """``(good, evil)`` player counts for a game of ``players``."""
    check_player_count(players)
    good, evil, _, _ = SETUP[players]
    return good, evil


def validate_roles(roles: list[Role] | tuple[Role, ...]) -> None:
    """Check that a role set can be played.

    A role set is valid when its good/evil counts match the setup table for its
    size, it contains an Assassin whenever it contains Merlin (docs/games/avalon.md#valid-role-sets),
    and each unique role (everything but Servant and Minion) appears at most
    once. Two further refusals keep every role meaningful: an Assassin needs
    Merlin (the only assassination target) and Percival needs Merlin (whom he
    is shown).

    Raises:
        ConfigurationError: with a message that names the problem.
    """
    players = len(roles)
    check_player_count(players)
    good, evil = side_counts(players)
    have_good = sum(1 for r in roles if r.side is Side.GOOD)
    have_evil = players - have_good
    if (have_good, have_evil) != (good, evil):
        raise ConfigurationError(
            f"{players} players need {good} good and {evil} evil roles, "
            f"but the role set has {have_good} good and {have_evil} evil"
        )
    counts = Counter(roles)
    repeated = [r.value for r, n in counts.items() if n > 1 and r not in (Role.SERVANT, Role.MINION)]
    if repeated:
        raise ConfigurationError(f"these roles may appear only once: {', '.join(sorted(repeated))}")
    if Role.MERLIN in counts and Role.ASSASSIN not in counts:
        raise ConfigurationError("a role set with Merlin must contain an Assassin")
    if Role.ASSASSIN in counts and Role.MERLIN not in counts:
        raise ConfigurationError("a role set with an Assassin must contain Merlin (the assassination target)")
    if Role.PERCIVAL in counts and Role.MERLIN not in counts:
        raise ConfigurationError("Percival needs Merlin in the role set")


def standard_roles(players: int) -> tuple[Role, ...]:
    """The ``standard`` preset: Merlin, Assassin, the rest Servants and Minions."""
    good, evil = side_counts(players)
    return (Role.MERLIN,) + (Role.SERVANT,) * (good - 1) + (Role.ASSASSIN,) + (Role.MINION,) * (evil - 1)


# Named presets, docs/games/avalon.md#presets. ``standard`` depends on the player count.
PRESETS: dict[str, tuple[Role, ...]] = {
    "lan6": (Role.MERLIN, Role.PERCIVAL, Role.SERVANT, Role.SERVANT, Role.MORGANA, Role.ASSASSIN),
    "bench5": (Role.MERLIN, Role.SERVANT, Role.SERVANT, Role.MINION, Role.ASSASSIN),
    "play7": (
        Role.MERLIN, Role.PERCIVAL, Role.SERVANT, Role.SERVANT,
        Role.MORGANA, Role.ASSASSIN, Role.MINION,
    ),
}
PRESET_NAMES = (*PRESETS, "standard")


def preset_roles(name: str, players: int | None = None) -> tuple[Role, ...]:
    """Roles of a named preset.

    Args:
        name: ``lan6``, ``bench5``, ``play7`` or ``standard``.
        players: required for ``standard``; for the fixed presets it must be
            omitted or equal to the preset's size.

    Raises:
        ConfigurationError: unknown preset, or a player count the preset does not fit.
    """
    if name == "standard":
        return standard_roles(players if players is not None else 5)
    if name not in PRESETS:
        raise ConfigurationError(f"unknown preset {name!r}; valid presets: {', '.join(PRESET_NAMES)}")
    roles = PRESETS[name]
    if players is not None and players != len(roles):
        raise ConfigurationError(f"preset {name!r} is for {len(roles)} players, not {players}")
    return roles
