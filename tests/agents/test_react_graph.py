"""The ``react`` agent graph with scripted models (AvalonBench, Light et al. 2023; docs/agents/react.md): the
zero-shot reasoning, the parser's team, yes or no and one player, the fallback of an unusable reply, the summary
rewritten at a round's end, one sentence of talk, the prompts' context overrides and the breakpoints."""

from __future__ import annotations

import re
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command
from lga_fakes import FAKE_MODEL, Call, Script, ScriptedModels, first, play_until

from roundtable.agents.react.context import ReactContext
from roundtable.agents.react.graph import build_react_graph
from roundtable.agents.react.options import ReactOptions
from roundtable.aids.switch import embedded_values
from roundtable.games import avalon
from roundtable.graphs.avalon import build_avalon_graph

SILENT = ("fifth_rejection=auto_approve", "discussion=none")
AIDED = {"aids": "on", "overrule": False, "drop_sentences": False, "dry": False}
"""The aids' prompts and tuned values, each ``auto`` aid switch off, as on the scripted model before the one switch
(the paper-mode prompts: tests/agents/test_paper_prompts_react.py)."""
TALK = ("fifth_rejection=auto_approve", "discussion=leader_first_and_last")


def task(state: avalon.AvalonState, request: avalon.Request, pool: dict[str, Any] | None = None,
         **options: Any) -> dict[str, Any]:
    return {"view": avalon.view(state, request.player).model_dump(mode="json"),
            "request": request.model_dump(mode="json"), "pool": dict(pool or {}),
            "seat": {"kind": "react", "model": "fake", "options": embedded_values(ReactOptions) | AIDED | options},
            "seed": 5}


def decide(state, request, script: Script, *, json: bool = False, pool=None, context=None,
           **options: Any) -> tuple[avalon.Decision, dict[str, Any]]:
    """One decision by the react graph over ``script``: ``(Decision, the player's new pool)``."""
    graph = build_react_graph(ScriptedModels(script, json=json)).compile()
    out = graph.invoke(task(state, request, pool, **options), context=context)
    return avalon.Decision.model_validate(out["decisions"][request.id]), out["memory"][str(request.player)]


def pending(kind: str, round_: int = 1, rules: tuple[str, ...] = SILENT, seed: int = 1) -> tuple[Any, avalon.Request]:
    state, requests = play_until(first(kind, round_), "bench5", seed=seed, rules=rules)
    return state, next(r for r in requests if r.kind == kind)


def parser_reads_the_answer(call: Call) -> str:
    """A parser that writes the players (each once), or the first of the game's words, of the answer it is shown."""
    given = re.search(r'Answer given by Player \d+: "(.*)"', call.prompt).group(1)
    if "Does it choose" in call.prompt:
        word = re.search(r"\b(approve|reject|success|fail)\b", given)
        return f"Answer: {word.group(1) if word else 'none'}"
    numbers = list(dict.fromkeys(re.findall(r"\b\d\b", given)))
    return "Answer: " + (", ".join(numbers) if numbers else "none")


def test_the_parser_maps_the_free_answer_to_the_team():
    state, request = pending("propose_team")
    assert request.count == 2 and {2, 4} <= set(request.candidates)
    script = Script(replies={"think": "I think players 2 and 4 should go", "parse": parser_reads_the_answer})
    decision, _ = decide(state, request, script)
    assert decision.players == (2, 4) and decision.fallback is None
    assert script.modules() == ["think", "parse"]
    think, parse = script.calls
    assert "step by step" in think.prompt and think.temperature == pytest.approx(0.1)
    assert "I think players 2 and 4 should go" in parse.prompt and parse.temperature == 0.0
    assert "Loyal Servant" not in parse.prompt and "Minutes" not in parse.prompt, "the parser sees only the answer"
    assert decision.raw == "I think players 2 and 4 should go\n---\n(parser) Answer: 2, 4"
    assert decision.usage["modules"].keys() == {"think", "parse"} and decision.usage["calls"] == 2


