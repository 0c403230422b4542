"""The lga agent graph with scripted models: module order, once-per-round refresh, ablations, sampling, cost."""

from __future__ import annotations

import pytest
from lga_fakes import Script, ScriptedModels, decide, first, lga_input, play_until

from roundtable.agents.lga.context import LgaContext
from roundtable.agents.lga.graph import build_lga_graph, graph
from roundtable.agents.lga.options import LgaOptions
from roundtable.games import avalon
from roundtable.games.avalon import ConfigurationError, Decision, check_decision

LAN = ("discussion=before_proposal", "assassination=after_each_quest", "fifth_rejection=leader_assigns")


def run(script: Script, inp: dict, *, json: bool = True, context: LgaContext | None = None,
        slots: int = 0) -> tuple[list[str], dict]:
    """Run one decision; return the nodes that ran, in order, and the output ``{decision, memory}``."""
    g = build_lga_graph(ScriptedModels(script, json=json, server_slots=slots)).compile()
    nodes: list[str] = []
    values: dict = {}
    for mode, chunk in g.stream(inp, stream_mode=["updates", "values"], context=context):
        if mode == "updates":
            nodes += list(chunk)
        else:
            values = chunk
    request_id, player = inp["request"]["id"], str(inp["request"]["player"])
    return nodes, {"decision": values["decisions"][request_id], "memory": values["memory"][player]}


def first_proposal_on(model: str, options: dict) -> Script:
    """The first leader's decision by a seat playing ``model`` with ``options``; the script of its calls."""
    state, requests = play_until(first("propose_team"))
    script = Script()
    inp = lga_input(state, requests[0], options=options)
    inp["seat"]["model"] = model
    run(script, inp)
    return script


def decision_of(out: dict) -> Decision:
    return Decision.model_validate(out["decision"])


def test_first_decision_runs_analysis_plan_and_one_act_call():
    state, requests = play_until(first("propose_team"))
    script = Script()
    nodes, out = run(script, lga_input(state, requests[0]))
    assert nodes == ["observe", "analyze", "plan", "act", "aids", "decide"], "the aids step checks the answer"
    assert script.modules() == ["analyze", "plan", "act"]
    decision = decision_of(out)
    check_decision(requests[0], decision)
    assert decision.fallback is None and decision.utterance
    assert out["memory"]["analysis_round"] == 1 and out["memory"]["plan_round"] == 1


def test_a_leaders_first_proposal_gives_its_reason_first_where_asked_and_a_final_one_does_not():
    state, requests = play_until(first("propose_team"))
    first_request = requests[0]
    final = first_request.model_copy(update={"subject": (1, 2), "details": {**first_request.details, "final": True}})
    options = {"no_analysis": True, "no_plan": True}  # the default: a reason before a vote and a first proposal
    calls = {}
    for name, request in (("first", first_request), ("final", final)):
        script = Script()
        decision, _ = decide(build_lga_graph(ScriptedModels(script)).compile(), state, request, options=options)
        check_decision(request, decision)
        calls[name] = script.calls[-1]
    assert list(calls["first"].schema["properties"]) == ["reason", "players", "words"]
    assert ('"reason": one short sentence on whom you leave out of this team and why, then "players"'
            in calls["first"].prompt)
    assert "reason" not in calls["final"].schema["properties"] and '"reason"' not in calls["final"].prompt
    script = Script()  # the option can leave it out
    decide(build_lga_graph(ScriptedModels(script)).compile(), state, first_request,
           options={"no_analysis": True, "reason_before": "vote_team"})
    assert "reason" not in script.calls[-1].schema["properties"]


def test_second_decision_in_the_same_round_skips_refresh():
    state, requests = play_until(first("propose_team"))
    leader = requests[0]
    script = Script()
    _, out = run(script, lga_input(state, leader))
    # play on with the naive bots until the same player votes in round 1
    after, votes = play_until(lambda s, rs: s.round == 1 and any(r.kind == "vote_team" for r in rs))
    vote = next(r for r in votes if r.player == leader.player)
    script = Script()
    nodes, out2 = run(script, lga_input(after, vote, memory=out["memory"]))
    assert nodes == ["observe", "act", "aids", "decide"]
    assert script.modules() == ["act"]
    assert decision_of(out2).choice is True


