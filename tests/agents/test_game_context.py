"""A prompt override given to the game graph's run context reaches the lga agents inside the game."""

from __future__ import annotations

from roundtable.games import avalon
from roundtable.graphs.agents import AGENT_KINDS
from roundtable.graphs.avalon import GameContext, build_avalon_graph
from roundtable.graphs.lga import build_lga_graph, make_lga_agent

from lga_fakes import Script, ScriptedModels


def test_game_context_overrides_reach_the_agent_prompts():
    script = Script()
    agent = make_lga_agent(build_lga_graph(ScriptedModels(script)).compile())
    game = build_avalon_graph(agents={**AGENT_KINDS, "lga": agent}, model_kinds=frozenset({"lga"})).compile()
    seats = [{"kind": "lga", "model": "fake", "options": {}}] + [{"kind": "naive"}] * 4
    context = GameContext(plan_prompt="OVERRIDDEN PLAN for Player {{ me }}. Task: Write your plan.",
                          temperature=0.9)
    config = avalon.AvalonConfig.build("bench5", rules=["discussion=none"]).to_dict()
    game.invoke({"config": config, "seed": 3, "seats": seats}, {"recursion_limit": 5000}, context=context)
    plans = [c for c in script.calls if c.module == "plan"]
    assert plans and all("OVERRIDDEN PLAN for Player 1." in c.prompt for c in plans)
    assert {c.temperature for c in script.calls if c.module in ("plan", "act")} == {0.9}


def test_the_game_graph_declares_its_context_for_studio():
    schema = build_avalon_graph().compile().get_context_jsonschema()
    field = schema["properties"]["act_prompt"]
    assert field["langgraph_type"] == "prompt" and "act" in field["langgraph_nodes"]
