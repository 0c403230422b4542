"""End to end on the real embedded model (marked ``model``): AvalonBench's ``react`` agent as one Loyal Servant among
the rule bots plays a game of AvalonBench's setting (``bench5``) to its end, answers the belief probe, and the
social-behaviour judge then reads that record (docs/agents/react.md, docs/games/avalon.md#belief-probe,
docs/judge.md). One behaviour is judged, to keep CI short; the judge's reading of real words is measured by
``benchmarks/judge_agreement.py``."""

from __future__ import annotations

from pathlib import Path

import pytest
from e2e_cli import record, run

from roundtable.games import avalon

pytestmark = pytest.mark.model


def test_a_react_servant_plays_a_bench5_game_answers_the_probe_and_is_judged(tmp_path: Path) -> None:
    config = avalon.AvalonConfig.build(preset="bench5")
    seed = next(s for s in range(1, 100) if avalon.new_game(config, s).roles[1].value == "servant")
    played = run(tmp_path, "play", "avalon", "--setting", "avalonbench", "--seed", str(seed), "--game-id",
                 "react-real", "--agents", "naive,2=react", "--model", "local", "--agent-option", "2:thought_words=30",
                 "--json")  # AvalonBench's own talk and fifth-team rule; short reasoning keeps CI in its budget
    assert played.returncode == 0, played.stderr[-3000:]
    game = record(tmp_path, "react-real")
    assert game["status"] == "finished" and game["roles"]["2"] == "servant"
    react = [d for d in game["decisions"] if d["player"] == 2]
    assert sum(d["usage"]["calls"] for d in react) > 0
    assert all(d.get("raw") for d in react if d["kind"] in ("vote_team", "belief")), "raw replies are kept"
    (probe,) = [d for d in react if d["kind"] == "belief"]
    assert probe["usage"]["calls"] == 2, "the answer and the parser call"
    if probe["beliefs"] is None:  # an unusable answer is left out and recorded, never filled in
        assert probe["fallback"] and "2" not in game["beliefs"]
    else:
        assert set(game["beliefs"]["2"]) == {"1", "3", "4", "5"}
        assert all(0.0 <= p <= 1.0 for p in game["beliefs"]["2"].values())
    shown = run(tmp_path, "show", "react-real").stdout
    assert "Deduction accuracy (AvalonBench)" in shown
    judged = run(tmp_path, "judge", "react-real", "--model", "local", "--behaviour", "deception")
    assert judged.returncode == 0, judged.stderr[-3000:]
    again = run(tmp_path, "judge", "react-real", "--model", "local", "--behaviour", "deception")
    assert again.returncode == 0 and "0 asked now" in again.stdout, "the second run is served from the cache"
