"""Avalon rules library: pure Python, no LangChain, no I/O, no model (SPEC.md §1).

Typical use::

    from roundtable.games import avalon
    state = avalon.new_game(avalon.AvalonConfig.build("lan6"), seed=7)
    while not state.is_over:
        requests = avalon.pending(state)          # what the game waits for
        decisions = {r.player: my_policy(avalon.view(state, r.player), r) for r in requests}
        state = avalon.apply(state, decisions)    # raises IllegalActionError on a broken rule
"""

from .config import Assassination, AvalonConfig, Discussion, FifthRejection, Rules, VoteVisibility
from .errors import ConfigurationError, IllegalActionError
from .requests import Decision, Request, RequestKind, check_decision, check_team
from .roles import (
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
from .rules import apply, assassinate, deal, knowledge_of, new_game, reveal, pending, play_quest, propose, speak, vote
from .state import AvalonState, Event, Phase
from .view import PlayerView, can_see, view

__all__ = [
    "Assassination", "AvalonConfig", "AvalonState", "ConfigurationError", "Decision", "Discussion",
    "EVIL_ROLES", "Event", "FifthRejection", "GOOD_ROLES", "IllegalActionError", "PRESETS",
    "PRESET_NAMES", "Phase", "PlayerView", "Request", "RequestKind", "Role", "Rules", "SETUP", "Side",
    "VoteVisibility", "apply", "assassinate", "deal", "reveal", "can_see", "check_decision", "check_team", "fails_needed",
    "knowledge_of", "new_game", "pending", "play_quest", "preset_roles", "propose", "side_counts", "speak",
    "team_size", "validate_roles", "view", "vote",
]
