"""Short templated words for rule bots that play without a model.

AvalonBench gives its rule bots words from a model when discussion is on;
without one, a bot states its action plainly so the table still hears a
proposal, a suggestion or a vote of confidence.
"""

from __future__ import annotations

from roundtable.games.protocol import PlayerView, Request


def players_text(team: tuple[int, ...] | list[int]) -> str:
    """``(1, 3, 4)`` -> ``"players 1, 3 and 4"``."""
    names = [str(p) for p in sorted(team)]
    if len(names) == 1:
        return f"player {names[0]}"
    return "players " + ", ".join(names[:-1]) + " and " + names[-1]


def words_for(view: PlayerView, request: Request, team: tuple[int, ...] | None, approve: bool | None = None) -> str:
    """One plain sentence matching the action taken for ``request``.

    Args:
        view: what the player knows.
        request: the request answered.
        team: the team proposed or suggested, if any.
        approve: in a discussion of a proposed team, whether the bot supports it.
    """
    if request.kind == "propose_team" and team is not None:
        verb = "My final team is" if request.details.get("final") and request.subject else "I propose"
        return f"{verb} {players_text(team)}."
    if request.kind == "speak" and team is not None:
        return f"I suggest {players_text(team)} for this quest."
    if request.kind == "assassinate":
        return "Let us choose carefully."
    if request.subject and approve is not None:
        verdict = "I support" if approve else "I would not send"
        return f"{verdict} {players_text(request.subject)}."
    return "I have nothing to add."