def test_new_round_summarizes_then_refreshes():
    state, requests = play_until(first("propose_team"))
    p = requests[0].player
    _, out = run(Script(), lga_input(state, requests[0]))
    later, reqs = play_until(lambda s, rs: s.round == 2 and any(r.player == p for r in rs))
    request = next(r for r in reqs if r.player == p)
    script = Script()
    nodes, out2 = run(script, lga_input(later, request, memory=out["memory"]))
    assert nodes[:4] == ["observe", "summarize", "analyze", "plan"]
    assert script.modules()[:3] == ["summarize", "analyze", "plan"]
    memory = out2["memory"]
    assert memory["summary_round"] == 1 and "SUMMARY-TEXT" in memory["summary"]
    assert all(r["round"] >= 2 for r in memory["records"])  # round 1 records summarized away
    assert any("Quest 1" in line for line in memory["board"])  # its key facts kept
    # the summary prompt saw the round's records and no later ones
    summary_prompt = script.calls[0].prompt
    assert "Quest 1 so far:" in summary_prompt and "Quest 2 begins" not in summary_prompt


def test_summary_prompt_starts_as_the_players_last_prompt_of_the_round():
    # so a per-player prompt cache serves all of it but the new lines and the task (the per_player layout), when the
    # round's records fit in the transcript budget
    big = {"transcript_chars": 20000}
    state, requests = play_until(first("propose_team"))
    p = requests[0].player
    _, out = run(Script(), lga_input(state, requests[0], options=big), slots=10)
    voting, reqs = play_until(lambda s, rs: any(r.player == p and r.kind == "vote_team" for r in rs))
    vote = next(r for r in reqs if r.player == p and r.kind == "vote_team")
    script = Script()
    _, out = run(script, lga_input(voting, vote, memory=out["memory"], options=big), slots=10)
    last = script.calls[-1].prompt
    later, reqs = play_until(lambda s, rs: s.round == 2 and any(r.player == p for r in rs))
    script = Script()
    run(script, lga_input(later, next(r for r in reqs if r.player == p), memory=out["memory"], options=big), slots=10)
    assert script.modules()[0] == "summarize"
    before_task = last[: last.rindex(f"Host: Player {p}, vote")].rstrip()
    assert "Quest 1 so far:" in before_task and "Your plan:" in before_task
    assert script.calls[0].prompt.startswith(before_task)


def _round_two(options: dict, script: Script, model: str = "fake", json: bool = True) -> tuple[list[str], dict]:
    """Play player p's first round-1 decision, then its first round-2 decision with ``options``."""
    state, requests = play_until(first("propose_team"))
    p = requests[0].player
    _, out = run(Script(), lga_input(state, requests[0], options=options))
    later, reqs = play_until(lambda s, rs: s.round == 2 and any(r.player == p for r in rs))
    inp = lga_input(later, next(r for r in reqs if r.player == p), memory=out["memory"], options=options)
    inp["seat"]["model"] = model
    return run(script, inp, json=json)


def test_merge_summary_writes_summary_analysis_and_plan_in_one_json_call():
    reply = '{"summary": "Quest 1 failed.", "analysis": "Player 3 lied.", "plan": "Keep Player 3 off teams."}'
    script = Script(replies={"summarize": reply})
    nodes, out = _round_two({"merge_summary": True}, script)
    assert len(script.modules()) == 2 and script.modules()[0] == "summarize"
    assert "analyze" not in nodes and "plan" not in nodes  # skipped: current for round 2
    memory = out["memory"]
    assert (memory["summary"], memory["analysis"], memory["plan"]) == (
        "Quest 1 failed.", "Player 3 lied.", "Keep Player 3 off teams.")
    call = script.calls[0]
    assert call.schema is not None and list(call.schema["properties"]) == ["summary", "analysis", "plan"]
    assert all(field["maxLength"] for field in call.schema["properties"].values())  # bounded
    assert 'Answer in JSON with "summary", "analysis" and "plan".' in call.prompt


