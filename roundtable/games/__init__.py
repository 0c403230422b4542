"""The rules libraries: pure Python, no LangChain, no I/O, no model.

`GAMES` maps each game's name to its rules module record
(`roundtable.games.protocol.GameRules`); everything above this layer (the
game graph, the agents, the conformance suite) reaches a game through it.
"""

from .avalon import RULES as AVALON
from .protocol import GameRules

GAMES: dict[str, GameRules] = {AVALON.name: AVALON}
"""Every game the project plays, by name."""

__all__ = ["GAMES", "GameRules"]
