"""Per-player metrics of Lan et al. (2024) and AvalonBench, ratios of `PlayerFacts` counts pooled over games.

Source: Lan, Hu, Wang et al., *LLM-Based Agent Society Investigation* (EMNLP
2024), §4 and Tables 2, 6-8; definitions as in docs/measures.md#lan-et-al-2024:

- ``WR`` win rate: games won / games played (each game counted once per side within a group);
- ``QER`` quest engagement rate: rounds on the quest team / rounds played;
- ``FVR`` failure vote rate: fail cards / quest cards played (evil players only);
- ``LAR`` leader approval rate: approve votes on the player's proposals / all votes on them;
- ``SRR`` self-recommendation rate: proposals and suggestions including the speaker / all of its proposals
  and suggestions; ``SRS`` self-recommendation success: of those, the ones made in a round whose quest
  team held the speaker;
- ``VRR`` valid response rate: decisions answered without a fallback / all decisions;
- ``deduction_accuracy`` (AvalonBench, Light et al. 2023): other players whose side a good player's
  end-of-game belief guesses right / other players it stated a belief on, and ``deduction_baseline``,
  the same for the trivial belief of 0.5 for everyone (`roundtable.metrics.deduction`), and
  ``probe_answered``: belief probes a model-driven seat answered usably / those asked of it (the rest
  are left out of deduction accuracy, `roundtable.graphs.probe`).

Each is pooled over games (sum of numerators / sum of denominators) within a
group, with Wilson's interval on the pooled counts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from roundtable.metrics.facts import PlayerFacts


@dataclass(frozen=True)
class PlayerMetric:
    """A pooled proportion over player-games: ``k(facts)`` of ``n(facts)``; ``applies`` says which players count."""

    name: str
    description: str
    k: Callable[[PlayerFacts], int]
    n: Callable[[PlayerFacts], int]
    applies: Callable[[PlayerFacts], bool] = lambda p: True
    per_side: bool = False
    """Count each (game, side) once in a group: every player of a side shares its outcome, so pooling the
    players would count one game several times and narrow the interval falsely."""


def _probed(facts: PlayerFacts) -> bool:
    """Whether the player's end-of-game belief is scored: it is on the side the probe asks about (Avalon's good
    players; `roundtable.metrics.deduction.deductions`)."""
    return facts.probed_side


PLAYER_METRICS: tuple[PlayerMetric, ...] = (
    PlayerMetric("WR", "games won / games played (each side of a game counted once per group)", lambda p: int(p.won),
                 lambda p: 1, per_side=True),
    PlayerMetric("QER", "rounds on the quest team / rounds played", lambda p: p.rounds_on_team, lambda p: p.rounds),
    PlayerMetric("FVR", "fail cards / quest cards played (evil)", lambda p: p.fail_cards, lambda p: p.quest_cards,
                 lambda p: p.side == "evil"),
    PlayerMetric("LAR", "approve votes on own proposals / votes on them", lambda p: p.approvals_on_proposals,
                 lambda p: p.votes_on_proposals),
    PlayerMetric("SRR", "own proposals and suggestions including oneself / all of them", lambda p: p.self_proposals,
                 lambda p: p.proposals),
    PlayerMetric("SRS", "self-including proposals in rounds one went on the quest / self-including proposals",
                 lambda p: p.self_proposals_on_team, lambda p: p.self_proposals),
    PlayerMetric("VRR", "decisions without a fallback / decisions", lambda p: p.valid_decisions, lambda p: p.decisions),
    PlayerMetric("deduction_accuracy", "other players whose side a good player's end-of-game belief guesses right "
                 "(good when P(good) >= 0.5) / other players it stated a belief on", lambda p: p.right_guesses,
                 lambda p: p.guesses, _probed),
    PlayerMetric("deduction_baseline", "the same for the trivial belief 0.5 for everyone (every other player "
                 "guessed good)", lambda p: p.baseline_guesses, lambda p: p.guesses, _probed),
    PlayerMetric("probe_answered", "belief probes answered usably / belief probes asked of a model-driven seat (an "
                 "unusable answer is left out of deduction accuracy)", lambda p: p.usable_probes, lambda p: p.probes,
                 lambda p: p.probes > 0),
)