def test_merge_summary_unusable_json_falls_back_to_labelled_prose():
    replies = ["not json at all", "Summary: Quest 1 failed.\nAnalysis: Player 3 lied.\nPlan: Keep 3 off."]
    script = Script(replies={"summarize": replies})
    _, out = _round_two({"merge_summary": True}, script)
    assert script.modules()[:2] == ["summarize", "summarize"] and len(script.modules()) == 3
    assert script.calls[0].schema is not None and script.calls[1].schema is None
    assert '"Summary: ...", "Analysis: ..." and "Plan: ..."' in script.calls[1].prompt
    assert out["memory"]["plan"] == "Keep 3 off." and out["memory"]["plan_round"] == 2
    assert decision_of(out).usage["modules"]["summarize"]["calls"] == 2


def test_merge_summary_on_a_prose_endpoint_reads_labelled_parts():
    reply = "Summary: Quest 1 failed.\nAnalysis: Player 3 lied.\nPlan: Keep Player 3 off teams."
    script = Script(replies={"summarize": reply})
    nodes, out = _round_two({"merge_summary": True}, script, json=False)
    assert len(script.modules()) == 2 and script.modules()[0] == "summarize"
    assert "analyze" not in nodes and "plan" not in nodes  # skipped: current for round 2
    memory = out["memory"]
    assert (memory["summary"], memory["analysis"], memory["plan"]) == (
        "Quest 1 failed.", "Player 3 lied.", "Keep Player 3 off teams.")
    assert memory["analysis_round"] == memory["plan_round"] == 2
    prompt = script.calls[0].prompt
    assert "Quest 1 so far:" in prompt and '"Summary: ...", "Analysis: ..." and "Plan: ..."' in prompt
    assert script.calls[0].schema is None


def test_merge_summary_asks_separately_for_parts_the_reply_left_out():
    script = Script(replies={"summarize": "Quest 1 failed and nobody said why."})
    nodes, out = _round_two({"merge_summary": True}, script, json=False)
    assert script.modules()[:3] == ["summarize", "analyze", "plan"] and len(script.modules()) == 4
    assert out["memory"]["summary"] == "Quest 1 failed and nobody said why."
    assert out["memory"]["analysis_round"] == 2 and "ANALYSIS-TEXT" in out["memory"]["analysis"]


def test_merge_summary_leaves_out_ablated_modules():
    script = Script(replies={"summarize": "Summary: Quest 1 failed.\nPlan: Trust Player 2."})
    _, out = _round_two({"merge_summary": True, "no_analysis": True}, script, json=False)
    assert len(script.modules()) == 2 and script.modules()[0] == "summarize"
    assert "Then analyse" not in script.calls[0].prompt and "analysis" not in out["memory"]
    assert out["memory"]["plan"] == "Trust Player 2."


@pytest.mark.parametrize(("model", "option", "merged"), [
    ("local", "auto", True), ("gpt-4o-mini", "auto", False), ("local", False, False), ("gpt-4o-mini", True, True),
])
def test_merge_summary_auto_merges_for_the_embedded_model(model, option, merged):
    script = Script()
    _round_two({"merge_summary": option, "aids": "on" if option is True else "auto"}, script, model=model)
    assert ("Then analyse" in script.calls[0].prompt) is merged


def test_memory_reads_only_new_events_from_delta_views():
    state, requests = play_until(first("propose_team"))
    p = requests[0].player
    _, out = run(Script(), lga_input(state, requests[0]))
    full = avalon.view(state, p)
    assert out["memory"]["seen"] == len(full.events)
    later, reqs = play_until(lambda s, rs: s.round == 1 and any(r.kind == "vote_team" for r in rs))
    vote = next(r for r in reqs if r.player == p)
    delta = avalon.view(later, p).since(out["memory"]["seen"])
    inp = lga_input(later, vote, memory=out["memory"]) | {"view": delta.model_dump(mode="json")}
    _, out2 = run(Script(), inp)
    texts = [r["text"] for r in out2["memory"]["records"]]
    assert sum(t.startswith("Quest 1 begins") for t in texts) == 1  # nothing read twice
    assert any(t.startswith("Player") and "proposes" in t for t in texts)  # the new events were read
    assert out2["memory"]["seen"] == len(avalon.view(later, p).events)


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"no_analysis": True}, ["plan", "act"]),
        ({"no_plan": True}, ["analyze", "act"]),
        ({"no_analysis": True, "no_plan": True}, ["act"]),
        ({"merge_plan": True}, ["analyze", "act"]),
        ({"separate_response": True}, ["analyze", "plan", "act", "respond"]),
        ({"no_action": True}, ["analyze", "plan", "respond", "extract"]),
    ],
)
def test_ablation_switches(options, expected):
    state, requests = play_until(first("propose_team"))
    words = "I propose players 2 and 4." if options.get("no_action") else "I back this team."
    script = Script(replies={"respond": words, "extract": "2, 4"})
    nodes, out = run(script, lga_input(state, requests[0], options=options))
    assert script.modules() == expected
    decision = decision_of(out)
    check_decision(requests[0], decision)
    assert decision.fallback is None
    if options.get("no_action"):
        assert "act" not in nodes and decision.players == (2, 4) and "propose players 2 and 4" in decision.utterance
    if options.get("no_analysis"):
        assert "Your analysis" not in script.calls[-1].prompt
    if options.get("merge_plan"):
        assert out["memory"]["plan_round"] == 1


