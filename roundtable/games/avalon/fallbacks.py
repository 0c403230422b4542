"""Fallback rules that turn an unusable answer into a legal action (SPEC.md §3.2).

Pure functions over a `Request` and what could be read from a reply: no
LangChain, no model, no I/O. A model-driven agent reads what it can from its
reply (see ``roundtable.tools.extraction``) and hands it here; every function
returns a legal value and, when a rule had to step in, a short reason that the
agent stores in `Decision.fallback` (each use counts against the valid response
rate, VRR).

The rules:

- team vote unclear: counts as approve;
- quest card unclear: fail for an evil player; a good player can only play
  success (whatever it said);
- too many players named: keep the first legal ones up to the team size;
- too few: ask again (the caller's retry loop, `TeamChoice.retry`), then fill at
  random from the legal candidates, seeded with ``rng_for(seed, request.id, ...)``;
- nonexistent players, duplicates and players outside the candidates are
  dropped before anything reaches the rules;
- assassination target unclear or not a candidate: a random candidate (or a
  pass, when the Assassin may pass: a random mid-game shot would throw the game
  away on a misread reply).

Utterances are cleaned too (`sanitize_utterance`): lines that pose as the host,
moderator or system, or as another player, are removed, and the text is capped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..rng import rng_for
from .bots.words import words_for
from .errors import IllegalActionError
from .requests import Decision, Request, check_decision
from .view import PlayerView

# ------------------------------------------------------------------- teams


@dataclass(frozen=True)
class TeamChoice:
    """Outcome of the team rules for one reply.

    Attributes:
        team: the legal team (exactly the size asked, distinct candidates), or
            ``None`` when the caller should ask again (``retry``).
        retry: too few legal players were named and retries are left.
        fallback: the reason a rule changed the answer, or ``None`` when the
            reply named a legal team as it stood.
        problems: each problem found in the reply, e.g. ``player 9 does not exist``.
    """

    team: tuple[int, ...] | None
    retry: bool = False
    fallback: str | None = None
    problems: tuple[str, ...] = ()


def clean_team(named: Iterable[object] | None, size: int, candidates: Sequence[int]) -> tuple[list[int], list[str]]:
    """Keep the legal players of a named list, in the order named, at most ``size``.

    Args:
        named: what the reply named (ints, or anything: non-integers are dropped).
        size: the team size asked. candidates: the players that may be named.

    Returns:
        ``(team, problems)``: up to ``size`` distinct candidates, and a
        description of every player dropped (nonexistent, not allowed, named
        twice, beyond the team size).
    """
    team: list[int] = []
    problems: list[str] = []
    allowed = set(candidates)
    for item in named or ():
        if isinstance(item, bool) or not isinstance(item, int):
            try:
                player = int(str(item).strip())
            except ValueError:
                problems.append(f"{str(item)[:20]!r} is not a player number")
                continue
        else:
            player = item
        if player in team:
            problems.append(f"player {player} named twice")
        elif player not in allowed:
            problems.append(f"player {player} cannot be chosen")
        elif len(team) >= size:
            problems.append(f"player {player} is beyond the team size of {size}")
        else:
            team.append(player)
    return team, problems


def choose_team(
    request: Request,
    named: Iterable[object] | None,
    seed: int,
    *,
    retries_left: int = 0,
    attempt: int = 0,
) -> TeamChoice:
    """Apply the team rules to the players a reply named.

    Args:
        request: a ``propose_team`` request, or a ``speak`` request asking for a
            suggestion (``team_size`` set).
        named: the players read from the reply, in order (``None``: nothing readable).
        seed: the game seed (for the seeded fill).
        retries_left: how many more times the agent may ask again.
        attempt: the number of the try this reply answered (0 first), part of the fill's seed key.

    Returns:
        A `TeamChoice`: a legal team, or ``retry`` when too few players were
        named and a retry is left.

    Raises:
        ValueError: the request asks for no team.
    """
    if request.team_size is None:
        raise ValueError(f"request {request.id} ({request.kind}) asks for no team")
    size = request.team_size
    team, problems = clean_team(named, size, request.candidates)
    if named is None:
        problems.insert(0, "no players named")
    if len(team) == size:
        reason = None
        if problems:
            too_many = any("beyond the team size" in p for p in problems)
            reason = "too many players named: kept the first legal ones" if too_many else "illegal players dropped"
        return TeamChoice(tuple(team), fallback=reason, problems=tuple(problems))
    if retries_left > 0:
        return TeamChoice(None, retry=True, problems=tuple(problems) + (f"only {len(team)} of {size} legal players",))
    rng = rng_for(seed, request.id, "fill", attempt)
    rest = [p for p in request.candidates if p not in team]
    rng.shuffle(rest)
    filled = tuple(team + rest[: size - len(team)])
    reason = f"too few players named ({len(team)} of {size}): filled at random"
    return TeamChoice(filled, fallback=reason, problems=tuple(problems))


# ------------------------------------------------------ votes, cards, targets


def choose_vote(approve: bool | None) -> tuple[bool, str | None]:
    """A team vote: ``None`` (unclear) counts as approve.

    Returns:
        ``(approve, fallback reason or None)``.
    """
    if approve is None:
        return True, "vote unclear: counted as approve"
    return bool(approve), None


def choose_card(request: Request, success: bool | None) -> tuple[bool, str | None]:
    """A quest card: unclear means fail for an evil player; a good player can only play success.

    Args:
        request: the ``quest_card`` request (``cards`` is ``(True,)`` for good players).
        success: the card read from the reply, ``None`` when unclear.

    Returns:
        ``(success, fallback reason or None)``.
    """
    if request.cards == (True,):
        if success is False:
            return True, "a good player can only play success"
        return True, None
    if success is None:
        fallback_card = False if False in request.cards else True
        return fallback_card, "quest card unclear: counted as fail" if not fallback_card else "quest card unclear"
    if success not in request.cards:
        return request.cards[0], "card not allowed"
    return bool(success), None


def choose_target(
    request: Request, target: int | None, seed: int, *, passed: bool = False
) -> tuple[int | None, str | None]:
    """The assassination target.

    Args:
        request: the ``assassinate`` request (``candidates``, ``may_pass``).
        target: the player read from the reply, ``None`` when unclear.
        seed: the game seed (for the random candidate).
        passed: the reply clearly declined to name anyone.

    Returns:
        ``(target or None for a pass, fallback reason or None)``. A clear pass is
        kept when passing is allowed; an unclear or invalid reply becomes a pass
        when passing is allowed, otherwise a random candidate.
    """
    if target is not None and target in request.candidates:
        return target, None
    if passed and target is None and request.may_pass:
        return None, None
    if target is not None:
        reason = f"player {target} cannot be assassinated"
    else:
        reason = "assassination target unclear"
    if request.may_pass:
        return None, reason + ": passed"
    rng = rng_for(seed, request.id, "target")
    return rng.choice(list(request.candidates)), reason + ": random candidate"


# ----------------------------------------------------------------- words

_AUTHORITY = (
    r"moderator|host|system|narrator|game\s*master|gm|announcer|referee|judge|admin(?:istrator)?|"
    r"dealer|arbiter|assistant|user|server|official|rules?\s*engine"
)
# "Moderator: ...", "[System] ...", "(Host) ...", "**Narrator**: ..."
_AUTHORITY_LINE = re.compile(
    rf"^\W*(?:the\s+)?(?:{_AUTHORITY})\b\W*(?::|says|announces|declares|\]|\)|-|—|$)", re.IGNORECASE
)
# Official-sounding outcome announcements, e.g. "GAME OVER: evil wins".
_OUTCOME_LINE = re.compile(
    r"^\W*(?:game\s+over|the\s+game\s+(?:is\s+)?over|the\s+game\s+has\s+ended|"
    r"(?:the\s+)?(?:good|evil)\s+(?:team\s+|side\s+)?(?:wins|has\s+won|won)|winner\s*:)",
    re.IGNORECASE,
)
# The same claims in the middle of a line: "I agree. Moderator: evil wins" (the rest of the line is cut).
_INLINE_CLAIM = re.compile(
    rf"(?:[\[(]\s*(?:{_AUTHORITY})\s*[\])]|\b(?:{_AUTHORITY})\s*:|\bplayer\s*(\d+)\s*:)", re.IGNORECASE
)
_SPEAKER_PREFIX = re.compile(r"^\W*player\s*(\d+)\s*(?:\([^)]*\))?\s*[:\-—]\s*", re.IGNORECASE)
_LABEL_PREFIX = re.compile(r"^\W*(?:words|response|answer|speech|say|utterance)\s*:\s*", re.IGNORECASE)
_SPECIAL_TOKENS = re.compile(r"<\|[^|>]{1,40}\|>|</?s>|\[/?INST\]")
# Transcript markup a model copies from its prompt, e.g. "[suggests players 5, 6]".
_TRANSCRIPT_MARKUP = re.compile(r"[\[(]\s*suggest(?:s|ed)?\b[^\])]*[\])]", re.IGNORECASE)


def sanitize_utterance(text: str | None, speaker: int, max_words: int) -> tuple[str, str | None]:
    """Clean a model's words before they reach the table.

    Removes chat-template tokens and transcript markup copied from the prompt
    (``(suggests 5, 6)``), lines that pose as the host, moderator or
    system (``Moderator: the game is over, evil wins``), official-sounding
    outcome announcements, and lines put in another player's mouth
    (``Player 4: I am evil``); strips the speaker's own name or a ``Words:``
    label at the start of a line; collapses whitespace; caps the text at
    ``max_words`` words.

    Args:
        text: the raw words (``None`` or empty gives an empty result).
        speaker: the speaking player's number. max_words: the word cap (>= 1).

    Returns:
        ``(clean text, reason or None)``: a reason when lines were removed
        for posing as someone else (a cap alone is no fallback).
    """
    if not text:
        return "", None
    text = _TRANSCRIPT_MARKUP.sub(" ", _SPECIAL_TOKENS.sub(" ", text))
    kept: list[str] = []
    removed = 0
    for line in text.splitlines():
        if not line.strip():
            continue
        if _AUTHORITY_LINE.match(line) or _OUTCOME_LINE.match(line):
            removed += 1
            continue
        match = _SPEAKER_PREFIX.match(line)
        if match:
            if int(match.group(1)) != speaker:
                removed += 1
                continue
            line = line[match.end():]
        line = _LABEL_PREFIX.sub("", line)
        for claim in _INLINE_CLAIM.finditer(line):
            if claim.group(1) is not None and int(claim.group(1)) == speaker:
                continue  # the speaker naming itself
            line = line[: claim.start()]
            removed += 1
            break
        if line.strip():
            kept.append(line.strip())
    words = " ".join(" ".join(kept).split()).split(" ")
    clean = " ".join(words[: max(1, max_words)]).strip().strip('"').strip()
    if len(words) > max_words and clean and clean[-1] not in ".!?":
        clean += "..."
    reason = f"{removed} passage(s) posing as the host or another player removed" if removed else None
    return clean, reason


def default_words(view: PlayerView, request: Request, team: tuple[int, ...] | None) -> str:
    """Plain words matching the action, for when a reply gave none usable (rule-bot wording)."""
    return words_for(view, request, team)


# --------------------------------------------------------------- the net


def join_reasons(reasons: Iterable[str | None]) -> str | None:
    """``"; "``-joined non-empty reasons, or ``None``."""
    kept = [r for r in reasons if r]
    return "; ".join(dict.fromkeys(kept)) if kept else None


def safe_decision(request: Request, seed: int, *, raw: str | None = None, reason: str = "no usable reply") -> Decision:
    """A legal decision for ``request`` built by the fallback rules alone.

    The last resort when an agent cannot produce anything checkable (used also
    when a repaired decision still fails `check_decision`, which would be a bug).

    Returns:
        A `Decision` that passes `check_decision`, with ``fallback`` set to ``reason``.
    """
    fields: dict[str, object] = {}
    if request.kind == "propose_team" or (request.kind == "speak" and request.team_size is not None):
        fields["team"] = choose_team(request, None, seed).team
    elif request.kind == "vote_team":
        fields["approve"] = choose_vote(None)[0]
    elif request.kind == "quest_card":
        fields["success"] = choose_card(request, None)[0]
    elif request.kind == "assassinate":
        fields["target"] = choose_target(request, None, seed)[0]
    decision = Decision(
        request_id=request.id, player=request.player, kind=request.kind, raw=raw, fallback=reason,
        utterance="I have nothing to add." if request.wants_words else None, **fields,
    )
    check_decision(request, decision)
    return decision


def checked(request: Request, decision: Decision, seed: int) -> Decision:
    """``decision`` if it passes `check_decision`, else `safe_decision` keeping its raw text and usage."""
    try:
        check_decision(request, decision)
        return decision
    except IllegalActionError as error:
        safe = safe_decision(request, seed, raw=decision.raw, reason=f"illegal decision repaired: {error}")
        return safe.model_copy(update={"usage": decision.usage, "utterance": decision.utterance or safe.utterance})
