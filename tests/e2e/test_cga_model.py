"""End to end on the real embedded model (marked ``model``): ``cga`` seats play a short game, retrieving from their
memory with the offline embeddings and writing their experience pool when it ends.

Short configuration for CI: Werewolf limited to one day and night, one ``cga`` seat (the Seer) among rule bots, with the
embedded model's defaults (questions refreshed once per day, all answers in one call), fewer questions and
shorter answers (the same agent's Avalon play is covered with scripted models by the agent conformance suite);
the full-size figures come from ``benchmarks/bench_cga.py``.
"""

from __future__ import annotations

import pytest
from test_model_game import record, run

pytestmark = pytest.mark.model


def test_a_cga_seer_plays_a_short_werewolf_game_and_fills_its_pool(tmp_path):
    result = run(tmp_path, "play", "werewolf", "--seed", "3", "--game-id", "cga-wolves", "--agents", "naive,seer=cga",
                 "--model", "local", "--rule", "max_days=1",
                 *[part for option in ("pool=e2e", "questions=1", "own_questions=1", "answer_words=15",
                                       "reflection_words=30", "thought_words=30")
                   for part in ("--agent-option", f"seer:{option}")], "--json")
    assert result.returncode == 0, result.stderr[-3000:]
    data = record(tmp_path, "cga-wolves")
    assert data["status"] == "finished"
    seat = next(int(p) for p, role in data["roles"].items() if role == "seer")
    mine = [d for d in data["decisions"] if d["player"] == seat]
    assert mine and all(d["usage"]["calls"] + d["usage"]["failures"] >= 1 for d in mine), "the model is asked"
    for d in mine:  # an unusable reply (say, cut at the length limit) is handled by the fallback rules, recorded
        assert not d["usage"]["failures"] or d.get("fallback"), d
    assert any(d["kind"] == "see" for d in mine)
    assert any(d["usage"].get("retrieval_seconds") for d in mine), "questions were answered from retrieved memory"
    shown = run(tmp_path, "pool", "show", "e2e")
    assert shown.returncode == 0 and "Pool e2e: 1 games" in shown.stdout
