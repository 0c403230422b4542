"""The ``react`` kind's paper-mode prompts (the seat's aids off): what it sends for one Avalon decision of each answer
shape is AvalonBench's prompts (Light et al. 2023, Appendix A; its code, jonathanmli/Avalon-LLM), kept as fixtures
under ``tests/fixtures/paper_prompts/react/``, and every line of every template it rendered says where it comes from
(`roundtable.prompts.sources`); with the aids on it renders the aids' templates (docs/agents/react.md#paper-mode)."""

from __future__ import annotations

from typing import Any

import pytest
from lga_fakes import Script, ScriptedModels, first, play_until
from paper_prompts import aids_templates, check_fixture, transcript, unannotated_lines

from roundtable.agents.react.graph import build_react_graph
from roundtable.games import GAMES, avalon
from roundtable.games.avalon.bots import naive as naive_bot
from roundtable.games.protocol import belief_request
from roundtable.prompts.sources import rendering

PRESET = "bench5"
RULES = ("fifth_rejection=auto_approve", "discussion=leader_first_and_last")
"""AvalonBench's game: five players, a fifth team sent without a vote, the leader speaking first and last."""
PAPER = {"kind": "react", "model": "gpt-4o", "options": {"aids": "off"}}

REPLIES: dict[str, Any] = {
    "summarize": "SUMMARY: who proposed, backed and went on each quest so far, and how it came out.",
    "think": "Nothing points at anyone yet, so I go with players 1 and 2 and approve.",
    "parse": "Answer: [1, 2]",
    "speak": "I trust this team for now.",
    "believe": "Player 1: 0.5 Player 2: 0.5 Player 3: 0.5 Player 4: 0.5 Player 5: 0.5",
    "parse_beliefs": "Answer: {1: 0.5, 2: 0.5, 3: 0.5, 4: 0.5, 5: 0.5}",
}


def run(state: avalon.AvalonState, request: avalon.Request, seat: dict[str, Any], replies: dict[str, Any],
        view: avalon.PlayerView | None = None) -> tuple[Script, list[str], avalon.Decision]:
    """One decision of the react graph on the scripted model, recording the templates it rendered."""
    script = Script(replies=REPLIES | replies)
    graph = build_react_graph(ScriptedModels(script, json=False)).compile()
    view = view or avalon.view(state, request.player)
    with rendering() as names:
        out = graph.invoke({"view": view.model_dump(mode="json"), "request": request.model_dump(mode="json"),
                            "pool": {}, "seat": seat, "seed": 5})
    return script, names, avalon.Decision.model_validate(out["decisions"][request.id])


def pending(predicate, pick) -> tuple[avalon.AvalonState, avalon.Request]:
    state, requests = play_until(predicate, PRESET, seed=1, rules=RULES)
    return state, next(r for r in requests if pick(r))


def proposal():
    """Quest 2's leader (a summary of quest 1 is written first), with words."""
    return pending(first("propose_team", 2), lambda r: r.kind == "propose_team")


def team_vote():
    return pending(first("vote_team"), lambda r: r.kind == "vote_team")


def table_words():
    """A player (not the leader) speaking about the leader's team."""
    return pending(lambda s, rs: any(r.kind == "speak" and r.subject for r in rs),
                   lambda r: r.kind == "speak" and bool(r.subject))


def evil_quest_card():
    return pending(lambda s, rs: any(r.kind == "quest_card" and len(r.allowed) == 2 for r in rs),
                   lambda r: r.kind == "quest_card" and len(r.allowed) == 2)


def assassination():
    return pending(first("assassinate"), lambda r: r.kind == "assassinate")


def probe() -> tuple[avalon.AvalonState, avalon.Request, avalon.PlayerView]:
    """The belief probe of a good player once a whole game of naive bots is over."""
    state = avalon.new_game(avalon.AvalonConfig.build(PRESET, rules=list(RULES)), seed=1)
    while not state.is_over:
        requests = avalon.pending(state)
        state = avalon.apply(state, {r.player: naive_bot.decide(avalon.view(state, r.player), r, 1)
                                     for r in requests})
    player, view = sorted(GAMES["avalon"].belief_probe(state).items())[0]
    return state, belief_request(player, [q for q in state.players if q != player], "game_over", view.round), view


DECISIONS = {
    "propose_team": (proposal, {"think": "Players 1, 2 and 4 have done nothing wrong, so I choose them.",
                                "parse": "Answer: [1, 2, 4]"}),
    "vote_team": (team_vote, {"parse": "Answer: Yes"}),
    "speak": (table_words, {}),
    "quest_card": (evil_quest_card, {"think": "I am evil, so I fail this quest.", "parse": "Answer: No"}),
    "assassinate": (assassination, {"think": "Player 2 steered every team: Player 2 is Merlin.",
                                    "parse": "Answer: [2]"}),
}


@pytest.mark.parametrize("kind", sorted(DECISIONS))
def test_each_decision_sends_avalonbenchs_prompts_with_the_aids_off(kind):
    make, replies = DECISIONS[kind]
    state, request = make()
    script, names, decision = run(state, request, PAPER, replies)
    check_fixture("react", f"avalon-{kind}", transcript(script.calls))
    assert unannotated_lines(names) == []
    assert aids_templates(names) == []
    avalon.check_decision(request, decision)
    assert decision.fallback is None


def test_the_belief_probe_sends_avalonbenchs_question_and_parser_with_the_aids_off():
    state, request, view = probe()
    script, names, decision = run(state, request, PAPER, {}, view=view)
    check_fixture("react", "avalon-belief", transcript(script.calls))
    assert [c.module for c in script.calls] == ["summarize", "believe", "parse_beliefs"]
    assert unannotated_lines(names) == []
    assert aids_templates(names) == []
    assert decision.beliefs == {q: 0.5 for q in request.candidates}


def test_the_paper_parser_reads_avalonbenchs_answer_template():
    state, request = team_vote()
    _, _, decision = run(state, request, PAPER, {"parse": "Answer: No"})
    assert decision.choice is False
    state, request = proposal()
    script, _, decision = run(state, request, PAPER, {"parse": "Answer: [1, 2, 4]"})
    assert decision.players == (1, 2, 4)
    parse = next(c for c in script.calls if c.module == "parse")
    assert [m.type for m in parse.messages] == ["human"], "AvalonBench's parser sees one user message"


def test_a_pick_of_too_few_players_is_asked_again_as_avalonbenchs_parser_asks():
    state, request = proposal()
    script, names, decision = run(state, request, PAPER, {"parse": ["Answer: [1]", "Answer: [1, 2, 4]"]})
    again = [c for c in script.calls if c.module == "think"][1].prompt
    assert "You should choose a team of size 3, instead of size 1 as you did." in again
    assert REPLIES["think"] in again, "the answer given stays in the history"
    assert decision.players == (1, 2, 4) and not [n for n in unannotated_lines(names) if n.startswith("react/")]


def test_with_the_aids_on_the_aids_templates_are_rendered():
    state, request = proposal()
    seat = {"kind": "react", "model": "gpt-4o", "options": {"aids": "on", "overrule": False,
                                                             "drop_sentences": False, "dry": False}}
    _, names, _ = run(state, request, seat, {"parse": "Answer: 1, 2"})
    # Avalon's wording of the parser's examples and of what the summary keeps (aids/react/avalon/*, kind_template)
    assert {"aids/react/think", "aids/react/avalon/parse", "aids/react/speak", "aids/react/avalon/summarize",
            "aids/react/context"} <= set(names)
    assert not {"react/think", "react/parse", "react/speak", "react/rules"} & set(names)
