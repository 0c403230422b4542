"""Werewolf configuration: the role set and the rule variants (docs/games/werewolf.md#rule-variants).

| variant | values (default first) | meaning |
|---|---|---|
| ``potions_per_night`` | ``one`` / ``two`` | the Witch may use at most one potion a night, or both |
| ``werewolf_win`` | ``parity_or_villagers`` / ``parity`` | werewolves also win when every plain Villager is dead (Xu et
al.), or only at parity |
| ``max_days`` | a whole number 1..50, default ``10`` | after this many days (a night and its day) without a winner the
game is a draw |
| ``werewolf_night`` | ``sequential`` / ``simultaneous`` | the werewolves vote on the night's kill one after another,
each telling its teammates (Xu et al.), or all at once; ``sequential`` is the ``xu7`` preset's default, a role set
given by hand plays ``simultaneous`` unless told otherwise (`PRESET_RULES`) |

A record keeps ``werewolf_night`` only when it is not ``simultaneous`` (`LATER_VARIANTS`): records written before
the variant existed were played all at once, and replay so.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from functools import lru_cache
from typing import Any

from roundtable.games.errors import ConfigurationError
from roundtable.games.werewolf.roles import DEFAULT_PRESET, PRESET_NAMES, Role, preset_roles, validate_roles


class PotionsPerNight(str, Enum):
    """How many potions the Witch may use in one night: ``one`` (the default: docs/games/werewolf.md#potions_per_night)
    or ``two`` (both the same night)."""

    ONE = "one"
    TWO = "two"


class WerewolfWin(str, Enum):
    """When the werewolves win besides killing everyone else.

    ``parity_or_villagers`` (Xu et al. 2023, docs/games/werewolf.md#werewolf_win): when the living
    werewolves are at least as many as the other living players, or when every
    plain Villager is dead. ``parity``: only the former.
    """

    PARITY_OR_VILLAGERS = "parity_or_villagers"
    PARITY = "parity"


class WerewolfNight(str, Enum):
    """How the werewolves vote on the night's kill (docs/games/werewolf.md#werewolf_night).

    ``sequential`` (Xu et al. 2023, their rules prompt and the appendix's nights 1 and 2): the living werewolves
    vote in seat order, each telling its teammates whom it wants killed (and, if it likes, why) before the next
    votes; the player named more often than any other choice, a pass counting as a choice, is the target, and
    with no such player ("no consensus") nobody is. ``simultaneous``: all at once, blind to each other, the most
    named player the target (passes not counted), a tie or all passes no kill; what every record kept before
    the variant existed was played under.
    """

    SEQUENTIAL = "sequential"
    SIMULTANEOUS = "simultaneous"


_ENUMS: dict[str, type[Enum]] = {"potions_per_night": PotionsPerNight, "werewolf_win": WerewolfWin,
                                 "werewolf_night": WerewolfNight}
DEFAULT_MAX_DAYS = 10
MAX_DAYS_LIMIT = 50

VARIANTS: dict[str, tuple[str, ...]] = {
    **{k: tuple(m.value for m in e) for k, e in _ENUMS.items()},
    "max_days": (str(DEFAULT_MAX_DAYS), "3"),
}
"""Every rule variant and example values, the default of the default preset (``xu7``) first (``max_days`` takes any
whole number 1..50)."""

LATER_VARIANTS: tuple[str, ...] = ("werewolf_night",)
"""Variants added after the first records were kept: recorded only when not at their value of those records (the
field's default in `Rules`), so a record without them replays as it was played (see `Rules.to_dict`)."""

PRESET_RULES: dict[str, tuple[str, ...]] = {"xu7": ("werewolf_night=sequential",)}
"""The rule variants a preset plays by default, applied before the user's own (`WerewolfConfig.build`): Xu et al.'s
table votes on the night's kill in turn. A role set given by hand starts from `Rules`' defaults."""


@dataclass(frozen=True)
class Rules:
    """The rule variants of one Werewolf game (see the module docstring)."""

    potions_per_night: PotionsPerNight = PotionsPerNight.ONE
    werewolf_win: WerewolfWin = WerewolfWin.PARITY_OR_VILLAGERS
    max_days: int = DEFAULT_MAX_DAYS
    werewolf_night: WerewolfNight = WerewolfNight.SIMULTANEOUS

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
            if key == "max_days":
                if not value.isdigit() or not 1 <= int(value) <= MAX_DAYS_LIMIT:
                    raise ConfigurationError(f"rule max_days must be a whole number from 1 to {MAX_DAYS_LIMIT}, "
                                             f"not {value!r}")
                rules = replace(rules, max_days=int(value))
                continue
            if key not in _ENUMS:
                raise ConfigurationError(f"unknown Werewolf rule variant {key!r}; valid variants: "
                                         f"{', '.join(VARIANTS)}")
            try:
                parsed = _ENUMS[key](value)
            except ValueError:
                valid = ", ".join(str(m.value) for m in _ENUMS[key])
                raise ConfigurationError(f"rule {key} cannot be {value!r}; valid values: {valid}") from None
            change: dict[str, Any] = {key: parsed}
            rules = replace(rules, **change)
        return rules

    def to_dict(self) -> dict[str, str]:
        """JSON-ready ``{variant: value}`` (every value a string, as `PlayerView.rules` holds them).

        A variant of `LATER_VARIANTS` appears only when set to a value other than its default here, so a game
        played under the rules of the first records records exactly what it recorded before the variant existed.
        """
        out = {"potions_per_night": self.potions_per_night.value, "werewolf_win": self.werewolf_win.value,
               "max_days": str(self.max_days)}
        for key in LATER_VARIANTS:
            value = getattr(self, key)
            if value != getattr(Rules, key):
                out[key] = value.value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Inverse of `to_dict`; unknown keys raise `ConfigurationError`."""
        return cls().with_overrides([f"{k}={v}" for k, v in data.items()])


@dataclass(frozen=True)
class WerewolfConfig:
    """Everything that defines a Werewolf game before the deal.

    Attributes:
        roles: the role set, one entry per player (dealt at random).
        rules: the rule variants. preset: the preset the roles came from, or ``custom``.

    Raises (on construction):
        ConfigurationError: an unplayable role set (`validate_roles`).
    """

    roles: tuple[Role, ...]
    rules: Rules = field(default_factory=Rules)
    preset: str = "custom"

    def __post_init__(self) -> None:
        validate_roles(self.roles, villagers_needed=self.rules.werewolf_win is WerewolfWin.PARITY_OR_VILLAGERS)

    @property
    def players(self) -> int:
        """Number of players."""
        return len(self.roles)

    @classmethod
    def build(cls, preset: str | None = None, players: int | None = None, roles: list[str] | None = None,
              rules: list[str] | tuple[str, ...] = ()) -> WerewolfConfig:
        """Build and validate a configuration from command-line style options.

        Args:
            preset: ``xu7`` (the default); its rule variants (`PRESET_RULES`) come before ``rules``.
            players: must match the preset when given.
            roles: explicit role names (override the preset, and start from `Rules`' defaults).
            rules: ``KEY=VALUE`` variant overrides.

        Raises:
            ConfigurationError: any problem, named in the message.
        """
        if roles:
            role_set = tuple(Role.parse(r) for r in roles)
            if players is not None and players != len(role_set):
                raise ConfigurationError(f"{len(role_set)} roles were given for {players} players")
            name = "custom"
        else:
            name = preset or DEFAULT_PRESET
            if name not in PRESET_NAMES:
                raise ConfigurationError(f"unknown Werewolf preset {name!r}; valid presets: {', '.join(PRESET_NAMES)}")
            role_set = preset_roles(name, players)
        defaults = () if roles else PRESET_RULES.get(name, ())
        return cls(roles=role_set, rules=Rules().with_overrides([*defaults, *rules]), preset=name)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (roles by value)."""
        return {"roles": [r.value for r in self.roles], "rules": self.rules.to_dict(), "preset": self.preset}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> WerewolfConfig:
        """Inverse of `to_dict` (cached: the game graph restores a state at every step)."""
        rules = data.get("rules", {})
        return _config_of(tuple(data["roles"]), tuple(sorted((k, str(v)) for k, v in rules.items())),
                          data.get("preset", "custom"))


@lru_cache(maxsize=256)
def _config_of(roles: tuple[str, ...], rules: tuple[tuple[str, str], ...], preset: str) -> WerewolfConfig:
    return WerewolfConfig(roles=tuple(Role(r) for r in roles), rules=Rules.from_dict(dict(rules)), preset=preset)
