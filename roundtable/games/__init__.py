"""The rules libraries: pure Python, no LangChain, no I/O, no model.

`GAMES` maps each game's name to its rules module record
(`roundtable.games.protocol.GameRules`); everything above this layer (the
game graph, the agents, the CLI, the conformance suite) reaches a game
through it. Games are plugins: each declares its ``RULES`` under the
``roundtable.games`` entry-point group (`roundtable.plugins`), so a separate
installed package adds a game without editing this one.
"""

from __future__ import annotations

from roundtable.games.protocol import GameRules
from roundtable.plugins import load_plugins

GAMES: dict[str, GameRules] = load_plugins("roundtable.games", GameRules)
"""Every game the project plays, by name."""

LEGACY_GAME = "avalon"
"""The game of a record from before records named their game (the first versions played Avalon alone)."""



def registered_game(name: str) -> str:
    """``name`` when it is a registered game (a key of `GAMES`).

    Raises:
        ValueError: an unknown game, naming the registered ones.
    """
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}; available: {', '.join(GAMES)}")
    return name


__all__ = ["GAMES", "LEGACY_GAME", "GameRules", "registered_game"]