def test_merge_plan_splits_analysis_and_plan():
    state, requests = play_until(first("propose_team"))
    script = Script(replies={"analyze": "Analysis: Player 3 is odd.\nPlan: Keep Player 3 off teams."})
    _, out = run(script, lga_input(state, requests[0], options={"merge_plan": True}))
    assert out["memory"]["analysis"] == "Player 3 is odd."
    assert out["memory"]["plan"] == "Keep Player 3 off teams."


@pytest.mark.parametrize(("model", "option", "merged"), [
    ("local", "auto", True), ("local?json_schema=false", "auto", True), ("gpt-4o-mini", "auto", False),
    ("local", False, False), ("gpt-4o-mini", True, True),
])
def test_merge_plan_auto_merges_for_the_embedded_model(model, option, merged):
    script = first_proposal_on(model, {"merge_plan": option, "aids": "on" if option is True else "auto"})
    assert script.modules() == (["analyze", "act"] if merged else ["analyze", "plan", "act"])


def test_transcript_keeps_the_whole_round_while_it_fits():
    from roundtable.agents.lga import memory as mem

    records = [
        {"speaker": "Host", "text": "Player 1 leads proposal 1.", "round": 2, "phase": "proposal", "vis": "public",
         "attempt": 1},
        {"speaker": "Player 2", "text": "Old talk.", "round": 2, "phase": "discussion", "vis": "public", "attempt": 1},
        {"speaker": "Host", "text": "Rejected.", "round": 2, "phase": "vote_team", "vis": "public", "attempt": 1,
         "fact": True},
        {"speaker": "Host", "text": "Player 2 leads proposal 2.", "round": 2, "phase": "proposal", "vis": "public",
         "attempt": 2},
    ]
    text = mem.public_transcript({"records": records}, 2, 2, 2400)
    assert "Old talk" in text and text.endswith("Player 2 leads proposal 2.")
    assert "Old talk" not in mem.public_transcript({"records": records}, 2, 2, 100)  # over budget: Host lines only


def test_transcript_keeps_only_host_lines_of_earlier_proposals():
    from roundtable.agents.lga import memory as mem

    records = [
        {"speaker": "Host", "text": "Player 1 leads proposal 1.", "round": 2, "phase": "proposal", "vis": "public",
         "attempt": 1},
        {"speaker": "Player 2", "text": "Old talk.", "round": 2, "phase": "discussion", "vis": "public", "attempt": 1,
         "team": [1, 2]},
        {"speaker": "Host", "text": "Rejected.", "round": 2, "phase": "vote_team", "vis": "public", "attempt": 1,
         "fact": True},
        {"speaker": "Host", "text": "Player 2 leads proposal 2.", "round": 2, "phase": "proposal", "vis": "public",
         "attempt": 2},
        {"speaker": "Player 3", "text": "New talk.", "round": 2, "phase": "discussion", "vis": "public", "attempt": 2,
         "team": [3, 4]},
    ]
    budget = 150  # less than the whole round: earlier proposals keep only the Host's lines
    text = mem.public_transcript({"records": records}, 2, 2, budget)
    assert "Old talk" not in text and "Rejected." in text
    assert "Player 3 (suggests 3, 4): New talk." in text
    more = records + [{"speaker": "Player 4", "text": "Later.", "round": 2, "phase": "discussion", "vis": "public",
                       "attempt": 2}]
    assert mem.public_transcript({"records": more}, 2, 2, budget).startswith(text)  # it only grows


