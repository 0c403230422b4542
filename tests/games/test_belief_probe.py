"""The belief probe at the end of an Avalon game: who is asked, on which view, and what the record carries."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest

from roundtable.games import avalon
from roundtable.games.avalon.bots.belief import consistent_assignments, good_probability
from roundtable.games.avalon.bots.naive import beliefs, decide
from roundtable.games.avalon.view import belief_probe
from roundtable.graphs.avalon import graph
from roundtable.store.records import read_record

BENCH5 = {"preset": "bench5"}


def play(seed: int, seats: list[dict]) -> dict:
    return graph.invoke({"config": BENCH5, "seed": seed, "seats": seats}, {"recursion_limit": 10_000})


def final_state(out: dict) -> avalon.AvalonState:
    return avalon.RULES.restore(out["game"], out["events"])


def servant_marginals(player: int, quests: list[dict]) -> dict[int, float]:
    """A Servant's belief worked out by hand: every pair of evil players among the others that puts at
    least as many evil players on each quest team as it had fails, all equally likely."""
    others = [p for p in range(1, 6) if p != player]
    pairs = [set(pair) for pair in combinations(others, 2)
             if all(len(set(q["team"]) & set(pair)) >= q["fails"] for q in quests)]
    return {p: sum(1 for pair in pairs if p not in pair) / len(pairs) for p in others}


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ROUNDTABLE_HOME", str(tmp_path))
    return tmp_path


def test_a_bot_games_record_carries_the_naive_good_players_beliefs(home: Path):
    from roundtable.play.runner import open_runner

    # seed 0 deals minion, assassin, merlin, servant, servant; player 4 plays random, which states no belief
    seats = [{"kind": "naive"}] * 3 + [{"kind": "random"}, {"kind": "naive"}]
    with open_runner() as runner:
        values = runner.start("probe", {"config": BENCH5, "seed": 0, "seats": seats})
    record = read_record("probe")
    assert record["status"] == "finished" and record["roles"]["4"] == "servant"
    good = [int(p) for p, role in record["roles"].items() if avalon.Role(role).side.value == "good"]
    assert sorted(map(int, record["beliefs"])) == [p for p in good if p != 4]  # random's seat is absent
    state = final_state(values)
    views = belief_probe(state)
    for player, stated in record["beliefs"].items():
        view = views[int(player)]
        own = good_probability(consistent_assignments(view), 5)  # the bot's own bookkeeping
        assert stated == {str(p): own[p] for p in range(1, 6) if p != int(player)}
    servant = next(p for p in good if avalon.Role(record["roles"][str(p)]) is avalon.Role.SERVANT and p != 4)
    by_hand = servant_marginals(servant, record["quests"])
    assert record["beliefs"][str(servant)] == {str(p): v for p, v in by_hand.items()}
    assert any(0 < v < 1 for v in by_hand.values()), "the quests left the Servant in doubt"


def test_merlin_states_what_he_sees_and_evil_players_are_not_asked():
    out = play(0, [{"kind": "naive"}] * 5)
    roles = out["game"]["roles"]
    merlin = roles.index("merlin") + 1
    evil = [p for p, r in enumerate(roles, start=1) if avalon.Role(r).side.value == "evil"]
    assert all(str(p) not in out["beliefs"] for p in evil)
    assert {int(q): v for q, v in out["beliefs"][str(merlin)].items()} == {
        p: 0.0 if p in evil else 1.0 for p in range(1, 6) if p != merlin}


def test_the_probe_view_ends_before_the_assassination_and_the_roles_revealed():
    out = play(3, [{"kind": "naive"}] * 5)
    assert out["result"]["reason"] == "merlin_assassinated"
    state = final_state(out)
    views = belief_probe(state)
    assert set(views) == {p for p in state.players if state.side_of(p).value == "good"}
    for view in views.values():
        types = [e["type"] for e in view.events]
        assert "game_over" not in types and "assassination" not in types
        assert len(view.quests) == sum(1 for e in state.events if e["type"] == "quest_result")
    assert belief_probe(avalon.new_game(avalon.AvalonConfig.build("bench5"), 3)) == {}  # not over: nobody


def test_the_naive_belief_leaves_out_the_player_itself():
    state = avalon.new_game(avalon.AvalonConfig.build("bench5"), 1)
    for player in state.players:
        stated = beliefs(avalon.view(state, player))
        assert set(stated) == set(state.players) - {player} and all(0 <= v <= 1 for v in stated.values())


def test_a_kind_stating_a_bad_belief_is_refused_by_name():
    from roundtable.agents.protocol import bot_kind
    from roundtable.games.errors import IllegalActionError
    from roundtable.graphs.game import build_game_graph

    liar = bot_kind("liar", "states itself good", {"avalon": decide},
                    beliefs={"avalon": lambda view: {view.player: 1.0}})
    game = build_game_graph(avalon.RULES, {"liar": liar}).compile()
    with pytest.raises(IllegalActionError, match="liar belief of player"):
        game.invoke({"config": BENCH5, "seed": 0, "seats": [{"kind": "liar"}] * 5}, {"recursion_limit": 10_000})
