"""A killed decision resumes inside the agent's turn: finished modules are not called again."""

from __future__ import annotations

import sqlite3

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite import SqliteSaver
from lga_fakes import FAKE_MODEL, Script, ScriptedModels, first, lga_input, play_until

from roundtable.agents.lga.graph import build_lga_graph
from roundtable.games import avalon
from roundtable.graphs.avalon import build_avalon_graph
from roundtable.models.errors import ModelUnavailableError


def test_standalone_graph_resumes_after_the_last_finished_module():
    state, requests = play_until(first("propose_team"))
    script = Script(fail_at=3)  # analyze, plan, then the act call fails
    g = build_lga_graph(ScriptedModels(script)).compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "decision"}}
    with pytest.raises(ModelUnavailableError):
        g.invoke(lga_input(state, requests[0]), config)
    assert script.modules() == ["analyze", "plan", "act"]
    out = g.invoke(None, config)
    assert script.modules() == ["analyze", "plan", "act", "act"]  # analysis and plan not called again
    decision = out["decisions"][requests[0].id]
    avalon.check_decision(requests[0], avalon.Decision.model_validate(decision))
    assert decision["usage"]["calls"] == 3  # the failed call left no record


def play_game(script: Script, checkpointer, thread: str = "game"):
    game = build_avalon_graph(models=ScriptedModels(script))
    compiled = game.compile(checkpointer=checkpointer)
    config = {"configurable": {"thread_id": thread}, "recursion_limit": 5000}
    inp = {
        "config": avalon.AvalonConfig.build("lan6").to_dict(),
        "seed": 3,
        "seats": [{"kind": "lga", "model": FAKE_MODEL, "options": {}}] * 6,
    }
    return compiled, config, inp


def of_player(player: int):
    """Whether a call is one of ``player``'s (Lan et al.'s module prompts name it)."""
    return lambda call: (f"Player {player}</name>" in call.prompt
                         or f"assist Player {player} in summarizing" in call.prompt)


def test_game_resumes_mid_turn_as_a_checkpointed_subgraph(tmp_path):
    # an uninterrupted game, for reference
    reference = Script()
    compiled, config, inp = play_game(reference, InMemorySaver())
    expected = compiled.invoke(inp, config, durability="sync")
    # fail on player 2's plan call of round 2, after its summary and analysis (the six players' notes
    # of a round are written in parallel, so the call's number varies)
    mine = of_player(2)
    assert [c.module for c in reference.calls if mine(c)].count("summarize") >= 1

    def plan_after_summary(call, earlier):
        return mine(call) and call.module == "plan" and any(mine(c) and c.module == "summarize" for c in earlier)

    script = Script(fail_on=plan_after_summary)
    conn = sqlite3.connect(tmp_path / "checkpoints.sqlite", check_same_thread=False)
    compiled, config, inp = play_game(script, SqliteSaver(conn))
    with pytest.raises(ModelUnavailableError):
        compiled.invoke(inp, config, durability="sync")
    failed_at = len([c for c in script.calls if mine(c)])
    assert [c.module for c in script.calls if mine(c)][-3:] == ["summarize", "analyze", "plan"]
    result = compiled.invoke(None, config, durability="sync")
    after = [c.module for c in script.calls if mine(c)][failed_at:]
    assert after[0] == "plan"  # summary and analysis of that turn were not redone
    assert len([c for c in script.calls if mine(c)]) == len([c for c in reference.calls if mine(c)]) + 1
    assert len(script.calls) >= len(reference.calls) + 1
    assert [e for e in result["events"] if e["type"] != "decision"] == [
        e for e in expected["events"] if e["type"] != "decision"
    ]
    conn.close()


@pytest.mark.parametrize("model", ["local", FAKE_MODEL])
def test_calls_per_game_follow_the_budget_formula(model):
    """calls = refresh N R (local: merge_plan and merge_summary) or N(3R-1) separate + one call per decision
    + on the embedded model, one per re-ask of words that failed the agent's check (the scripted words repeat
    themselves), or on any other model (Lan et al.'s design, docs/agents/paper-values.md), no check and one response
    call per utterance after its action + two per good player's belief probe at game over (its answer and the
    parser)."""
    script = Script()
    game = build_avalon_graph(models=ScriptedModels(script)).compile()
    rules = ["discussion=before_proposal", "assassination=after_each_quest", "fifth_rejection=leader_assigns"]
    out = game.invoke({"config": avalon.AvalonConfig.build("lan6", rules=rules).to_dict(), "seed": 3,
                       "seats": [{"kind": "lga", "model": model, "options": {}}] * 6}, {"recursion_limit": 5000})
    events = out["events"]
    rounds = sum(1 for e in events if e["type"] == "round_start")
    everything = [e for e in events if e["type"] == "decision"]
    probes = [d for d in everything if d["kind"] == "belief"]
    decisions = [d for d in everything if d["kind"] != "belief"]
    assert len(probes) == 4, "lan6's four good players are probed"
    forced = [d for d in decisions if d["kind"] == "quest_card" and d.get("raw") is None]
    refresh = 6 * rounds if model == "local" else 6 * (3 * rounds - 1)
    reasked = [d for d in decisions if any(c.endswith("asked again") for c in d.get("checks", []))]
    utterances = [e for e in events if e["type"] == "utterance"]
    if model == "local":
        assert reasked and utterances
        extra = len(reasked)
    else:
        assert not reasked, "no paper checks a model's words"
        extra = len(utterances)
    assert len(script.calls) == refresh + len(decisions) - len(forced) + extra + 2 * len(probes)
    assert sum(d["usage"]["calls"] for d in everything) == len(script.calls)
    assert len(script.calls) < 250
