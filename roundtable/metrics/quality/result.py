"""What a play-quality measure gives: counts of hits among cases (`Share`), one game's measures or a pool of games'
(`PlayQuality`), and the targets of issue 35 (`TARGETS`). The measures themselves: docs/measures.md#play-quality.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from roundtable.models.spec import aids_active


@dataclass
class Share:
    """A count of hits among cases (``rate`` is None when there are no cases)."""

    hits: int = 0
    cases: int = 0

    @property
    def rate(self) -> float | None:
        """``hits / cases``, or None without cases."""
        return self.hits / self.cases if self.cases else None

    def add(self, other: Share) -> Share:
        """The two counts summed."""
        return Share(self.hits + other.hits, self.cases + other.cases)


@dataclass
class PlayQuality:
    """A game's play-quality measures and cost, or the pooled measures and summed costs of several games.

    Each measure is a `Share` (docs/measures.md#play-quality says what is a hit and what a case):

    Attributes:
        parroting: utterances that copy an earlier one, among utterances with words.
        thoughts_aloud: utterances that repeat one of the speaker's own private thoughts, among the utterances of
            speakers with thoughts recorded by then.
        self_exposure: public utterances that expose their speaker (an evil player's or a werewolf's side,
            Merlin's role or sight), among public utterances with words.
        merlin_exposed: public utterances of the good side (the village) stating who the real Merlin (the real
            Seer) is, by anyone but himself, among the good side's public utterances with words.
        plain_copies: utterances with words more than half of whose word 4-grams appear in one earlier utterance
            (`roundtable.detectors.plain.plain_copy`), among utterances with words: parroting's plain count, beside
            it, with none of its rules for numbers, moves and stock phrases.
        plain_named: utterances of merlin_exposed's cases that put the real Merlin's (the real Seer's) number within
            four words of the role's name (`roundtable.detectors.plain.plain_names`): its plain count, beside it,
            hedges, questions and denials counted too.
        empty_talk: public utterances that say nothing (name no player, no role or side, and take no stance) or
            are silent, among public utterances; no target of its own (it shows talk that meets the others by saying
            nothing).
        settled_decisions: decisions that follow what the player's own knowledge settles, among those it settles
            (Avalon: team votes; Werewolf: werewolf, Seer and Witch picks).
        dead_named: Werewolf picks naming a dead player, among picks made once a player has died.
        words_and_actions: actions matching what the player's words named, among actions whose player named one
            (Avalon: final proposals; Werewolf: day votes).
        fallback_decisions: decisions a fallback rule answered (in part), among decisions (1 - VRR).
        five_rejections: finished Avalon games that ended by five rejected teams, among finished Avalon games.
        settled_rules: ``settled_decisions`` broken down by rule, e.g. ``"seer vote"``.
        five_rejection_quests: the quest (round) in which each game ending by five rejections ended.
        calls, prompt_tokens, uncached_tokens, completion_tokens, fallbacks: the game's model usage (``fallbacks``:
            fallback reasons, as usage counts them).
        examples: per measure, a few offending utterances or actions, for reading.
    """

    parroting: Share = field(default_factory=Share)
    thoughts_aloud: Share = field(default_factory=Share)
    self_exposure: Share = field(default_factory=Share)
    merlin_exposed: Share = field(default_factory=Share)
    plain_copies: Share = field(default_factory=Share)
    plain_named: Share = field(default_factory=Share)
    empty_talk: Share = field(default_factory=Share)
    settled_decisions: Share = field(default_factory=Share)
    dead_named: Share = field(default_factory=Share)
    words_and_actions: Share = field(default_factory=Share)
    fallback_decisions: Share = field(default_factory=Share)
    five_rejections: Share = field(default_factory=Share)
    settled_rules: dict[str, Share] = field(default_factory=dict)
    five_rejection_quests: list[int] = field(default_factory=list)
    calls: float = 0
    prompt_tokens: float = 0
    uncached_tokens: float = 0
    completion_tokens: float = 0
    fallbacks: float = 0
    examples: dict[str, list[str]] = field(default_factory=dict)

    MEASURES: ClassVar[tuple[str, ...]] = (
        "parroting", "plain_copies", "thoughts_aloud", "self_exposure", "merlin_exposed", "plain_named", "empty_talk",
        "settled_decisions",
        "dead_named", "words_and_actions", "fallback_decisions", "five_rejections")
    """The `Share` measures, in the order tables print them."""
    COSTS: ClassVar[tuple[str, ...]] = ("calls", "prompt_tokens", "uncached_tokens", "completion_tokens", "fallbacks")

    def add(self, other: PlayQuality) -> PlayQuality:
        """Pooled measures and summed costs of two games (or a total and a game)."""
        total = PlayQuality(**{m: getattr(self, m).add(getattr(other, m)) for m in self.MEASURES},
                            **{c: getattr(self, c) + getattr(other, c) for c in self.COSTS})
        for rule in sorted(set(self.settled_rules) | set(other.settled_rules)):
            mine, theirs = self.settled_rules.get(rule, Share()), other.settled_rules.get(rule, Share())
            total.settled_rules[rule] = mine.add(theirs)
        total.five_rejection_quests = self.five_rejection_quests + other.five_rejection_quests
        for key in set(self.examples) | set(other.examples):
            total.examples[key] = self.examples.get(key, []) + other.examples.get(key, [])
        return total

    def example(self, measure: str, text: str) -> None:
        """Keep ``text`` as an example of ``measure``."""
        self.examples.setdefault(measure, []).append(text)

    def count(self, measure: str, hit: bool, rule: str | None = None) -> None:
        """Count one case of ``measure`` (a hit when ``hit``), and of its ``rule`` in `settled_rules` when given."""
        share: Share = getattr(self, measure)
        share.hits, share.cases = share.hits + int(hit), share.cases + 1
        if rule is not None:
            self.settled_rules[rule] = self.settled_rules.get(rule, Share()).add(Share(int(hit), 1))


LABELS = {"parroting": "parroting", "thoughts_aloud": "thoughts said aloud", "self_exposure": "self-exposure",
          "merlin_exposed": "Merlin (Seer) exposed", "empty_talk": "empty talk",
          "plain_copies": "plain: 4-gram copies", "plain_named": "plain: role word near Merlin's (Seer's) number",
          "settled_decisions": "knowledge-settled decisions right",
          "dead_named": "dead players named", "words_and_actions": "words and actions agree",
          "fallback_decisions": "fallbacks", "five_rejections": "games ended by five rejections"}
"""How tables and `roundtable show` name each measure."""

TARGETS: dict[str, tuple[str, float]] = {
    "parroting": ("<=", 0.10), "thoughts_aloud": ("<=", 0.05), "self_exposure": ("<=", 0.05),
    "merlin_exposed": ("<=", 0.05), "settled_decisions": (">=", 0.80), "words_and_actions": (">=", 0.90),
    "five_rejections": ("<=", 1 / 3), "fallback_decisions": ("<=", 0.05)}
"""Issue 35's target per measure: ``(sense, rate)``; ``dead_named`` (it should be 0), ``empty_talk`` (no target in
the issue) and the plain counts (instruments beside a detector, not goals) have none."""


def meets(measure: str, rate: float | None) -> bool | None:
    """Whether ``rate`` meets ``measure``'s target (`TARGETS`); None without a rate or a target."""
    if rate is None or measure not in TARGETS:
        return None
    sense, target = TARGETS[measure]
    return rate <= target + 1e-12 if sense == "<=" else rate >= target - 1e-12


def aids_of(records: Iterable[Mapping[str, Any]]) -> str:
    """Whether the model seats of ``records`` played with the small-model aids on (docs/agents/aids.md): ``on``,
    ``off``, ``on for 3 of 5 model seats``, or ``no model seat``; a seat's aids are its ``aids`` option, else
    whether its model is small (`roundtable.models.spec.aids_active`), as when it played."""
    seats = [seat for record in records for seat in record.get("seats") or () if seat.get("model")]
    if not seats:
        return "no model seat"
    on = sum(aids_active((seat.get("options") or {}).get("aids"), seat["model"]) for seat in seats)
    return "on" if on == len(seats) else "off" if on == 0 else f"on for {on} of {len(seats)} model seats"
