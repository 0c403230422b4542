"""Short templated words for Werewolf rule bots that play without a model: one plain sentence per statement."""

from __future__ import annotations

from roundtable.games.protocol import PlayerView, Request


def words_for(view: PlayerView, request: Request, accuse: int | None = None, claim: str | None = None) -> str:
    """One plain sentence for a ``speak`` or ``last_words`` request.

    Args:
        view: what the player knows.
        request: the ``speak`` or ``last_words`` request answered.
        accuse: a player the bot names as a werewolf, if any.
        claim: a role the bot claims openly (the Seer revealing a check), if any.
    """
    parts = []
    if claim:
        parts.append(f"I am the {claim}.")
    if accuse is not None:
        parts.append(f"Player {accuse} is a werewolf; vote Player {accuse} out.")
    if not parts:
        parts.append("I have no information yet." if request.kind == "speak" else "Good luck, village.")
    return " ".join(parts)


def kill_words(target: int | None, agreed: bool = False) -> str:
    """One plain sentence telling the teammates a kill vote (``werewolf_night=sequential``): whom (``agreed``: the
    player a teammate named before), or a pass."""
    if target is None:
        return "I pass tonight."
    return f"Agreed, Player {target}." if agreed else f"Let us kill Player {target} tonight."
