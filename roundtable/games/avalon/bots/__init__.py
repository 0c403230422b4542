"""Rule-based players that need no model: ``naive`` (AvalonBench) and ``random``.

``random`` is the game-independent `roundtable.agents.random.policy`. Both are policies ``decide(view, request, seed) -> Decision``.
"""

from roundtable.agents.random import policy as uniform
from roundtable.games.avalon.bots import naive

POLICIES = {"naive": naive.decide, "random": uniform.decide}

__all__ = ["POLICIES", "naive"]
