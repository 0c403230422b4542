"""Whole AvalonPlay games with the codeact and cot kinds seated in the game graph (scripted models, real sandbox):
the paper's game (--setting avalonplay --agents cot,good=codeact) runs to its end and its measures follow."""

from __future__ import annotations

import pytest
from lga_fakes import FAKE_MODEL, Call, Script, ScriptedModels

from roundtable.games import avalon
from roundtable.graphs.avalon import build_avalon_graph
from roundtable.metrics import game_metrics

AIDED = {"aids": "on", "overrule": False, "drop_sentences": False, "dry": False}
"""The aids' prompts, each ``auto`` aid switch off, as on the scripted model before the one switch (the paper-mode
prompts: tests/agents/test_paper_prompts_codeact.py)."""
PROGRAM = "```python\nsuspicion = {p: 0 for p in range(1, 8)}\nprint(sorted(suspicion)[:COUNT])\n```"


def program(call: Call) -> str:
    prompt = call.prompt
    if "Write a short Python program" in prompt:
        count = int(prompt.split("choose ")[1].split(" ")[0])
        return PROGRAM.replace("COUNT", str(count))
    if "Thought, then an Action" in prompt:
        count = int(prompt.split("choose ")[1].split(" ")[0])
        return "Thought: the first players.\nAction: Finish[" + ", ".join(map(str, range(1, count + 1))) + "]"
    return "I agree."


@pytest.mark.parametrize("leader", ["codeact", "react", "cot"])
def test_an_avalonplay_game_with_codeact_leaders_runs_to_its_end(leader):
    script = Script(replies={"write": program, "debug": program, "react": program})
    game = build_avalon_graph(models=ScriptedModels(script)).compile()
    preset, rules = avalon.setting("avalonplay")
    config = avalon.AvalonConfig.build(preset=preset, rules=rules)
    state = avalon.new_game(config, 2)
    seats = [{"kind": "codeact" if role.side.value == "good" else "cot", "model": FAKE_MODEL,
              "options": AIDED | ({"leader": leader} if role.side.value == "good" else {})} for role in state.roles]
    out = game.invoke({"config": config.to_dict(), "seed": 2, "seats": seats}, {"recursion_limit": 5000})
    events = out["events"]
    assert [e for e in events if e["type"] != "decision"][-1]["type"] == "game_over"
    decisions = [e for e in events if e["type"] == "decision"]
    probed = [d for d in decisions if d["kind"] == "belief"]
    assert probed and all(d["agent"] == "codeact" for d in probed), "the good seats answered the belief probe"
    good_leads = [d for d in decisions if d["agent"] == "codeact" and d["kind"] == "propose_team"]
    assert good_leads, "a good player led a team"
    firsts = [d for d in good_leads if ".first." in d["request"]]
    assert firsts
    if leader == "codeact":
        assert all(any(c.startswith("program 1: team") for c in d["checks"]) for d in firsts)
        assert any("Write a short Python program" in c.prompt for c in script.calls)
    elif leader == "react":
        assert all(any(c.startswith("react 1: Finish[") for c in d["checks"]) for d in firsts)
    else:
        assert not any("Python" in c.prompt for c in script.calls)
    calls = [c for d in decisions if d["agent"] in ("codeact", "cot") for c in (d.get("usage") or {}).get("log") or []]
    assert calls and all(isinstance(c["seed"], int) for c in calls), "every codeact and cot call is seeded"
    assert len({c["seed"] for c in calls}) == len(calls)
    metrics = game_metrics({"events": events})
    assert metrics.game_win.cases == 1 and metrics.quest_win.cases == len(
        [e for e in events if e["type"] == "quest_result"])
