"""The cga agent graph with scripted models: module order per mode, what the prompts carry, nothing private leaks."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from lga_fakes import LEADER_AGAIN, Script, ScriptedModels, final_word_request, first, lga_input, play_until
from werewolf_fakes import cga_aids_on

from roundtable.agents.cga.answer import answers_schema
from roundtable.agents.cga.experience import ExperiencePool
from roundtable.agents.cga.graph import build_cga_graph
from roundtable.agents.cga.options import CgaOptions
from roundtable.aids.switch import embedded_values
from roundtable.games import avalon
from roundtable.games.avalon import Decision, check_decision

LAN = ("discussion=before_proposal", "assassination=after_each_quest", "fifth_rejection=leader_assigns")


def cga_input(state, request, memory=None, options=None, model="fake", seed=1) -> dict:
    inp = lga_input(state, request, memory, options, seed)
    inp["seat"] = {"kind": "cga", "model": model,
                   "options": embedded_values(CgaOptions) | cga_aids_on(model) | dict(options or {})}
    return inp


def run(script: Script, inp: dict, *, json: bool = True) -> tuple[list[str], Decision, dict]:
    """One decision: the nodes that ran, the decision, the player's new pool."""
    g = build_cga_graph(ScriptedModels(script, json=json)).compile()
    nodes: list[str] = []
    values: dict = {}
    for mode, chunk in g.stream(inp, stream_mode=["updates", "values"]):
        if mode == "updates":
            nodes += list(chunk)
        else:
            values = chunk
    request = inp["request"]
    return (nodes, Decision.model_validate(values["decisions"][request["id"]]),
            values["memory"][str(request["player"])])


FAITHFUL_NODES = ["observe", "freshness", "informativeness", "questions", "retrieve", "answer", "reflect", "suggest",
                  "think", "aids", "decide"]
"""The nodes of one decision with the aids' checks on (the scripted seat's model is the embedded one): ``aids``
checks the answer ``think`` gave."""


@pytest.mark.parametrize("json", [True, False], ids=["json", "prose"])
def test_the_faithful_mode_asks_answers_reflects_and_thinks_for_every_action(json):
    state, requests = play_until(first("propose_team"))
    script = Script()
    paper = {"choose_questions": True, "own_questions": 2}
    nodes, decision, pool = run(script, cga_input(state, requests[0], options=paper), json=json)
    assert nodes == FAITHFUL_NODES
    asked, chosen, own = 3, 5, 2  # the Avalon set's always-asked questions, the paper's 5 chosen and 2 own
    assert script.modules() == ["questions"] + ["answer"] * (asked + chosen + own) + ["reflect", "think"]
    assert [c.temperature for c in script.calls] == [0.3] * (asked + chosen + own + 2) + [0.0]
    check_decision(requests[0], decision)
    assert decision.fallback is None and decision.utterance
    assert decision.usage["calls"] == len(script.calls) and len(decision.usage["retrieval_seconds"]) == 10
    assert pool["reflection"].startswith("As the player, I observed that")
    assert pool["experience"][-1]["reflection"] == pool["reflection"]
    assert pool["experience"][-1]["response"].startswith("Propose team: I chose players")
    # the second decision of the same round refreshes again (the paper's mode)
    script2 = Script()
    later, more = play_until(lambda s, r: s.round == 1 and any(q.kind == "vote_team" for q in r))
    request = next(r for r in more if r.player == requests[0].player)
    run(script2, cga_input(later, request, pool, options=paper))
    assert script2.modules()[0] == "questions" and script2.modules()[-1] == "think"


def test_the_cost_switches_refresh_once_per_round_in_one_call():
    options = {"refresh": "round", "merge_answers": True}
    state, requests = play_until(first("propose_team"))
    script = Script()
    nodes, _, pool = run(script, cga_input(state, requests[0], options=options))
    assert nodes == [n for n in FAITHFUL_NODES if n != "reflect"]
    assert script.modules() == ["answer", "think"]  # the embedded model's questions: no choice, none of its own
    answers_prompt = script.calls[0].prompt
    assert all(q in answers_prompt for q in pool["questions"])
    assert pool["reflection"] == "As the player, I observed that REFLECTION-TEXT." and pool["refreshed"] == "1"
    later, more = play_until(lambda s, r: s.round == 1 and any(q.kind == "vote_team" for q in r))
    request = next(r for r in more if r.player == requests[0].player)
    script2 = Script()
    nodes2, decision, pool2 = run(script2, cga_input(later, request, pool, options=options))
    assert nodes2 == ["observe", "freshness", "informativeness", "suggest", "think", "aids", "decide"]
    assert script2.modules() == ["think"]
    assert pool["reflection"] in script2.calls[0].prompt  # the round's reflection serves the later action
    assert len(pool2["experience"]) == 2


