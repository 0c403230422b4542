"""The kinds that keep a memory keep each game's own key facts beyond their round and count its own identity words
as key talk (`roundtable.games.protocol.GameRules.key_events`, ``identity_words``): the game says which, the kinds
compare no game's names (issue 60; docs/architecture.md#a-games-table)."""

from __future__ import annotations

from roundtable.agents.codeact.memory import remember
from roundtable.agents.lga.memory import ingest as lga_ingest
from roundtable.agents.react.memory import ingest as react_ingest
from roundtable.games import GAMES, werewolf


def narrate(event: dict) -> str:
    return event.get("text") or event["type"]


def werewolf_view(events: list[dict]):
    rules = GAMES["werewolf"]
    state = rules.new_game(rules.config({"preset": "xu7"}), 1)
    view = werewolf.view(state, 1)
    return view.model_copy(update={"events": tuple(view.events) + tuple(events)})


DEATHS = {"type": "deaths", "to": None, "day": 1, "players": [3]}
SEER = {"type": "utterance", "to": None, "day": 1, "speaker": 2, "text": "I am the Seer and Player 4 is a wolf."}
MERLIN = {"type": "utterance", "to": None, "day": 1, "speaker": 5, "text": "I think Player 6 is Merlin."}


def test_werewolf_deaths_are_key_facts_to_every_memory_and_its_role_words_key_talk_to_codeact() -> None:
    view = werewolf_view([DEATHS, SEER, MERLIN])
    key = remember({}, view, narrate, k=50, key_lines=50)["key"]
    assert "Host: deaths" in key and f"Player 2: {SEER['text']}" in key
    assert f"Player 5: {MERLIN['text']}" not in key, "Avalon's role words are not Werewolf's identity words"
    minutes = react_ingest({}, view, narrate)["minutes"]
    assert [m["outcome"] for m in minutes if m["text"] == "Host: deaths"] == [True]
    assert not any(m["outcome"] for m in minutes if m["text"].startswith("Player "))
    records = lga_ingest({}, view, narrate)["records"]
    assert [r.get("fact") for r in records if r["text"] == "deaths"] == [True]
    assert not any(r.get("fact") for r in records if r["speaker"] != "Host")


def test_every_registered_game_names_its_game_over_among_its_key_facts() -> None:
    for name, rules in GAMES.items():
        assert "game_over" in rules.key_events, name
        assert all(word == word.lower() for word in rules.identity_words), name


def test_reacts_minutes_of_a_game_whose_log_counts_days_follow_the_views_round() -> None:
    """Werewolf's events name their day, not a round: each new day's minutes go under that day (the view's round), so
    the minutes of ended days are summarized, not kept as day 1's forever."""
    first = react_ingest({}, werewolf_view([DEATHS]), narrate)
    later = werewolf_view([DEATHS, {**SEER, "day": 3}]).model_copy(update={"round": 3})
    minutes = react_ingest(first, later, narrate)["minutes"]
    assert {m["round"] for m in minutes[:len(first["minutes"])]} == {1}
    assert [m["round"] for m in minutes[len(first["minutes"]):]] == [3]
