"""Avalon rules library: pure Python, no LangChain, no I/O, no model (docs/games/avalon.md).

Typical use::

    from roundtable.games import avalon
    state = avalon.new_game(avalon.AvalonConfig.build("lan6"), seed=7)
    while not state.is_over:
        requests = avalon.pending(state)          # what the game waits for
        decisions = {r.player: my_policy(avalon.view(state, r.player), r) for r in requests}
        state = avalon.apply(state, decisions)    # raises IllegalActionError on a broken rule

`RULES` is the same library as a `roundtable.games.protocol.GameRules` record.
"""

from roundtable.games.avalon.config import (
    VARIANTS,
    Assassination,
    AssassinationTargets,
    AvalonConfig,
    Discussion,
    EvilQuestCard,
    FifthRejection,
    Rules,
    TwoFailQuests,
    VoteVisibility,
)
from roundtable.games.avalon.game import RULES
from roundtable.games.avalon.roles import (
    EVIL_ROLES,
    GOOD_ROLES,
    PRESET_NAMES,
    PRESETS,
    SETUP,
    Role,
    Side,
    fails_needed,
    preset_roles,
    side_counts,
    team_size,
    validate_roles,
)
from roundtable.games.avalon.rules import (
    apply,
    assassinate,
    deal,
    knowledge_of,
    new_game,
    pending,
    play_quest,
    propose,
    rejection_wins,
    reveal,
    speak,
    vote,
)
from roundtable.games.avalon.settings import SETTINGS, Setting, setting
from roundtable.games.avalon.state import AvalonState, Phase
from roundtable.games.avalon.view import AvalonView, known_evil, view
from roundtable.games.errors import ConfigurationError, IllegalActionError
from roundtable.games.protocol import Decision, PlayerView, Request, check_decision

__all__ = [
    "Assassination", "AssassinationTargets", "AvalonConfig", "EvilQuestCard", "SETTINGS", "Setting", "TwoFailQuests",
    "VARIANTS", "AvalonState", "AvalonView", "ConfigurationError", "Decision", "Discussion",
    "EVIL_ROLES", "FifthRejection", "GOOD_ROLES", "IllegalActionError", "PRESETS", "PRESET_NAMES", "Phase",
    "PlayerView", "RULES", "Request", "Role", "Rules", "SETUP", "Side", "VoteVisibility", "apply", "assassinate",
    "check_decision", "deal", "fails_needed", "knowledge_of", "known_evil", "new_game", "pending",
    "play_quest", "preset_roles", "propose", "rejection_wins", "reveal", "setting", "side_counts", "speak",
    "team_size", "validate_roles", "view", "vote",
]
