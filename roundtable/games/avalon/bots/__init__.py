"""Rule-based players that need no model: ``naive`` (AvalonBench) and ``random``.

Both are policies ``decide(view, request, seed) -> Decision``.
"""

from . import naive, uniform

POLICIES = {"naive": naive.decide, "random": uniform.decide}

__all__ = ["POLICIES", "naive", "uniform"]
