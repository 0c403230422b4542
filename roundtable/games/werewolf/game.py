"""Werewolf as a `GameRules` record: what the game graph, the agents and the conformance suite use."""

from __future__ import annotations

from typing import Any

from roundtable.games.config_input import config_input
from roundtable.games.logged_state import state_fields
from roundtable.games.protocol import Decision, GameRules, Request, Result, RuleBot
from roundtable.games.werewolf.board import board
from roundtable.games.werewolf.bots import naive
from roundtable.games.werewolf.bots.words import kill_words, words_for
from roundtable.games.werewolf.config import VARIANTS, WerewolfConfig
from roundtable.games.werewolf.records import record_views
from roundtable.games.werewolf.roles import Role
from roundtable.games.werewolf.rules import apply, new_game, pending
from roundtable.games.werewolf.state import Phase, WerewolfState
from roundtable.games.werewolf.view import WerewolfView, view

PHASES: dict[str, str] = {
    Phase.WEREWOLVES.value: "Night, werewolves: each living werewolf names a living player or passes, in seat "
                            "order, telling its teammates (werewolf_night=sequential: no consensus, no kill), or "
                            "all at once (simultaneous: the most named is the target; a tie or all passes, no kill).",
    Phase.GUARD.value: "Night, guard: the Guard protects one living player against the werewolf kill "
                       "(not the same player two nights running).",
    Phase.WITCH.value: "Night, witch: told the target while she holds the antidote, she may save it; she may "
                       "poison one player (each potion once per game).",
    Phase.SEER.value: "Night, seer: the Seer checks one living player and learns privately whether it is a werewolf.",
    Phase.DAWN.value: "Dawn: the night's dead are announced; the game may end; the day's speaking order is drawn.",
    Phase.DAY_TALK.value: "Day talk: the living speak once each, in the day's order.",
    Phase.DAY_VOTE.value: "Day vote: every living player votes to eliminate one other or passes, at once; "
                          "the most votes is eliminated (a tie: nobody).",
    Phase.LAST_WORDS.value: "Last words: the eliminated player makes a last statement.",
}

_ANSWER_KEYS = {"kill": "target", "protect": "target", "poison": "target", "see": "target", "eliminate": "target"}


def config_of(data: dict[str, Any]) -> WerewolfConfig:
    """A `WerewolfConfig` from its dict (``{"roles": [...], "rules": {...}, "preset": "xu7", "players": 7}``).

    Raises:
        ConfigurationError: a missing or malformed field, named in the message.
    """
    roles, rules, preset, players = config_input(data, "Werewolf")
    config = WerewolfConfig.build(preset=None if roles else preset, players=players, roles=roles,
                                  rules=[f"{k}={v}" for k, v in rules.items()])
    return WerewolfConfig(roles=config.roles, rules=config.rules, preset=preset or config.preset) if roles else config


def configurations() -> list[dict[str, Any]]:
    """Configurations covering the preset, every variant value and a few other role sets (three werewolves voting
    at once and in turn among them)."""
    configs = [WerewolfConfig.build()]
    for key, values in VARIANTS.items():
        for value in values[1:]:
            configs.append(WerewolfConfig.build(rules=[f"{key}={value}"]))
    configs.append(WerewolfConfig.build(roles=["werewolf", "villager", "seer", "witch", "guard"],
                                        rules=["max_days=5"]))
    configs.append(WerewolfConfig.build(roles=["werewolf"] * 3 + ["villager"] * 3 + ["seer", "witch", "guard"]))
    configs.append(WerewolfConfig.build(roles=["werewolf"] * 3 + ["villager"] * 3 + ["seer", "witch", "guard"],
                                        rules=["werewolf_night=sequential"]))
    configs.append(WerewolfConfig.build(roles=["werewolf", "seer", "witch", "guard"], rules=["werewolf_win=parity"]))
    return [c.to_dict() for c in configs]


def result(state: WerewolfState) -> Result | None:
    """The winner (``village``, ``werewolves``, or ``None`` for a draw) and end reason, once the game is over."""
    if state.phase is not Phase.OVER:
        return None
    return Result(winner=state.winner.value if state.winner else None, reason=state.end_reason or "")


def action_of(request: Request, decision: Decision) -> dict[str, Any]:
    """The answer as the log records it: ``{"target": player or None}`` for a pick, ``{"save": bool}``;
    ``{}`` for words only."""
    if request.answer == "pick":
        return {_ANSWER_KEYS.get(request.kind, "target"): decision.players[0] if decision.players else None}
    if request.answer == "yes_no" and decision.choice is not None:
        return {request.kind: decision.choice}
    return {}


def plain_words(view_: WerewolfView, request: Request, decision: Decision) -> str:
    """Plain words for a statement with no usable words (the rule bots' wording); for a kill vote, the vote told
    to the teammates."""
    if request.kind == "kill":
        return kill_words(decision.players[0] if decision.players else None)
    return words_for(view_, request)


RULES: GameRules[WerewolfState, WerewolfConfig] = GameRules(
    name="werewolf",
    phases=PHASES,
    roles=tuple(r.value for r in Role),
    role_side=lambda role: Role(role).side.value,
    key_events=frozenset({"deaths", "vote_result", "seer_result", "game_over"}),
    identity_words=("werewolf", "werewolves", "wolf", "wolves", "villager", "villagers", "village", "seer", "witch",
                    "guard"),
    config=config_of,
    config_dict=WerewolfConfig.to_dict,
    configurations=configurations,
    new_game=new_game,
    pending=pending,
    apply=apply,
    view=view,
    result=result,
    **state_fields(WerewolfState),
    action_of=action_of,
    plain_words=plain_words,  # type: ignore[arg-type]  # typed on Werewolf's own view: GameRules hands a game only its views
    view_model=WerewolfView,
    record_views=record_views,
    round_name="day",
    bot=RuleBot(decide=naive.decide, remembers=naive.remembers),  # type: ignore[arg-type]  # typed on Werewolf's view
    renamed_events={"kill_vote": "kill", "vote": "eliminate"},  # before record version 2
    table="roundtable.tables.werewolf:werewolf_table",
    board=board,
)
"""Werewolf's rules module record (`roundtable.games.protocol.GameRules`)."""
