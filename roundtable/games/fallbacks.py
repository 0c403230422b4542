"""Fallback rules that turn an unusable answer into a legal one, per answer shape
(docs/games/protocol.md#fallback-rules).

Pure functions over a `Request` and what could be read from a reply: no
LangChain, no model, no I/O, no game-specific code. A model-driven agent reads
what it can from its reply (see ``roundtable.agents.common.extraction``) and hands it
here; every function returns a legal value and, when a rule had to step in, a
short reason that the agent stores in `Decision.fallback` (each use counts
against the valid response rate, VRR).

The rules, by answer shape:

- ``pick``: players that do not exist, duplicates and players outside the
  candidates are dropped before anything reaches the rules; too many named:
  keep the first legal ones up to the count; too few: ask again (the caller's
  retry loop, `PickChoice.retry`), then pass where passing is allowed (a
  random mid-game assassination would spend the Assassin's one shot on a
  misread reply and, missing, expose him to the whole table), else fill at
  random from the legal candidates, seeded with
  ``rng_for(seed, request.id, "fill", attempt)``;
- ``yes_no``: an unclear answer, or one not allowed, becomes the answer the
  game declared for unclear replies (`Request.unclear`: Avalon's team vote
  counts as approve, an evil player's quest card as fail, and a good player
  can only play success).

Utterances are cleaned too (`table_words`): lines that pose as the host,
moderator or system, or as another player, are removed, and the text is capped at
the game's word limit. Nothing else: the small-model aids clean more
(`roundtable.aids.cleaning`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from roundtable.games.errors import IllegalActionError
from roundtable.games.protocol import Decision, Request, check_decision
from roundtable.games.rng import rng_for

# ------------------------------------------------------------------- picks


@dataclass(frozen=True)
class PickChoice:
    """Outcome of the pick rules for one reply.

    Attributes:
        players: the legal answer (exactly the count asked, distinct
            candidates), ``None`` for a pass, and also ``None`` when the caller
            should ask again (``retry``).
        retry: too few legal players were named and retries are left.
        fallback: the reason a rule changed the answer, or ``None`` when the
            reply named a legal answer as it stood.
        problems: each problem found in the reply, e.g. ``player 9 cannot be chosen``.
    """

    players: tuple[int, ...] | None
    retry: bool = False
    fallback: str | None = None
    problems: tuple[str, ...] = ()


def clean_pick(named: Iterable[object] | None, count: int, candidates: Sequence[int]) -> tuple[list[int], list[str]]:
    """Keep the legal players of a named list, in the order named, at most ``count``.

    Args:
        named: what the reply named (ints, or anything: non-integers are dropped).
        count: how many players are asked for.
        candidates: the players that may be named.

    Returns:
        ``(players, problems)``: up to ``count`` distinct candidates, and a
        description of every player dropped (not a number, not allowed, named
        twice, beyond the count).
    """
    kept: list[int] = []
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
        if player in kept:
            problems.append(f"player {player} named twice")
        elif player not in allowed:
            problems.append(f"player {player} cannot be chosen")
        elif len(kept) >= count:
            problems.append(f"player {player} is beyond the {count} asked for")
        else:
            kept.append(player)
    return kept, problems


def choose_pick(
    request: Request,
    named: Iterable[object] | None,
    seed: int,
    *,
    passed: bool = False,
    retries_left: int = 0,
    attempt: int = 0,
) -> PickChoice:
    """Apply the pick rules to the players a reply named.

    Args:
        request: a ``pick`` request.
        named: the players read from the reply, in order (``None``: nothing readable).
        seed: the game seed (for the seeded fill).
        passed: the reply clearly named nobody (kept where passing is allowed).
        retries_left: how many more times the agent may ask again.
        attempt: the number of the try this reply answered (0 first), part of the fill's seed key.

    Returns:
        A `PickChoice`: a legal answer, or ``retry`` when too few players were
        named and a retry is left. A fallback reason names each player that could not be chosen (a dead
        player, say: ``"too few players named (0 of 1): passed (player 5 cannot be chosen)"``), so the
        measures of docs/measures.md#knowledge-settled-decisions count it.

    Raises:
        ValueError: the request is not a ``pick``.
    """
    if request.answer != "pick" or request.count is None:
        raise ValueError(f"request {request.id} ({request.kind}) asks for no players")
    count = request.count
    if passed and not named and request.may_pass:
        return PickChoice(None)
    kept, problems = clean_pick(named, count, request.candidates)
    if named is None:
        problems.insert(0, "no players named")
    refused = [p for p in problems if p.endswith("cannot be chosen")]
    named_refused = f" ({', '.join(refused)})" if refused else ""  # e.g. a dead player: the measures count it
    if len(kept) == count:
        reason = None
        if problems:
            too_many = any("beyond the" in p for p in problems)
            reason = ("too many players named: kept the first legal ones" if too_many
                      else f"illegal players dropped{named_refused}")
        return PickChoice(tuple(kept), fallback=reason, problems=tuple(problems))
    if retries_left > 0:
        return PickChoice(None, retry=True, problems=tuple(problems) + (f"only {len(kept)} of {count} legal players",))
    short = f"too few players named ({len(kept)} of {count})"
    if request.may_pass:
        return PickChoice(None, fallback=f"{short}: passed{named_refused}", problems=tuple(problems))
    rng = rng_for(seed, request.id, "fill", attempt)
    rest = [p for p in request.candidates if p not in kept]
    rng.shuffle(rest)
    filled = tuple(kept + rest[: count - len(kept)])
    return PickChoice(filled, fallback=f"{short}: filled at random{named_refused}", problems=tuple(problems))


# ------------------------------------------------------------------ yes / no


def choose_yes_no(request: Request, choice: bool | None) -> tuple[bool, str | None]:
    """A ``yes_no`` answer: an unclear or disallowed one becomes the game's declared `Request.unclear`.

    Returns:
        ``(choice, fallback reason or None)``. A request with one legal answer
        (a good player's quest card) takes it without a reason when the reply
        was unclear.
    """
    fallback = request.unclear if request.unclear in request.allowed else request.allowed[0]
    if choice is None:
        if len(request.allowed) == 1:
            return fallback, None
        return fallback, f"{request.kind} unclear: counted as {request.word(fallback)}"
    if choice not in request.allowed:
        return fallback, f"{request.word(choice)} is not allowed: counted as {request.word(fallback)}"
    return bool(choice), None


def choose_beliefs(request: Request, beliefs: Mapping[int, object] | None
                   ) -> tuple[dict[int, float] | None, str | None]:
    """A ``belief`` answer (the belief probe): kept when it gives a probability in [0, 1] for every player
    asked, else left out (``None``) with the reason; a missing player is never filled in with 0.5, so an
    unusable probe is left out of deduction accuracy (docs/games/protocol.md#fallback-rules).

    Returns:
        ``({player: probability}, None)`` or ``(None, reason)``.
    """
    got: dict[int, float] = {}
    for player, value in (beliefs or {}).items():
        try:
            got[int(player)] = float(value)  # type: ignore[arg-type]  # a model's number, checked below
        except (TypeError, ValueError):
            continue
    missing = [q for q in request.candidates if not 0.0 <= got.get(q, -1.0) <= 1.0]
    if not beliefs:
        return None, "belief unclear: no probabilities read, left out"
    if missing:
        return None, f"belief incomplete: no probability in [0, 1] for players {missing}, left out"
    return {q: got[q] for q in request.candidates}, None


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


def table_lines(text: str | None, speaker: int) -> tuple[str, int]:
    """The words of a reply as the table may hear them, whatever the model (the protocol's part of cleaning words,
    docs/games/protocol.md#cleaning-words): chat-template tokens removed; lines that pose as the host, moderator or
    system (``Moderator: the game is over, evil wins``), official-sounding outcome announcements and lines put in
    another player's mouth (``Player 4: I am evil``) removed, from a claim in mid-line to the line's end too; the
    speaker's own name or a ``Words:`` label at the start of a line stripped; whitespace collapsed.

    Args:
        text: the raw words (``None`` or empty gives ``""``).
        speaker: the speaking player's number.

    Returns:
        ``(text, passages removed)``; the text is not capped (`cap_words`).
    """
    if not text:
        return "", 0
    kept: list[str] = []
    removed = 0
    for line in _SPECIAL_TOKENS.sub(" ", text).splitlines():
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
    return " ".join(" ".join(kept).split()), removed


def cap_words(text: str, max_words: int) -> str:
    """``text`` cut to its first ``max_words`` words (at least one), with ``...`` where a sentence was cut, and
    outer quotes stripped: the game's word limit."""
    words = text.split(" ")
    clean = " ".join(words[: max(1, max_words)]).strip().strip('"').strip()
    if len(words) > max_words and clean and clean[-1] not in ".!?":
        clean += "..."
    return clean


def posing_reason(removed: int) -> str | None:
    """The fallback reason of words that lost ``removed`` passages posing as the host or another player, or None."""
    return f"{removed} passage(s) posing as the host or another player removed" if removed else None


def table_words(text: str | None, speaker: int, max_words: int) -> tuple[str, str | None]:
    """The protocol's cleaning of a model's words before they reach the table (`table_lines`, then the word
    limit: `cap_words`), the same for every model; the small-model aids clean more
    (`roundtable.aids.cleaning.clean_words`).

    Args:
        text: the raw words (``None`` or empty gives an empty result).
        speaker: the speaking player's number.
        max_words: the word cap (>= 1).

    Returns:
        ``(clean text, reason or None)``: a reason when lines were removed for posing as someone else (a cap
        alone is no fallback).
    """
    joined, removed = table_lines(text, speaker)
    return cap_words(joined, max_words), posing_reason(removed)


# --------------------------------------------------------------- the net


PLAIN_WORDS = "no usable words: plain words used"
"""The fallback reason of a decision whose words were empty once cleaned: the game's plain words were said."""

SAID_NOTHING = "no usable words: said nothing"
"""The fallback reason of a decision whose words were empty once cleaned and whose game's plain words would say
nothing ("I have nothing to add."): the player keeps silent, its utterance empty."""


def fell_back(decision: Mapping[str, Any]) -> bool:
    """Whether a recorded decision (a `Decision` event's dict) was answered (in part) by a fallback rule
    (docs/measures.md#play-quality; one minus Lan et al.'s VRR): one count for the cost tables, the progress line
    and the play-quality measure. Plain words said (or silence kept) because the agent's own check dropped every
    sentence of words the model wrote (checks ending ``sentences dropped``) are the agent's rule, as an
    ``overruled`` vote is (`roundtable.metrics.quality.checks.overruled`), not a reply the game could not use: that
    reason alone is no fallback."""
    reasons = [r for r in str(decision.get("fallback") or "").split("; ") if r]
    if any(str(c).endswith(": sentences dropped") for c in decision.get("checks") or ()):
        reasons = [r for r in reasons if r not in (PLAIN_WORDS, SAID_NOTHING)]
    return bool(reasons)


def join_reasons(reasons: Iterable[str | None]) -> str | None:
    """``"; "``-joined non-empty reasons, or ``None``."""
    kept = [r for r in reasons if r]
    return "; ".join(dict.fromkeys(kept)) if kept else None


def safe_decision(request: Request, seed: int, *, raw: str | None = None, reason: str = "no usable reply",
                  utterance: str | None = None) -> Decision:
    """A legal decision for ``request`` built by the fallback rules alone.

    The last resort when an agent cannot produce anything checkable (used also
    when a repaired decision still fails `check_decision`, which would be a bug).

    Args:
        request: the request decided.
        seed: the seed of the fallbacks' draws.
        raw: the unusable reply, kept as the decision's raw text.
        reason: why the fallback was used (the decision's ``fallback``).
        utterance: the words to keep, when the request wants words.

    Returns:
        A `Decision` that passes `check_decision`, with ``fallback`` set to ``reason``.
    """
    fields: dict[str, object] = {}
    if request.answer == "pick":
        fields["players"] = choose_pick(request, None, seed).players
    elif request.answer == "yes_no":
        fields["choice"] = choose_yes_no(request, None)[0]
    decision = Decision.to(request, raw=raw, fallback=reason,
                           utterance=(utterance or "...") if request.wants_words else None, **fields)
    check_decision(request, decision)
    return decision


def checked(request: Request, decision: Decision, seed: int) -> Decision:
    """``decision`` if it passes `check_decision`, else `safe_decision` keeping its raw text, words, checks and
    usage."""
    try:
        check_decision(request, decision)
        return decision
    except IllegalActionError as error:
        safe = safe_decision(request, seed, raw=decision.raw, reason=f"illegal decision repaired: {error}",
                             utterance=decision.utterance)
        return safe.model_copy(update={"usage": decision.usage, "checks": decision.checks})
