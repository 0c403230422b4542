"""Named settings: a preset plus the rule variants one paper played (docs/games/avalon.md#named-settings), so a user
need not know the keys.

| setting | preset | variants | source |
|---|---|---|---|
| ``official`` | any | the defaults | the rulebook |
| ``lan`` | ``lan6`` | ``discussion=before_proposal``, ``fifth_rejection=leader_assigns``,
``assassination=after_each_quest`` | Lan et al. (EMNLP 2024) |
| ``avalonbench`` | ``bench5`` | ``fifth_rejection=auto_approve``, ``discussion=leader_first_and_last`` | Light et al.,
*AvalonBench* (2023) |
| ``avalonplay`` | ``play7`` | ``fifth_rejection=auto_approve``, ``two_fail_quests=four_and_five``,
``evil_quest_card=must_fail``, ``discussion=leader_first_and_last`` | Shi et al., *Cooperation on the Fly* (2023) |

AvalonBench's LLM runs also showed only vote counts: add ``--rule vote_visibility=tally_only``.
"""

from __future__ import annotations

from dataclasses import dataclass

from roundtable.games.errors import ConfigurationError


@dataclass(frozen=True)
class Setting:
    """One named setting.

    Attributes:
        name: the setting's name (``--setting NAME``).
        preset: the role-set preset it plays, ``None`` for any.
        rules: ``KEY=VALUE`` variant overrides, applied before the user's own ``--rule``s.
        source: the paper or rulebook it follows.
    """

    name: str
    preset: str | None
    rules: tuple[str, ...]
    source: str

    def describe(self) -> str:
        """One line for ``--help`` and the README: preset and variants."""
        rules = ", ".join(self.rules) or "the default rules"
        return f"{self.name}: {self.preset or 'any preset'}; {rules} ({self.source})"


SETTINGS: dict[str, Setting] = {
    s.name: s
    for s in (
        Setting("official", None, (), "the rulebook"),
        Setting("lan", "lan6", ("discussion=before_proposal", "fifth_rejection=leader_assigns",
                                "assassination=after_each_quest"), "Lan et al. 2024"),
        Setting("avalonbench", "bench5", ("fifth_rejection=auto_approve", "discussion=leader_first_and_last"),
                "Light et al., AvalonBench"),
        Setting("avalonplay", "play7", ("fifth_rejection=auto_approve", "two_fail_quests=four_and_five",
                                        "evil_quest_card=must_fail", "discussion=leader_first_and_last"),
                "Shi et al., Cooperation on the Fly"),
    )
}
"""Every named setting, by name."""


def setting(name: str, preset: str | None = None,
            rules: list[str] | tuple[str, ...] = ()) -> tuple[str | None, list[str]]:
    """The preset and rule overrides of setting ``name``, with the user's own ``preset`` and ``rules`` on top.

    Args:
        name: a key of `SETTINGS`.
        preset: the user's ``--preset`` (wins over the setting's).
        rules: the user's ``--rule KEY=VALUE`` overrides (applied after the setting's).

    Returns:
        ``(preset, rules)`` to pass to `AvalonConfig.build`.

    Raises:
        ConfigurationError: an unknown setting (the message lists the known ones).
    """
    if name not in SETTINGS:
        raise ConfigurationError(f"unknown setting {name!r}; valid settings: {', '.join(SETTINGS)}")
    chosen = SETTINGS[name]
    return preset if preset is not None else chosen.preset, [*chosen.rules, *rules]
