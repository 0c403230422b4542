"""A real CodeAct leader decision on the embedded model: it writes a program, which runs in the sandbox
(marked ``model``; Shi et al. 2023; docs/agents/codeact.md)."""

from __future__ import annotations

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from roundtable.agents.codeact.code import NO_PROGRAM
from roundtable.agents.codeact.graph import build_codeact_graph
from roundtable.games import avalon

pytestmark = pytest.mark.model


def test_a_codeact_leader_writes_and_runs_a_program_on_the_embedded_model():
    preset, rules = avalon.setting("avalonplay")
    state = avalon.new_game(avalon.AvalonConfig.build(preset=preset, rules=[*rules, "discussion=none"]), 1)
    (request,) = avalon.pending(state)
    assert request.kind == "propose_team" and not request.wants_words
    graph = build_codeact_graph("codeact").compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "real-codeact"}}
    graph.invoke({"view": avalon.view(state, request.player).model_dump(mode="json"),
                  "request": request.model_dump(mode="json"), "pool": {},
                  "seat": {"kind": "codeact", "model": "local", "options": {}}, "seed": 3}, config)
    values = graph.get_state(config).values
    attempts = values["attempts"]
    assert 1 <= len(attempts) <= 3
    ran = [a for a in attempts if a["program"] and a["error"] != NO_PROGRAM]
    assert ran, f"no program was written: {values['raw']}"
    assert all(a["seconds"] > 0 for a in ran), "each program ran in the sandbox"
    assert all(u["module"] in ("write", "debug") for u in values["usage"])
    decision = avalon.Decision.model_validate(values["decisions"][request.id])
    avalon.check_decision(request, decision)
    if any(a["team"] for a in attempts):
        assert list(decision.players) == next(a["team"] for a in reversed(attempts) if a["team"])
    else:
        assert "programs failed" in decision.fallback
