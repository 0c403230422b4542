"""No prompt sent for a player contains another player's private facts (sentinel test)."""

from __future__ import annotations

import re
from dataclasses import replace

from lga_fakes import Script, ScriptedModels, decide

from roundtable.agents.lga.graph import build_lga_graph
from roundtable.games import avalon

SENTINEL = re.compile(r"SENTINEL\[([\d,]+)\]")
PLAYER = re.compile(r"--- Private to you, Player (\d+) ---")
RULES = ["discussion=before_proposal", "assassination=after_each_quest", "vote_visibility=tally_only"]


def plant(state: avalon.AvalonState) -> avalon.AvalonState:
    """Tag every private event's payload with a sentinel naming the players allowed to see it."""
    events = []
    for event in state.events:
        to = event.get("to")
        if to and "note" not in event:
            event = {**event, "note": f"SENTINEL[{','.join(map(str, to))}]"}
        events.append(event)
    return replace(state, events=tuple(events))


def whisper(state: avalon.AvalonState) -> avalon.AvalonState:
    """Each player privately 'says' a sentinel only it may hear (rendered text, unlike payload notes)."""
    notes = [
        {"type": "utterance", "to": [p], "speaker": p, "phase": "discussion", "round": state.round,
         "attempt": state.attempt, "text": f"My secret is SENTINEL[{p}]."}
        for p in state.players
    ]
    return state.evolve(notes)


def test_no_prompt_contains_another_players_private_facts():
    script = Script()
    agent = build_lga_graph(ScriptedModels(script)).compile()
    state = avalon.new_game(avalon.AvalonConfig.build("lan6", rules=RULES), seed=5)
    memories: dict[int, dict] = {p: {} for p in state.players}
    last_round = 0
    decisions_made = 0
    while not state.is_over and decisions_made < 60:
        if state.round != last_round:
            state, last_round = whisper(state), state.round
        state = plant(state)
        decisions = {}
        for request in avalon.pending(state):
            decision, memories[request.player] = decide(agent, state, request, memories[request.player], seed=5)
            decisions[request.player] = decision
            decisions_made += 1
        state = avalon.apply(state, decisions)
    assert decisions_made > 30 and script.calls
    own_seen = set()
    for call in script.calls:
        owner = PLAYER.search(call.prompt)
        assert owner, f"a {call.module} prompt names no player"
        player = int(owner.group(1))
        for match in SENTINEL.finditer(call.prompt):
            allowed = {int(p) for p in match.group(1).split(",")}
            assert player in allowed, f"{call.module} prompt of player {player} leaks {match.group(0)}"
            own_seen.add(player)
    # positive control: each player's own private words do reach its own prompts
    assert own_seen == set(state.players)