def test_a_werewolf_day_refreshes_after_its_night_and_the_next_night_reuses_the_days_answers():
    """Under refresh=round the day's talk is reasoned on answers written by day, not on the night's."""
    from werewolf_fakes import werewolf_request

    from roundtable.games import werewolf

    def task(state, request, pool):
        return {"view": werewolf.view(state, request.player).model_dump(mode="json"),
                "request": request.model_dump(mode="json"), "pool": pool, "seed": 1,
                "seat": {"kind": "cga", "model": "fake", "options": embedded_values(CgaOptions) | cga_aids_on("fake")
                         | {"refresh": "round", "merge_answers": True, "questions": 1, "own_questions": 0}}}

    pool: dict = {}
    refreshed = []
    for kind, day in (("see", 1), ("speak", 1), ("eliminate", 1), ("see", 2)):
        state, request = werewolf_request(kind, 1, day)  # xu7, seed 1: Player 1 is the Seer
        script = Script()
        _, _, pool = run(script, task(state, request, pool), json=False)
        refreshed.append((kind, day, "answer" in script.modules(), pool["refreshed"]))
    assert refreshed == [("see", 1, True, "night 1"), ("speak", 1, True, "day 1"), ("eliminate", 1, False, "day 1"),
                         ("see", 2, False, "day 1")]


def test_the_cost_switches_are_on_by_default_for_the_embedded_model_only():
    state, requests = play_until(first("propose_team"))
    local, hosted = Script(), Script()
    run(local, cga_input(state, requests[0], model="local"))
    run(hosted, cga_input(state, requests[0], model="http://127.0.0.1:9/v1#other"))
    assert local.modules() == ["answer", "think"]
    # the test seats carry the embedded values of the tuned switches: 3 always asked, 5 chosen, none of its own
    assert hosted.modules()[-2:] == ["reflect", "think"] and hosted.modules().count("answer") == 8


def test_a_forced_answer_asks_no_model():
    state, requests = play_until(lambda s, r: any(q.kind == "quest_card" and q.forced for q in r))
    request = next(q for q in requests if q.forced)
    script = Script()
    nodes, decision, _ = run(script, cga_input(state, request))
    assert nodes == ["observe", "decide"] and not script.calls and decision.choice is True


def test_answers_read_the_retrieved_messages_and_think_reads_reflection_and_suggestion(tmp_path: Path,
                                                                                     monkeypatch):
    monkeypatch.setenv("ROUNDTABLE_HOME", str(tmp_path))
    state, requests = play_until(first("vote_team"), rules=LAN)
    request = requests[0]
    role = avalon.view(state, request.player).role
    claim = {"type": "utterance", "to": None, "speaker": 5, "phase": "discussion", "round": state.round,
             "attempt": state.attempt, "text": "Believe me, I am Merlin and player 2 is evil."}
    state = state.evolve([claim])
    reflection = "As the player, I observed that REFLECTION-TEXT."
    ExperiencePool("xp").add_game("old", [
        {"reflection": reflection, "response": f"RESPONSE-{score}", "score": score, "role": role, "side": "good",
         "game": "avalon", "player": 1, "n": n} for n, score in enumerate((2, 996, 995, 3))])
    script = Script(replies={"questions": "Chosen: 1, 2, 3, 4, 5\nOwn: Which player claimed to be Merlin?",
                             "think": "Thought: the team looks clean.\nChoice: approve"})
    _, decision, pool = run(script, cga_input(state, request, options={"pool": "xp", "own_questions": 1}),
                            json=False)
    assert script.modules()[-3:] == ["reflect", "suggest", "think"]
    own = next(c.prompt for c in script.calls if "Question: Which player claimed to be Merlin?" in c.prompt)
    retrieved = own.split("Messages of the game that may hold the answer:")[1]
    assert "<1> Player 5: Believe me, I am Merlin and player 2 is evil." in retrieved
    suggest = next(c.prompt for c in script.calls if c.module == "suggest")
    bad, good = suggest.split("There is one bad experience:")[1].split("a set of experiences")
    assert "RESPONSE-2" in bad and "RESPONSE-2" not in good
    assert "RESPONSE-995" in good and "RESPONSE-996" in good and "RESPONSE-3" in good
    think = script.calls[-1].prompt
    assert f"My reflection (not said aloud): {reflection}" in think
    assert ("Suggestion from earlier games: The best way for you to do under such reflection is SUGGESTION-TEXT."
            in think)
    assert pool["suggestion"].startswith("The best way")
    check_decision(request, decision)


