"""Secret Hitler as a `GameRules` record: what roundtable's game graph, agents and conformance suite use
(docs/games/secret-hitler.md#the-plugin)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from roundtable.games.logged_state import state_fields
from roundtable.games.protocol import Decision, GameRules, Request, Result, RuleBot, Setting
from roundtable_secret_hitler.board import board
from roundtable_secret_hitler.bots import naive
from roundtable_secret_hitler.bots.words import words_for
from roundtable_secret_hitler.config import SecretHitlerConfig, config_of, configurations
from roundtable_secret_hitler.records import record_views
from roundtable_secret_hitler.requests import pending
from roundtable_secret_hitler.roles import Role
from roundtable_secret_hitler.rules import apply, new_game
from roundtable_secret_hitler.state import Phase, SecretHitlerState
from roundtable_secret_hitler.view import SecretHitlerView, view

PHASES: dict[str, str] = {
    Phase.NOMINATION.value: "Nomination: the President names an eligible Chancellor candidate (term limits: the last "
                            "elected President and Chancellor, only the Chancellor with five players alive).",
    Phase.DISCUSSION.value: "Discussion (discussion=after_nomination): every living player speaks once, from the "
                            "President clockwise.",
    Phase.ELECTION.value: "Election: every living player votes ja or nein at once; more ja elects, a tie fails; a "
                          "third failure in a row enacts the top policy (chaos).",
    Phase.PRESIDENT_DISCARD.value: "Legislative session, President: draws three policies, discards one in secret, "
                                   "passes two.",
    Phase.VETO.value: "Veto (five Fascist policies enacted): the Chancellor may propose to veto the agenda.",
    Phase.VETO_CONSENT.value: "Veto consent: the President agrees (both policies discarded, the tracker advances) "
                              "or refuses (the Chancellor enacts).",
    Phase.CHANCELLOR_ENACT.value: "Legislative session, Chancellor: discards one of the two policies and enacts "
                                  "the other.",
    Phase.INVESTIGATE.value: "Executive action: the President sees a player's party membership.",
    Phase.SPECIAL_ELECTION.value: "Executive action: the President chooses the next President.",
    Phase.EXECUTION.value: "Executive action: the President executes a player (Hitler executed: the Liberals win).",
}

_ANSWER_KEYS = {"nominate": "chancellor", "investigate": "target", "execute": "target",
                "choose_president": "president"}
_CHOICE_KEYS = {"vote": "ja", "propose_veto": "veto", "consent_veto": "agree"}


def result(state: SecretHitlerState) -> Result | None:
    """The winner (``liberal`` or ``fascist``) and the end reason, once the game is over."""
    if state.phase is not Phase.OVER:
        return None
    return Result(winner=state.winner.value if state.winner else None, reason=state.end_reason or "")


def action_of(request: Request, decision: Decision) -> dict[str, Any]:
    """The answer as the log records it: ``{"chancellor": p}``, ``{"target": p}``, ``{"president": p}`` for a pick;
    ``{"ja": bool}``, ``{"veto": bool}``, ``{"agree": bool}``; ``{"discard": policy}`` or ``{"enact": policy}``;
    ``{}`` for words only."""
    if request.answer == "pick":
        return {_ANSWER_KEYS.get(request.kind, "target"): decision.players[0] if decision.players else None}
    if request.answer == "yes_no" and decision.choice is not None:
        if request.kind in ("discard", "enact"):
            return {request.kind: request.word(decision.choice)}
        return {_CHOICE_KEYS.get(request.kind, request.kind): decision.choice}
    return {}


def plain_words(view_: SecretHitlerView, request: Request, decision: Decision) -> str:
    """Plain words for a statement with no usable words: the rule bot's sentence for the government named."""
    return words_for(view_, request, naive.vote(view_, request.model_copy(update={"details": {
        "president": view_.president, "chancellor": view_.chancellor, "tracker": view_.tracker}})))


SETTINGS = {
    "rulebook": Setting("rulebook", None, (), "the Secret Hitler rulebook (Goat, Wolf & Cabbage, 2016)"),
    "silent": Setting("silent", None, ("discussion=none",), "the rulebook, without table talk"),
}
"""The named settings (``--setting``): the rulebook's game, with or without the talk after each nomination."""


def belief_probe(state: SecretHitlerState) -> dict[int, SecretHitlerView]:
    """Who states a belief in the other players' sides once the game is over, and on which view: every Liberal
    (the side that must deduce; docs/measures.md#deduction-accuracy), each on its view of the log up to the end of
    play, without ``game_over``, which reveals every role (as Avalon's probe, AvalonBench's, is asked before the
    roles are shown). The move that ended the game stays: it was public (an execution names its target, not that
    it was Hitler; an election names the Chancellor, not that he is Hitler).

    Returns:
        ``{player: view}`` for every Liberal, in seat order; ``{}`` while the game is not over.
    """
    if not state.is_over:
        return {}
    end = next((i for i, e in enumerate(state.events) if e["type"] == "game_over"), len(state.events))
    played = replace(state, events=state.events[:end])
    return {p: view(played, p) for p in state.players if state.roles[p - 1] is Role.LIBERAL}


def config_dict(config: SecretHitlerConfig) -> dict[str, Any]:
    """The configuration's dict (`SecretHitlerConfig.to_dict`)."""
    return config.to_dict()


RULES: GameRules[SecretHitlerState, SecretHitlerConfig] = GameRules(
    name="secret_hitler",
    phases=PHASES,
    roles=tuple(r.value for r in Role),
    config=config_of,
    config_dict=config_dict,
    configurations=configurations,
    new_game=new_game,
    pending=pending,
    apply=apply,
    view=view,
    result=result,
    **state_fields(SecretHitlerState),
    action_of=action_of,
    plain_words=plain_words,  # type: ignore[arg-type]  # typed on the game's own view: GameRules hands it only its views
    view_model=SecretHitlerView,
    record_views=record_views,
    belief_probe=belief_probe,
    probe_side="liberal",
    role_side=lambda role: Role(role).side.value,
    key_events=frozenset({"election", "chaos", "enact", "veto", "investigation", "investigated", "special_election",
                          "execution", "not_hitler", "game_over"}),
    identity_words=("liberal", "liberals", "fascist", "fascists", "hitler"),
    title="Secret Hitler",
    round_name="round",
    role_title=lambda role: role.title(),
    bot=RuleBot(decide=naive.decide),  # type: ignore[arg-type]  # typed on the game's own view
    settings=SETTINGS,
    table="roundtable_secret_hitler.table:secret_hitler_table",  # what the model-driven kinds read (table.py)
    board=board,  # the browser's table (board.py)
)
"""Secret Hitler's rules module record (`roundtable.games.protocol.GameRules`), declared under the
``roundtable.games`` entry point ``secret_hitler``."""
