"""The team-vote prompt restates what the player's own reveal knowledge says about the team, and nothing more."""

from __future__ import annotations

import pytest
from lga_fakes import Script, ScriptedModels, first, lga_input, play_until

from roundtable.agents.lga.context import LgaContext
from roundtable.agents.lga.graph import build_lga_graph
from roundtable.games import avalon
from roundtable.games.avalon import Role


def _vote_prompts(seed: int) -> dict[int, tuple[avalon.AvalonState, avalon.Request, str]]:
    state, requests = play_until(first("vote_team"), seed=seed)
    prompts = {}
    for request in requests:
        script = Script()
        build_lga_graph(ScriptedModels(script)).compile().invoke(lga_input(state, request))
        prompts[request.player] = (state, request, [c for c in script.calls if c.module == "act"][0].prompt)
    return prompts


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_vote_prompts_state_the_evil_players_each_player_knows_on_the_team(seed):
    for player, (state, request, prompt) in _vote_prompts(seed).items():
        role = state.role_of(player)
        evil_on = [p for p in request.subject if state.side_of(p).value == "evil"]
        if role == Role.MERLIN:
            expected = ("No evil player you know is on this team, so your side wants it approved." if not evil_on
                        else f"evil: {', '.join(map(str, evil_on))}, so your side wants it rejected.")
            assert expected in prompt
        elif state.side_of(player).value == "evil":
            if evil_on:
                assert "Your side on this team: " + ", ".join(
                    f"Player {p}" + (" (you)" if p == player else "") for p in evil_on) + (
                    "; one fail card fails the quest, so your side wants it approved.") in prompt
            else:
                assert "No player of your side you know of is on this team, so your side wants it rejected." in prompt
        else:  # Percival and the Servants learn no one's side: only the public record's line (no quest played yet)
            task = prompt.split("--- Private to you")[1]
            assert "evil:" not in task and "Your side on this team" not in task
            assert "No one else on this team has been on a failed quest, so without other evidence your side wants it" \
                " approved." in task
        assert ("You proposed this team." in prompt) == (player == request.details.get("leader", state.leader))


def test_vote_prompts_name_the_team_members_who_were_on_failed_quests():
    state, requests = play_until(lambda s, rs: any(r.kind == "vote_team" for r in rs)
                                 and any(not q for q in s.quest_results), seed=1)
    failed = [e for e in state.events if e["type"] == "quest_result" and not e["success"]]
    named = 0
    for request in requests:
        script = Script()
        build_lga_graph(ScriptedModels(script)).compile().invoke(lga_input(state, request))
        task = [c for c in script.calls if c.module == "act"][-1].prompt.split("--- Private to you")[1]
        for quest in failed:
            members = [p for p in quest["team"] if p in request.subject and p != request.player]
            if len(members) == 1:
                assert f"Player {members[0]} was on quest {quest['round']}, which failed" in task
            elif members:
                assert f"players {' and '.join(map(str, members))} were on quest {quest['round']}, which failed" in task
            named += bool(members)
    assert named  # the seed's team has a member of a failed quest


def test_the_fifth_team_says_what_a_rejection_does_where_it_ends_the_game():
    for rules, said in (((), True), (("fifth_rejection=auto_approve",), False)):
        state, requests = play_until(lambda s, rs: any(r.kind == "vote_team" for r in rs), seed=1, rules=rules)
        request = next(r for r in requests if r.kind == "vote_team")
        for attempt in (4, 5):
            script = Script()
            inp = lga_input(state, request)
            inp["request"]["attempt"] = attempt
            build_lga_graph(ScriptedModels(script)).compile().invoke(inp)
            prompt = [c for c in script.calls if c.module == "act"][-1].prompt
            assert ("a rejection wins the game for evil" in prompt) == (said and attempt == 5)


