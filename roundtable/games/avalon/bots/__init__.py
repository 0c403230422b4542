"""Rule-based players that need no model: ``naive`` (AvalonBench) and ``random``.

``random`` is the game-independent `roundtable.games.uniform`. Both are policies ``decide(view, request, seed) -> Decision``.
"""

from ... import uniform
from . import naive

POLICIES = {"naive": naive.decide, "random": uniform.decide}

__all__ = ["POLICIES", "naive"]
