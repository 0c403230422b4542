"""What agents and measures read in utterances: near copies, named teams, self-exposure.

Plain text heuristics over words, no model: `copy_share` (how much of an
utterance repeats an earlier one, by word 4-grams), `named_team` (the team a
player's words name) and `exposes` (an evil player naming its side or intent to
fail, or Merlin saying outright whom he sees as evil). The ``lga`` agent checks
its own words with them before it speaks; `roundtable.metrics.play_quality`
counts them over a finished game.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from roundtable.games.avalon import Role

NGRAM = 4
"""Word n-gram length of the parroting measure."""
COPY_SHARE = 0.5
"""An utterance is a copy when more than this share of its n-grams appear in one earlier utterance."""

_WORD = re.compile(r"[a-z0-9']+")
_HEDGE = re.compile(r"\b(suspect|think|might|may|maybe|could|seems?|probably|likely|possibly|perhaps|if|unless|"
                    r"not sure|doubt|wonder|feel|guess|believe|whether|or)\b", re.IGNORECASE)
_EVIL_WORD = r"(evil|a minion|minions?|the assassin|assassin|morgana|mordred|oberon|a spy|bad)"
_EVIL_SELF = re.compile(
    r"(\b(i am|i'm)|(^|[.!?;]\s*)as)\s+(an?\s+|the\s+)?"
    r"(evil|minion|minions of mordred|assassin|morgana|mordred|oberon)\b"
    r"|\b(i am|i'm|we are|we're)\s+(on\s+)?(the\s+)?evil(\s+side)?\b"
    r"|\b(my|our)\s+(fellow\s+)?(evil|minions?|assassin)\b"
    r"|\b(my|our)\s+(evil\s+)?(side|team)\s+(needs|wants|will|must)\s+(to\s+)?fail"
    r"|\b(i|we)\s*(will|'ll|shall|am going to|plan to|want to|must)\s+(play\s+(a\s+)?)?(fail|sabotage)\b"
    r"|\b(make|let)\s+(it|them|the quests?|this quest|quests?)\s+fail\b"
    r"|(^|[.!?;]\s*)fail\s+(the|this|that|every|each)\s+quests?\b"
    r"|\b(i|we)('ll|'m|'d)?(\s+\w+){0,3}?\s+(and|to)\s+fail\s+(the|this|that|every|each)\s+quests?\b"
    r"|\b(fool|deceive|trick|mislead)\s+(percival|merlin|the good|good players|everyone|the others|the table)\b"
    r"|\bpretend(ing)?\s+to\s+be\b",
    re.IGNORECASE,
)
_MERLIN_SELF = re.compile(r"\b(i am|i'm)\s+merlin\b|\bas merlin,?\s+i\b", re.IGNORECASE)
_KNOW = re.compile(r"\b(i know|i see|i can see|i saw|i am certain|i'm certain|for sure)\b", re.IGNORECASE)
_IS_EVIL = re.compile(r"\b(is|are)\s+" + _EVIL_WORD + r"\b", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n+")
_PLAYER_LIST = re.compile(
    r"\bplayers?\s+(\d+(?:\s*(?:,|and|&|\+)\s*(?:and\s+)?(?:players?\s+)?\d+)*)", re.IGNORECASE)
_NUMBER = re.compile(r"\d+")
_TEAM_WORD = re.compile(r"\b(propos|choos|chose|pick|select|tak|send|team|go with|suggest|nam)\w*", re.IGNORECASE)


# ------------------------------------------------------------------ parroting


def words(text: str) -> list[str]:
    """The lower-case words of ``text`` (letters, digits and apostrophes)."""
    return _WORD.findall((text or "").lower())


def ngrams(tokens: Sequence[str], n: int = NGRAM) -> set[tuple[str, ...]]:
    """The set of word ``n``-grams of ``tokens`` (empty when there are fewer than ``n`` words)."""
    return {tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)}


def copy_share(text: str, earlier: str, n: int = NGRAM) -> float:
    """The share (0..1) of ``text``'s word ``n``-grams that appear in ``earlier``.

    Utterances of fewer than ``n`` words: 1.0 when their words equal ``earlier``'s, else 0.0.
    """
    mine = words(text)
    if len(mine) < n:
        return 1.0 if mine and mine == words(earlier) else 0.0
    grams = ngrams(mine, n)
    return len(grams & ngrams(words(earlier), n)) / len(grams)


def copied_from(texts: Sequence[str], index: int, threshold: float = COPY_SHARE) -> int | None:
    """The index of the first earlier utterance that ``texts[index]`` copies (`copy_share` > ``threshold``), or None."""
    for j in range(index):
        if copy_share(texts[index], texts[j]) > threshold:
            return j
    return None


# ------------------------------------------------------------- self-exposure


def exposes(text: str, role: Role, known_evil: Iterable[int]) -> str | None:
    """Why an utterance exposes its public speaker, or None.

    Args:
        text: what the player said to the whole table.
        role: the speaker's role.
        known_evil: for Merlin, the players he sees as evil.

    Returns:
        ``"evil side"`` (an evil player naming its side, role or intent to
        fail), ``"merlin names evil"`` (Merlin stating outright, with no hedge
        word in the sentence, that a player he sees is evil), ``"merlin"``
        (Merlin saying he is Merlin), or None.
    """
    if role.side.value == "evil":
        return "evil side" if _EVIL_SELF.search(text or "") else None
    if role is not Role.MERLIN:
        return None
    if _MERLIN_SELF.search(text or ""):
        return "merlin"
    seen = set(known_evil)
    for sentence in _SENTENCE.split(text or ""):
        named = {int(n) for n in _NUMBER.findall(sentence)} & seen
        if not named:
            continue
        certain = _KNOW.search(sentence) or not _HEDGE.search(sentence)
        if certain and _IS_EVIL.search(sentence):
            return "merlin names evil"
    return None


# ------------------------------------------------------------------ sentences

_SENTENCE_END = re.compile(r"[.!?][\"')\]]*(?=\s+\S)")


def first_sentence(text: str) -> tuple[str, int]:
    """The first sentence of ``text`` and how many sentences ``text`` holds (its lines joined).

    A sentence ends at ``.``, ``!`` or ``?`` (closing quotes or brackets kept) followed by more text; a number
    such as ``2.5`` does not end one. ``("", 0)`` for blank text. AvalonBench's players say one sentence a turn
    (docs/agents/react.md#the-steps).
    """
    flat = " ".join((text or "").split())
    if not flat:
        return "", 0
    ends = list(_SENTENCE_END.finditer(flat))
    return (flat[:ends[0].end()] if ends else flat), len(ends) + 1


# --------------------------------------------------------- words and actions


def named_team(text: str, size: int) -> tuple[int, ...] | None:
    """The team of exactly ``size`` different players that ``text`` names, or None.

    A list is a run of numbers after "player"/"players" joined by commas,
    "and", "&" or "+" ("players 1, 3 and 5", "Player 2 and Player 4"); a run
    of another length names no team. The team is the first list of the right
    size that a team word shortly precedes ("I propose players 1 and 4",
    "my team: players 2, 5"), else the first list of the right size.
    """
    lists = []
    for match in _PLAYER_LIST.finditer(text or ""):
        numbers = tuple(dict.fromkeys(int(n) for n in _NUMBER.findall(match.group(1))))
        if len(numbers) == size:
            lists.append((match.start(), numbers))
    for start, numbers in lists:
        if _TEAM_WORD.search((text or "")[max(0, start - 40):start]):
            return numbers
    return lists[0][1] if lists else None
