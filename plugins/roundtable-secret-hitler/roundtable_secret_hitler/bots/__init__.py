"""Secret Hitler's rule bot (`roundtable_secret_hitler.bots.naive`), a policy ``decide(view, request, seed) ->
Decision`` reading only its view; the game declares it as its `roundtable.games.protocol.RuleBot` (``RULES.bot``),
which roundtable's ``naive`` kind plays."""

from roundtable_secret_hitler.bots import naive

__all__ = ["naive"]
