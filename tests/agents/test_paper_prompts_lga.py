"""lga with the aids off sends Lan et al.'s prompts (their paper's Table 4 and released code), line by line: the
rendered prompts of one Avalon decision of each answer shape are fixtures under tests/fixtures/paper_prompts/lga/,
and every line of every template they rendered names its source (docs/agents/paper-values.md)."""

from __future__ import annotations

from typing import Any

import pytest
from lga_fakes import Script, ScriptedModels, first, play_until
from paper_prompts import aids_templates, check_fixture, transcript, unannotated_lines

from roundtable.agents.lga.graph import build_lga_graph
from roundtable.games import avalon
from roundtable.games.protocol import belief_request
from roundtable.prompts.sources import rendering

PAPER = {"kind": "lga", "model": "gpt-4o", "options": {"aids": "off"}}
TALK = ("discussion=leader_first_and_last",)


def _evil_card(state: avalon.AvalonState, requests: list[avalon.Request]) -> bool:
    return any(r.kind == "quest_card" and r.allowed != (True,) for r in requests)


def _decision(name: str) -> tuple[avalon.AvalonState, avalon.Request]:
    """The state and request of the fixture ``name``: a lan6 game of seed 1 played by the naive bots."""
    if name == "propose_team":
        state, requests = play_until(first("propose_team"), rules=TALK)
    elif name == "speak":
        state, requests = play_until(first("speak"), rules=TALK)
    elif name == "vote_team":
        state, requests = play_until(first("vote_team"), rules=TALK)
    elif name == "quest_card":
        state, requests = play_until(_evil_card, rules=TALK)
        requests = [r for r in requests if r.kind == "quest_card" and r.allowed != (True,)]
    else:
        state, requests = play_until(first("assassinate"), preset="lan6", seed=3)
    return state, next(r for r in requests if r.kind == name)


def _run(state: avalon.AvalonState, request: avalon.Request, seat: dict[str, Any] = PAPER,
         view: avalon.PlayerView | None = None) -> tuple[Script, list[str]]:
    script = Script()
    graph = build_lga_graph(ScriptedModels(script)).compile()
    view = view or avalon.view(state, request.player)
    with rendering() as names:
        graph.invoke({"view": view.model_dump(mode="json"), "request": request.model_dump(mode="json"), "pool": {},
                      "seat": seat, "seed": 1})
    return script, names


@pytest.mark.parametrize("name", ["propose_team", "speak", "vote_team", "quest_card", "assassinate"])
def test_an_lga_decision_with_the_aids_off_sends_lan_et_als_prompts(name):
    state, request = _decision(name)
    script, names = _run(state, request)
    assert script.calls, "a model call was made"
    check_fixture("lga", f"avalon-{name}", transcript(script.calls))
    assert unannotated_lines(names) == [], "every template line names its source"
    assert aids_templates(names) == [], "no aid renders with the aids off"


def test_the_belief_probe_with_the_aids_off():
    state, _ = play_until(first("quest_card"), rules=TALK)
    player = 1
    request = belief_request(player, [q for q in state.players if q != player], "game_over", state.round)
    script, names = _run(state, request)
    check_fixture("lga", "avalon-belief", transcript(script.calls))
    assert unannotated_lines(names) == [] and aids_templates(names) == []


def test_with_the_aids_on_the_aids_prompts_render_instead():
    state, request = _decision("vote_team")
    _, names = _run(state, request, {"kind": "lga", "model": "gpt-4o", "options": {"aids": "on"}})
    assert {"aids/lga/act", "aids/lga/analyze", "aids/avalon/roles/" + avalon.view(state, request.player).role} <= set(
        names)
    assert not {"lga/act", "lga/system", "lga/analyze"} & set(names)
