"""The lga agent's check of its own team vote against what it knows (`roundtable.agents.lga.vote_check`),
with scripted models."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from lga_fakes import Script, ScriptedModels, decide, play_until

from roundtable.agents.lga.graph import build_lga_graph
from roundtable.agents.lga.options import LgaOptions
from roundtable.games import avalon

# lan6, seed 1: 1 Servant, 2 Assassin, 3 Morgana, 4 Servant, 5 Percival, 6 Merlin. Player 5 leads quest 1;
# the naive bots' team is players 1 and 5: no evil player on it.
APPROVE = json.dumps({"reason": "It looks fine.", "answer": "approve"})
REJECT = json.dumps({"reason": "I do not trust it.", "answer": "reject"})


def first_vote(player: int, silent: bool = True) -> tuple[avalon.AvalonState, avalon.Request]:
    """The first team vote of ``player``; ``silent``: as if it had said nothing in the talk (the naive bots'
    words state a stance, which settles the vote by itself: `test_a_vote_against_the_voters_own_stance_...`)."""
    state, requests = play_until(lambda s, rs: any(r.kind == "vote_team" for r in rs))
    request = next(r for r in requests if r.player == player)
    assert sorted(request.subject) == [1, 5]
    if silent:
        state = replace(state, events=tuple(e for e in state.events
                                            if not (e["type"] == "utterance" and e.get("speaker") == player)))
    return state, request


def vote(player: int, replies: list[str], attempt: int | None = None, silent: bool = True,
         **options) -> tuple[avalon.Decision, Script]:
    state, request = first_vote(player, silent)
    if attempt is not None:
        request = request.model_copy(update={"attempt": attempt})
    script = Script(replies={"act": replies})
    graph = build_lga_graph(ScriptedModels(script)).compile()
    options = {"no_analysis": True, "no_plan": True, "vote_check": "record"} | options
    decision, _ = decide(graph, state, request, options=options)
    return decision, script


def test_merlin_rejecting_a_team_with_no_evil_player_he_sees_is_asked_again_and_the_second_vote_kept() -> None:
    decision, script = vote(6, [REJECT, APPROVE])
    assert script.modules() == ["act", "act"]
    assert "Host: you chose to reject, but no evil player you know is on this team." in script.calls[1].prompt
    assert "Your side wants it approved. Vote again." in script.calls[1].prompt
    assert "you chose to" not in script.calls[0].prompt
    assert "reason" in script.calls[0].schema["properties"] and "reason" not in script.calls[1].schema["properties"]
    assert decision.choice is True
    assert decision.checks == ("vote reject against knowledge (no_evil_seen): asked again",)
    assert decision.usage["calls"] == 2


def test_an_evil_player_approving_a_team_without_its_side_is_asked_again_and_a_second_approval_is_kept() -> None:
    decision, script = vote(2, [APPROVE])
    assert script.modules() == ["act", "act"]
    assert "no player of your side is on this team" in script.calls[1].prompt
    assert "Your side wants it rejected." in script.calls[1].prompt
    assert decision.choice is True  # the second answer is kept whatever it says
    assert decision.checks == ("vote approve against knowledge (side_off_team): asked again",
                               "vote approve against knowledge (side_off_team): kept after asking again")


@pytest.mark.parametrize(("player", "reply"), [(6, APPROVE), (2, REJECT), (1, APPROVE), (5, APPROVE)])
def test_a_vote_that_follows_what_the_player_knows_is_cast_at_once(player: int, reply: str) -> None:
    decision, script = vote(player, [reply])
    assert script.modules() == ["act"]
    assert decision.checks == ()


@pytest.mark.parametrize(("mode", "asked"), [("record", True), ("knowledge", False), ("off", False)])
def test_a_servants_rejection_without_evidence_is_checked_only_under_the_record_mode(mode: str, asked: bool) -> None:
    decision, script = vote(1, [REJECT, APPROVE], vote_check=mode)
    assert len(script.calls) == (2 if asked else 1)
    assert decision.choice is asked
    if asked:
        assert "no one else on this team has been on a failed quest" in script.calls[1].prompt
        assert decision.checks == ("vote reject against record (no_evidence): asked again",)


@pytest.mark.parametrize(("mode", "asked"), [("record", True), ("knowledge", True), ("off", False)])
def test_a_vote_against_the_voters_own_stance_on_the_team_is_checked_unless_the_option_is_off(
        mode: str, asked: bool) -> None:
    """Player 1 (a Servant, whose knowledge settles nothing) said "I support players 1 and 5." of this team."""
    decision, script = vote(1, [REJECT, APPROVE], vote_check=mode, silent=False)
    assert len(script.calls) == (2 if asked else 1)
    assert decision.choice is asked
    if asked:
        assert "you told everyone that you support this team. Vote as you said" in script.calls[1].prompt
        assert decision.checks == ("vote reject against words (own_stance): asked again",)


def test_merlin_is_not_checked_when_the_option_is_off() -> None:
    decision, script = vote(6, [REJECT], vote_check="off")
    assert script.modules() == ["act"] and decision.choice is False and decision.checks == ()
    assert LgaOptions().vote_check == "knowledge", "the default checks knowledge and the rules"


def test_a_good_player_rejecting_the_fifth_team_is_told_that_evil_would_win() -> None:
    decision, script = vote(5, [REJECT, APPROVE], attempt=5)
    assert "this is the fifth team of this quest: if it is rejected, evil wins the game" in script.calls[1].prompt
    assert decision.checks == ("vote reject against rules (fifth_team): asked again",)
    assert decision.choice is True


def test_an_evil_player_on_the_team_is_told_it_is_on_it() -> None:
    state, request = first_vote(2)
    on_team = request.model_copy(update={"subject": (2, 5)})
    script = Script(replies={"act": [REJECT, APPROVE]})
    graph = build_lga_graph(ScriptedModels(script)).compile()
    decision, _ = decide(graph, state, on_team,
                         options={"no_analysis": True, "no_plan": True, "vote_check": "knowledge"})
    assert "but you of your side are on this team, and one fail card fails the quest" in script.calls[1].prompt
    assert decision.checks == ("vote reject against knowledge (side_on_team): asked again",)


@pytest.mark.parametrize(("attempt", "passes_on"), [(2, True), (5, False)])
def test_the_vote_instruction_says_what_a_rejection_does_and_never_contradicts_the_fifth_team_line(
        attempt: int, passes_on: bool) -> None:
    _, script = vote(1, [APPROVE], attempt=attempt, vote_check="off")
    prompt = script.calls[0].prompt
    assert ("a rejected team passes the lead on" in prompt) is passes_on
    assert ("Fifth team of this quest: a rejection wins the game for evil, so your side wants it approved."
            in prompt) is not passes_on


def test_an_evil_player_approving_a_fifth_team_with_its_side_on_it_is_asked_again_since_a_rejection_wins() -> None:
    state, request = first_vote(2)
    fifth = request.model_copy(update={"subject": (2, 5), "attempt": 5})
    script = Script(replies={"act": [APPROVE, REJECT]})
    graph = build_lga_graph(ScriptedModels(script)).compile()
    decision, _ = decide(graph, state, fifth, options={"no_analysis": True, "no_plan": True, "vote_check": "record"})
    task = script.calls[0].prompt.split("Host: Player 2, vote on")[1]
    assert "a rejection wins the game for your side, so your side wants it rejected." in task
    assert "Your side on this team" not in task  # the fifth team settles the vote; the knowledge line is left out
    assert "Your side wants it rejected. Vote again." in script.calls[1].prompt
    assert decision.checks == ("vote approve against rules (fifth_team): asked again",)
    assert decision.choice is False


def test_the_team_lines_leave_the_prompt_when_the_knowledge_note_is_off() -> None:
    _, script = vote(6, [APPROVE], knowledge_note=False)
    _, with_lines = vote(6, [APPROVE])
    line = "No evil player you know is on this team, so your side wants it approved."
    assert line in with_lines.calls[0].prompt and line not in script.calls[0].prompt


@pytest.mark.parametrize("mode", ["knowledge", "record"])
def test_the_fifth_team_is_checked_under_the_knowledge_mode_too_since_the_rules_settle_it(mode: str) -> None:
    decision, script = vote(5, [REJECT, APPROVE], attempt=5, vote_check=mode)
    assert len(script.calls) == 2 and decision.choice is True


def test_with_overrule_a_vote_against_what_is_settled_is_replaced_at_once_with_no_second_call() -> None:
    decision, script = vote(5, [REJECT], attempt=5, vote_check="knowledge", overrule=True)
    assert script.modules() == ["act"], "no re-ask"
    assert decision.choice is True and decision.fallback is None
    assert decision.checks == ("vote reject against rules (fifth_team): overruled",)
    merlin, _ = vote(6, [REJECT], overrule=True)
    assert merlin.choice is True and merlin.checks == ("vote reject against knowledge (no_evil_seen): overruled",)


def test_overrule_leaves_a_vote_that_follows_what_is_settled_and_an_unsettled_one_alone() -> None:
    decision, script = vote(6, [APPROVE], overrule=True)
    assert decision.choice is True and decision.checks == ()
    servant, _ = vote(1, [REJECT], vote_check="knowledge", overrule=True)  # only the record settles it
    assert servant.choice is False and servant.checks == ()


def test_overrule_follows_the_aids_which_are_on_for_a_small_model_by_default() -> None:
    assert LgaOptions.parse({}, "local").overrules() and LgaOptions.parse({}, None).overrules()
    assert LgaOptions.parse({}, "http://127.0.0.1:8080/v1#Qwen2.5-Coder-1.5B-Instruct").overrules()
    assert not LgaOptions.parse({}, "gpt-4o").overrules() and not LgaOptions.parse({}, "fake").overrules()
    assert LgaOptions.parse({}, "http://h:1/v1#big?small=true").overrules()
    assert not LgaOptions.parse({"aids": "off"}, "local").overrules()
    assert LgaOptions.parse({"aids": "on"}, "gpt-4o").overrules()
    assert not LgaOptions.parse({"aids": "on", "overrule": False}, "local").overrules()
