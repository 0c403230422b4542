"""Werewolf rules library: pure Python, no LangChain, no I/O, no model (docs/games/werewolf.md).

The 7-player game of Xu, Wang, Li et al., *Exploring Large Language Models for
Communication Games: An Empirical Study on Werewolf* (2023): two Werewolves,
two Villagers, a Seer, a Witch and a Guard (preset ``xu7``). The rules as
played, and every choice made where the sources are silent: `rules`. Variants
(``potions_per_night``, ``werewolf_win``, ``max_days``, ``werewolf_night``): `config`.

Typical use::

    from roundtable.games import werewolf
    state = werewolf.new_game(werewolf.WerewolfConfig.build(), seed=7)
    while not state.is_over:
        requests = werewolf.pending(state)
        decisions = {r.player: my_policy(werewolf.view(state, r.player), r) for r in requests}
        state = werewolf.apply(state, decisions)   # raises IllegalActionError on a broken rule

`RULES` is the same library as a `roundtable.games.protocol.GameRules` record.
"""

from roundtable.games.errors import ConfigurationError, IllegalActionError
from roundtable.games.werewolf.config import (
    VARIANTS,
    PotionsPerNight,
    Rules,
    WerewolfConfig,
    WerewolfNight,
    WerewolfWin,
)
from roundtable.games.werewolf.game import RULES
from roundtable.games.werewolf.roles import PRESET_NAMES, PRESETS, Role, Side, validate_roles
from roundtable.games.werewolf.rules import apply, new_game, pending, winner
from roundtable.games.werewolf.state import Phase, WerewolfState
from roundtable.games.werewolf.view import WerewolfView, view

__all__ = [
    "ConfigurationError", "IllegalActionError", "PRESETS", "PRESET_NAMES", "Phase", "PotionsPerNight", "RULES",
    "Role", "Rules", "Side", "VARIANTS", "WerewolfConfig", "WerewolfNight", "WerewolfState", "WerewolfView",
    "WerewolfWin", "apply", "new_game", "pending", "validate_roles", "view", "winner",
]
