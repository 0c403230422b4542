"""Game records of Secret Hitler played with the plugin's rules, for the tests of its report, play-quality part
and judge: whole rule-bot games, and games driven move by move (`helpers`) to plant a misplay or a claim, then
played out by the rule bot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from roundtable.games import GAMES  # first: the registry imports the plugin's package whole, by its entry point
from roundtable_secret_hitler.state import SecretHitlerState

RULES = GAMES["secret_hitler"]


def bot_moves(state: SecretHitlerState, seed: int = 0, steps: int = 2000) -> SecretHitlerState:
    """``state`` played on to the end by the rule bot at every seat."""
    assert RULES.bot is not None
    for _ in range(steps):
        if state.is_over:
            return state
        decisions = {r.player: RULES.bot.decide(RULES.view(state, r.player), r, seed + r.player)
                     for r in RULES.pending(state)}
        state = RULES.apply(state, decisions)
    raise AssertionError("the bot game did not end")


def bot_game(players: int = 5, seed: int = 0, talk: bool = True) -> SecretHitlerState:
    """A whole rule-bot game."""
    config = RULES.config({"players": players, "rules": {"discussion": "after_nomination" if talk else "none"}})
    return bot_moves(RULES.new_game(config, seed), seed)


def record_of(state: SecretHitlerState, game_id: str = "g1") -> dict[str, Any]:
    """The game record of ``state`` as roundtable's records hold one (the fields the measures and the judge
    read): finished once the game is over."""
    over = next((e for e in state.events if e["type"] == "game_over"), None)
    return {"version": 2, "game_id": game_id, "game": "secret_hitler", "status": "finished" if over else "running",
            "seed": state.seed, "config": {"players": len(state.roles), "rules": state.config.rules.to_dict()},
            "seats": [{"kind": "naive"} for _ in state.roles],
            "roles": {str(p): r.value for p, r in enumerate(state.roles, start=1)},
            "winner": over["winner"] if over else None, "end_reason": over["reason"] if over else None,
            "usage": {"game": {}}, "events": [dict(e) for e in state.events]}


def store(home: Path, record: dict[str, Any]) -> dict[str, Any]:
    """``record`` written to the records directory of the data directory ``home``."""
    folder = home / "records"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{record['game_id']}.json").write_text(json.dumps(record))
    return record


# ------------------------------------------------------------------ a game whose Fascist Chancellor lies

LIE = "Player 3 passed me two Fascist policies, I had no choice."
TRUTH = "I drew a Liberal and two Fascists and passed a Liberal and a Fascist to Player 2."
CAMOUFLAGE = "I am a Liberal, vote ja."
CARDS = {LIE: {"office": "chancellor", "drawn": "no_claim", "passed": "two_fascist"},
         TRUTH: {"office": "president", "drawn": "one_liberal", "passed": "one_each"}}
"""The judge's scripted readings of the two card claims."""


def lying_chancellor(game_id: str = "g1") -> dict[str, Any]:
    """Five players, Hitler 1, Fascist 2. Round 1: Liberal President 3 draws L F F, discards a Fascist policy and
    passes L and F to Chancellor 2, who enacts the Fascist one. Round 2's talk: 2 says it got two Fascist
    policies (a lie), 3 tells the truth; then the rule bots play the game out."""
    # imported here, so that roundtable's registries (above) load the plugin first
    from helpers import F, L, answer, game, votes

    from roundtable_secret_hitler.deck import FULL_DECK

    state = answer(game(5, talk=True, president=3, deck=(L, F, F) + tuple(sorted(FULL_DECK))), p3=2)
    for words in ("I trust Player 2 to govern with me.", "Player 2 seems fine to me.", "I doubt Player 2.",
                  CAMOUFLAGE, "I will govern well."):  # speakers 3, 4, 5, 1, 2
        state = answer(state, **{f"p{state.speakers[0]}": words})
    state = votes(state, {1, 2, 3, 4, 5})
    state = answer(state, p3=False)  # the President discards a Fascist policy
    state = answer(state, p2=False)  # the Chancellor enacts the Fascist one
    state = answer(state, p4=5)
    for words in ("I nominated Player 5.", "I will vote ja.", "Player 3 is suspicious.", LIE, TRUTH):
        state = answer(state, **{f"p{state.speakers[0]}": words})  # speakers 4, 5, 1, 2, 3
    return record_of(bot_moves(state), game_id)


def said(call: Any) -> str:
    """The words a judge question (a scripted `Call`) quotes."""
    return str(call.messages[-1].content).split('"')[1]


def fields(call: Any) -> list[str]:
    """The fields a judge question's schema asks for."""
    schema = call.schema if isinstance(call.schema, dict) else call.schema.model_json_schema()
    return list(schema["properties"])


def judge_replies() -> dict[str, Any]:
    """The scripted judge's replies per behaviour for `lying_chancellor`: its card claims read as `CARDS`, every
    stance distrust, `CAMOUFLAGE` a Liberal claim and no other claim."""
    return {"deception": lambda call: json.dumps(CARDS[said(call)]),
            "stance": lambda call: json.dumps(dict.fromkeys(fields(call), "distrust")),
            "camouflage": lambda call: json.dumps({"claim": "liberal" if said(call) == CAMOUFLAGE else "none"})}
