"""Play-quality measures of an Avalon game, computed from its record with no model.

What a person watching a game of language-model agents notices first, as
shares of a game's utterances, votes and proposals (issue "Play quality on the
embedded model"):

* **parroting**: an utterance that mostly repeats an earlier utterance of the
  same game: more than half of its word 4-grams appear in one earlier
  utterance (utterances shorter than four words: the same words);
* **self-exposure**: an evil player stating its own side, its evil role or its
  intent to fail in public, or Merlin stating outright that a player he sees is
  evil, or that he is Merlin (detected by the phrase patterns of
  `roundtable.agents.common.words.exposes`: a heuristic, so it counts what the
  patterns catch);
* **knowledge-settled votes**: votes that the voter's own reveal knowledge
  decides (`roundtable.games.avalon.knowledge_of`): Merlin on a team with an
  evil player he sees (reject) or with none (approve); an evil player who knows
  its side on a team with a member of its side, itself included (approve) or
  without one (reject); and every vote on a fifth team whose rejection wins
  the game for evil (good approves, evil rejects, whatever it knows); the
  share that follow it;
* **words and actions**: of the leaders' final proposals whose leader named a
  team of the right size in its last words of that proposal, the share whose
  team is the one named.

Alongside them, `agent_checks` counts the agent's own checks in the record's
decisions (`Decision.checks`: near copies, words and team, self-exposure,
votes against what the player knows) and how many of the re-asks they
caused fixed what they found.

Input is a game record (`roundtable.store.records.build_record`): ``roles``,
``events`` (utterances, proposals, votes, vote results, in order) and
``usage``. Output is plain dicts and numbers, so a benchmark prints them and a
test checks them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from roundtable.agents.common.words import copied_from, exposes, named_team
from roundtable.games.avalon import FifthRejection, Role, knowledge_of, knowledge_vote, rejection_wins

# ------------------------------------------------------ knowledge-settled votes


def settled_vote(roles: Sequence[Role], voter: int, team: Iterable[int], last_chance: bool = False) -> bool | None:
    """The vote the voter's own reveal knowledge decides on ``team``, or None when it decides nothing
    (`roundtable.games.avalon.knowledge_vote` over what the roles reveal to the voter); on a team whose rejection
    wins the game for evil (``last_chance``: the fifth proposal under ``fifth_rejection=evil_wins``,
    docs/games/avalon.md#fifth_rejection) the rule decides every vote: good approves, evil rejects.

    Args:
        roles: the roles by seat (``roles[p - 1]`` is player ``p``'s).
        voter: the voting player, 1-based.
        team: the proposed team.
        last_chance: a rejection of this team ends the game with evil's win.
    """
    if last_chance:
        return roles[voter - 1].side.value == "good"
    return knowledge_vote(roles[voter - 1], voter, knowledge_of(tuple(roles), voter), team)


def last_chance(record: dict[str, Any], attempt: int) -> bool:
    """Whether rejecting proposal ``attempt`` of a round of the recorded game wins the game for evil."""
    rules = (record.get("config") or {}).get("rules") or {}
    return rejection_wins(attempt, rules.get("fifth_rejection", FifthRejection.EVIL_WINS))


# ------------------------------------------------------------------- a game


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
    """A game's play-quality measures and cost.

    Attributes:
        parroting: utterances that copy an earlier one (hits) among public and private utterances with words (cases).
        self_exposure: public utterances that expose their speaker, among public utterances with words.
        settled_votes: votes that follow the voter's knowledge, among the votes it settles.
        words_and_actions: final proposals matching the team the leader named, among those where it named one.
        calls, prompt_tokens, uncached_tokens, completion_tokens, fallbacks: the game's model usage.
        seconds: model seconds summed over calls (wall time lives with the benchmark).
        examples: per measure, a few offending utterances, for reading.
    """

    parroting: Share = field(default_factory=Share)
    self_exposure: Share = field(default_factory=Share)
    settled_votes: Share = field(default_factory=Share)
    words_and_actions: Share = field(default_factory=Share)
    calls: float = 0
    prompt_tokens: float = 0
    uncached_tokens: float = 0
    completion_tokens: float = 0
    fallbacks: float = 0
    examples: dict[str, list[str]] = field(default_factory=dict)

    MEASURES = ("parroting", "self_exposure", "settled_votes", "words_and_actions")
    COSTS = ("calls", "prompt_tokens", "uncached_tokens", "completion_tokens", "fallbacks")

    def add(self, other: PlayQuality) -> PlayQuality:
        """Pooled measures and summed costs of two games (or a total and a game)."""
        total = PlayQuality(**{m: getattr(self, m).add(getattr(other, m)) for m in self.MEASURES},
                            **{c: getattr(self, c) + getattr(other, c) for c in self.COSTS})
        for key in set(self.examples) | set(other.examples):
            total.examples[key] = self.examples.get(key, []) + other.examples.get(key, [])
        return total


def _example(quality: PlayQuality, measure: str, text: str) -> None:
    quality.examples.setdefault(measure, []).append(text)


def play_quality(record: dict[str, Any]) -> PlayQuality:
    """The play-quality measures of one Avalon game record.

    Args:
        record: a game record (`roundtable.store.records.build_record`): ``roles``
            (``{"1": "merlin", ...}``), ``events`` and ``usage``.

    Returns:
        The game's `PlayQuality`; costs come from ``usage["game"]``.

    Raises:
        KeyError, ValueError: the record has no roles or an unknown role.
    """
    roles = [Role(record["roles"][str(p)]) for p in range(1, len(record["roles"]) + 1)]
    quality = PlayQuality()
    spoken: list[str] = []
    last_words: dict[tuple[int, int, int], str] = {}
    teams: dict[tuple[int, int], list[int]] = {}
    for event in record.get("events") or []:
        kind = event.get("type")
        if kind == "utterance" and (event.get("text") or "").strip():
            text = event["text"]
            spoken.append(text)
            source = copied_from(spoken, len(spoken) - 1)
            quality.parroting.cases += 1
            if source is not None:
                quality.parroting.hits += 1
                _example(quality, "parroting", f"P{event['speaker']}: {text!r} copies {spoken[source]!r}")
            last_words[(event["round"], event["attempt"], event["speaker"])] = text
            if _public(event):
                speaker = int(event["speaker"])
                seen = [int(k["player"]) for k in knowledge_of(tuple(roles), speaker) if k["is"] == "evil"]
                why = exposes(text, roles[speaker - 1], seen)
                quality.self_exposure.cases += 1
                if why:
                    quality.self_exposure.hits += 1
                    _example(quality, "self_exposure", f"P{speaker} ({roles[speaker - 1].value}, {why}): {text!r}")
        elif kind == "proposal" and event.get("final"):
            team = list(event["team"])
            teams[(event["round"], event["attempt"])] = team
            said = last_words.get((event["round"], event["attempt"], event["leader"]))
            named = named_team(said or "", len(team))
            if named is not None:
                quality.words_and_actions.cases += 1
                if set(named) == set(team):
                    quality.words_and_actions.hits += 1
                else:
                    _example(quality, "words_and_actions",
                             f"P{event['leader']} said {said!r}, proposed {team}")
        elif kind == "vote_team":
            voted_on = teams.get((event["round"], event["attempt"]))
            expected = (settled_vote(roles, int(event["player"]), voted_on, last_chance(record, int(event["attempt"])))
                        if voted_on is not None else None)
            if expected is not None:
                quality.settled_votes.cases += 1
                if bool(event["approve"]) == expected:
                    quality.settled_votes.hits += 1
                else:
                    _example(quality, "settled_votes",
                             f"P{event['player']} ({roles[event['player'] - 1].value}) "
                             f"{'approved' if event['approve'] else 'rejected'} {voted_on}")
    game = (record.get("usage") or {}).get("game") or {}
    quality.calls = game.get("calls", 0)
    quality.prompt_tokens = game.get("prompt_tokens", 0)
    quality.uncached_tokens = game.get("prompt_tokens", 0) - game.get("cached_tokens", 0)
    quality.completion_tokens = game.get("completion_tokens", 0)
    quality.fallbacks = game.get("fallbacks", 0)
    return quality


CHECK_KINDS = (("near copy", "near copy"), ("words name players", "words and team"),
               ("words expose", "self-exposure"), ("against knowledge", "vote against knowledge"),
               ("against record", "vote against record"))
"""How a `Decision.checks` entry starts or what it contains, and the kind of check it is counted under."""


def check_kind(check: str) -> str:
    """The kind of check (`CHECK_KINDS`) of one `Decision.checks` entry, or ``other``."""
    return next((kind for mark, kind in CHECK_KINDS if mark in check), "other")


def agent_checks(record: dict[str, Any]) -> dict[str, Share]:
    """How often each kind of the agent's own checks asked again, and how often that fixed the problem.

    A decision's entry ending ``asked again`` is a re-ask (a case); it is a hit
    unless the same decision also has an entry of the same kind ending ``kept
    after asking again`` (the second answer had the problem too).

    Args:
        record: a game record with ``decisions`` (a list of `Decision` dicts).

    Returns:
        ``{kind: Share(fixed, asked)}`` for the kinds that asked at least once.
    """
    shares: dict[str, Share] = {}
    for decision in record.get("decisions") or []:
        checks = list(decision.get("checks") or [])
        kept = {check_kind(c) for c in checks if c.endswith("kept after asking again")}
        for check in checks:
            if check.endswith(": asked again"):
                kind = check_kind(check)
                shares[kind] = shares.get(kind, Share()).add(Share(int(kind not in kept), 1))
    return shares


def _public(event: dict[str, Any]) -> bool:
    """Whether an utterance was said to the whole table (``to`` is None), not the evil players' private council."""
    return event.get("to") is None