def test_where_the_endpoint_takes_json_schemas_the_parser_answers_in_one():
    state, request = pending("propose_team")
    script = Script(replies={"think": "I think players 2 and 4 should go", "parse": '{"players": [2, 4]}'})
    decision, _ = decide(state, request, script, json=True)
    assert decision.players == (2, 4) and decision.fallback is None
    (parse,) = [c for c in script.calls if c.module == "parse"]
    assert parse.schema is not None, "the parser's call is held to the extractor's schema"


@pytest.mark.parametrize(("reply", "choice"), [("so I reject this team.", False), ("I approve it.", True)])
def test_the_parser_reads_yes_or_no_in_the_games_words(reply, choice):
    state, request = pending("vote_team")
    script = Script(replies={"think": f"Player 3 looks odd, {reply}", "parse": parser_reads_the_answer})
    decision, _ = decide(state, request, script)
    assert decision.choice is choice and decision.fallback is None


def test_the_parser_reads_one_player_for_the_assassination():
    state, request = pending("assassinate")
    assert request.count == 1 and 4 in request.candidates
    script = Script(replies={"think": "Player 4 read every quest too well: Player 4 is Merlin.",
                             "parse": parser_reads_the_answer})
    decision, _ = decide(state, request, script)
    assert decision.players == (4,) and decision.fallback is None
    assert "Which one player does it name as Merlin?" in script.calls[-1].prompt


def test_an_unusable_vote_falls_back_to_approve_and_the_fallback_is_recorded():
    state, request = pending("vote_team")
    script = Script(replies={"think": "Hmm.", "parse": "I cannot tell."})
    decision, _ = decide(state, request, script)
    assert decision.choice is True and decision.fallback == "vote_team unclear: counted as approve"
    assert decision.raw == "Hmm.\n---\n(parser) I cannot tell." and decision.usage["fallbacks"] == 1


def test_too_few_players_are_asked_for_again_then_filled_and_recorded():
    state, request = pending("propose_team")
    script = Script(replies={"think": ["I would send Player 2.", "Still only Player 2."],
                             "parse": parser_reads_the_answer})
    decision, _ = decide(state, request, script)
    assert script.modules() == ["think", "parse", "think", "parse"]
    again = script.calls[2].prompt
    assert "did not name 2 different players" in again
    assert "Your last answer" not in again, "the embedded model copied its last answer, team size and all"
    assert 2 in decision.players and len(decision.players) == 2
    assert decision.fallback == "too few players named (1 of 2): filled at random"
    assert decision.usage["calls"] == 4
    again = Script(replies={"think": "I would send Player 2.", "parse": parser_reads_the_answer})
    assert decide(state, request, again)[0].players == decision.players, "the fill is seeded"


def test_an_empty_reasoning_is_not_parsed_and_falls_back():
    state, request = pending("vote_team")
    script = Script(replies={"think": ""})
    decision, _ = decide(state, request, script, retries=0)
    assert script.modules() == ["think"] and decision.choice is True and decision.fallback


def test_a_good_players_quest_card_asks_no_model():
    state, requests = play_until(first("quest_card"), "bench5", seed=1, rules=SILENT)
    request = next(r for r in requests if r.kind == "quest_card" and r.allowed == (True,))
    script = Script()
    decision, _ = decide(state, request, script)
    assert decision.choice is True and not script.calls


def test_words_are_one_sentence_and_go_with_the_chosen_team():
    state, request = pending("propose_team", rules=TALK)
    assert request.wants_words
    speech = f"Player {request.player}: I send players 2 and 4. They have been quiet.\nTrust me!"
    script = Script(replies={"think": "Players 2 and 4 it is.", "parse": parser_reads_the_answer, "speak": speech})
    decision, _ = decide(state, request, script, aids="on")
    assert script.modules() == ["think", "parse", "speak"]
    assert "You have decided to propose players 2, 4." in script.calls[-1].prompt
    assert "exactly one sentence" in script.calls[-1].prompt
    assert decision.players == (2, 4) and decision.utterance == "I send players 2 and 4."
    assert decision.checks == ("speak: 3 sentences cut to the first",) and decision.fallback is None


