"""A model-driven agent's decision: the fallback rules of docs/games/protocol.md#fallback-rules over what was read,
words cleaned (the protocol's cleaning, and the aids' with them on), cost summed.

Shared by the model-driven kinds' last node (``lga``'s and ``codeact``'s
``decide``). No model call: whatever the replies were, the decision returned
passes `check_decision`; every rule that had to step in is named in
`Decision.fallback`, and the raw replies are kept in `Decision.raw`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from roundtable.agents.common.model_calls import UNUSABLE_KEY, total_usage
from roundtable.aids.interface import clean_words
from roundtable.detectors.words import says_nothing
from roundtable.games import GAMES
from roundtable.games.fallbacks import (
    PLAIN_WORDS,
    SAID_NOTHING,
    checked,
    choose_beliefs,
    choose_pick,
    choose_yes_no,
    join_reasons,
    table_words,
)
from roundtable.games.protocol import Decision, PlayerView, Request

RAW_SEPARATOR = "\n---\n"


UNUSABLE_REPLY = "unusable reply"
"""The reason recorded for a module whose call failed (`unusable_replies`)."""


def unusable_replies(usage: Sequence[dict[str, Any]]) -> list[str]:
    """``"<module>: unusable reply (<n> of <m> calls)"`` for each module with a failed call among the per-call usage
    records ``usage`` (``failures`` > 0, or a reply that did not parse: `UNUSABLE_KEY`; a record with no
    ``module`` counts as ``"model"``), in order of first appearance.

    A failed call (a reply cut at its length limit, not valid JSON, or refused) is recorded even when the agent
    went on without it (a merged call asked for again in parts, questions left unasked): every unusable model reply
    is named in `Decision.fallback` (docs/games/protocol.md#fallback-rules).
    """
    failed: dict[str, int] = {}
    asked: dict[str, int] = {}
    for record in usage:
        module = str(record.get("module") or "model")
        asked[module] = asked.get(module, 0) + int(record.get("calls") or 0) + int(record.get("failures") or 0)
        if record.get("failures") or record.get(UNUSABLE_KEY):
            failed[module] = failed.get(module, 0) + int(record.get("failures") or 0) + int(
                record.get(UNUSABLE_KEY) or 0)
    return [f"{module}: {UNUSABLE_REPLY} ({n} of {asked[module]} call{'s' if asked[module] > 1 else ''})"
            for module, n in failed.items()]


def said_words(text: str | None, speaker: int, max_words: int, aids: bool) -> tuple[str, str | None]:
    """The words the table hears and why any were dropped: the aids' cleaning
    (`roundtable.aids.interface.clean_words`) with the seat's aids on, else only the protocol's
    (`roundtable.games.fallbacks.table_words`: lines posing as the Host or another player, the word cap)."""
    return clean_words(text, speaker, max_words) if aids else table_words(text, speaker, max_words)


def final_decision(view: PlayerView, request: Request, seed: int, *, action: dict[str, Any] | None,
                   utterance: str | None, replies: Sequence[str], problems: Sequence[str | None],
                   usage: Sequence[dict[str, Any]], checks: Sequence[str], response_words: int,
                   attempts: int = 0, thoughts: Sequence[str] = (), aids: bool = False) -> Decision:
    """The legal `Decision` for ``request`` from the answer and words read.

    Args:
        view: the deciding player's view.
        request: the request decided.
        seed: the agent's seed (it drives the seeded fallbacks).
        action: what was read: ``players`` (+ ``passed``), ``choice`` or ``beliefs`` (``{player: P(good)}``);
            ``None``/``{}``: nothing.
        utterance: the words read for the table (``None``: none).
        response_words: their word limit.
        replies: every raw model reply (joined into ``Decision.raw``; none: ``None``).
        problems: fallback reasons found on the way (``None`` entries ignored).
        usage: per-call usage records (summed into ``Decision.usage``; a failed call is named in
            ``Decision.fallback``, `unusable_replies`).
        checks: what the agent's own checks found (`Decision.checks`).
        attempts: how often too few players were asked for again (for the pick fallback).
        thoughts: the agent's private texts behind the answer (`Decision.thoughts`; blank ones and repeats
            dropped, whitespace collapsed).
        aids: the seat's aids are on: the words get the aids' cleaning, not only the protocol's
            (`said_words`).
    """
    action = dict(action or {})
    reasons: list[str | None] = list(problems)
    fields: dict[str, Any] = {}
    if request.answer == "pick":
        choice = choose_pick(request, action.get("players"), seed, passed=bool(action.get("passed")),
                             attempt=attempts)
        fields["players"] = choice.players
        reasons.append(choice.fallback)
    elif request.answer == "yes_no":
        fields["choice"], reason = choose_yes_no(request, action.get("choice"))
        reasons.append(reason)
    elif request.answer == "belief":
        fields["beliefs"], reason = choose_beliefs(request, action.get("beliefs"))
        reasons.append(reason)
    if request.wants_words:
        said, reason = said_words(utterance, view.player, response_words, aids)
        reasons.append(reason)
        if not said:  # the game's plain words when they say something (a team, a kill vote), else silence
            plain = GAMES[view.game].plain_words(view, request, Decision.to(request, **fields))
            silent = says_nothing(plain)
            said = "" if silent else plain
            reasons.append(SAID_NOTHING if silent else PLAIN_WORDS)
        fields["utterance"] = said
    reasons += unusable_replies(usage)
    raw = RAW_SEPARATOR.join(replies) if replies else None  # an empty reply is kept as ""
    fallback = join_reasons(reasons)
    count = len(fallback.split("; ")) if fallback else 0
    private = tuple(dict.fromkeys(" ".join(str(t).split()) for t in thoughts if t and str(t).strip()))
    decision = Decision.to(request, raw=raw, fallback=fallback, checks=tuple(checks),
                           usage=total_usage(usage, fallbacks=count), **fields)
    return checked(request, decision, seed).model_copy(update={"thoughts": private})  # kept by a repair too
