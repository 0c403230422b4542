"""A prompt override given to the game graph's run context reaches the lga agents inside the game."""

from __future__ import annotations

from lga_fakes import FAKE_MODEL, Script, ScriptedModels

from roundtable.games import avalon
from roundtable.graphs.avalon import build_avalon_graph


def test_game_context_overrides_reach_the_agent_prompts():
    script = Script()
    game = build_avalon_graph(models=ScriptedModels(script)).compile()
    seats = [{"kind": "lga", "model": FAKE_MODEL, "options": {}}] + [{"kind": "naive"}] * 4
    context = {"lga": {"plan_prompt": "OVERRIDDEN PLAN for Player {{ me }}. Task: Write your plan.",
                       "temperature": 0.9}}
    config = avalon.AvalonConfig.build("bench5", rules=["discussion=none"]).to_dict()
    game.invoke({"config": config, "seed": 3, "seats": seats}, {"recursion_limit": 5000}, context=context)
    plans = [c for c in script.calls if c.module == "plan"]
    assert plans and all("OVERRIDDEN PLAN for Player 1." in c.prompt for c in plans)
    assert {c.temperature for c in script.calls if c.module in ("plan", "act")} == {0.9}


def test_the_game_graph_declares_its_context_for_studio():
    schema = build_avalon_graph().compile().get_context_jsonschema()
    assert schema["additionalProperties"] is False, "unknown context keys are refused"
    assert {"default_model", "breakpoints", "lga"} <= set(schema["properties"])
    assert schema["properties"]["lga"]["langgraph_nodes"] == ["lga"]
    lga = schema["$defs"]["LgaContext"]["properties"]
    for name, field in lga.items():
        if name.endswith("_prompt"):
            assert field["langgraph_type"] == "prompt" and field["langgraph_nodes"], name


def test_unknown_context_keys_are_refused():
    import pytest
    from pydantic import ValidationError

    game = build_avalon_graph().compile()
    config = avalon.AvalonConfig.build("bench5").to_dict()
    with pytest.raises(ValidationError, match="plan_promt"):
        game.invoke({"config": config, "seed": 1, "seats": [{"kind": "naive"}] * 5},
                    context={"lga": {"plan_promt": "x"}})
    with pytest.raises(ValidationError, match="temprature"):
        game.invoke({"config": config, "seed": 1, "seats": [{"kind": "naive"}] * 5}, context={"temprature": 0.1})
