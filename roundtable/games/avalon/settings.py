"""Named settings: a preset plus the rule variants one paper played (docs/games/avalon.md#named-settings), so a user
need not know the keys.

| setting | preset | variants | source |
|---|---|---|---|
| ``official`` | any | the defaults | the rulebook |
| ``lan`` | ``lan6`` | ``discussion=before_proposal``, ``fifth_rejection=leader_assigns``,
``assassination=after_each_quest`` (a mid-game miss exposes the Assassin and play goes on) | Lan et al. (EMNLP 2024) |
| ``avalonbench`` | ``bench5`` | ``fifth_rejection=auto_approve``, ``discussion=leader_first_and_last`` | Light et al.,
*AvalonBench* (2023) |
| ``avalonplay`` | ``play7`` | ``fifth_rejection=auto_approve``, ``two_fail_quests=four_and_five``,
``evil_quest_card=must_fail``, ``discussion=leader_first`` (no last word for the leader),
``vote_visibility=tally_only`` (secret ballots) | Shi et al., *Cooperation on the Fly* (2023) |

AvalonBench's LLM runs also showed only vote counts: add ``--rule vote_visibility=tally_only``.
"""

from __future__ import annotations

from roundtable.games.protocol import Setting, named_setting

SETTINGS: dict[str, Setting] = {
    s.name: s
    for s in (
        Setting("official", None, (), "the rulebook"),
        Setting("lan", "lan6", ("discussion=before_proposal", "fifth_rejection=leader_assigns",
                                "assassination=after_each_quest"), "Lan et al. 2024"),
        Setting("avalonbench", "bench5", ("fifth_rejection=auto_approve", "discussion=leader_first_and_last"),
                "Light et al., AvalonBench"),
        Setting("avalonplay", "play7", ("fifth_rejection=auto_approve", "two_fail_quests=four_and_five",
                                        "evil_quest_card=must_fail", "discussion=leader_first",
                                        "vote_visibility=tally_only"),
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
    return named_setting("avalon", SETTINGS, name, preset, rules)
