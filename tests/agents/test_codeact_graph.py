"""The ``codeact`` and ``cot`` agent graphs with scripted models (Shi et al. 2023; docs/agents/codeact.md):
the self-debug loop, the fallback, the ReAct and CoT leaders, temperatures, and the decision record."""

from __future__ import annotations

from typing import Any

from langgraph.checkpoint.memory import InMemorySaver
from lga_fakes import Script, ScriptedModels, first, play_until

from roundtable.agents.codeact.graph import build_codeact_graph
from roundtable.agents.codeact.options import CotOptions
from roundtable.aids.switch import embedded_values
from roundtable.games import avalon

AIDED = {"aids": "on", "overrule": False, "drop_sentences": False, "dry": False}
"""The aids' prompts and tuned values, each ``auto`` aid switch off, as on the scripted model before the one switch
(the paper-mode prompts: tests/agents/test_paper_prompts_codeact.py)."""
AVALONPLAY = ("fifth_rejection=auto_approve", "two_fail_quests=four_and_five", "evil_quest_card=must_fail",
              "discussion=none")

RAISES = "```python\ngood = [p for p in range(1, 8) if p not in evil]\nprint(good[:2])\n```"
FIXED = "```python\nevil = {3}\ngood = [p for p in range(1, 8) if p not in evil]\nprint(good[:{count}])\n```"


def proposal(round_: int = 2):
    state, requests = play_until(first("propose_team", round_), "play7", seed=3, rules=AVALONPLAY)
    (request,) = [r for r in requests if r.kind == "propose_team"]
    return state, request


def task(state, request, kind: str = "codeact", **options: Any) -> dict[str, Any]:
    return {"view": avalon.view(state, request.player).model_dump(mode="json"),
            "request": request.model_dump(mode="json"), "pool": {},
            "seat": {"kind": kind, "model": "fake", "options": embedded_values(CotOptions) | AIDED | options},
            "seed": 5}


def scripted(write: str, debug: str | list[str], think: str = '{"thought": "fine", "words": "My team."}') -> Script:
    debugs = list(debug) if isinstance(debug, list) else [debug]
    return Script(replies={"write": write, "debug": debugs, "think": think})


def run(state, request, script: Script, kind: str = "codeact", slots: int = 0, **options: Any) -> dict[str, Any]:
    graph = build_codeact_graph(kind, ScriptedModels(script, server_slots=slots)).compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}
    graph.invoke(task(state, request, kind, **options), config)
    return graph.get_state(config).values


def test_self_debug_sees_the_error_and_the_previous_program_and_succeeds():
    state, request = proposal()
    fixed = FIXED.replace("{count}", str(request.count))
    script = scripted(RAISES, fixed)
    values = run(state, request, script)
    attempts = values["attempts"]
    assert len(attempts) == 2
    assert "NameError: name 'evil' is not defined" in attempts[0]["error"]
    assert "Traceback" in attempts[0]["error"] and attempts[0]["team"] is None
    assert attempts[0]["program"].startswith("good = [p for p")
    assert attempts[1]["error"] is None and attempts[1]["team"] == [p for p in range(1, 8) if p != 3][:request.count]
    debug_calls = [c for c in script.calls if "Your previous program" in c.prompt]
    assert len(debug_calls) == 1
    assert "good = [p for p in range(1, 8) if p not in evil]" in debug_calls[0].prompt
    assert "NameError: name 'evil' is not defined" in debug_calls[0].prompt
    decision = avalon.Decision.model_validate(values["decisions"][request.id])
    assert list(decision.players) == attempts[1]["team"]
    assert decision.fallback is None
    assert decision.checks == ("program 1: NameError: name 'evil' is not defined",
                               f"program 2: team {', '.join(map(str, attempts[1]['team']))}")
    assert RAISES in decision.raw and fixed in decision.raw


def test_code_is_sampled_at_zero_and_text_at_seven_tenths():
    state, request = proposal()
    script = scripted(FIXED.replace("{count}", str(request.count)), RAISES)
    run(state, request.model_copy(update={"wants_words": True}), script)
    temperatures = {("code" if "Python program" in c.prompt else "text"): c.temperature for c in script.calls}
    assert temperatures == {"code": 0.0, "text": 0.7}


def test_every_call_is_pinned_to_the_players_slot_where_the_endpoint_has_slots():
    state, request = proposal()
    words = request.model_copy(update={"wants_words": True})
    for kind in ("codeact", "cot"):
        script = scripted(RAISES, FIXED.replace("{count}", str(request.count)))
        run(state, words, script, kind, slots=10)
        assert script.calls and {c.slot for c in script.calls} == {request.player - 1}
        unpinned = scripted(RAISES, FIXED.replace("{count}", str(request.count)))
        run(state, words, unpinned, kind)
        assert {c.slot for c in unpinned.calls} == {None}


