"""The Fascist track's executive powers by player count, and the veto (docs/games/secret-hitler.md#executive-actions).

Source: the Secret Hitler rulebook (Goat, Wolf & Cabbage, 2016), *Executive Action* and the three Fascist track
boards (5-6, 7-8 and 9-10 players); *Veto Power*: "after five Fascist Policies have been enacted".
"""

from __future__ import annotations

from enum import Enum


class Power(str, Enum):
    """An executive power the President must use once a Fascist policy is enacted on its square."""

    PEEK = "policy_peek"
    INVESTIGATE = "investigate"
    SPECIAL_ELECTION = "special_election"
    EXECUTION = "execution"


_SMALL = {3: Power.PEEK, 4: Power.EXECUTION, 5: Power.EXECUTION}
_MIDDLE = {2: Power.INVESTIGATE, 3: Power.SPECIAL_ELECTION, 4: Power.EXECUTION, 5: Power.EXECUTION}
_LARGE = {1: Power.INVESTIGATE, 2: Power.INVESTIGATE, 3: Power.SPECIAL_ELECTION, 4: Power.EXECUTION,
          5: Power.EXECUTION}

TRACKS: dict[int, dict[int, Power]] = {5: _SMALL, 6: _SMALL, 7: _MIDDLE, 8: _MIDDLE, 9: _LARGE, 10: _LARGE}
"""``{players: {fascist policies enacted: power}}``: the board for each player count."""

LIBERAL_WIN = 5
"""Liberal policies that win for the Liberals."""
FASCIST_WIN = 6
"""Fascist policies that win for the Fascists."""
HITLER_ZONE = 3
"""Fascist policies after which Hitler elected Chancellor wins for the Fascists."""
VETO_FROM = 5
"""Fascist policies after which every legislative session may veto."""
TRACKER_CHAOS = 3
"""Failed governments in a row that throw the country into chaos (the top policy is enacted)."""


def power_for(players: int, fascist_policies: int) -> Power | None:
    """The power unlocked by the ``fascist_policies``-th Fascist policy at a table of ``players``, or ``None``."""
    return TRACKS[players].get(fascist_policies)
