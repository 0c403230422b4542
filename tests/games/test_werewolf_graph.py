"""The Werewolf game graph (`roundtable.graphs.werewolf`): one node per phase, the same game as the rules
library, the kill and elimination votes fanned out with ``Send``, pausing and resuming from a checkpoint."""

from __future__ import annotations

from collections import defaultdict

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from roundtable.agents.registry import AGENT_KINDS
from roundtable.games import werewolf as W
from roundtable.graphs.phases import agent_seed, decision_record
from roundtable.graphs.werewolf import build_werewolf_graph, graph
from roundtable.testing.policies import rule_policies

RUN = {"recursion_limit": 10_000}
KINDS = ["naive", "random", "naive", "naive", "random", "naive", "naive"]


def inputs(seed: int, kinds: list[str] = KINDS, **config) -> dict:
    return {"config": {"preset": "xu7"} | config, "seed": seed, "seats": [{"kind": k} for k in kinds]}


def rules_loop(seed: int, kinds: list[str]) -> W.WerewolfState:
    """The same game played through ``pending``/``view``/``apply``, with the graph's hidden decision records."""
    state = W.new_game(W.WerewolfConfig.build(), seed)
    while not state.is_over:
        requests = W.pending(state)
        policies = rule_policies("werewolf")
        answers = {r.player: policies[kinds[r.player - 1]](W.view(state, r.player), r, agent_seed(seed, r.player))
                   for r in requests}
        after = W.apply(state, answers)
        records = tuple(decision_record(W.RULES, r, answers[r.player], kinds[r.player - 1]) for r in requests)
        state = W.WerewolfState.restore(after.snapshot(), state.events + records + after.events[len(state.events):])
    return state


def test_the_graph_has_a_node_per_phase_and_per_kind_that_plays_werewolf():
    nodes = set(graph.get_graph().nodes)
    assert {"setup", "werewolves", "guard", "witch", "seer", "dawn", "day_talk", "day_vote", "last_words",
            "apply", "game_over", "naive", "random", "human"} <= nodes
    # every model kind reads games through their tables (docs/architecture.md#a-games-table), so each is drawn
    assert {"cga", "lga", "react", "codeact", "cot"} <= nodes, "every kind that plays Werewolf is drawn"
    assert {kind for kind in AGENT_KINDS if "werewolf" in AGENT_KINDS[kind].games} <= nodes


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_graph_plays_the_same_game_as_the_rules_loop(seed):
    out = graph.invoke(inputs(seed), RUN)
    final = rules_loop(seed, KINDS)
    assert out["events"] == list(final.events) and out["game"] == final.snapshot()
    assert out["result"] == W.RULES.result(final).model_dump()
    kinds = {e["kind"] for e in out["events"] if e["type"] == "decision"}
    assert {"kill", "protect", "see", "speak", "eliminate"} <= kinds


@pytest.mark.parametrize("night", ["simultaneous", "sequential"])
def test_kill_and_elimination_votes_fan_out_in_one_step_the_rest_one_by_one(night):
    """All at once (``werewolf_night=simultaneous``) the werewolves' votes fan out in one step; in turn (``xu7``'s
    default) each werewolf is one step, in seat order."""
    asked: dict[int, list[dict]] = defaultdict(list)
    for chunk in graph.stream(inputs(4, ["naive"] * 7, rules={"werewolf_night": night}), RUN, stream_mode="debug"):
        if chunk["type"] == "task" and chunk["payload"]["name"] == "naive":
            asked[chunk["step"]].append(chunk["payload"]["input"]["request"])
    seen = set()
    kill_steps = []
    for requests in asked.values():
        (kind,) = {r["kind"] for r in requests}
        seen.add(kind)
        if kind == "kill":
            kill_steps.append([r["player"] for r in requests])
        elif kind == "eliminate":
            assert len(requests) == len(requests[0]["candidates"]) + 1, "every living player in one step"
        else:
            assert len(requests) == 1, f"{kind} is one player's decision"
    assert {"kill", "eliminate"} <= seen
    if night == "simultaneous":
        assert [2] in [[len(s)] for s in kill_steps], "both werewolves at once"
    else:
        assert all(len(s) == 1 for s in kill_steps) and kill_steps[0] < kill_steps[1], "one werewolf a step, in order"


def test_a_game_paused_before_a_phase_continues_after_an_edit_of_its_state():
    g = build_werewolf_graph().compile(checkpointer=InMemorySaver(), interrupt_before=["dawn"])
    config = {"configurable": {"thread_id": "w"}, **RUN}
    g.invoke(inputs(5, ["naive"] * 7), config)
    paused = g.get_state(config)
    assert paused.next == ("dawn",)
    game = dict(paused.values["game"])
    victim = next(p for p in range(1, 8) if game["roles"][p - 1] == "villager")
    game.update(target=victim, protected=None, saved=False)  # an edit: the night's kill lands on a villager
    g.update_state(config, {"game": game})
    g.invoke(None, config)
    after = g.get_state(config)
    deaths = [e for e in after.values["events"] if e["type"] == "deaths"]
    assert victim in deaths[0]["players"]
    while after.next:
        g.invoke(None, config)
        after = g.get_state(config)
    assert after.values["result"]["reason"]