def team_knowledge(view, team) -> str:
    known = [k["player"] for k in view.knowledge if k["is"] == "evil"]
    return LgaContext().render("avalon/team_knowledge", me=view.player, side=view.side, role=view.role,
                               team=list(team), known_evil=known)


def test_team_knowledge_follows_the_view_not_the_truth():
    # Mordred is hidden from Merlin, so Merlin's line leaves him out; Oberon sees no teammate
    config = avalon.AvalonConfig.build(roles=["merlin", "percival", "servant", "servant", "mordred", "oberon",
                                              "assassin"])
    state = avalon.new_game(config, seed=3)
    mordred = next(p for p in state.players if state.role_of(p) == Role.MORDRED)
    merlin = next(p for p in state.players if state.role_of(p) == Role.MERLIN)
    oberon = next(p for p in state.players if state.role_of(p) == Role.OBERON)
    assert team_knowledge(avalon.view(state, merlin), (mordred, merlin)) == (
        "No evil player you know is on this team, so your side wants it approved.")
    assert team_knowledge(avalon.view(state, oberon), (mordred, oberon)) == (
        f"Your side on this team: Player {oberon} (you); one fail card fails the quest, so your side wants it "
        "approved.")
    # Oberon knows no teammate: a team without him may still carry one, so his knowledge settles nothing
    assert team_knowledge(avalon.view(state, oberon), (mordred, merlin)) == (
        "No player of your side you know of is on this team.")
    assert team_knowledge(avalon.view(state, merlin), ()) == ""


def test_the_team_record_puts_each_fact_on_a_line_of_its_own():
    # a team with a member of a failed quest once read "which failed.This is the fifth team" (no line break)
    def record(last_chance: bool, side: str = "good") -> list[str]:
        return LgaContext().render("avalon/team_record", me=1, side=side, leader=1, team=[1, 2, 4],
                                   failed=[{"quest": 2, "players": [2]}, {"quest": 3, "players": [2, 4]}],
                                   last_chance=last_chance, settled=False).strip().splitlines()

    assert record(False) == [
        "You proposed this team.",
        "On this team, Player 2 was on quest 2, which failed; players 2 and 4 were on quest 3, which failed.",
    ]
    # a fifth team whose rejection wins for evil settles the vote: its line stands alone, ending on the side's wish
    assert record(True) == [
        "You proposed this team.",
        "Fifth team of this quest: a rejection wins the game for evil, so your side wants it approved.",
    ]
    assert record(True, side="evil")[-1] == (
        "Fifth team of this quest: a rejection wins the game for your side, so your side wants it rejected.")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_line_that_settles_a_vote_comes_last_before_the_answer_format(seed):
    # the embedded model's reason copies the team lines in order and its answer follows the words it ends on
    for player, (state, _request, prompt) in _vote_prompts(seed).items():
        task = prompt.split(f"Host: Player {player}, vote on")[1].split("Answer in JSON")[0].strip()
        last = task.splitlines()[-1]
        if state.role_of(player) == Role.MERLIN or state.side_of(player).value == "evil":
            assert last.endswith(("so your side wants it approved.", "so your side wants it rejected.")), last
        else:
            assert last.endswith("without other evidence your side wants it approved."), last


def test_a_good_leaders_first_proposal_names_the_players_its_side_may_choose_from():
    # the embedded model's team copies the numbers of the line it ends on (docs/measurements.md#leaders-proposals)
    from roundtable.agents.lga.turn import Turn

    state, requests = play_until(lambda s, rs: any(r.kind == "propose_team" for r in rs)
                                 and any(not q for q in s.quest_results), seed=1)
    request = next(r for r in requests if r.kind == "propose_team")
    failed = {p for e in state.events if e["type"] == "quest_result" and not e["success"] for p in e["team"]}
    evil = {p for p in state.players if state.side_of(p).value == "evil"}
    for player in state.players:
        turn = Turn.of(lga_input(state, request.model_copy(update={"player": player})), None)
        line = turn.table.team_knowledge()  # Avalon's table (tables.avalon.AvalonTable)
        role = state.role_of(player)
        if role == Role.MERLIN:
            free = [p for p in state.players if p not in evil]
            assert line.endswith(f"left out of the team: choose from players {', '.join(map(str, free))}."), line
        elif state.side_of(player).value == "good":
            free = [p for p in state.players if p == player or p not in failed]
            assert line.endswith(f"players {', '.join(map(str, free))} were on no failed quest."), line
        else:
            assert "choose from" not in line and "no failed quest" not in line
    one = LgaContext().render("avalon/leader_lines", me=5, side="good", role="servant", known_evil=[],
                              failed=[{"player": 1, "quests": [2]}], free=[5]).strip()
    assert one.endswith("left out where the team can do without: Player 5 was on no failed quest."), one


