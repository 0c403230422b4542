"""Game configuration: the role set and the rule variants (docs/games/avalon.md#rule-variants)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from functools import lru_cache
from typing import Any

from roundtable.games.avalon.roles import PRESET_NAMES, Role, preset_roles, validate_roles
from roundtable.games.errors import ConfigurationError


class FifthRejection(str, Enum):
    """What happens to the fifth proposal of a round.

    ``evil_wins`` (official rules): a fifth rejection wins the game for evil.
    ``auto_approve`` (AvalonBench) and ``leader_assigns`` (Lan et al.): the
    fifth team goes on the quest without a vote. The two differ only in the
    wording recorded in the log.
    """

    EVIL_WINS = "evil_wins"
    AUTO_APPROVE = "auto_approve"
    LEADER_ASSIGNS = "leader_assigns"


class Discussion(str, Enum):
    """When players talk in a round.

    ``leader_first_and_last`` (AvalonBench): the leader proposes and speaks,
    every other player speaks once, the leader finalizes the team (and may
    change it) with a last word. ``before_proposal`` (Lan et al.): every player
    suggests a team, then the leader picks. ``none``: no talk at all.
    ``leader_first`` (Shi et al., AvalonPlay): the leader names the team and
    speaks, every other player speaks once about it, and the team goes to the
    vote as named: the leader has no last word and cannot change it.
    """

    LEADER_FIRST_AND_LAST = "leader_first_and_last"
    BEFORE_PROPOSAL = "before_proposal"
    NONE = "none"
    LEADER_FIRST = "leader_first"


class Assassination(str, Enum):
    """When the Assassin may name Merlin.

    ``end_only`` (official): after the third successful quest. ``after_each_quest``
    (Lan et al.): also at the end of any earlier round, once per game. A hit
    wins for evil at once. A mid-game miss ends nothing: the table learns that
    the named player is not Merlin and who the Assassin is, and play goes on
    with no shot left, so three successful quests then win for good outright.
    A shot not taken before the third success is taken then as in the
    official rules (a miss there wins for good).
    """

    END_ONLY = "end_only"
    AFTER_EACH_QUEST = "after_each_quest"


class VoteVisibility(str, Enum):
    """Who sees each team vote.

    ``public`` (official): every player's vote is revealed, with the approvers.
    ``tally_only`` (AvalonBench's LLM runs; Shi et al.'s secret ballots): each
    player sees only its own vote and the counts; the record keeps every vote
    for analysis.
    """

    PUBLIC = "public"
    TALLY_ONLY = "tally_only"


class TwoFailQuests(str, Enum):
    """Which quests need two fail cards at 7+ players.

    ``official`` (the rulebook): quest 4 only. ``four_and_five`` (Shi et al.,
    *Cooperation on the Fly*, AvalonPlay, as the paper states its rules):
    quests 4 and 5.
    """

    OFFICIAL = "official"
    FOUR_AND_FIVE = "four_and_five"


class EvilQuestCard(str, Enum):
    """What an evil team member may play on a quest.

    ``free`` (official): success or fail. ``must_fail`` (Shi et al.,
    AvalonPlay): evil team members always play fail, so their only choice
    is whether to be on the team.
    """

    FREE = "free"
    MUST_FAIL = "must_fail"


class AssassinationTargets(str, Enum):
    """Whom the Assassin may name.

    ``not_known_evil`` (the rulebook, docs/games/avalon.md#assassination_targets): any player outside the
    evil players who know each other (Oberon, unknown to them, may be named).
    ``any_seat`` (AvalonBench's own code, a fidelity switch of docs/games/avalon.md#assassination_targets):
    any seat, the Assassin and its teammates included; naming an evil player
    is a miss. AvalonBench's published 38.2% baseline was not measured with it: its
    Assassin bot draws among the good players (docs/agents/naive.md#the-avalonbench-flavour).
    """

    NOT_KNOWN_EVIL = "not_known_evil"
    ANY_SEAT = "any_seat"


_VARIANTS: dict[str, type[Enum]] = {
    "fifth_rejection": FifthRejection,
    "discussion": Discussion,
    "assassination": Assassination,
    "vote_visibility": VoteVisibility,
    "two_fail_quests": TwoFailQuests,
    "evil_quest_card": EvilQuestCard,
    "assassination_targets": AssassinationTargets,
}


LATER_VARIANTS: tuple[str, ...] = ("two_fail_quests", "evil_quest_card", "assassination_targets")
"""Variants recorded only when not at their default (see `Rules.to_dict`)."""

VARIANTS: dict[str, tuple[str, ...]] = {k: tuple(m.value for m in e) for k, e in _VARIANTS.items()}
"""Every rule variant and its values, the default first."""


@dataclass(frozen=True)
class Rules:
    """The rule variants of one game; defaults are the first value of each table row in
    docs/games/avalon.md#rule-variants."""

    fifth_rejection: FifthRejection = FifthRejection.EVIL_WINS
    discussion: Discussion = Discussion.LEADER_FIRST_AND_LAST
    assassination: Assassination = Assassination.END_ONLY
    vote_visibility: VoteVisibility = VoteVisibility.PUBLIC
    two_fail_quests: TwoFailQuests = TwoFailQuests.OFFICIAL
    evil_quest_card: EvilQuestCard = EvilQuestCard.FREE
    assassination_targets: AssassinationTargets = AssassinationTargets.NOT_KNOWN_EVIL

    def with_overrides(self, pairs: list[str] | tuple[str, ...]) -> Rules:
        """Return a copy with ``KEY=VALUE`` overrides applied in order.

        Raises:
            ConfigurationError: malformed pair, unknown variant or value (the
                message lists the valid ones).
        """
        rules = self
        for pair in pairs:
            key, sep, value = pair.partition("=")
            key, value = key.strip().replace("-", "_"), value.strip()
            if not sep or not key or not value:
                raise ConfigurationError(f"rule {pair!r} is not of the form KEY=VALUE")
            if key not in _VARIANTS:
                raise ConfigurationError(f"unknown rule variant {key!r}; valid variants: {', '.join(_VARIANTS)}")
            enum = _VARIANTS[key]
            try:
                parsed = enum(value)
            except ValueError:
                valid = ", ".join(str(m.value) for m in enum)
                raise ConfigurationError(f"rule {key} cannot be {value!r}; valid values: {valid}") from None
            change: dict[str, Any] = {key: parsed}
            rules = replace(rules, **change)
        return rules

    def to_dict(self) -> dict[str, str]:
        """JSON-ready ``{variant: value}``.

        The variants added after the first records were kept (`LATER_VARIANTS`)
        appear only when set to a value other than their default, so a game
        under the default rules records exactly what it recorded before them.
        """
        out = {k: getattr(self, k).value for k in _VARIANTS}
        for key in LATER_VARIANTS:
            if out[key] == getattr(Rules, key).value:
                del out[key]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, str]) -> Rules:
        """Inverse of `to_dict`; unknown keys raise `ConfigurationError`."""
        return cls().with_overrides([f"{k}={v}" for k, v in data.items()])


@dataclass(frozen=True)
class AvalonConfig:
    """Everything that defines a game before the deal: role set, rule variants, preset name.

    Attributes:
        roles: the role set, one entry per player (order irrelevant: roles are dealt at random).
        rules: the rule variants.
        preset: the preset the role set came from, or ``custom``.
    """

    roles: tuple[Role, ...]
    rules: Rules = field(default_factory=Rules)
    preset: str = "custom"

    def __post_init__(self) -> None:
        validate_roles(self.roles)

    @property
    def players(self) -> int:
        """Number of players (5 to 10)."""
        return len(self.roles)

    @classmethod
    def build(
        cls,
        preset: str | None = None,
        players: int | None = None,
        roles: list[str] | None = None,
        rules: list[str] | tuple[str, ...] = (),
    ) -> AvalonConfig:
        """Build and validate a configuration from command-line style options.

        Args:
            preset: ``lan6``, ``bench5``, ``play7`` or ``standard``; default
                ``standard`` (or ``bench5``-like standard for 5 players).
            players: player count; required to match a fixed preset.
            roles: explicit role names (overrides ``preset``).
            rules: ``KEY=VALUE`` rule variant overrides.

        Raises:
            ConfigurationError: any problem, named in the message.
        """
        if roles:
            role_set = tuple(Role.parse(r) for r in roles)
            if players is not None and players != len(role_set):
                raise ConfigurationError(f"{len(role_set)} roles were given for {players} players")
            name = "custom"
        else:
            name = preset or "standard"
            if name not in PRESET_NAMES:
                raise ConfigurationError(f"unknown preset {name!r}; valid presets: {', '.join(PRESET_NAMES)}")
            role_set = preset_roles(name, players)
        return cls(roles=role_set, rules=Rules().with_overrides(list(rules)), preset=name)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (roles by value)."""
        return {"roles": [r.value for r in self.roles], "rules": self.rules.to_dict(), "preset": self.preset}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AvalonConfig:
        """Inverse of `to_dict` (the game graph restores a state at every step: parsed once per distinct dict)."""
        rules = data.get("rules", {})
        return _config_of(tuple(data["roles"]), tuple(sorted(rules.items())), data.get("preset", "custom"))


@lru_cache(maxsize=256)
def _config_of(roles: tuple[str, ...], rules: tuple[tuple[str, str], ...], preset: str) -> AvalonConfig:
    return AvalonConfig(roles=tuple(Role(r) for r in roles), rules=Rules.from_dict(dict(rules)), preset=preset)
