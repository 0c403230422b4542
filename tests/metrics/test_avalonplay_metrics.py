"""AvalonPlay's Game Win, Quest Win and Team Acc from game records (Shi et al.; docs/measures.md#avalonplay)."""

from __future__ import annotations

from roundtable.games import avalon as A
from roundtable.metrics import avalonplay_metrics, game_metrics

ROLES = {"1": "merlin", "2": "percival", "3": "servant", "4": "servant", "5": "morgana", "6": "assassin",
         "7": "minion"}


def _quest(round_, leader, attempt=1, success=True, auto=False):
    events = [{"type": "proposal", "round": round_, "attempt": attempt, "leader": leader, "team": [1, 2]}]
    if auto:
        events.append({"type": "team_approved", "round": round_, "attempt": attempt, "team": [1, 2]})
    else:
        events.append({"type": "vote_result", "round": round_, "attempt": attempt, "approved": True})
    events.append({"type": "quest_result", "round": round_, "team": [1, 2], "success": success})
    return events


def _record(*quests, winner=None):
    events = [e for q in quests for e in q]
    if winner:
        events.append({"type": "game_over", "winner": winner, "roles": ROLES})
    return {"roles": ROLES, "events": events}


def test_a_game_good_wins_by_three_quests_then_loses_to_the_assassin():
    record = _record(_quest(1, 1), _quest(2, 5, success=False), _quest(3, 3, attempt=5, auto=True),
                     _quest(4, 6), winner="evil")
    m = game_metrics(record)
    assert (m.game_win.hits, m.game_win.cases) == (1, 1)
    assert (m.good_wins.hits, m.good_wins.cases) == (0, 1)
    assert (m.quest_win.hits, m.quest_win.cases) == (3, 4)
    # Good leaders 1 and 3 (auto-approved fifth team) led two successful quests; evil leaders' teams do not count.
    assert (m.team_acc.hits, m.team_acc.cases) == (2, 2)


def test_rejected_proposals_do_not_count_and_the_leader_is_the_approved_ones():
    rejected = [{"type": "proposal", "round": 1, "attempt": 1, "leader": 5, "team": [5, 6]},
                {"type": "vote_result", "round": 1, "attempt": 1, "approved": False}]
    record = _record(rejected + _quest(1, 2, attempt=2, success=False), winner=None)
    m = game_metrics(record)
    assert (m.team_acc.hits, m.team_acc.cases) == (0, 1)
    assert m.game_win.cases == 0, "an unfinished game does not count for Game Win"


def test_several_games_sum_counts():
    lost = _record(_quest(1, 5, success=False), _quest(2, 6, success=False), _quest(3, 7, success=False),
                   winner="evil")
    won = _record(_quest(1, 1), _quest(2, 2), _quest(3, 3), winner="good")
    m = avalonplay_metrics([lost, won])
    assert (m.game_win.rate, m.quest_win.rate, m.team_acc.rate) == (0.5, 0.5, 1.0)
    assert m.as_row()["Game Win n"] == "1/2"


def test_metrics_of_a_real_avalonplay_game_match_its_log():
    preset, rules = A.setting("avalonplay")
    state = A.new_game(A.AvalonConfig.build(preset=preset, rules=rules), 4)
    from roundtable.games.avalon.bots import naive as naive_bot
    while not state.is_over:
        requests = A.pending(state)
        state = A.apply(state, {r.player: naive_bot.decide(A.view(state, r.player), r, 1) for r in requests})
    m = game_metrics({"events": list(state.events)})
    quests = [e for e in state.events if e["type"] == "quest_result"]
    assert m.quest_win.cases == len(quests) and m.quest_win.hits == sum(e["success"] for e in quests)
    assert m.game_win.hits == int(sum(e["success"] for e in quests) == 3)


def test_an_unfinished_log_without_roles_counts_quests_but_not_unknown_leaders():
    events = _quest(1, 1) + _quest(2, 5, success=False)
    m = game_metrics({"events": events})
    assert (m.quest_win.hits, m.quest_win.cases) == (1, 2)
    assert m.team_acc.cases == 0 and m.game_win.cases == 0
    m = game_metrics({"events": events, "roles": ROLES})
    assert (m.team_acc.hits, m.team_acc.cases) == (1, 1)
