"""Werewolf's rule bot: simple role heuristics (`roundtable.games.werewolf.bots.naive`), a policy
``decide(view, request, seed) -> Decision`` that remembers the past events it reads; the game declares it as its
`roundtable.games.protocol.RuleBot` (``RULES.bot``), which the ``naive`` kind plays."""

from roundtable.games.werewolf.bots import naive

__all__ = ["naive"]
