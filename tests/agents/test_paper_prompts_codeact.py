"""The ``cot`` and ``codeact`` kinds' paper-mode prompts (the seat's aids off): what they send for one Avalon decision
of each answer shape is Shi et al.'s prompts (2023: the global prompt of Appendix A, the moderator's notes of Table 1,
the CodeAct prompt of Figure 3; AvalonBench's belief probe, which Shi et al. do not ask), kept as fixtures under
``tests/fixtures/paper_prompts/{cot,codeact}/``, and every line of every template they rendered says where it comes
from (`roundtable.prompts.sources`); with the aids on they render the aids' templates
(docs/agents/codeact.md#paper-mode). The codeact leader's program runs in the real sandbox, so it is one line."""

from __future__ import annotations

import json
from typing import Any

import pytest
from lga_fakes import Call, Script, ScriptedModels, first, play_until
from paper_prompts import aids_templates, check_fixture, transcript, unannotated_lines

from roundtable.agents.codeact.graph import build_codeact_graph
from roundtable.games import GAMES, avalon
from roundtable.games.avalon.bots import naive as naive_bot
from roundtable.games.protocol import belief_request
from roundtable.prompts.sources import rendering

PRESET, RULES = avalon.setting("avalonplay")
"""Shi et al.'s game: seven players, the leader naming the team and speaking first, evil quest cards failing."""
FREE_CARDS = [r for r in RULES if not r.startswith("evil_quest_card=")]
"""The same game with the official quest cards, so an evil team member chooses its card (AvalonPlay's must fail)."""


def seat(kind: str, aids: str = "off") -> dict[str, Any]:
    options: dict[str, Any] = {"aids": aids}
    if aids == "on":
        options |= {"overrule": False, "drop_sentences": False, "dry": False}
    return {"kind": kind, "model": "gpt-4o", "options": options}


def program(call: Call) -> str:
    """A one-line program printing the first players of the team asked for (Figure 3: 'print the final N')."""
    count = int(call.prompt.split("Please print the final ")[1].split(" ")[0])
    return f"```python\nprint({list(range(1, count + 1))})\n```"


REPLIES: dict[str, Any] = {
    "write": program,
    "believe": "Player 1: 0.5 Player 2: 0.5",
    "parse_beliefs": "Answer: {1: 0.5, 2: 0.5, 3: 0.5, 4: 0.5, 5: 0.5, 6: 0.5, 7: 0.5}",
}


def run(kind: str, state: avalon.AvalonState, request: avalon.Request, options: dict[str, Any],
        replies: dict[str, Any] | None = None,
        view: avalon.PlayerView | None = None) -> tuple[Script, list[str], avalon.Decision]:
    """One decision of the cot or codeact graph on the scripted model (JSON schemas, as GPT-4o's endpoint takes),
    recording the templates it rendered."""
    script = Script(replies=REPLIES | dict(replies or {}))
    graph = build_codeact_graph(kind, ScriptedModels(script)).compile()
    view = view or avalon.view(state, request.player)
    with rendering() as names:
        out = graph.invoke({"view": view.model_dump(mode="json"), "request": request.model_dump(mode="json"),
                            "pool": {}, "seat": options, "seed": 5})
    return script, names, avalon.Decision.model_validate(out["decisions"][request.id])


def pending(predicate, pick, rules=RULES, seed: int = 3) -> tuple[avalon.AvalonState, avalon.Request]:
    state, requests = play_until(predicate, PRESET, seed=seed, rules=tuple(rules))
    return state, next(r for r in requests if pick(r))


def proposal():
    """Quest 2's leader (quest 1's result and vote among its facts)."""
    return pending(first("propose_team", 2), lambda r: r.kind == "propose_team")


def team_vote():
    return pending(first("vote_team"), lambda r: r.kind == "vote_team")


def table_words():
    """A player (not the leader) speaking about the nominated team."""
    return pending(lambda s, rs: any(r.kind == "speak" and r.subject for r in rs),
                   lambda r: r.kind == "speak" and bool(r.subject))


