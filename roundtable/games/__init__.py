"""The rules libraries: pure Python, no LangChain, no I/O, no model.

`GAMES` maps each game's name to its rules module record
(`roundtable.games.protocol.GameRules`); everything above this layer (the
game graph, the agents, the CLI, the conformance suite) reaches a game
through it. A game is a subpackage here whose ``RULES`` is that record, so
adding a game is adding its package.
"""

from __future__ import annotations

import importlib
import pkgutil

from .protocol import GameRules


def _discover() -> dict[str, GameRules]:
    games: dict[str, GameRules] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.ispkg:
            rules = getattr(importlib.import_module(f"{__name__}.{info.name}"), "RULES", None)
            if isinstance(rules, GameRules):
                games[rules.name] = rules
    return games


GAMES: dict[str, GameRules] = _discover()
"""Every game the project plays, by name."""

__all__ = ["GAMES", "GameRules"]
