"""Plain counts beside the detectors: model-independent measures of the same things, with no rule for stock phrases,
numbers, hedges or denials (docs/measures.md#play-quality, docs/measurements.md#detectors-against-hand-labels).

A detector (`roundtable.detectors.words`, `roundtable.detectors.exposure`) says what its rules catch; these say
what anyone would count by hand in a minute: `plain_copy`, a word 4-gram share of at least 0.5 with one earlier
utterance; `plain_names`, the players whose number stands within four words of a role word ("Player 3 is likely
Merlin", "Merlin, Player 3?"). The play-quality report shows each beside its detector, so a reader sees where
the two disagree; `benchmarks/detector_agreement.py` scores both against hand labels.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_WORD = re.compile(r"[a-z0-9']+")
PLAIN_NGRAM = 4
"""Word n-gram length of `plain_copy`."""
PLAIN_SHARE = 0.5
"""The share of an utterance's n-grams found in one earlier utterance from which `plain_copy` counts it."""
PLAIN_WINDOW = 4
"""How many words a player's number may stand from a role word for `plain_names`."""


def plain_words(text: str) -> list[str]:
    """The lower-case words of ``text`` (letters, digits, apostrophes)."""
    return _WORD.findall((text or "").lower())


def gram_share(text: str, other: str, n: int = PLAIN_NGRAM) -> float:
    """The share of ``text``'s word ``n``-grams found in ``other``, in [0, 1]; a text of fewer than ``n`` words
    scores 1.0 when its words equal ``other``'s, else 0.0."""
    mine, theirs = plain_words(text), plain_words(other)
    if len(mine) < n:
        return 1.0 if mine and mine == theirs else 0.0
    grams = {tuple(mine[i:i + n]) for i in range(len(mine) - n + 1)}
    return len(grams & {tuple(theirs[i:i + n]) for i in range(len(theirs) - n + 1)}) / len(grams)


def plain_copy(text: str, earlier: Iterable[str]) -> bool:
    """A word 4-gram share of at least `PLAIN_SHARE` with one of the ``earlier`` utterances."""
    return any(gram_share(text, e) >= PLAIN_SHARE for e in earlier)


def plain_names(text: str, role_word: str) -> set[int]:
    """The players whose number (after ``player``/``players``, or in the list that follows: ``players 2 and 5``)
    stands within `PLAIN_WINDOW` words of ``role_word`` (``merlin``, ``seer``; a plural or ``'s`` too)."""
    tokens = plain_words(text)
    numbers: list[tuple[int, int]] = []
    listing = False
    for i, token in enumerate(tokens):
        if token in ("player", "players"):
            listing = True
        elif token.isdigit() and listing:
            numbers.append((i, int(token)))
        elif token not in ("and", "or", "#"):
            listing = False
    roles = [i for i, token in enumerate(tokens) if token.rstrip("s") == role_word or token == role_word + "'s"]
    return {number for r in roles for i, number in numbers if abs(r - i) <= PLAIN_WINDOW}


def plain_named(text: str, role_word: str) -> bool:
    """Whether ``text`` puts any player's number within `PLAIN_WINDOW` words of ``role_word`` (`plain_names`)."""
    return bool(plain_names(text, role_word))


def plain_thought(text: str, thoughts: Iterable[str]) -> bool:
    """A word 4-gram share of at least `PLAIN_SHARE` with one of the speaker's ``thoughts``."""
    return any(gram_share(text, t) >= PLAIN_SHARE for t in thoughts)