@pytest.mark.parametrize("scope", ["teammates", "adversaries"])
def test_analysis_scope(scope):
    # the Assassin knows Morgana: its scope names players
    state, requests = play_until(first("vote_team"))
    assassin = next(p for p in state.players if state.role_of(p) is avalon.Role.ASSASSIN)
    morgana = next(p for p in state.players if state.role_of(p) is avalon.Role.MORGANA)
    request = next(r for r in requests if r.player == assassin)
    script = Script()
    run(script, lga_input(state, request, options={"analysis_scope": scope}))
    analysis_prompt = script.calls[0].prompt
    assert f"your {scope}" in analysis_prompt
    named = analysis_prompt.split(f"your {scope}")[1].split(")")[0]
    assert (f"Player {morgana}" in named) == (scope == "teammates")


def test_invalid_options_are_refused():
    state, requests = play_until(first("propose_team"))
    with pytest.raises(ConfigurationError, match="no_such_option"):
        run(Script(), lga_input(state, requests[0], options={"no_such_option": True}))


def test_good_quest_card_needs_no_model_call():
    state, requests = play_until(first("quest_card"))
    good = next(r for r in requests if r.allowed == (True,))
    script = Script()
    nodes, out = run(script, lga_input(state, good, options={"no_analysis": True, "no_plan": True}))
    assert script.modules() == [] and nodes == ["observe", "decide"]
    assert decision_of(out).choice is True and decision_of(out).fallback is None


def test_evil_quest_card_is_one_short_structured_call():
    state, requests = play_until(first("quest_card"))
    evil = [r for r in requests if r.allowed == (True, False)]
    if not evil:
        pytest.skip("no evil player on the first quest for this seed")
    script = Script()
    _, out = run(script, lga_input(state, evil[0], options={"no_analysis": True, "no_plan": True}))
    assert script.modules() == ["act"]
    assert script.calls[0].schema is not None and script.calls[0].max_tokens <= 64
    assert decision_of(out).choice is False


def test_words_only_request_calls_respond_only():
    state, requests = play_until(first("speak"))  # leader_first_and_last: no suggestion
    request = requests[0]
    assert request.count is None
    script = Script(replies={"respond": "I like this team."})
    nodes, out = run(script, lga_input(state, request, options={"no_analysis": True, "no_plan": True}))
    assert nodes == ["observe", "respond", "aids", "decide"]
    assert decision_of(out).utterance == "I like this team."


def test_speak_with_suggestion_is_one_combined_call():
    state, requests = play_until(first("speak"), rules=LAN)
    request = requests[0]
    assert request.count == 2
    script = Script()
    _, out = run(script, lga_input(state, request, options={"no_analysis": True, "no_plan": True}))
    assert script.modules() == ["act"]
    decision = decision_of(out)
    assert decision.players == (1, 2) and decision.utterance == "I trust this team."


def test_prose_endpoint_reads_labelled_reply_without_extractor():
    state, requests = play_until(first("propose_team"))
    script = Script(replies={"act": "Choice: 3, 5\nWords: Players 3 and 5 look solid."})
    _, out = run(script, lga_input(state, requests[0], options={"no_analysis": True, "no_plan": True}), json=False)
    assert script.modules() == ["act"] and script.calls[0].schema is None
    decision = decision_of(out)
    assert decision.players == (3, 5) and decision.utterance == "Players 3 and 5 look solid."


def test_prose_endpoint_falls_back_to_the_extractor():
    state, requests = play_until(first("vote_team"))
    script = Script(replies={"act": "Honestly this team looks fine to me.", "extract": "false"})
    options = {"no_analysis": True, "no_plan": True, "vote_check": "off"}  # a rejection is not asked again
    _, out = run(script, lga_input(state, requests[0], options=options), json=False)
    assert script.modules() == ["act", "extract"]
    assert decision_of(out).choice is False and decision_of(out).fallback is None
    assert "looks fine" in decision_of(out).raw


