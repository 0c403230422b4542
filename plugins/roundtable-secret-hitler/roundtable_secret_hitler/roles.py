"""Secret Hitler's roles, parties and who knows whom, by player count (docs/games/secret-hitler.md#roles).

Source: the Secret Hitler rulebook (Goat, Wolf & Cabbage, 2016), *Set Up*: the table of Liberals and Fascists
per player count (Hitler is one of the Fascist team), and the eyes-closed reveal: "5-6 players: Hitler knows who
the Fascist is; 7-10 players: Hitler does not know who the Fascists are"; the Fascists always see each other and
Hitler.
"""

from __future__ import annotations

from enum import Enum

from roundtable.games.errors import ConfigurationError

MIN_PLAYERS = 5
MAX_PLAYERS = 10


class Side(str, Enum):
    """The two teams: the Liberals and the Fascists (Hitler among them)."""

    LIBERAL = "liberal"
    FASCIST = "fascist"


class Role(str, Enum):
    """The three secret roles (the rulebook's *Secret Role* cards)."""

    LIBERAL = "liberal"
    FASCIST = "fascist"
    HITLER = "hitler"

    @property
    def side(self) -> Side:
        """The team the role plays for; also its *Party Membership* card (Hitler's says Fascist)."""
        return Side.LIBERAL if self is Role.LIBERAL else Side.FASCIST


FASCISTS: dict[int, int] = {5: 1, 6: 1, 7: 2, 8: 2, 9: 3, 10: 3}
"""Fascists besides Hitler, by player count (rulebook, *Set Up*); the rest are Liberals."""

HITLER_KNOWS_MAX = 6
"""The largest table at which Hitler learns his Fascist in the reveal (rulebook, *Set Up*)."""


def role_set(players: int) -> tuple[Role, ...]:
    """The rulebook's roles for ``players`` players: Hitler, the Fascists, then the Liberals.

    Raises:
        ConfigurationError: not 5 to 10 players.
    """
    if players not in FASCISTS:
        raise ConfigurationError(f"Secret Hitler is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    fascists = FASCISTS[players]
    return (Role.HITLER,) + (Role.FASCIST,) * fascists + (Role.LIBERAL,) * (players - fascists - 1)


def knowledge(roles: tuple[Role, ...], player: int) -> list[dict[str, str | int]]:
    """What ``player`` learns in the reveal, ``[{"player": q, "is": "fascist" | "hitler"}]`` in seat order: a Fascist
    sees the other Fascists and Hitler; Hitler sees the Fascist at 5 or 6 players and nobody from 7; a Liberal sees
    nobody (docs/games/secret-hitler.md#roles)."""
    mine = roles[player - 1]
    if mine is Role.LIBERAL or (mine is Role.HITLER and len(roles) > HITLER_KNOWS_MAX):
        return []
    return [{"player": q, "is": r.value} for q, r in enumerate(roles, start=1)
            if q != player and r is not Role.LIBERAL]
