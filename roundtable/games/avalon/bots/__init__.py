"""Avalon's rule bot: AvalonBench's ``naive`` players (`roundtable.games.avalon.bots.naive`), a policy
``decide(view, request, seed) -> Decision`` with a belief in the other players' sides; the game declares it as its
`roundtable.games.protocol.RuleBot` (``RULES.bot``), which the ``naive`` kind plays."""

from roundtable.games.avalon.bots import naive

__all__ = ["naive"]
