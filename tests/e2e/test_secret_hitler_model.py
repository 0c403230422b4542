"""End to end on the real embedded model (marked ``model``): one short Secret Hitler game (the plugin package's game,
five players) seating ``lga``, ``cga``, ``react`` and ``cot`` beside a rule bot, each reading the game through its
table with the game's aids (auto: on for the embedded model), reaches its end; every model seat called its model,
what the 1.5B model could not answer was decided by a named fallback rule, the Liberals' beliefs were probed, and
the record's measures read it (issue 60, part 3; docs/games/secret-hitler.md#agent-kinds-in-secret-hitler).

Short: a whole game of four model seats takes about 40 minutes here (the 1.5B model's seats vote down most
governments), and even its last rounds 10 to 20, so the four kinds take over four seats of a ten-player rule-bot
game without talk at its last election (``roundtable fork --agents``), seats outside the government that election
elects and alive, and play it out: each reads the whole game so far through its table, votes, and a Liberal answers the
belief probe; the six bots' votes elect the government whatever the models vote, so the game ends in that round.
The game is a plugin package's: the test skips where it is not installed (the README's commands install it). The
per-kind whole games with the papers' word limits are benchmarks (``benchmarks/bench_play_quality.py``, entries
``*-sh5``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from e2e_cli import record, run

pytest.importorskip("roundtable_secret_hitler")

pytestmark = pytest.mark.model

KINDS = ("lga", "cga", "react", "cot")
CHEAP = ("1:analysis_words=20", "1:plan_words=15", "1:summary_words=30", "1:response_words=20",
         "2:questions=1", "2:own_questions=0", "2:thought_words=30", "2:answer_words=20", "2:reflection_words=30",
         "3:thought_words=30", "3:summary_words=40", "4:thought_words=30")
"""Shorter word limits than the papers' (a 1.5B model on two cores writes about 15 words a second)."""


def test_four_model_kinds_finish_a_secret_hitler_game_on_the_embedded_model(tmp_path: Path) -> None:
    from roundtable.metrics.deduction import deductions
    from roundtable.metrics.facts import player_facts

    bots = run(tmp_path, "play", "secret_hitler", "--players", "10", "--seed", "1", "--rule", "discussion=none",
               "--game-id", "bots", "--quiet")
    assert bots.returncode == 0, bots.stderr[-3000:]
    events = record(tmp_path, "bots")["events"]
    last = [e for e in events if e["type"] == "election"][-1]
    ja = {e["player"] for e in events if e["type"] == "vote" and e["round"] == last["round"] and e["ja"]}
    dead = {e["target"] for e in events if e["type"] == "execution"}
    outside = [p for p in range(1, 11) if p not in (last["president"], last["chancellor"], *dead)]
    seats = sorted(outside, key=lambda p: (p in ja, p))[:4]  # the bots left must elect the government alone
    living = 10 - len(dead)
    assert last["elected"] and len(ja - set(seats)) * 2 > living, "the seed's last election passes on the bots' votes"
    history = run(tmp_path, "history", "bots").stdout.splitlines()
    elections = [line.split()[0] for line in history if "next=election " in line and line.split()[0].isdigit()]
    agents = ",".join(["naive", *(f"{seat}={kind}" for seat, kind in zip(seats, KINDS, strict=True))])
    cheap = [option.replace(f"{n}:", f"{seat}:", 1) for option in CHEAP for n, seat in enumerate(seats, start=1)
             if option.startswith(f"{n}:")]
    played = run(tmp_path, "fork", "bots", "--at", elections[-1], "--game-id", "sh", "--agents", agents,
                 "--model", "local", *[part for option in cheap for part in ("--agent-option", option)], "--json")
    assert played.returncode == 0, played.stderr[-3000:]
    game = record(tmp_path, "sh")
    assert game["fork_of"]["game_id"] == "bots"
    assert game["status"] == "finished" and game["winner"] in ("liberal", "fascist")
    assert [game["seats"][seat - 1]["kind"] for seat in seats] == list(KINDS)
    decisions = [d for d in game["decisions"] if d["kind"] != "belief" and d["agent"] != "naive"]
    for player, kind in zip(seats, KINDS, strict=True):
        mine = [d for d in decisions if d["player"] == player]
        assert mine, f"{kind} made no decision"
        assert sum(d["usage"]["calls"] for d in mine if d.get("usage")) > 0, f"{kind} never called its model"
    for d in decisions:  # what the model could not answer was decided by a rule, and the rule is named
        assert d.get("fallback") is None or isinstance(d["fallback"], str)
    liberals = {int(p) for p, role in game["roles"].items() if role == "liberal"}
    probed = {d["player"] for d in game["decisions"] if d["kind"] == "belief" and d["agent"] != "naive"}
    assert probed == liberals & set(seats), "every Liberal model seat, and no other, was asked the probe"
    assert set(deductions(game)) <= liberals
    assert {row.side for row in player_facts(game)} == {"liberal", "fascist"}
