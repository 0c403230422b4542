"""Werewolf's rule-based players that need no model: ``naive`` (this package) and ``random``
(the game-independent `roundtable.agents.random.policy`). Both are policies ``decide(view, request, seed) -> Decision``."""

from roundtable.agents.random import policy as uniform
from roundtable.games.werewolf.bots import naive

POLICIES = {"naive": naive.decide, "random": uniform.decide}

__all__ = ["POLICIES", "naive"]
