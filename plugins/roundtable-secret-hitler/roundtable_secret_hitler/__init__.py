"""Secret Hitler for roundtable: the rules as a plugin package (docs/games/secret-hitler.md).

The hidden-role game of the Secret Hitler rulebook (Goat, Wolf & Cabbage, 2016): 5 to 10 players, Liberals against
the Fascists and Hitler, a deck of 6 Liberal and 11 Fascist policies, governments elected by vote, executive
powers on the Fascist track. Pure Python over roundtable's game protocol: no LangChain, no I/O, no model.

Typical use::

    from roundtable_secret_hitler import RULES
    state = RULES.new_game(RULES.config({"players": 7}), seed=7)
    while RULES.result(state) is None:
        requests = RULES.pending(state)
        decisions = {r.player: my_policy(RULES.view(state, r.player), r) for r in requests}
        state = RULES.apply(state, decisions)   # raises IllegalActionError on a broken rule

roundtable finds `RULES` through the ``roundtable.games`` entry point ``secret_hitler`` of this package's
``pyproject.toml``; nothing of roundtable is edited.
"""

import roundtable.games  # noqa: F401  # roundtable's registries first: they import this package's game module
from roundtable_secret_hitler.config import Discussion, Rules, SecretHitlerConfig
from roundtable_secret_hitler.game import RULES
from roundtable_secret_hitler.powers import Power
from roundtable_secret_hitler.roles import Role, Side
from roundtable_secret_hitler.state import Phase, SecretHitlerState
from roundtable_secret_hitler.view import SecretHitlerView

__all__ = ["RULES", "Discussion", "Phase", "Power", "Role", "Rules", "SecretHitlerConfig", "SecretHitlerState",
           "SecretHitlerView", "Side"]
