"""Secret Hitler's board (`roundtable_secret_hitler.board`): the government, the last election's votes, the
executed, the two tracks with the powers of the player count's board and the tracker, at chosen points; and that
the board of a seat's visible log, of the public record and of the whole log are one board, with no role on a seat
before the game ends."""

from __future__ import annotations

import re

import pytest
from helpers import F, answer, game, govern, votes

from roundtable.games.protocol import can_see
from roundtable.graphs.phases import agent_seed
from roundtable.testing.policies import rule_policies
from roundtable_secret_hitler import RULES


def board(state):
    return RULES.board(list(state.events), len(state.roles))


def marks(board, kind):
    return {p: m.label for p, ms in board.seats.items() for m in ms if m.kind == kind}


def cells(board, track):
    return [(c.label, c.state, c.note) for c in board.tracks[track]]


def logs(players, seed, kind="naive"):
    """``log`` after every step of a seeded game of ``kind`` bots, from the deal to the end."""
    policy = rule_policies("secret_hitler")[kind]
    state = RULES.new_game(RULES.config({"players": players}), seed)
    while True:
        yield list(state.events)
        if RULES.result(state) is not None:
            return
        requests = RULES.pending(state)
        state = RULES.apply(state, {r.player: policy(RULES.view(state, r.player), r, agent_seed(seed, r.player))
                                    for r in requests})


def test_the_president_the_nominee_and_after_the_vote_the_chancellor_and_each_vote():
    state = game(5, president=2)
    assert marks(board(state), "office") == {2: "President"}
    state = answer(state, p2=4)
    assert marks(board(state), "office") == {2: "President", 4: "Nominee"}
    assert not marks(board(state), "vote")
    state = votes(state, {1, 2, 4})
    shown = board(state)
    assert marks(shown, "office") == {2: "President", 4: "Chancellor"}
    assert marks(shown, "vote") == {1: "ja", 2: "ja", 3: "nein", 4: "ja", 5: "nein"}
    assert shown.counters == (("Election tracker", "0 of 3"),)


def test_a_failed_election_advances_the_tracker_and_passes_the_presidency():
    state = votes(answer(game(5, president=1), p1=3), {1})
    shown = board(state)
    assert marks(shown, "office") == {2: "President"}
    assert marks(shown, "vote") == {1: "ja", 2: "nein", 3: "nein", 4: "nein", 5: "nein"}
    assert shown.counters == (("Election tracker", "1 of 3"),)
    state = votes(answer(state, p2=4), set())
    assert board(state).counters == (("Election tracker", "2 of 3"),)
    state = votes(answer(state, p3=5), set())  # the third failure: chaos enacts the top policy, the tracker resets
    shown = board(state)
    assert shown.counters == (("Election tracker", "0 of 3"),)
    chaos = [e for e in state.events if e["type"] == "chaos"][0]
    track = "Liberal policies" if chaos["policy"] == "liberal" else "Fascist policies"
    assert cells(shown, track)[0][1:] == ("good" if chaos["policy"] == "liberal" else "bad",
                                          f"chaos, round {chaos['round']}")


@pytest.mark.parametrize(("players", "notes"), [
    (5, ["", "", "policy peek", "execution", "execution, veto", "Fascists win"]),
    (7, ["", "investigate", "special election", "execution", "execution, veto", "Fascists win"]),
    (10, ["investigate", "investigate", "special election", "execution", "execution, veto", "Fascists win"]),
])
def test_the_fascist_squares_note_the_powers_of_the_player_counts_board(players, notes):
    shown = board(game(players))
    assert [note for _, _, note in cells(shown, "Fascist policies")] == notes
    assert cells(shown, "Liberal policies") == [(str(i), "pending", "") for i in range(1, 5)] + [
        ("5", "pending", "Liberals win")]


def test_an_enacted_policy_fills_its_track_and_an_execution_marks_the_dead():
    state = game(5, president=1, hitler=2, fascists=(4,), fascist=3, deck=(F,) * 17)
    state = govern(state, 3, discard=False, enact=False)  # the fourth Fascist policy: execution
    shown = board(state)
    assert cells(shown, "Fascist policies")[3] == ("4", "bad", "execution; round 1")
    assert [state for _, state, _ in cells(shown, "Fascist policies")] == ["bad"] * 4 + ["pending"] * 2
    state = answer(state, p1=5)
    shown = board(state)
    assert marks(shown, "dead") == {5: "executed round 1"}
    assert not marks(shown, "revealed"), "an execution reveals no role"


def test_after_the_game_every_role_is_revealed_with_the_winner():
    *_, log = logs(5, 1)
    over = log[-1]
    shown = RULES.board([e for e in log if e.get("to") is None], 5)
    assert marks(shown, "revealed") == {int(p): r.title() for p, r in over["roles"].items()}
    assert shown.counters == (("Winner", over["winner"].title()), ("Reason", over["reason"].replace("_", " ")))
    enacted = {policy: sum(1 for e in log if e["type"] in ("enact", "chaos") and e["policy"] == policy)
               for policy in ("liberal", "fascist")}
    assert [s for _, s, _ in cells(shown, "Liberal policies")].count("good") == enacted["liberal"]
    assert [s for _, s, _ in cells(shown, "Fascist policies")].count("bad") == enacted["fascist"]


@pytest.mark.parametrize("players", [5, 7, 9])
@pytest.mark.parametrize("kind", ["naive", "random"])
def test_a_board_is_the_public_records_and_shows_no_role_on_a_seat_before_the_game_ends(players, kind):
    identity = set(RULES.identity_words)
    for seed in (0, 2):
        for log in logs(players, seed, kind):
            spectator = RULES.board([e for e in log if e.get("to") is None], players)
            assert RULES.board(log, players) == spectator, "the whole log draws more than the public record"
            for p in range(1, players + 1):
                assert RULES.board([e for e in log if can_see(e, p)], players) == spectator, (
                    f"player {p}'s board is not the spectator's")
            if not any(e["type"] == "game_over" for e in log):
                assert not marks(spectator, "revealed"), "a role revealed before the game ends"
                said = set(re.findall(r"[a-z]+", " ".join(m.label for ms in spectator.seats.values()
                                                          for m in ms).lower()))
                assert not said & identity, f"a role word on a seat: {said & identity}"
    assert marks(spectator, "revealed"), "the game's end reveals the roles"