def test_an_assassin_exposed_by_a_missed_mid_game_shot_is_known_evil_to_every_player():
    # lan6 under assassination=after_each_quest, seed 1: quest 1 (players 3 and 4) failed, the Assassin (Player 2)
    # then named a good player who was not Merlin; a Servant's reveal tells it nothing, the exposure tells it him
    from avalon_exposed import assassin, position

    from roundtable.tables.avalon import AvalonTable

    def lines(state, request, player, team=None):
        subject = request.subject if team is None else team
        asked = request.model_copy(update={"player": player, "subject": subject})
        return AvalonTable(view=avalon.view(state, player), request=asked, context=LgaContext()).team_knowledge()

    state, requests = position("vote_team")
    shot = assassin(state)
    servant = next(p for p in state.players if state.role_of(p) == Role.SERVANT and p != state.leader)
    merlin = state.players_with(Role.MERLIN)[0]
    vote = requests[0]
    with_him = (servant, shot, next(p for p in state.players if p not in (servant, shot, 3, 4)))
    assert lines(state, vote, servant, with_him).splitlines()[-1] == (
        f"On this team you know this player is evil: {shot}, so your side wants it rejected.")
    # a team without him: the exposure settles nothing, the record's line stands (Merlin's sight still settles it)
    without = tuple(p for p in state.players if p not in (shot, 3, 4))[:3]
    assert lines(state, vote, servant, without) == (
        "No one else on this team has been on a failed quest, so without other evidence your side wants it approved.")
    assert lines(state, vote, merlin, without) == (
        "No evil player you know is on this team, so your side wants it approved.")
    # the same game with no shot taken: the Servant knows nothing of him
    unexposed, unexposed_requests = position("vote_team", miss=False)
    assert "evil" not in lines(unexposed, unexposed_requests[0], servant, with_him)

    # a good leader leaves him out as well as the players of failed quests; Merlin's line is as before
    state, (propose,) = position("propose_team")
    failed = sorted({3, 4} - {servant})
    free = [p for p in state.players if p != shot and p not in failed]
    assert lines(state, propose, servant) == (
        f"You know Player {shot} is evil, so your side wants that player left out of the team. "
        + "; ".join(f"Player {p} was on failed quest 1" for p in failed)
        + f", so without other evidence your side wants {'them' if len(failed) > 1 else 'that player'} left out where"
        f" the team can do without: choose from players {', '.join(map(str, free))}.")
    evil = sorted(p for p in state.players if state.side_of(p).value == "evil")
    assert lines(state, propose, merlin) == (
        f"You know players {' and '.join(map(str, evil))} are evil, so your side wants them left out of the team: "
        f"choose from players {', '.join(str(p) for p in state.players if p not in evil)}.")
    # with no failed quest to leave out, the known evil player's line alone names whom to choose from
    assert LgaContext().render("avalon/leader_lines", me=1, side="good", role="servant", known_evil=[2], failed=[],
                               free=[1, 3, 4, 5, 6]).strip() == (
        "You know Player 2 is evil, so your side wants that player left out of the team: choose from players 1, 3, 4,"
        " 5, 6.")
