"""The rule policies every game is played with in tests: its own rule bot (``naive``) and uniform play
(``random``), by kind name."""

from __future__ import annotations

from roundtable.agents.protocol import Policy
from roundtable.agents.random.policy import decide as random_decide
from roundtable.games import GAMES


def rule_policies(game: str) -> dict[str, Policy]:
    """``{"random": policy[, "naive": the game's rule bot]}`` for ``game`` (a key of `roundtable.games.GAMES`).

    Raises:
        KeyError: an unknown game.
    """
    bot = GAMES[game].bot
    return {"random": random_decide} | ({"naive": bot.decide} if bot is not None else {})