def test_every_attempt_failing_records_the_fallback_and_the_team_is_legal():
    state, request = proposal()
    script = scripted("```python\nwhile True:\n    pass\n```", ["no code here", "```python\nprint('nobody')\n```"])
    values = run(state, request, script, timeout=1.0)
    attempts = values["attempts"]
    assert len(attempts) == 3
    assert "TimeoutError" in attempts[0]["error"]
    assert "no program" in attempts[1]["error"]
    assert "printed no player numbers" in attempts[2]["error"]
    decision = avalon.Decision.model_validate(values["decisions"][request.id])
    avalon.check_decision(request, decision)
    assert "codeact: all 3 programs failed" in decision.fallback
    assert len(decision.checks) == 3


def test_max_attempts_is_an_option():
    state, request = proposal()
    values = run(state, request, scripted(RAISES, RAISES), max_attempts=1)
    assert len(values["attempts"]) == 1
    assert "all 1 programs failed" in avalon.Decision.model_validate(values["decisions"][request.id]).fallback


def test_a_program_naming_an_illegal_team_is_debugged():
    state, request = proposal()
    fixed = FIXED.replace("{count}", str(request.count))
    values = run(state, request, scripted("```python\nprint([9, 9])\n```", fixed))
    assert "print exactly" in values["attempts"][0]["error"]
    assert values["attempts"][1]["team"]


def test_the_react_leader_checks_then_finishes():
    state, request = proposal()
    team = ", ".join(str(p) for p in range(1, request.count + 1))
    replies = ["Thought: who failed quest 1?\nAction: Check[1, 2]", f"Thought: go.\nAction: Finish[{team}]"]
    script = Script(replies={"react": replies})
    values = run(state, request, script, leader="react")
    steps = values["steps"]
    assert [s["action"] for s in steps] == ["Check[1, 2]", f"Finish[{team}]"]
    assert "players 1 and 6 are evil" in steps[0]["observation"].lower()
    assert "Observation: " + steps[0]["observation"] in script.calls[1].prompt
    decision = avalon.Decision.model_validate(values["decisions"][request.id])
    assert list(decision.players) == list(range(1, request.count + 1)) and decision.fallback is None
    assert all(c.temperature == 0.7 for c in script.calls)


def test_the_cot_kind_and_the_cot_leader_reason_in_prose_without_the_tool():
    state, request = proposal()
    for kind, options in (("cot", {}), ("codeact", {"leader": "cot"})):
        script = Script()
        values = run(state, request, script, kind, **options)
        assert "attempts" not in values or not values["attempts"]
        assert all("Python" not in c.prompt for c in script.calls)
        assert [c.schema["properties"].keys() for c in script.calls][0] >= {"thought", "players"}
        avalon.check_decision(request, avalon.Decision.model_validate(values["decisions"][request.id]))


def test_global_memory_keeps_key_information_and_the_last_k_messages():
    state, requests = play_until(first("vote_team", 3), "play7", seed=3,
                                 rules=AVALONPLAY[:3] + ("discussion=leader_first_and_last",))
    request = requests[0]
    values = run(state, request, Script(), "cot", memory_messages=4, memory_step=1)
    pool = values["pool"]
    assert len(pool["recent"]) == 4
    stepped = run(state, request, Script(), "cot", memory_messages=4, memory_step=3)["pool"]["recent"]
    assert 4 <= len(stepped) <= 6 and stepped[-4:] == pool["recent"]
    assert any("Quest 1" in line and ("succeeded" in line or "FAILED" in line) for line in pool["key"])
    assert pool["votes"] and all("leader" in v for v in pool["votes"])


LOOPING = "```python\nsuspicion = {p: 0 for p in range(1, 8)}\n" + "suspicion[1] += 1  # quest 1 failed\n" * 12


def test_a_program_cut_off_in_a_loop_is_debugged_with_what_went_wrong():
    # Seen on the embedded model: the first program repeats one line until the reply is cut, the debug call
    # at temperature 0 wrote the same program again and again, and every attempt failed.
    state, request = proposal()
    fixed = FIXED.replace("{count}", str(request.count))
    script = scripted(LOOPING, [LOOPING, fixed])
    values = run(state, request, script)
    assert [bool(a["team"]) for a in values["attempts"]] == [False, False, True]
    debug_calls = [c.prompt for c in script.calls if "Your previous program" in c.prompt]
    assert "writes the line `suspicion[1] += 1  # quest 1 failed` 12 times and was cut off" in debug_calls[0]
    assert "never prints the team" in debug_calls[0]
    assert "same program before" not in debug_calls[0]
    assert "same program before" in debug_calls[1]
    assert all('"Fix:"' in prompt for prompt in debug_calls)
