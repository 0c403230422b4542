"""The play-quality measures every game shares: parroting, thoughts said aloud, fallbacks and cost
(docs/measures.md#play-quality), read from a record's events and usage."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from roundtable.detectors.plain import plain_copy
from roundtable.detectors.words import copied_from, repeats_thought, run_on_fragment, says_nothing, stated_tactic
from roundtable.games.fallbacks import fell_back
from roundtable.games.protocol import BELIEF
from roundtable.metrics.quality.result import PlayQuality

R = TypeVar("R")


def seat_roles(record: dict[str, Any], role: Callable[[str], R]) -> list[R]:
    """The record's roles by seat (``[0]`` is Player 1's), each read by ``role`` (the game's role enum).

    Raises:
        KeyError, ValueError: the record has no roles or an unknown role.
    """
    return [role(record["roles"][str(p)]) for p in range(1, len(record["roles"]) + 1)]


def utterances(record: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The record's utterance events that have words, in order."""
    for event in record.get("events") or []:
        if event.get("type") == "utterance" and (event.get("text") or "").strip():
            yield event


def public(event: dict[str, Any]) -> bool:
    """Whether an utterance was said to the whole table (``to`` is None), not to a private council."""
    return event.get("to") is None


def count_talk(record: dict[str, Any], quality: PlayQuality) -> None:
    """Count parroting, thoughts said aloud and empty talk over the record's utterances into ``quality``.

    Parroting: an utterance with words is a case, and a hit when more than half of its word 4-grams appear in one
    earlier utterance of the game that names every number it names (`roundtable.detectors.words.copies`); its
    plain count beside it (`plain_copies`) on the same cases, with no rule for numbers, moves or stock phrases.
    Thoughts said aloud: an utterance is a case when its speaker has private thoughts recorded by then
    (``thoughts`` of its decisions up to this one, `roundtable.games.protocol.Decision.thoughts`), and a hit when
    it reads one of them out (more than half of its word 4-grams, and at least eight, appear in it:
    `roundtable.detectors.words.repeats_thought`), or, said to the whole table, when it states the speaker's
    own tactic, its private plan read out (`roundtable.detectors.words.stated_tactic`: "I will draw suspicion
    by hinting that I am Merlin"), or when it begins with the rest of a thought run on into the words
    (`roundtable.detectors.words.run_on_fragment`: "success card to fail the third quest. This will ..."; words
    cleaned since 2026-11-29 lose it before they are said). A record without thoughts gives no case.
    Empty talk: an utterance said to the whole table is a case, and a hit when it says nothing
    (`roundtable.detectors.words.says_nothing`: no player, role, side or stance named) or is silent (a turn
    whose words were empty: `roundtable.games.fallbacks.SAID_NOTHING`).
    """
    spoken: list[str] = []
    thoughts: dict[int, list[str]] = {}
    for event in record.get("events") or []:
        if event.get("type") == "decision":
            thoughts.setdefault(int(event["player"]), []).extend(t for t in event.get("thoughts") or () if t)
            continue
        if event.get("type") != "utterance":
            continue
        if not (event.get("text") or "").strip():  # a turn kept silent says nothing
            if public(event) and event.get("speaker") is not None:
                quality.count("empty_talk", True)
                quality.example("empty_talk", f"P{event['speaker']}: (says nothing)")
            continue
        text, speaker = event["text"], int(event["speaker"])
        spoken.append(text)
        source = copied_from(spoken, len(spoken) - 1)
        quality.count("parroting", source is not None)
        quality.count("plain_copies", plain_copy(text, spoken[:-1]))
        if source is not None:
            quality.example("parroting", f"P{speaker}: {text!r} copies {spoken[source]!r}")
        if public(event):
            empty = says_nothing(text)
            quality.count("empty_talk", empty)
            if empty:
                quality.example("empty_talk", f"P{speaker}: {text!r}")
        mine = thoughts.get(speaker)
        if mine:
            said = next((t for t in mine if repeats_thought(text, t)), None)
            tactic = stated_tactic(text) if said is None and public(event) else None
            ran_on = run_on_fragment(text) if said is None and tactic is None else None
            quality.count("thoughts_aloud", said is not None or tactic is not None or ran_on is not None)
            if said is not None:
                quality.example("thoughts_aloud", f"P{speaker}: {text!r} repeats its thought {said!r}")
            elif tactic is not None:
                quality.example("thoughts_aloud", f"P{speaker}: {text!r} states its tactic {tactic!r}")
            elif ran_on is not None:
                quality.example("thoughts_aloud", f"P{speaker}: {text!r} begins with its thought run on {ran_on!r}")


def count_fallbacks(record: dict[str, Any], quality: PlayQuality) -> None:
    """Count decisions answered by a fallback rule into ``quality.fallback_decisions``, and the game's cost.

    Cases are the record's decisions other than the end-of-game belief probe (as Lan et al.'s VRR counts them,
    `roundtable.metrics.strategy`), hits those that fell back (`fell_back`). A record without decision entries
    falls back on its usage's ``decisions`` and ``fallbacks`` (fallback reasons: a decision may have several).
    Costs come from ``usage["game"]``.
    """
    game = (record.get("usage") or {}).get("game") or {}
    decisions = [e for e in record.get("events") or [] if e.get("type") == "decision" and e.get("kind") != BELIEF]
    if decisions:
        quality.fallback_decisions.cases += len(decisions)
        quality.fallback_decisions.hits += sum(1 for d in decisions if fell_back(d))
    else:
        quality.fallback_decisions.cases += int(game.get("decisions", 0))
        quality.fallback_decisions.hits += min(int(game.get("fallbacks", 0)), int(game.get("decisions", 0)))
    for decision in decisions:
        if fell_back(decision):
            quality.example("fallback_decisions", f"P{decision['player']} {decision.get('kind')}: "
                                                  f"{decision['fallback']}")
    quality.calls = game.get("calls", 0)
    quality.prompt_tokens = game.get("prompt_tokens", 0)
    quality.uncached_tokens = game.get("prompt_tokens", 0) - game.get("cached_tokens", 0)
    quality.completion_tokens = game.get("completion_tokens", 0)
    quality.fallbacks = game.get("fallbacks", 0)
