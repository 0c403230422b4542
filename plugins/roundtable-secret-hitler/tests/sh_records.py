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
