"""Agent kind ``policy``: a linear policy trained through the environments on a good player's team votes and
proposals in Avalon, the game's rule bot elsewhere (`roundtable.agents.policy.policy`); no model."""

from roundtable.agents.policy.features import remembers
from roundtable.agents.policy.policy import decide
from roundtable.agents.protocol import bot_kind
from roundtable.games import GAMES
from roundtable.games.protocol import Event

AVALON = "avalon"
_BOT = GAMES[AVALON].bot


def _remembers(event: Event) -> bool:
    """The quests' results (the features) and what the rule bot reads."""
    return remembers(event) or bool(_BOT is not None and _BOT.remembers is not None and _BOT.remembers(event))


KIND = bot_kind("policy", "A linear policy trained through the PettingZoo environment on the good side's team votes "
                "and proposals in Avalon, the rule bot elsewhere (no model).", {AVALON: decide},
                {AVALON: _remembers})