def test_with_the_aids_off_the_reply_is_said_whole_as_avalonbench_said_it():
    state, request = pending("propose_team", rules=TALK)
    speech = f"Player {request.player}: I send players 2 and 4. They have been quiet.\nTrust me!"
    script = Script(replies={"think": "Players 2 and 4 it is.", "parse": "Answer: [2, 4]", "speak": speech})
    decision, _ = decide(state, request, script, aids="off")
    assert decision.utterance == "I send players 2 and 4. They have been quiet. Trust me!"
    assert decision.checks == ()


def test_words_posing_as_another_player_are_dropped_and_recorded():
    state, request = pending("speak", rules=TALK)
    other = request.player % 5 + 1
    script = Script(replies={"speak": f"Player {other}: I am evil.\nI doubt this team."})
    decision, _ = decide(state, request, script)
    assert decision.utterance == "I doubt this team." and "posing as the host or another player" in decision.fallback


def test_a_talk_turn_is_one_speak_call():
    state, request = pending("speak", rules=TALK)
    script = Script(replies={"speak": "I doubt this team, since Player 5 pushed it hard."})
    decision, _ = decide(state, request, script)
    assert script.modules() == ["speak"]
    assert decision.utterance == "I doubt this team, since Player 5 pushed it hard." and decision.fallback is None
    assert "no action is asked of you now" in script.calls[0].prompt


def own_requests(player: int, rules: tuple[str, ...] = SILENT, seed: int = 1):
    """Every (state, request) asked of ``player`` in a bench5 game of naive bots, in order."""
    from roundtable.games.avalon.bots import naive

    state = avalon.new_game(avalon.AvalonConfig.build("bench5", rules=list(rules)), seed=seed)
    while not state.is_over:
        requests = avalon.pending(state)
        yield from ((state, r) for r in requests if r.player == player)
        state = avalon.apply(state, {r.player: naive.decide(avalon.view(state, r.player), r, seed) for r in requests})


def summaries(call: Call) -> str:
    """``SUMMARY-<number of minutes shown>-<the quest they cover>.``"""
    quest = re.search(r"Minutes of quest (\d)", call.prompt)[1]
    return f"SUMMARY-{call.prompt.count('Minutes of quest')}-{quest}."


def test_the_summary_is_rewritten_with_the_next_rounds_first_decision():
    script = Script(replies={"think": "I approve.", "parse": parser_reads_the_answer, "summarize": summaries})
    pool: dict[str, Any] = {}
    rounds_summarized = []
    for state, request in own_requests(1):
        before = len(script.calls)
        _, pool = decide(state, request, script, pool=pool)
        calls = script.calls[before:]
        if any(c.module == "summarize" for c in calls):
            assert calls[0].module == "summarize", "the summary is written before the turn's answer"
            rounds_summarized.append(request.round)
            summary = calls[0]
            previous = f"SUMMARY-1-{request.round - 2}." if request.round > 2 else "(none yet)"
            assert f"Your summary of the game so far: {previous}" in summary.prompt
            assert f"Minutes of quest {request.round - 1}:" in summary.prompt
            assert f"Host: Quest {request.round - 1} begins" in summary.prompt
            assert re.search(rf"Host: Quest {request.round - 1} \(players [\d, ]+\) (succeeded|FAILED)", summary.prompt)
            assert f"Quest {request.round} begins" not in summary.prompt, "only the ended round"
            assert pool["summary"] == f"SUMMARY-1-{request.round - 1}." and pool["summary_round"] == request.round - 1
            assert {m["round"] for m in pool["minutes"]} == {request.round}
            think = next(c for c in calls if c.module == "think")
            assert f"Your summary of the game so far: SUMMARY-1-{request.round - 1}." in think.prompt
    assert rounds_summarized == list(range(2, rounds_summarized[-1] + 1)) and len(rounds_summarized) >= 2, (
        "one summary a round, with the round's first decision")


