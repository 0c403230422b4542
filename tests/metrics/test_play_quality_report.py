"""``experiment report``'s play-quality section and rows, for both games, from hand-built records."""

from __future__ import annotations

from typing import Any

from roundtable.experiments.config import parse_config
from roundtable.experiments.report import measures_csv, render_markdown
from roundtable.experiments.reports import avalon, werewolf
from roundtable.metrics.tables import find

LAN6 = ["merlin", "percival", "servant", "servant", "morgana", "assassin"]
XU7 = ["werewolf", "werewolf", "witch", "villager", "villager", "guard", "seer"]
COPY = "I support the team because Player 3 and Player 4 have been quiet and honest so far."


def game(game_id: str, roles: list[str], *events: dict[str, Any], name: str = "avalon",
         end: str | None = None) -> dict[str, Any]:
    winner = "village" if name == "werewolf" else "evil"
    over = [{"type": "game_over", "to": None, "day": 1, "winner": winner, "reason": end}] if end else []
    return {"game": name, "game_id": game_id, "status": "finished", "end_reason": end,
            "roles": {str(p): r for p, r in enumerate(roles, start=1)}, "events": [*events, *over],
            "usage": {"game": {}}}


def said(speaker: int, text: str, **where: Any) -> dict[str, Any]:
    return {"type": "utterance", "to": None, "speaker": speaker, "text": text, "round": 1, "attempt": 1} | where


def proposal(round_: int, attempt: int) -> dict[str, Any]:
    return {"type": "proposal", "to": None, "round": round_, "attempt": attempt, "leader": 1, "team": [1, 2],
            "final": True}


def config(game_name: str, *conditions: str) -> Any:
    return parse_config(f'name = "q"\ngame = "{game_name}"\ngames_per_condition = 2\n'
                        + "".join(f'[[conditions]]\nname = "{c}"\n' for c in conditions))


def test_the_avalon_report_has_play_quality_and_the_five_rejection_quests() -> None:
    records = {
        "lga": [game("a", LAN6, said(3, COPY), said(4, COPY), proposal(1, 1), proposal(2, 5),
                     end="five_rejected_proposals"),
                game("b", LAN6, said(3, "I am a Servant; Player 1 is Merlin."), proposal(1, 1), proposal(2, 1),
                     proposal(3, 1), end="three_failed_quests")],
        "cot": [game("c", LAN6, said(3, COPY), end="merlin_assassinated")],
    }
    rows = avalon.measures(records)
    assert (find(rows, "parroting", "lga").k, find(rows, "parroting", "lga").n) == (1, 3)
    assert (find(rows, "merlin_exposed", "lga").k, find(rows, "merlin_exposed", "lga").n) == (1, 3)
    assert (find(rows, "five_rejections", "lga").k, find(rows, "five_rejections", "lga").n) == (1, 2)
    text = render_markdown(config("avalon", "lga", "cot"), records, rows)
    section = text.split("## Play quality")[1].split("\n## ")[0]
    assert "| parroting | <= 10% | 33.3% [6.1, 79.2] (1/3) | 0.0% [0.0, 79.3] (0/1) |" in section
    assert "| games ended by five rejections | <= 33% | 50.0% [9.5, 90.5] (1/2) | 0.0% [0.0, 79.3] (0/1) |" in section
    assert "| lga | 2 | 50.0% [9.5, 90.5] (1/2) |" in section  # ended in quest 2, one of two games
    assert "dead players named" not in section  # a Werewolf measure: no case in Avalon
    assert "five_rejections,lga,quest,2,1,2," in measures_csv(rows)


def test_the_werewolf_report_has_play_quality_with_its_settled_rules() -> None:
    events = [{"type": "night_start", "to": None, "day": 1, "alive": list(range(1, 8))},
              {"type": "kill", "to": [1, 2], "day": 1, "by": 1, "target": 2},
              {"type": "kill", "to": [1, 2], "day": 1, "by": 2, "target": 4},
              said(4, "I vote for Player 5.", phase="day_talk", day=1),
              {"type": "eliminate", "to": None, "day": 1, "player": 4, "target": 5}]
    records = {"cga": [game("w", XU7, *events, name="werewolf", end="werewolves_dead")]}
    rows = werewolf.measures(records)
    text = render_markdown(config("werewolf", "cga"), records, rows)
    section = text.split("## Play quality")[1].split("\n## ")[0]
    assert "| knowledge-settled decisions right | >= 80% | 50.0% [9.5, 90.5] (1/2) |" in section
    assert "| words and actions agree | >= 90% | 100.0% [20.7, 100.0] (1/1) |" in section
    assert "| cga | werewolf kill | 50.0% [9.5, 90.5] (1/2) |" in section
    assert "five rejections" not in section  # an Avalon measure


def test_records_with_nothing_said_or_decided_say_so() -> None:
    records = {"c": [game("e", LAN6)]}
    text = render_markdown(config("avalon", "c"), records, avalon.measures(records))
    assert "No play-quality case in these records" in text.split("## Play quality")[1]
