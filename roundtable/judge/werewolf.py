"""Werewolf's behaviours after Xu et al. 2023 (§5): trust and confrontation between the sides, day by day, and
camouflage, per side (docs/judge.md#werewolf).

Declared as ``werewolf`` under the ``roundtable.judges`` entry points.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from roundtable.games import GAMES
from roundtable.games.werewolf.roles import Role, Side
from roundtable.judge.answers import Item
from roundtable.judge.behaviours import claim_choices, claim_items, game_terms, stance_behaviour, title_aliases
from roundtable.judge.measures import by_condition, camouflage_rows, stance_counts, stance_rows
from roundtable.judge.protocol import Behaviour, Figure, GameJudge, Judged
from roundtable.judge.transcript import Transcript
from roundtable.metrics.tables import Measure

RULES = GAMES["werewolf"]
ROLES = [(role, RULES.role_title(role), Role(role).side.value) for role in RULES.roles]
"""``[(role, title, side)]`` of every Werewolf role."""

SIDES = tuple(side.value for side in Side)
CHOICES = claim_choices(RULES.roles, SIDES)
ALIASES = title_aliases(ROLES) | {"villagers": "village", "werewolf side": "werewolves"}


def side_of(transcript: Transcript, player: int) -> str:
    """A player's side (the group of Werewolf's tables)."""
    return transcript.sides.get(player, "?")


def camouflage_items(transcript: Transcript) -> list[Item]:
    """The camouflage questions: every utterance's claim, every day (`claim_items`)."""
    return claim_items(transcript, CHOICES, ALIASES)


BEHAVIOURS = {
    "stance": stance_behaviour("Trust and confrontation: the speaker's stance towards each player its words name."),
    "camouflage": Behaviour("camouflage", "judge/camouflage",
                            "Camouflage: the role or side each utterance's speaker claims for itself.",
                            camouflage_items),
}


def measures(judged: Mapping[str, Sequence[Judged]]) -> list[Measure]:
    """Every condition's trust and confrontation rows per side pair (with vacillation) and camouflage per side."""
    return by_condition(lambda condition, items: [
        *stance_rows(condition, items, side_of, "side_pair"), *camouflage_rows(condition, items, side_of, "side")],
        judged)


def summary(judged: Judged) -> str:
    """One line: the stances read, and per side the utterances that claim another role or side."""
    parts = []
    if "stance" in judged.answers:
        said = stance_counts(judged)
        parts.append(f"stances {said['trust']} trust, {said['distrust']} distrust, {said['neither']} neither")
    if "camouflage" in judged.answers:
        rows = [r for r in camouflage_rows("", [judged], side_of, "side") if r.metric == "camouflage"]
        parts.append("camouflage " + (", ".join(f"{r.group} {r.k:g}/{r.n:g} utterances" for r in rows) or "-"))
    return "; ".join(parts)


FIGURES = (
    Figure("stance", "Trust and confrontation per side pair (Xu et al. §5.1-5.2)", "heatmap", ("trust", "distrust"),
           "side_pair", "`speaker>target`: of the stances players of the speaker's side took towards players of "
           "the target's side they named, the share of trust and of distrust (confrontation)."),
    Figure("trust_by_day", "Trust day by day (Xu et al. Fig. 5's question)", "lines", ("trust",), "side_pair_round",
           "The share of trust per side pair on each day."),
    Figure("vacillation_rate", "Vacillation per side pair", "table", ("vacillation",), "side_pair",
           "Of a speaker's stated stances (trust or distrust) towards one player on successive days, the share "
           "that changed."),
    Figure("camouflage", "Camouflage per side (Xu et al. §5.3)", "bars", ("camouflage", "self_disclosure"), "side",
           "Of each side's utterances, the share claiming a role or side not the speaker's own (camouflage) and "
           "its own."),
    Figure("camouflage_per_game", "Camouflage utterances per game", "table", ("camouflage_per_game",), "side",
           "Mean per game, with a bootstrap interval (Xu et al. Fig. 3c-d count camouflage per side)."),
)

JUDGE = GameJudge(name="werewolf", round_field="day",
                  terms=game_terms("werewolf", "Werewolf", RULES.round_name, ROLES, SIDES),
                  behaviours=BEHAVIOURS, measures=measures, figures=FIGURES, summary=summary, groups=SIDES)
"""Werewolf's judge, declared under the ``roundtable.judges`` entry points."""