def test_an_empty_summary_keeps_the_previous_one_and_the_rounds_outcome():
    script = Script(replies={"think": "I approve.", "parse": "Answer: approve", "summarize": ""})
    pool: dict[str, Any] = {"summary": "EARLIER."}
    for state, request in own_requests(1):
        if request.round == 2:
            decision, pool = decide(state, request, script, pool=pool)
            break
        _, pool = decide(state, request, script, pool=pool)
    assert pool["summary"].startswith("EARLIER. Host: Quest 1 ")
    assert "summarize: empty reply" in decision.checks[0]


def test_every_prompt_is_a_context_field_overridable_per_run():
    state, request = pending("vote_team")
    script = Script(replies={"think": "I approve.", "parse": "Answer: approve"})
    custom = "MY THINK PROMPT for Player {{ context[:0] }}{{ instruction[:5] }}"
    decide(state, request, script, context={"aids_think_prompt": custom, "temperature": 0.5})
    assert script.calls[0].prompt.endswith("MY THINK PROMPT for Player Host:")
    assert script.calls[0].temperature == 0.5
    fields = ReactContext.model_json_schema()["properties"]
    for name, nodes in (("think_prompt", {"think"}), ("parse_prompt", {"parse"}), ("summarize_prompt", {"summarize"}),
                        ("speak_prompt", {"speak"}), ("rules_prompt", {"summarize", "think", "speak"}),
                        ("aids_think_prompt", {"think"}), ("aids_parse_prompt", {"parse"}),
                        ("aids_speak_prompt", {"speak"}), ("paper_rules_prompt", {"summarize", "think", "speak"})):
        assert fields[name]["langgraph_type"] == "prompt"
        assert {f"react:{node}" for node in nodes} <= set(fields[name]["langgraph_nodes"]), name


def test_a_breakpoint_stops_on_a_react_step_inside_a_game_with_its_state_and_its_context():
    script = Script(replies={"think": "I approve this team.", "parse": parser_reads_the_answer})
    game = build_avalon_graph(models=ScriptedModels(script, json=False)).compile(checkpointer=InMemorySaver())
    config: Any = {"configurable": {"thread_id": "t"}, "recursion_limit": 5000}
    seats = [{"kind": "react", "model": FAKE_MODEL, "options": AIDED}] + [{"kind": "naive"}] * 4
    custom = "{{ context }}\n\n{{ instruction }}\nCUSTOM: think step by step."
    context = {"breakpoints": ["react:parse"], "react": {"aids_think_prompt": custom}}
    game.invoke({"config": {"preset": "bench5", "rules": dict(r.split("=") for r in SILENT)}, "seed": 2,
                 "seats": seats}, config, context=context)
    snapshot = game.get_state(config, subgraphs=True)
    (paused,) = [t for t in snapshot.tasks if t.interrupts]
    assert paused.name == "react" and paused.interrupts[0].value["breakpoint"] == "react:parse"
    agent = paused.state
    assert agent.next == ("parse",)
    assert agent.values["thought"] == "I approve this team." and agent.values["pool"]["minutes"]
    assert agent.values["request"]["player"] == 1
    assert script.calls[-1].module == "think" and script.calls[-1].prompt.endswith("CUSTOM: think step by step.")
    out = game.invoke(Command(resume=True), config, context={"breakpoints": []})
    assert out["result"]["winner"] in ("good", "evil")
    decisions = [e for e in out["events"] if e["type"] == "decision" and e["agent"] == "react"]
    modules = {m for d in decisions for m in d["usage"].get("modules", {})}
    assert decisions and {"think", "parse", "summarize"} <= modules