def test_merged_answers_are_one_key_per_question_and_each_answer_stays_with_its_question(tmp_path: Path,
                                                                                          monkeypatch):
    monkeypatch.setenv("ROUNDTABLE_HOME", str(tmp_path))
    assert list(answers_schema(3, 24, 60).model_fields) == [
        "answer_to_question_1", "answer_to_question_2", "answer_to_question_3", "reflection"]
    state, requests = play_until(first("vote_team"), rules=LAN)

    def reply(call) -> str:  # the keys in reverse order: each answer is read by its question's key
        keys = [name for name in call.schema["properties"] if name != "reflection"]  # sent as a JSON schema
        return json.dumps({**{name: f"ANSWER-OF-{name.rsplit('_', 1)[1]}." for name in reversed(keys)},
                           "reflection": "As the player, I observed that REFLECTION-TEXT."})

    script = Script(replies={"answer": reply})
    _, _, pool = run(script, cga_input(state, requests[0], options={"merge_answers": True}))
    answers = pool["answers"]
    assert answers and [a["answer"] for a in answers] == [f"ANSWER-OF-{i}." for i in range(1, len(answers) + 1)]
    prompt = next(c.prompt for c in script.calls if c.module == "answer")
    assert '"answer_to_question_1"' in prompt


def test_no_useful_experience_leaves_no_suggestion_and_no_pool_asks_nothing(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("ROUNDTABLE_HOME", str(tmp_path))
    state, requests = play_until(first("propose_team"))
    script = Script(replies={"suggest": "No useful experience can be used."})
    run(script, cga_input(state, requests[0], options={"pool": "empty"}))
    assert "suggest" not in script.modules()  # an empty pool: nothing to contrast, no call
    assert "Suggestion from earlier games" not in script.calls[-1].prompt


SENTINEL = re.compile(r"SENTINEL\[(\d+)\]")
OWNER = re.compile(r"You are Player (\d+)\. ")


def test_no_prompt_carries_another_players_private_words_over_a_game():
    script = Script()
    agent = build_cga_graph(ScriptedModels(script)).compile()
    state = avalon.new_game(avalon.AvalonConfig.build("lan6", rules=list(LAN)), seed=5)
    pools: dict[int, dict] = {p: {} for p in state.players}
    last_round, made = 0, 0
    options = {"refresh": "round", "merge_answers": True, "questions": 2, "own_questions": 1}
    while not state.is_over and made < 40:
        if state.round != last_round:
            last_round = state.round
            state = state.evolve([{"type": "utterance", "to": [p], "speaker": p, "phase": "discussion",
                                   "round": state.round, "attempt": state.attempt,
                                   "text": f"My secret is SENTINEL[{p}]."} for p in state.players])
        decisions = {}
        for request in avalon.pending(state):
            out = agent.invoke(cga_input(state, request, pools[request.player], options, seed=5))
            decisions[request.player] = Decision.model_validate(out["decisions"][request.id])
            pools[request.player] = out["memory"][str(request.player)]
            made += 1
        state = avalon.apply(state, decisions)
    assert made >= 30
    seen_own = set()
    for call in script.calls:
        owner = OWNER.search(call.prompt)
        assert owner, f"a {call.module} prompt names no player"
        found = {int(p) for p in SENTINEL.findall(call.prompt)}
        assert found <= {int(owner.group(1))}, f"{call.module} prompt of player {owner.group(1)} carries {found}"
        seen_own |= found
    assert seen_own == set(state.players)  # positive control


def test_the_merged_prompt_lists_each_retrieved_message_once_and_each_question_names_its_own():
    from roundtable.agents.cga.answer import numbered

    messages, items = numbered(["q1", "q2"], [["a", "b"], ["b", "c"]])
    assert messages == ["a", "b", "c"]
    assert items == [{"question": "q1", "refs": [1, 2]}, {"question": "q2", "refs": [2, 3]}]


def test_own_questions_that_repeat_listed_ones_are_dropped():
    state, requests = play_until(first("propose_team"))
    script = Script(replies={"questions": "Chosen: 1\nOwn: What is the current phase, and what should I do in it "
                                          "according to the rules?\nOwn: Who voted against my team?"})
    run(script, cga_input(state, requests[0], options={"questions": 1, "choose_questions": True, "own_questions": 2}),
        json=False)
    answered = [c.prompt.split("Question: ")[1].split("\n")[0] for c in script.calls if c.module == "answer"]
    assert answered.count("What is the current phase, and what should I do in it according to the rules?") == 1
    assert answered[-1] == "Who voted against my team?" and len(answered) == 3 + 1 + 1


@pytest.mark.parametrize(("options", "named"), [({"refresh": "sometimes"}, "refresh"), ({"epsilon": 1.5}, "epsilon"),
                                                ({"embeddings": "http://x/v1"}, "embeddings"),
                                                ({"embeddings": "http://a/v1|http://b/v1#e"}, "not several replicas"),
                                                ({"pool": "../up"}, "pool"), ({"memory": 3}, "memory")])
def test_bad_options_are_refused_naming_the_option(options, named):
    from roundtable.agents.cga import CgaOptions
    from roundtable.games.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match=named):
        CgaOptions.parse(options)