def test_temperatures_agent_modules_and_extraction():
    state, requests = play_until(first("propose_team"))
    script = Script(replies={"respond": "Players 2 and 4.", "extract": "2, 4"})
    run(script, lga_input(state, requests[0], options={"no_action": True}))
    temps = {c.module: c.temperature for c in script.calls}
    assert temps == {"analyze": 0.3, "plan": 0.3, "respond": 0.3, "extract": 0.0}
    script = Script(replies={"respond": "Players 2 and 4.", "extract": "2, 4"})
    run(script, lga_input(state, requests[0], options={"no_action": True, "temperature": 0.7}),
        context=LgaContext(extraction_temperature=0.1))
    temps = {c.module: c.temperature for c in script.calls}
    assert temps == {"analyze": 0.7, "plan": 0.7, "respond": 0.7, "extract": 0.1}


def test_outputs_are_capped():
    state, requests = play_until(first("propose_team"))
    script = Script()
    run(script, lga_input(state, requests[0]))
    caps = {c.module: c.max_tokens for c in script.calls}
    assert caps["analyze"] <= 160 and caps["plan"] <= 160 and caps["act"] <= 160
    from roundtable.agents.lga.options import LgaOptions

    assert f"at most {LgaOptions().analysis_words} words" in script.calls[0].prompt  # analysis word limit


def test_usage_counts_calls_tokens_latency_and_fallbacks():
    state, requests = play_until(first("propose_team"))
    script = Script()
    _, out = run(script, lga_input(state, requests[0]))
    usage = decision_of(out).usage
    assert usage["calls"] == 3
    assert usage["prompt_tokens"] == 300 and usage["completion_tokens"] == 30 and usage["cached_tokens"] == 180
    assert usage["seconds"] >= 0 and usage["failures"] == 0 and usage["fallbacks"] == 0
    assert set(usage["modules"]) == {"analyze", "plan", "act"}  # one call each
    assert all(row["calls"] == 1 and row["prompt_tokens"] == 100 for row in usage["modules"].values())


def test_game_record_sums_usage_per_module():
    from roundtable.store.records import module_totals

    calls = {"calls": 1, "failures": 0, "prompt_tokens": 100, "completion_tokens": 10, "cached_tokens": 60,
             "seconds": 0.5}
    events = [
        {"type": "decision", "player": 1, "usage": {"modules": {"summarize": calls, "act": calls}}},
        {"type": "decision", "player": 2, "usage": {"modules": {"act": calls}}},
        {"type": "decision", "player": 3, "usage": {}},  # a rule-based seat
        {"type": "vote_team", "player": 1},
    ]
    totals = module_totals(events)
    assert totals["act"]["calls"] == 2 and totals["act"]["prompt_tokens"] == 200
    assert totals["summarize"]["completion_tokens"] == 10 and set(totals) == {"summarize", "act"}


def test_prompts_put_the_shared_part_first():
    state, requests = play_until(first("vote_team"))
    prompts = {}
    for request in requests[:3]:
        script = Script()
        run(script, lga_input(state, request, options={"no_analysis": True, "no_plan": True}))
        prompts[request.player] = script.calls[0].messages
    systems = {str(m[0].content) for m in prompts.values()}
    assert len(systems) == 1  # the rules: one system prompt for the whole table
    users = [str(m[1].content) for m in prompts.values()]
    shared = users[0].split("--- Private to you")[0]
    assert "Quest 1 so far:" in shared and "proposes" in shared
    assert all(u.startswith(shared) for u in users)
    for user in users:  # the private part and the task come last
        assert user.index("--- Private to you") < user.index("vote on Player")


def test_per_player_layout_pins_each_player_to_its_slot_and_puts_the_private_part_first():
    state, requests = play_until(first("vote_team"))
    for request in requests[:3]:
        script = Script()
        run(script, lga_input(state, request), slots=10)
        assert {c.slot for c in script.calls} == {request.player - 1}
        for call in script.calls:  # private part, then the notes, then the public record, then the task
            user = str(call.messages[1].content)
            assert user.startswith("--- Private to you, Player")
            if call.module == "act":
                assert user.index("Your analysis:") < user.index("Quest 1 so far:") < user.index("vote on Player")


