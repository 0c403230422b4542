"""Avalon as a `GameRules` record: what the game graph, the agents and the conformance suite use."""

from __future__ import annotations

from typing import Any

from roundtable.games.avalon.board import board
from roundtable.games.avalon.bots import avalonbench, naive
from roundtable.games.avalon.bots.words import words_for
from roundtable.games.avalon.config import VARIANTS, AvalonConfig
from roundtable.games.avalon.records import record_views
from roundtable.games.avalon.roles import PRESET_NAMES, Role
from roundtable.games.avalon.rules import apply, deal, pending
from roundtable.games.avalon.settings import SETTINGS, setting
from roundtable.games.avalon.state import AvalonState, Phase
from roundtable.games.avalon.view import AvalonView, belief_probe, view
from roundtable.games.config_input import config_input
from roundtable.games.logged_state import state_fields
from roundtable.games.protocol import Decision, GameRules, Request, Result, RuleBot

PHASES: dict[str, str] = {
    Phase.REVEAL.value: "Reveal: each player privately learns its role's knowledge; round 1 opens.",
    Phase.PROPOSAL.value: "Team proposal: the leader names exactly team_size(round) players.",
    Phase.DISCUSSION.value: "Discussion: players speak in turn, one request per speaker.",
    Phase.VOTE.value: "Team vote: every player votes at once; a strict majority approves.",
    Phase.QUEST.value: "Quest: the team members play their cards at once; only the number of fails is public.",
    Phase.ASSASSINATION.value: "Assassination: evil talk among themselves, then the Assassin names a player.",
}

_ANSWER_KEYS = {"propose_team": "team", "speak": "team", "vote_team": "approve", "quest_card": "success",
                "assassinate": "target"}


def config_of(data: dict[str, Any]) -> AvalonConfig:
    """An `AvalonConfig` from its dict (``{"roles": [...], "rules": {...}, "preset": ...}``).

    ``roles`` may be left out when ``preset`` names a fixed preset.

    Raises:
        ConfigurationError: a missing or malformed field, named in the message.
    """
    roles, rules, preset, players = config_input(data, "Avalon")
    config = AvalonConfig.build(preset=None if roles else preset, players=players, roles=roles,
                                rules=[f"{k}={v}" for k, v in rules.items()])
    return AvalonConfig(roles=config.roles, rules=config.rules, preset=preset or config.preset) if roles else config


def configurations() -> list[dict[str, Any]]:
    """Configurations covering every preset, player count and rule variant value."""
    configs = [AvalonConfig.build(preset=name) for name in PRESET_NAMES if name != "standard"]
    configs += [AvalonConfig.build(players=n) for n in range(5, 11)]
    for key, values in VARIANTS.items():
        for value in values[1:]:  # the first value is the default
            configs.append(AvalonConfig.build(preset="lan6", rules=[f"{key}={value}"]))
    configs += [AvalonConfig.build(preset=preset, rules=rules) for preset, rules in map(setting, SETTINGS)]
    configs.append(AvalonConfig.build(players=10, roles=["merlin", "percival", "servant", "servant", "servant",
                                                          "servant", "morgana", "mordred", "oberon", "assassin"]))
    return [c.to_dict() for c in configs]


def result(state: AvalonState) -> Result | None:
    """The winner and end reason, once the game is over."""
    if state.phase is not Phase.OVER or state.winner is None:
        return None
    return Result(winner=state.winner.value, reason=state.end_reason or "")


def action_of(request: Request, decision: Decision) -> dict[str, Any]:
    """The answer as the log records it: ``{"team": [...]}``, ``{"approve": bool}``, ``{"success": bool}``,
    ``{"target": player or None}``; ``{}`` for words only."""
    key = _ANSWER_KEYS.get(request.kind)
    if key is None:  # words only
        return {}
    if request.answer == "pick":
        if key == "target":
            return {"target": decision.players[0] if decision.players else None}
        return {} if decision.players is None else {key: list(decision.players)}
    if request.answer == "yes_no" and decision.choice is not None:
        return {key: decision.choice}
    return {}


def plain_words(view_: AvalonView, request: Request, decision: Decision) -> str:
    """Plain words matching an answer (the rule bots' wording)."""
    return words_for(view_, request, decision.players)


RULES: GameRules[AvalonState, AvalonConfig] = GameRules(
    name="avalon",
    phases=PHASES,
    roles=tuple(r.value for r in Role),
    config=config_of,
    config_dict=AvalonConfig.to_dict,
    configurations=configurations,
    new_game=deal,
    pending=pending,
    apply=apply,
    view=view,
    result=result,
    **state_fields(AvalonState),
    action_of=action_of,
    plain_words=plain_words,  # type: ignore[arg-type]  # typed on Avalon's own view: GameRules hands a game only its views
    view_model=AvalonView,
    belief_probe=belief_probe,
    record_views=record_views,
    round_name="quest",
    role_title=lambda role: Role(role).title,
    role_side=lambda role: Role(role).side.value,
    key_events=frozenset({"vote_result", "team_approved", "quest_result", "assassination", "game_over"}),
    identity_words=("merlin", "percival", "morgana", "assassin", "minion", "mordred", "oberon", "servant", "loyal",
                    "evil", "good", "spy", "spies", "traitor"),
    bot=RuleBot(decide=naive.decide, beliefs=naive.beliefs,  # type: ignore[arg-type]  # typed on Avalon's view
                flavours={"avalonbench": RuleBot(decide=avalonbench.decide,  # type: ignore[arg-type]
                                                 remembers=avalonbench.remembers)}),
    settings=SETTINGS,
    renamed_events={"vote": "vote_team"},  # before record version 2
    table="roundtable.tables.avalon:avalon_table",
    board=board,
)
"""Avalon's rules module record (`roundtable.games.protocol.GameRules`)."""
