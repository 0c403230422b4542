"""End to end on the real embedded model (marked ``model``): one short Secret Hitler game (the plugin package's game,
five players, no talk) seating ``lga``, ``cga``, ``react`` and ``cot`` beside a rule bot, each reading the game
through its table with the game's aids (auto: on for the embedded model), reaches its end; every model seat called
its model, what the 1.5B model could not answer was decided by a named fallback rule, the Liberals' beliefs were
probed, and the record's measures read it (issue 60, part 3; docs/games/secret-hitler.md#agent-kinds-in-secret-hitler).

The game is a plugin package's: the test skips where it is not installed (the README's commands install it). The
per-kind games with talk and the papers' word limits are benchmarks (``benchmarks/bench_play_quality.py``, entries
``*-sh5``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from e2e_cli import record, run

pytest.importorskip("roundtable_secret_hitler")

pytestmark = pytest.mark.model

KINDS = ("lga", "cga", "react", "cot", "naive")
CHEAP = ("1:analysis_words=20", "1:plan_words=15", "1:summary_words=30", "1:response_words=20",
         "2:questions=1", "2:own_questions=0", "2:thought_words=30", "2:answer_words=20", "2:reflection_words=30",
         "3:thought_words=30", "3:summary_words=40", "4:thought_words=30")
"""Shorter word limits than the papers' (a 1.5B model on two cores writes about 15 words a second)."""


def test_four_model_kinds_finish_a_secret_hitler_game_on_the_embedded_model(tmp_path: Path) -> None:
    from roundtable.metrics.deduction import deductions
    from roundtable.metrics.facts import player_facts

    agents = ",".join(f"{seat}={kind}" for seat, kind in enumerate(KINDS, start=1))
    played = run(tmp_path, "play", "secret_hitler", "--players", "5", "--seed", "2", "--game-id", "sh",
                 "--rule", "discussion=none", "--agents", agents, "--model", "local",
                 *[part for option in CHEAP for part in ("--agent-option", option)], "--json")
    assert played.returncode == 0, played.stderr[-3000:]
    game = record(tmp_path, "sh")
    assert game["status"] == "finished" and game["winner"] in ("liberal", "fascist")
    assert [seat["kind"] for seat in game["seats"]] == list(KINDS)
    decisions = [d for d in game["decisions"] if d["kind"] != "belief"]
    for player, kind in enumerate(KINDS[:4], start=1):
        mine = [d for d in decisions if d["player"] == player]
        assert mine, f"{kind} made no decision"
        assert sum(d["usage"]["calls"] for d in mine if d.get("usage")) > 0, f"{kind} never called its model"
    for d in decisions:  # what the model could not answer was decided by a rule, and the rule is named
        assert d.get("fallback") is None or isinstance(d["fallback"], str)
    liberals = {int(p) for p, role in game["roles"].items() if role == "liberal"}
    probed = {d["player"] for d in game["decisions"] if d["kind"] == "belief"} & set(range(1, 5))
    assert probed == liberals & set(range(1, 5)), "every Liberal model seat, and no other, was asked the probe"
    assert set(deductions(game)) <= liberals
    assert {row.side for row in player_facts(game)} == {"liberal", "fascist"}