def evil_quest_card():
    return pending(lambda s, rs: any(r.kind == "quest_card" and len(r.allowed) == 2 for r in rs),
                   lambda r: r.kind == "quest_card" and len(r.allowed) == 2, FREE_CARDS)


def assassination():
    """The Assassin's pick (seed 10: good wins three quests)."""
    return pending(first("assassinate"), lambda r: r.kind == "assassinate", seed=10)


def probe() -> tuple[avalon.AvalonState, avalon.Request, avalon.PlayerView]:
    """The belief probe of a good player once a whole game of naive bots is over."""
    state = avalon.new_game(avalon.AvalonConfig.build(PRESET, rules=list(RULES)), seed=3)
    while not state.is_over:
        requests = avalon.pending(state)
        state = avalon.apply(state, {r.player: naive_bot.decide(avalon.view(state, r.player), r, 3)
                                     for r in requests})
    player, view = sorted(GAMES["avalon"].belief_probe(state).items())[0]
    return state, belief_request(player, [q for q in state.players if q != player], "game_over", view.round), view


def think(**fields: Any) -> str:
    return json.dumps({"thought": "Nothing points at anyone yet.", **fields})


DECISIONS = {
    "propose_team": (proposal, {"think": think(players=[1, 2, 3], words="I choose players 1, 2 and 3.")}),
    "vote_team": (team_vote, {"think": think(answer="approve")}),
    "speak": (table_words, {"think": think(words="I agree with the team.")}),
    "quest_card": (evil_quest_card, {"think": think(answer="fail")}),
    "assassinate": (assassination, None),
}


@pytest.mark.parametrize("kind", ["cot", "codeact"])
@pytest.mark.parametrize("decision", sorted(DECISIONS))
def test_each_decision_sends_shi_et_als_prompts_with_the_aids_off(kind, decision):
    make, replies = DECISIONS[decision]
    state, request = make()
    if decision == "assassinate":
        replies = {"think": think(player=request.candidates[0], words=f"Player {request.candidates[0]} it is.")}
    script, names, result = run(kind, state, request, seat(kind), replies)
    check_fixture(kind, f"avalon-{decision}", transcript(script.calls))
    assert unannotated_lines(names) == []
    assert aids_templates(names) == []
    avalon.check_decision(request, result)
    assert result.fallback is None


@pytest.mark.parametrize("kind", ["cot", "codeact"])
def test_the_belief_probe_sends_avalonbenchs_question_and_parser_with_the_aids_off(kind):
    state, request, view = probe()
    script, names, result = run(kind, state, request, seat(kind), view=view)
    check_fixture(kind, "avalon-belief", transcript(script.calls))
    assert [c.module for c in script.calls] == ["believe", "parse_beliefs"]
    assert unannotated_lines(names) == []
    assert aids_templates(names) == []
    assert result.beliefs == {q: 0.5 for q in request.candidates}


def test_the_codeact_leader_writes_figure_3s_program_and_debugs_from_the_issue_alone():
    state, request = proposal()
    script, names, result = run("codeact", state, request, seat("codeact"),
                                {"write": "```python\nprint(good)\n```", "debug": program})
    write, debug = (c.prompt for c in script.calls if c.module in ("write", "debug"))
    assert "selects 3 players most likely to be good person" in write
    assert "suspicion" not in write, "no scoring skeleton: Shi et al. ask only for the program"
    assert "NameError" in debug and "Fix:" not in debug, "the issue and the previous output, no hints of ours"
    assert result.players == (1, 2, 3) and result.fallback is None
    assert aids_templates(names) == []


@pytest.mark.parametrize("kind", ["cot", "codeact"])
def test_with_the_aids_on_the_aids_templates_are_rendered(kind):
    state, request = proposal()
    _, names, _ = run(kind, state, request, seat(kind, "on"),
                      {"write": "```python\nprint([1, 2, 3])\n```", "think": think(players=[1, 2, 3], words="Go.")})
    expected = {"aids/codeact/memory", "aids/codeact/think"} | (
        {"aids/codeact/write", "aids/codeact/facts"} if kind == "codeact" else set())
    assert expected <= set(names)
    assert not {"codeact/global", "codeact/memory", "codeact/think", "codeact/write"} & set(names)
