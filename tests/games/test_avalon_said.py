"""`AvalonView.said`: a player's own public words on the team on the table, which its team vote should agree with."""

from __future__ import annotations

from avalon_helpers import decide_all

from roundtable.games import avalon as A


def talk(state: A.AvalonState, words: dict[int, str], final_team: list[int] | None = None) -> A.AvalonState:
    """Play the proposal's talk of ``state`` (``leader_first_and_last``): the leader proposes its first team, each
    player says ``words[player]``, and the leader names ``final_team`` (its first team when None)."""
    first: list[int] = []

    def answer(request: A.Request) -> dict:
        if request.kind == "propose_team":
            team = first or list(range(1, (request.count or 2) + 1))
            if request.details.get("final") and final_team is not None:
                team = final_team
            first[:] = team
            return {"team": team, "utterance": words.get(request.player, "")}
        return {"utterance": words.get(request.player, "")}

    while A.pending(state)[0].kind in ("propose_team", "speak"):
        state = A.apply(state, decide_all(state, answer))
    return state


def test_each_voter_has_its_own_last_words_on_the_team_under_vote() -> None:
    state = A.new_game(A.AvalonConfig.build("lan6"), seed=1)
    leader = state.leader
    state = talk(state, {p: f"I support it, says {p}." for p in state.players} | {leader: "I propose it."})
    assert A.pending(state)[0].kind == "vote_team"
    for p in state.players:
        assert A.view(state, p).said == ("I propose it." if p == leader else f"I support it, says {p}.")


def test_words_on_a_team_the_leader_then_changed_are_not_said_on_the_team_voted_on() -> None:
    state = A.new_game(A.AvalonConfig.build("lan6"), seed=1)
    leader = state.leader
    others = [p for p in state.players if p != leader]
    state = talk(state, {p: "I support it." for p in others}, final_team=[others[-1], others[-2]])
    assert A.pending(state)[0].kind == "vote_team"
    assert all(A.view(state, p).said == "" for p in others)
