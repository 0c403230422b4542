"""The policy deck: 6 Liberal and 11 Fascist policies, drawn from the top, reshuffled with the discard pile when
fewer than three remain (docs/games/secret-hitler.md#the-policy-deck).

Source: the Secret Hitler rulebook (Goat, Wolf & Cabbage, 2016), *Set Up* ("Shuffle the 6 Liberal and 11 Fascist
Policy tiles into a single Policy deck") and *Legislative Session* ("If there are fewer than three tiles remaining in
the Policy deck at the end of a Legislative Session, shuffle them with the Discard pile to create a new Policy
deck"). A deck is a tuple of policy names, its first entry the top; every shuffle draws from the game seed and the
shuffle's number (`roundtable.games.rng.rng_for`), so a resumed game shuffles as an uninterrupted one.
"""

from __future__ import annotations

from roundtable.games.rng import rng_for

LIBERAL = "liberal"
FASCIST = "fascist"
POLICIES = (LIBERAL, FASCIST)
FULL_DECK: tuple[str, ...] = (LIBERAL,) * 6 + (FASCIST,) * 11
"""The 17 policy tiles."""
MIN_DECK = 3
"""A deck with fewer policies is reshuffled with the discard pile."""


def shuffled(cards: tuple[str, ...], seed: int, shuffle: int) -> tuple[str, ...]:
    """``cards`` in the order of shuffle number ``shuffle`` of the game of ``seed`` (0: the deal)."""
    order = list(cards)
    rng_for(seed, "deck", shuffle).shuffle(order)
    return tuple(order)


def refill(deck: tuple[str, ...], discard: tuple[str, ...], seed: int,
           shuffles: int) -> tuple[tuple[str, ...], tuple[str, ...], int]:
    """The deck, discard pile and shuffle count after the end-of-session check: with fewer than `MIN_DECK` policies
    left, the deck and the discard pile are shuffled together into a new deck (shuffle number ``shuffles + 1``).

    Returns:
        ``(deck, discard, shuffles)``, unchanged when the deck holds enough.
    """
    if len(deck) >= MIN_DECK:
        return deck, discard, shuffles
    return shuffled(deck + discard, seed, shuffles + 1), (), shuffles + 1