@pytest.mark.parametrize(("game", "plain"), [("avalon", "servant"), ("werewolf", "villager")])
def test_every_role_of_both_games_has_its_own_question_set(game, plain):
    from roundtable.agents.cga.context import CgaContext
    from roundtable.games import GAMES

    context = CgaContext()

    def lines(part: str, role: str, day: bool = True) -> list[str]:
        text = context.render(f"aids/cga/questions/{game}", part=part, role=role, day=day)
        return [line for line in text.splitlines() if line.strip()]

    for role in GAMES[game].roles:
        own = lines("role", role)
        assert len(own) == 3 and all(q.endswith("?") or q.endswith(".") for q in own), (role, own)
        assert role == plain or own != lines("role", plain), f"{game} {role} has no set of its own"
    assert len(lines("shared", plain)) >= 2 and len(lines("asked", plain)) >= 2
    if game == "werewolf":  # the disclosure question is asked by day only (Xu et al.'s reference code)
        assert len(lines("asked", plain, day=True)) == len(lines("asked", plain, day=False)) + 1


def test_an_unusable_merged_answer_is_named_in_the_fallback_and_the_reflection_is_asked_for_on_its_own(
        tmp_path: Path, monkeypatch):
    monkeypatch.setenv("ROUNDTABLE_HOME", str(tmp_path))
    state, requests = play_until(first("vote_team"), rules=LAN)
    script = Script(replies={"answer": '{"answer_to_question_1": "cut at the length lim'})  # no valid JSON
    nodes, decision, _ = run(script, cga_input(state, requests[0], options={"merge_answers": True}))
    assert "reflect" in script.modules()
    assert decision.fallback and "answer: unusable reply (1 of 1 call)" in decision.fallback

    fine = Script()
    _, decision, _ = run(fine, cga_input(state, requests[0], options={"merge_answers": True}))
    assert "reflect" not in fine.modules() and not decision.fallback


def test_the_merged_answers_budget_holds_every_answer_filled_to_its_bound(tmp_path: Path, monkeypatch):
    """The budget once cut a reply of five 15-word answers (the JSON keys had grown it): about 3 characters a token
    and the keys' tokens must fit a reply that fills every bound."""
    monkeypatch.setenv("ROUNDTABLE_HOME", str(tmp_path))
    state, requests = play_until(first("vote_team"), rules=LAN)
    options = {"merge_answers": True, "answer_words": 15, "reflection_words": 30}
    script = Script()
    run(script, cga_input(state, requests[0], options=options))
    call = next(c for c in script.calls if c.module == "answer")
    schema = call.schema["properties"]
    filled = json.dumps({name: ("Player 2 is " * 40)[: field["maxLength"]] for name, field in schema.items()},
                        indent=2)
    assert call.max_tokens * 3 >= len(filled)
    assert call.max_tokens <= len(filled)  # and not far beyond it


def test_an_avalon_vote_against_the_stance_the_voters_words_stated_thinks_again(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("ROUNDTABLE_HOME", str(tmp_path))
    state, requests = play_until(first("vote_team"))  # lan6: the leader names the team, then everyone speaks
    request = next(r for r in requests if r.player == 1)  # a Servant, who said "I support players 1 and 5."
    script = Script(replies={"think": ["Thought: unsure.\nChoice: reject", "Thought: as I said.\nChoice: approve"]})
    _, decision, _ = run(script, cga_input(state, request), json=False)
    assert script.modules()[-2:] == ["think", "think"]
    assert "you told everyone that you support this team" in script.calls[-1].prompt
    assert decision.choice is True and decision.checks == ("vote reject against words (own_stance): asked again",)


def test_a_leaders_final_word_copying_its_own_first_words_is_said_anew_on_the_embedded_model(tmp_path: Path,
                                                                                               monkeypatch):
    monkeypatch.setenv("ROUNDTABLE_HOME", str(tmp_path))
    state, leader = final_word_request()
    script = Script(replies={"think": f"Thought: keep it.\nChoice: 1, 5\nWords: {LEADER_AGAIN}"})
    _, decision, _ = run(script, cga_input(state, leader, model="local"), json=False)
    assert script.modules().count("think") == 1, "no second call"
    assert decision.players == (1, 5) and decision.utterance == "My team for quest 1 stays: players 1 and 5."
    assert decision.checks == ("near copy of Player 5: restated",)
