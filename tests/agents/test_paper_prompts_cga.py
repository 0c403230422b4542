"""cga's paper-mode prompts (docs/agents/cga.md#paper-mode): what a seat with the aids off sends for one decision of
each answer shape, in both games, kept as fixtures under ``tests/fixtures/paper_prompts/cga/`` and read against Xu et
al. 2023 (Appendix A.2, A.5, A.7) and their reference code; every line of every template it rendered says where it
comes from, and no aids template is rendered. With the aids on the same decision renders the aids' templates.

``ROUNDTABLE_UPDATE_FIXTURES=1 pytest tests/agents/test_paper_prompts_cga.py`` rewrites the fixtures.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from lga_fakes import Script, ScriptedModels, first, play_until
from paper_prompts import aids_templates, check_fixture, transcript, unannotated_lines
from werewolf_fakes import werewolf_request

from roundtable.agents.cga.graph import build_cga_graph
from roundtable.games import GAMES, avalon, werewolf
from roundtable.games.avalon.bots import naive as avalon_bot
from roundtable.games.protocol import PlayerView, Request, belief_request
from roundtable.prompts.sources import rendering

LAN = ("discussion=before_proposal", "assassination=after_each_quest", "fifth_rejection=leader_assigns")
PAPER_SEAT: dict[str, Any] = {"kind": "cga", "model": "gpt-4o", "options": {"aids": "off"}}
"""Xu et al.'s agent as the paper ran it: on a model not declared small the aids are off anyway; said here so the
test does not hang on that default. Every other option at its paper value (5 questions chosen of the role's set, 2
of the model's own, the answers one call each, refreshed for every action)."""


def reply_for(request: Request) -> str:
    """A think reply that answers ``request`` as asked: its first candidates, or its first word."""
    lines = ["Thought: THOUGHT-TEXT."]
    if request.answer == "pick":
        lines.append("Choice: " + ", ".join(str(c) for c in request.candidates[: request.count]))
    elif request.answer == "yes_no":
        lines.append(f"Choice: {request.word(request.allowed[0])}")
    if request.wants_words:
        lines.append("Words: WORDS-TEXT.")
    return "\n".join(lines)


def decide(view: PlayerView, request: Request, seat: dict[str, Any] = PAPER_SEAT) -> tuple[Script, list[str]]:
    """One cga decision on the scripted model (prose answers): the script and the templates rendered."""
    script = Script(replies={"think": reply_for(request), "believe": "Thought: THOUGHT-TEXT.\n"
                             + "\n".join(f"Player {p}: 0.5" for p in request.candidates)})
    graph = build_cga_graph(ScriptedModels(script, json=False)).compile()
    with rendering() as names:
        out = graph.invoke({"view": view.model_dump(mode="json"), "request": request.model_dump(mode="json"),
                            "pool": {}, "seat": seat, "seed": 1},
                           {"configurable": {"thread_id": f"paper-{uuid.uuid4()}"}})  # a memory index of its own
    assert request.id in out["decisions"]
    return script, names


def avalon_decision(kind: str) -> tuple[PlayerView, Request]:
    """lan6 (seed 1: 1 Servant, 2 Assassin, 3 Morgana, 4 Servant, 5 Percival, 6 Merlin; the Assassin's shot: seed
    4), a decision of ``kind``: the first of the game, an evil player's quest card, the belief probe at game over."""
    if kind == "quest_card":
        state, requests = play_until(lambda s, r: any(q.kind == "quest_card" and not q.forced for q in r))
        request = next(q for q in requests if q.kind == "quest_card" and not q.forced)
    elif kind == "assassinate":
        state, requests = play_until(first("assassinate"), rules=LAN, seed=4)
        request = requests[0]
    elif kind == "belief":
        state = avalon.new_game(avalon.AvalonConfig.build("lan6"), seed=1)
        while not state.is_over:
            state = avalon.apply(state, {r.player: avalon_bot.decide(avalon.view(state, r.player), r, 1)
                                         for r in avalon.pending(state)})
        views = GAMES["avalon"].belief_probe(state)
        player, view = sorted(views.items())[0]
        return view, belief_request(player, [q for q in state.players if q != player], "game_over", view.round)
    else:
        state, requests = play_until(first(kind), rules=LAN)
        request = requests[0]
    return avalon.view(state, request.player), request


def werewolf_decision(kind: str) -> tuple[PlayerView, Request]:
    """xu7 (seed 1: 1 Seer, 2 Witch, 3 Guard, 4 and 5 Villagers, 6 and 7 Werewolves), the first decision of ``kind``
    (a werewolf's kill, the Seer's check, the Witch's antidote, the Guard's protection, a villager's talk and vote)."""
    player = {"kill": 6, "see": 1, "save": 2, "protect": 3, "speak": 4, "eliminate": 4}[kind]
    state, request = werewolf_request(kind, player, 1)
    return werewolf.view(state, request.player), request


AVALON = ["propose_team", "vote_team", "speak", "quest_card", "assassinate", "belief"]
WEREWOLF = ["kill", "see", "save", "protect", "speak", "eliminate"]


@pytest.mark.parametrize(("game", "kind"), [("avalon", k) for k in AVALON] + [("werewolf", k) for k in WEREWOLF])
def test_a_paper_mode_decision_sends_xu_et_als_prompts_every_line_sourced(game, kind):
    view, request = (avalon_decision if game == "avalon" else werewolf_decision)(kind)
    assert request.kind == kind
    script, names = decide(view, request)
    check_fixture("cga", f"{game}-{kind}", transcript(script.calls))
    assert aids_templates(names) == []
    modules = script.modules()
    if kind == "belief":  # the probe reads the history and the last reflection: no question asked afresh
        assert modules[0] == "believe"
    else:  # Xu et al.: select 5 questions, then ask 2 of one's own, answer each, reflect, the final response
        assert modules == ["questions", "questions"] + ["answer"] * 7 + ["reflect", "think"]
    assert unannotated_lines(names) == []


def test_the_paper_mode_question_sets_are_xu_et_als_nine_candidates_a_role():
    from roundtable.agents.cga.context import CgaContext

    context = CgaContext()

    def lines(part: str, role: str) -> list[str]:
        text = context.render("cga/questions/werewolf", part=part, role=role, day=True)
        return [line for line in text.splitlines() if line.strip()]

    for role in GAMES["werewolf"].roles:
        assert len(lines("asked", role) + lines("shared", role) + lines("role", role)) == 9, role
    assert "What is the current phase, daytime or night? what should I do at this phase according to the game " \
           "rules?" in lines("asked", "seer")


def test_with_the_aids_on_the_same_decision_renders_the_aids_templates_for_cgas_steps():
    view, request = werewolf_decision("speak")
    _, paper = decide(view, request)
    seat = PAPER_SEAT | {"options": {"aids": "on"}}
    _, aided = decide(view, request, seat)
    ours = {name for name in paper if name.startswith("cga/")}
    assert ours and not {name for name in aided if name.startswith("cga/")}, "with the aids on, no paper template"
    theirs = {name.removeprefix("aids/") for name in aided if name.startswith("aids/cga/")}
    # the aids' cost switches: no question call (the first questions asked), every answer in one call; the aids
    # word Werewolf's role card (aids/cga/werewolf/role, the paper's is the Moderator's one line for every game)
    # and have no tip of Xu et al.'s code
    assert theirs == (ours - {"cga/questions", "cga/answer", "cga/role", "cga/werewolf/think_tip"}
                      | {"cga/answers", "cga/speech", "cga/werewolf/role"})
    assert aids_templates(paper) == []


def test_the_paper_modes_night_in_turn_speaks_of_consensus_only_when_the_game_plays_it():
    def rules(night: str) -> str:
        config = werewolf.WerewolfConfig.build(rules=[f"werewolf_night={night}"])
        state = werewolf.new_game(config, seed=1)
        script = Script()
        request = werewolf.pending(state)[0]
        graph = build_cga_graph(ScriptedModels(script, json=False)).compile()
        graph.invoke({"view": werewolf.view(state, request.player).model_dump(mode="json"),
                      "request": request.model_dump(mode="json"), "pool": {}, "seat": PAPER_SEAT, "seed": 1})
        return str(script.calls[-1].messages[0].content)

    assert "No one will be killed if there is no consensus!" in rules("sequential")
    assert "consensus" not in rules("simultaneous")


@pytest.mark.parametrize("kind", ["eliminate", "speak"])
def test_a_paper_mode_decision_with_experience_asks_xu_et_als_suggestion(kind, tmp_path, monkeypatch):
    """With an experience pool (Xu et al. §3.4): the suggestion prompt, the paper's for a decision (the day vote),
    the reference code's for words (the day's talk), and the suggestion in the final prompt."""
    from roundtable.agents.cga.experience import ExperiencePool

    monkeypatch.setenv("ROUNDTABLE_HOME", str(tmp_path))
    view, request = werewolf_decision(kind)
    reflection = "As the player, I observed that REFLECTION-TEXT."  # the scripted reflection: similarity 1
    ExperiencePool("xu").add_game("earlier", [
        {"reflection": reflection, "response": f"RESPONSE-OF-SCORE-{score}.", "score": score, "role": view.role,
         "side": view.side, "game": "werewolf", "player": view.player, "n": n}
        for n, score in enumerate((2, 996, 995, 3))])
    script, names = decide(view, request, PAPER_SEAT | {"options": {"aids": "off", "pool": "xu"}})
    check_fixture("cga", f"werewolf-{kind}-experience", transcript(script.calls))
    assert script.modules()[-3:] == ["reflect", "suggest", "think"]
    assert "Besides, there maybe history experience you can refer to: The best way for you to do under such " \
           "reflection is SUGGESTION-TEXT." in script.calls[-1].prompt
    assert aids_templates(names) == []
    assert [line for line in unannotated_lines(names) if line.startswith("cga/")] == []
