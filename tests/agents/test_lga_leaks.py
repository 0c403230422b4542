"""No prompt sent for a player contains another player's private facts (sentinel test), and a probe prompt (the
belief probe at game over, every kind that answers it) holds nothing the player may not know."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from lga_fakes import FAKE_MODEL, Script, ScriptedModels, decide

from roundtable.agents.lga.graph import build_lga_graph
from roundtable.agents.registry import AGENT_KINDS
from roundtable.games import GAMES, avalon
from roundtable.games.avalon.bots import naive as naive_bot
from roundtable.games.protocol import belief_request

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


PROBED = sorted(kind for kind, record in AGENT_KINDS.items() if "avalon" in record.probed)


def finished_game(seed: int) -> avalon.AvalonState:
    """A lan6 game played to the end by the naive bots, each player whispering a sentinel every round and once
    more as play ends (so it is among the last messages every kind keeps), private payloads tagged."""
    state = avalon.new_game(avalon.AvalonConfig.build("lan6", rules=RULES), seed=seed)
    last_round = 0
    while not state.is_over:
        if state.round != last_round:
            state, last_round = whisper(state), state.round
        requests = avalon.pending(state)
        state = plant(avalon.apply(state, {r.player: naive_bot.decide(avalon.view(state, r.player), r, seed)
                                           for r in requests}))
    end = next(i for i, e in enumerate(state.events) if e["type"] in ("game_over", "assassination"))
    told = whisper(replace(state, events=state.events[:end])).events[end:]
    return replace(state, events=(*state.events[:end], *told, *state.events[end:]))


def test_the_probe_leak_scan_covers_every_model_kind():
    assert {"lga", "cot", "codeact", "cga"} <= set(PROBED)


@pytest.mark.parametrize("kind", PROBED)
@pytest.mark.parametrize("seed", [2, 5])
def test_a_probe_prompt_holds_nothing_the_player_may_not_know(kind, seed):
    state = finished_game(seed)
    views = GAMES["avalon"].belief_probe(state)
    assert views, "good players are probed"
    for player, view in views.items():
        script = Script()
        others = [q for q in state.players if q != player]
        request = belief_request(player, others, "game_over", view.round)
        node = AGENT_KINDS[kind].node(ScriptedModels(script))
        node.invoke({"view": view.model_dump(mode="json"), "request": request.model_dump(mode="json"), "pool": {},
                     "seat": {"kind": kind, "model": FAKE_MODEL, "options": {}}, "seed": seed})
        probe = [call.prompt for call in script.calls if call.module == "believe"]
        assert len(probe) == 1, f"{kind}: {[c.module for c in script.calls]}"
        for call in script.calls:  # the free answer and the parser call
            for match in SENTINEL.finditer(call.prompt):
                allowed = {int(p) for p in match.group(1).split(",")}
                assert player in allowed, f"{kind}: {call.module} prompt of player {player} leaks {match.group(0)}"
        assert f"SENTINEL[{player}]" in probe[0], "positive control: the player's own last words reach its probe"
        known = {int(k["player"]) for k in view.knowledge}
        for q in others:
            role = state.role_of(q)
            for name in {role.value, role.title} if q not in known else ():
                for verb in ("is", "was"):
                    assert f"Player {q} {verb} {name}" not in probe[0], f"{kind}: player {player} is told {q}'s role"
        assert "Game over" not in probe[0] and "named Player" not in probe[0], "no result, no assassin's target"