@pytest.mark.parametrize("kind", ["speak", "vote_team"])
def test_how_the_player_answers_is_in_the_private_part_and_the_task_repeats_none_of_it(kind):
    """The standing lines (words' manner, what to keep secret, the vote rule) precede the public record, which
    the slot's cache serves; after the record comes only the request's own instruction."""
    state, requests = play_until(first(kind))
    request = requests[0]
    script = Script(replies={"respond": "I like this team."})
    run(script, lga_input(state, request, options={"no_analysis": True, "no_plan": True}), slots=10)
    user = str(script.calls[-1].messages[1].content)
    private, task = user.split("Quest 1 so far:")[0], user.split("\n\nHost: Player")[-1]
    for line in ("do not repeat what others said", "the Assassin too", "approve a team you expect to serve"):
        assert line in private and line not in task
    assert ("speak about Player" if kind == "speak" else "vote on Player") in task


def test_a_later_call_of_the_same_player_extends_its_previous_prompt():
    """What a player's slot caches: its previous act prompt up to the public record is the start of the next."""
    state, requests = play_until(first("vote_team"))
    request = requests[0]
    script = Script()
    _, out = run(script, lga_input(state, request), slots=10)
    first_prompt = str(script.calls[-1].messages[1].content)
    after, later = play_until(lambda s, rs: s.round == 1 and s.attempt == 2 and any(r.kind == "vote_team" for r in rs))
    vote = next(r for r in later if r.player == request.player)
    script = Script()
    run(script, lga_input(after, vote, memory=out["memory"]), slots=10)
    second_prompt = str(script.calls[-1].messages[1].content)
    stable = first_prompt.split("Quest 1 so far:")[0]
    assert len(stable) > 200 and second_prompt.startswith(stable)


@pytest.mark.parametrize("layout, slots, slot", [("shared", 10, None), ("per_player", 0, None), ("auto", 0, None),
                                                 ("auto", 4, "player modulo 4")])
def test_layout_option_and_endpoint_slots_choose_the_slot(layout, slots, slot):
    state, requests = play_until(first("vote_team"))
    request = next(r for r in requests if r.player > 4)
    script = Script()
    run(script, lga_input(state, request, options={"prompt_layout": layout}), slots=slots)
    expected = None if slot is None else (request.player - 1) % 4
    assert {c.slot for c in script.calls} == {expected}
    private_first = str(script.calls[-1].messages[1].content).startswith("--- Private")
    assert private_first == (layout == "per_player" or (layout == "auto" and slots > 0))


@pytest.mark.parametrize("model, option, dry", [("local", "auto", True), ("fake", "auto", False),
                                               ("fake", True, True), ("local", False, False)])
def test_words_said_at_the_table_are_sampled_with_dry_where_it_is_on(model, option, dry):
    script = first_proposal_on(model, {"dry": option, "aids": "auto" if option == "auto" else "on"})
    speaking = [c for c in script.calls if c.module == "act"]
    notes = [c for c in script.calls if c.module in ("analyze", "plan")]
    assert speaking and notes
    assert all(("dry_multiplier" in c.sampling) == dry for c in speaking)
    assert not any(c.sampling for c in notes)  # notes restate facts: no repetition penalty there
    vote_state, votes = play_until(first("vote_team"))
    script = Script()
    run(script, lga_input(vote_state, votes[0], options={"dry": option, "no_analysis": True, "no_plan": True}))
    assert not any(c.sampling for c in script.calls)  # a vote says nothing at the table


def test_a_merged_call_with_the_aids_off_is_refused_before_any_call():
    with pytest.raises(ConfigurationError, match="merge_summary are aids"):
        LgaOptions.parse({"merge_summary": True}, "gpt-4o")
    assert LgaOptions.parse({"merge_summary": True}, "local").merges_summary()


def test_context_overrides_prompts():
    state, requests = play_until(first("propose_team"))
    script = Script()
    # Avalon's wording of the aids' plan (aids/lga/avalon/plan) is the one an Avalon seat renders with the aids on
    context = LgaContext(aids_avalon_plan_prompt="CUSTOM PLAN PROMPT for Player {{ me }}. Task: Write your plan.",
                         plan_prompt="PAPER PLAN for Player {{ me }}.")
    run(script, lga_input(state, requests[0]), context=context)
    plan_call = next(c for c in script.calls if c.module == "plan")
    assert f"CUSTOM PLAN PROMPT for Player {requests[0].player}." in plan_call.prompt, "the aids' plan, aids on"
    script = Script()
    run(script, lga_input(state, requests[0], options={"aids": "off"}), context=context)
    plan_call = next(c for c in script.calls if c.module == "plan")
    assert plan_call.prompt.endswith(f"PAPER PLAN for Player {requests[0].player}."), "Lan et al.'s plan, aids off"


