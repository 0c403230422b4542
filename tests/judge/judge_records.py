"""Hand-built finished records with known words, and scripted judge replies keyed by those words.

Avalon (lan6): 1 Merlin (knows 5 and 6 evil), 2 Percival (knows 1 and 5 as Merlin or Morgana), 3 and 4 Servants,
5 Morgana, 6 Assassin. Werewolf (xu7): 1 and 2 Werewolves, 3 and 4 Villagers, 5 Seer, 6 Witch, 7 Guard.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from roundtable.testing.scripted import Call

AVALON_ROLES = ["merlin", "percival", "servant", "servant", "morgana", "assassin"]
WEREWOLF_ROLES = ["werewolf", "werewolf", "villager", "villager", "seer", "witch", "guard"]

# (round, speaker, text, claim, {named player: stance}); None for the claim: not asked (a later round)
AVALON_WORDS = [
    (1, 1, "I am a loyal servant. I propose players 1 and 3; I do not trust player 5.", "servant",
     {3: "trust", 5: "distrust"}),
    (1, 2, "As Percival I can tell you player 1 is special.", "percival", {1: "trust"}),
    (1, 3, "I have no information yet.", "none", {}),
    (1, 4, "Player 6 seems suspicious to me.", "none", {6: "distrust"}),
    (1, 5, "Trust me, I am Merlin. Player 1 is lying.", "merlin", {1: "distrust"}),
    (2, 1, "Player 3 let us down; I no longer trust player 3.", None, {3: "distrust"}),
    (2, 4, "Player 6 is fine now, I trust player 6.", None, {6: "trust"}),
    (2, 6, "I agree with player 4.", None, {4: "trust"}),
]
SHARING = {1: {5: "disclosed", 6: "not_disclosed"}, 2: {1: "disclosed", 5: "not_disclosed"}}
"""What Merlin (1) and Percival (2) give away in round 1, per fact (the player it is about)."""

WEREWOLF_WORDS = [
    (1, 1, "I am a simple villager. Player 5 is suspicious.", "villager", {5: "distrust"}),
    (1, 5, "I am the seer and player 1 is a werewolf.", "seer", {1: "distrust"}),
    (1, 3, "I trust player 5.", "none", {5: "trust"}),
    (2, 2, "I'm not a werewolf; player 5 is lying.", "village", {5: "distrust"}),
]


def _events(game: str, roles: list[str], words: list[tuple], knowledge: dict[int, list[dict]]) -> list[dict]:
    sides = {"avalon": lambda r: "evil" if r in ("morgana", "assassin") else "good",
             "werewolf": lambda r: "werewolves" if r == "werewolf" else "village"}[game]
    events: list[dict[str, Any]] = [{"type": "game_start", "to": None, "players": len(roles)}]
    events += [{"type": "role", "to": [p], "player": p, "role": r, "side": sides(r)}
               for p, r in enumerate(roles, start=1)]
    events += [{"type": "knowledge", "to": [p], "player": p, "knows": knowledge.get(p, [])}
               for p in range(1, len(roles) + 1)]
    field = "round" if game == "avalon" else "day"
    for round_, speaker, text, *_ in words:
        events.append({"type": "utterance", "to": None, "speaker": speaker, "phase": "discussion",
                       field: round_, "text": text})
    events.append({"type": "utterance", "to": [5, 6], "speaker": 5, "phase": "assassination", field: 2,
                   "text": "Player 1 is Merlin, I am sure."})  # private: never judged
    events.append({"type": "game_over", "to": None, "winner": "good", "reason": "three_successful_quests"})
    return events


def avalon_record(game_id: str = "a1", status: str = "finished", words: list[tuple] | None = None) -> dict:
    knowledge = {1: [{"player": 5, "is": "evil"}, {"player": 6, "is": "evil"}],
                 2: [{"player": 1, "is": "merlin_or_morgana"}, {"player": 5, "is": "merlin_or_morgana"}],
                 5: [{"player": 6, "is": "evil"}], 6: [{"player": 5, "is": "evil"}]}
    return {"version": 2, "game_id": game_id, "game": "avalon", "status": status, "seed": 1,
            "config": {"preset": "lan6"}, "roles": {str(p): r for p, r in enumerate(AVALON_ROLES, start=1)},
            "winner": "good", "end_reason": "three_successful_quests",
            "events": _events("avalon", AVALON_ROLES, AVALON_WORDS if words is None else words, knowledge)}


def werewolf_record(game_id: str = "w1") -> dict:
    knowledge = {1: [{"player": 2, "is": "werewolf"}], 2: [{"player": 1, "is": "werewolf"}]}
    return {"version": 2, "game_id": game_id, "game": "werewolf", "status": "finished", "seed": 1,
            "config": {"preset": "xu7"}, "roles": {str(p): r for p, r in enumerate(WEREWOLF_ROLES, start=1)},
            "winner": "village", "end_reason": "no_werewolves", "events": _events("werewolf", WEREWOLF_ROLES,
                                                                                 WEREWOLF_WORDS, knowledge)}


def store(home: Path, record: dict) -> dict:
    folder = home / "records"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{record['game_id']}.json").write_text(json.dumps(record))
    return record


def _said(call: Call, words: list[tuple]) -> tuple:
    """The one line of ``words`` the call asks about (its text is quoted in the prompt)."""
    found = [w for w in words if f'"{w[2]}"' in call.prompt]
    assert len(found) == 1, call.prompt
    return found[0]


def replies(words: list[tuple] = AVALON_WORDS, claim: str = "deception") -> dict[str, Any]:
    """Scripted JSON replies per behaviour, from the known answers in ``words`` and `SHARING`."""

    def stance(call: Call) -> str:
        return json.dumps({f"player_{p}": s for p, s in _said(call, words)[4].items()})

    def claimed(call: Call) -> str:
        return json.dumps({"claim": _said(call, words)[3]})

    def sharing(call: Call) -> str:
        player = next(p for p in SHARING if f"Player {p} is " in call.prompt.split("privately")[0])
        return json.dumps({f"player_{q}": s for q, s in SHARING[player].items()})

    return {"stance": stance, claim: claimed, "sharing": sharing}
