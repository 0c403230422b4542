"""Avalon's behaviours after Lan et al. 2024 (§5.2.2, §6): deception in round 1, teamwork and confrontation
per role pair and round, and Merlin's and Percival's sharing in round 1 (docs/judge.md#avalon).

Declared as ``avalon`` under the ``roundtable.judges`` entry points.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from roundtable.games import GAMES
from roundtable.games.avalon.roles import Role, Side
from roundtable.judge.answers import Item
from roundtable.judge.behaviours import (
    claim_choices,
    claim_items,
    game_terms,
    sharing_items,
    stance_behaviour,
    title_aliases,
)
from roundtable.judge.measures import (
    CATEGORIES,
    by_condition,
    category,
    deception_rows,
    first_claims,
    sharing_rows,
    stance_counts,
    stance_rows,
)
from roundtable.judge.protocol import Behaviour, Figure, GameJudge, Judged
from roundtable.judge.transcript import Transcript
from roundtable.metrics.tables import Measure

RULES = GAMES["avalon"]
ROLES = [(role, RULES.role_title(role), Role(role).side.value) for role in RULES.roles]
"""``[(role, title, side)]`` of every Avalon role."""

SIDES = tuple(side.value for side in Side)
CHOICES = claim_choices(RULES.roles, SIDES)
ALIASES = title_aliases(ROLES) | {"loyal servant": "servant", "servant of arthur": "servant", "minion": "minion"}
SHARING_ROLES = ("merlin", "percival")
"""The roles whose first-round sharing Lan et al. measured (Fig. 6a)."""
KNOWN_AS = {"evil": "on the evil side", "merlin_or_morgana": "Merlin or Morgana (one of the two)"}
"""What a knowledge event's ``is`` says, in words."""


def role_of(transcript: Transcript, player: int) -> str:
    """A player's role (the group of Avalon's tables)."""
    return transcript.roles.get(player, "?")


def deception_items(transcript: Transcript) -> list[Item]:
    """The deception questions: each round-1 utterance's claim (`claim_items`)."""
    return claim_items(transcript, CHOICES, ALIASES, rounds=[1])


def sharing_questions(transcript: Transcript) -> list[Item]:
    """The sharing questions: Merlin's and Percival's round-1 words against what they know (`sharing_items`)."""
    return sharing_items(transcript, SHARING_ROLES, KNOWN_AS, {role: title for role, title, _ in ROLES})


BEHAVIOURS = {
    "deception": Behaviour("deception", "judge/deception",
                           "Deception: the role or side each round-1 utterance's speaker claims for itself.",
                           deception_items),
    "stance": stance_behaviour("Teamwork and confrontation: the speaker's stance towards each player its words "
                               "name."),
    "sharing": Behaviour("sharing", "judge/sharing",
                         "Sharing: which of Merlin's and Percival's private facts their round-1 words disclose.",
                         sharing_questions),
}


def measures(judged: Mapping[str, Sequence[Judged]]) -> list[Measure]:
    """Every condition's deception, stance (with vacillation) and sharing rows."""
    return by_condition(lambda condition, items: [
        *deception_rows(condition, items), *stance_rows(condition, items, role_of, "role_pair"),
        *sharing_rows(condition, items, SHARING_ROLES)], judged)


def summary(judged: Judged) -> str:
    """One line: the round-1 claims (camouflage with the role claimed), the stances read, the share of private
    knowledge Merlin and Percival disclosed in round 1."""
    parts = []
    if "deception" in judged.answers:
        kinds: Counter[str] = Counter()
        camouflage = []
        for player, claim in first_claims(judged, "deception").items():
            role = role_of(judged.transcript, player)
            kind = category(claim, role, judged.transcript.sides.get(player, ""))
            kinds[kind] += 1
            if kind == "camouflage":
                camouflage.append(f"P{player} {role} as {claim}")
        parts.append("round-1 claims " + ", ".join(f"{kinds[k]} {k.replace('_', '-')}" for k in CATEGORIES)
                     + (f" ({'; '.join(camouflage)})" if camouflage else ""))
    if "stance" in judged.answers:
        said = stance_counts(judged)
        parts.append(f"stances {said['trust']} trust, {said['distrust']} distrust, {said['neither']} neither")
    if "sharing" in judged.answers:
        shared = [f"{r.group} {r.k:g}/{r.n:g}" for r in sharing_rows("", [judged], SHARING_ROLES)]
        parts.append("round-1 sharing " + (", ".join(shared) or "none known"))
    return "; ".join(parts)


FIGURES = (
    Figure("deception", "Deception in round 1 per role (Lan et al. Fig. 4 shape)", "bars", CATEGORIES, "role",
           "Each player's first claim about itself in round 1: its own role or side (self-disclosure), another "
           "role or side (camouflage), or none (withholding); share of the role's players."),
    Figure("claims", "Roles claimed in round 1", "table", ("claims",), "role_claim",
           "`role>claimed`: how many players of the role first claimed that role or side in round 1, of the "
           "role's players."),
    Figure("stance", "Teamwork and confrontation per role pair (Lan et al. Fig. 5 shape)", "heatmap",
           ("trust", "distrust"), "role_pair",
           "`speaker>target`: of the stances players of the speaker's role took towards players of the "
           "target's role they named, the share of trust (teamwork) and of distrust (confrontation)."),
    Figure("vacillation", "Trust across rounds (Lan et al. Fig. 6b-c shape)", "lines", ("trust",),
           "role_pair_round", "The share of trust per role pair in each quest."),
    Figure("vacillation_rate", "Vacillation per role pair", "table", ("vacillation",), "role_pair",
           "Of a speaker's stated stances (trust or distrust) towards one player in successive quests, the share "
           "that changed."),
    Figure("sharing", "Sharing of private knowledge in round 1 (Lan et al. Fig. 6a shape)", "bars", ("sharing",),
           "role", "Of the facts Merlin and Percival know at the start (who is evil; who is Merlin or Morgana), "
           "the share their round-1 words disclose."),
)

JUDGE = GameJudge(name="avalon", round_field="round",
                  terms=game_terms("avalon", "The Resistance: Avalon", RULES.round_name, ROLES, SIDES),
                  behaviours=BEHAVIOURS, measures=measures, figures=FIGURES, summary=summary,
                  groups=tuple(RULES.roles))
"""Avalon's judge, declared under the ``roundtable.judges`` entry points."""
