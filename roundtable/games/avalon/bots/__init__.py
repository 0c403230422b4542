"""Avalon's rule bots: AvalonBench's ``naive`` players as its paper describes them
(`roundtable.games.avalon.bots.naive`, the flavour ``ours``) and as its code plays them
(`roundtable.games.avalon.bots.avalonbench`, the flavour ``avalonbench``), each a policy
``decide(view, request, seed) -> Decision`` with a belief in the other players' sides; the game declares them as
its `roundtable.games.protocol.RuleBot` (``RULES.bot`` and its ``flavours``), which the ``naive`` kind plays."""

from roundtable.games.avalon.bots import avalonbench, naive

__all__ = ["avalonbench", "naive"]