def test_graph_output_merges_into_the_game_decision_and_memory_keyed_by_request_and_player():
    state, requests = play_until(first("propose_team"))
    request = requests[0]
    out = build_lga_graph(ScriptedModels(Script())).compile().invoke(lga_input(state, request))
    assert set(out) == {"decisions", "memory"}
    assert list(out["decisions"]) == [request.id] and list(out["memory"]) == [str(request.player)]
    decision, pool = decide(build_lga_graph(ScriptedModels(Script())).compile(), state, request)
    check_decision(request, decision)
    assert pool["seen"] > 0


def test_module_level_graph_is_compiled_without_checkpointer():
    assert graph.checkpointer is None
    assert graph.name == "lga"
    nodes = set(graph.get_graph().nodes)
    assert {"observe", "summarize", "analyze", "plan", "act", "respond", "aids", "decide"} <= nodes


def test_per_player_layout_keeps_the_earlier_quests_before_the_notes_so_a_new_round_reads_only_what_is_new():
    """The board of earlier quests is only appended to between rounds and the notes are rewritten every round, so
    the board comes first: the first calls of round 3 start with round 2's prompt up to the end of its board."""
    state, requests = play_until(first("propose_team"))
    p = requests[0].player
    _, out = run(Script(), lga_input(state, requests[0]), slots=10)
    memory = out["memory"]
    prompts = {}
    for round_ in (2, 3):
        later, reqs = play_until(lambda s, rs, round_=round_: s.round == round_ and any(r.player == p for r in rs))
        script = Script()
        _, out = run(script, lga_input(later, next(r for r in reqs if r.player == p), memory=memory), slots=10)
        memory, prompts[round_] = out["memory"], [c.prompt for c in script.calls]
        assert script.modules()[0] == "summarize"
    last = prompts[2][-1]
    user = last[last.index("--- Private to you"):]
    order = ["--- Private to you", "Earlier quests (Host):", "Your summary of earlier quests:", "Your analysis:",
             "Quest 2 so far:", f"Host: Player {p},"]
    assert [user.index(mark) for mark in order] == sorted(user.index(mark) for mark in order)
    board = last[: last.index("Your summary of earlier quests:")].rstrip() + "\n"
    assert "Quest 1" in board[board.index("Earlier quests (Host):"):]
    assert all(prompt.startswith(board) for prompt in prompts[3])
    assert "Your summary of earlier quests:" not in prompts[3][1][: prompts[3][1].index("Quest 2")]


def test_with_the_aids_off_the_graph_goes_past_the_aids_step_and_no_aid_is_called(monkeypatch):
    import roundtable.aids.interface as interface

    calls = []
    monkeypatch.setattr(interface, "words_update", lambda *a, **k: calls.append("words") or {})
    monkeypatch.setattr(interface, "settled_update", lambda *a, **k: calls.append("settled") or {})
    def paper(inp):
        return inp | {"seat": {"kind": "lga", "model": "gpt-4o", "options": {"aids": "off"}}}

    state, requests = play_until(first("propose_team"), rules=("discussion=leader_first_and_last",))
    nodes, _ = run(Script(), paper(lga_input(state, requests[0])))
    assert "respond" in nodes and "aids" not in nodes and calls == []
    vote_state, votes = play_until(first("vote_team"))
    nodes, _ = run(Script(), paper(lga_input(vote_state, votes[0])))
    assert "aids" not in nodes and calls == []
    nodes, _ = run(Script(), lga_input(vote_state, votes[0]))
    assert "aids" in nodes and calls == ["settled"], "with the aids on, the vote goes through the one interface"


def test_the_aids_step_is_drawn_between_the_answering_steps_and_decide():
    drawn = graph.get_graph()
    edges = {(e.source, e.target) for e in drawn.edges}
    assert {("act", "aids"), ("respond", "aids"), ("aids", "act"), ("aids", "respond"), ("aids", "decide")} <= edges
