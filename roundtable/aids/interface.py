"""The one interface between a kind and the aids (docs/agents/aids.md#the-aids-step).

A kind's step answers as its paper says and hands what it answered, as an `Answer`, to the aids' step, which the
kind draws as a node of its own graph (``aids``), between the step that answered and the next, so Studio stops on
it and shows what it changed. `check` returns the state update: nothing, a re-ask (the Host's note in
``recheck``, the answer cleared so the step that gave it runs again), an overrule, or words with sentences dropped;
each intervention is named in ``checks`` (`Decision.checks`). A kind imports the aids only from here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from roundtable.aids.cleaning import said_words
from roundtable.aids.options import CheckOptions, check_prompts
from roundtable.aids.review import heard_lines, words_update
from roundtable.aids.sampling import AGAIN_TEMPERATURE, DRY_SAMPLING, speech_sampling, speech_temperature
from roundtable.aids.settled import Settled, avalon_settled, settled_update
from roundtable.aids.switch import auto_switch
from roundtable.games.protocol import PlayerView, Request
from roundtable.prompts.rendering import PromptContext

__all__ = ["AGAIN_TEMPERATURE", "DRY_SAMPLING", "Answer", "CheckOptions", "auto_switch", "avalon_settled", "check",
           "check_prompts", "heard_lines", "said_words", "speech_sampling", "speech_temperature"]


@dataclass(frozen=True)
class Answer:
    """What one step of a kind answered, and what the aids need to check it.

    Attributes:
        context: the kind's prompt context (the Host's notes are its templates).
        view: the deciding player's view. request: the request answered.
        options: the seat's aid options (`CheckOptions`; ``aided`` says whether the aids are on).
        action: the answer read (``players``, ``choice``), or None.
        words: the words the step wrote for the table, or None when it wrote none to check.
        heard: ``[("Player 3", text), ...]``: what the player heard (its own words among them).
        thoughts: the private notes the step's prompt showed (a copy of them said aloud is a fault).
        settled: what the player's own knowledge settles for this decision (`roundtable.aids.settled`), or None.
        reviewed: the answer in hand is already the second (no third is asked).
        response_words: the word limit of the words.
        vote: the step answered a decision the ``vote_check`` checks (a team vote).
    """

    context: PromptContext
    view: PlayerView
    request: Request
    options: CheckOptions
    action: dict[str, Any] | None
    words: str | None
    heard: Sequence[tuple[str, str]] = field(default_factory=tuple)
    thoughts: Sequence[str] = field(default_factory=tuple)
    settled: Settled | None = None
    reviewed: bool = False
    response_words: int = 20
    vote: bool = False


def check(answer: Answer) -> dict[str, Any]:
    """The aids' state update for ``answer`` (``{}`` when no check is on, as with the aids off, or nothing is found).

    A vote against what is settled is asked for again (the ``action`` cleared) or overruled
    (`roundtable.aids.settled.settled_update`); words are checked before they are said
    (`roundtable.aids.review.words_update`): asked for again (``utterance`` cleared), kept, or said with their
    failing sentences dropped (``utterance`` set).
    """
    opts = answer.options
    update: dict[str, Any] = {}
    if answer.vote and opts.vote_check != "off":
        update |= settled_update(answer.context, answer.view, answer.request, answer.settled, answer.action,
                                 opts.vote_check, answer.reviewed, opts.overrules())
    if answer.words is not None:
        action = update.get("action", answer.action)  # an overruled vote's team is the one the words must name
        checked = words_update(answer.context, answer.view, answer.request, answer.words,
                               (action or {}).get("players"), heard=answer.heard, thoughts=answer.thoughts,
                               checks=opts.word_checks, response_words=answer.response_words,
                               reviewed=answer.reviewed, drop=opts.drops_sentences())
        update |= checked
        update["utterance"] = None if checked.get("recheck") else checked.get("utterance", answer.words)
    return update
