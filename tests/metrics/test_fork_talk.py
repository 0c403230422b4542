"""benchmarks/models/fork_talk.py: what a slice of a record's events adds to the play-quality measures."""

from __future__ import annotations

from typing import Any

from benchmark_scripts import load_script
from test_play_quality import record, said

fork_talk = load_script("models/fork_talk")


def decision(player: int, fallback: str | None = None, checks: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"type": "decision", "to": [], "player": player, "request": f"r1.a1.speak.p{player}", "kind": "speak",
            "agent": "react", "fallback": fallback, "checks": list(checks)}


def test_a_slice_counts_its_own_decisions_never_the_whole_games_usage() -> None:
    # A game's usage says 33 fallbacks in 93 decisions; a talk point's slice holds two decisions, one a fallback.
    events = [said(5, "I propose players 2 and 3."), decision(1, "1 passage(s) posing as the host or another "
              "player removed; no usable words: plain words used"), said(1, "I have nothing to add."),
              decision(2), said(2, "I trust Player 5's team because Player 3 looked honest on the first quest.")]
    game = record(*events, usage={"decisions": 93, "fallbacks": 33})
    added = fork_talk.added(game, 1, len(events))
    assert added["fallback_decisions"] == (1, 2)
    assert added["parroting"] == (0, 2)
    assert fork_talk.added(game, 0, 1)["fallback_decisions"] == (0, 0)


def test_plain_words_after_dropped_sentences_are_no_fallback_in_a_slice() -> None:
    dropped = decision(4, "no usable words: plain words used",
                       ("near copy of Player 2: asked again", "near copy of Player 2: sentences dropped"))
    assert fork_talk.added(record(dropped, said(4, "I have nothing to add.")), 0, 2)["fallback_decisions"] == (0, 1)


def test_the_actions_of_a_slice_are_listed_with_a_pick_of_nobody_as_a_pass() -> None:
    events = [{"type": "decision", "player": 1, "kind": "eliminate", "target": None},
              {"type": "decision", "player": 2, "kind": "eliminate", "target": 5},
              {"type": "decision", "player": 3, "kind": "vote_team", "approve": False},
              {"type": "decision", "player": 1, "kind": "propose_team", "team": [1, 2]},
              decision(4), said(4, "I trust Player 5.")]
    assert fork_talk.acted(record(*events), 0, len(events)) == \
        "P1 eliminate: pass, P2 eliminate: 5, P3 vote_team: False, P1 propose_team: [1, 2]"
