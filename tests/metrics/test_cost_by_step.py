"""``benchmarks/cost_by_step.py``: model cost of finished games by request kind and agent module."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from benchmark_scripts import BENCHMARKS, load_script


def usage(**modules: tuple[int, int, int, int]) -> dict:
    """Decision usage with per-module (calls, prompt, cached, completion) tokens."""
    return {"modules": {name: {"calls": c, "prompt_tokens": p, "cached_tokens": k, "completion_tokens": g}
                        for name, (c, p, k, g) in modules.items()}}


def record() -> dict:
    return {
        "vote_results": [{"round": 1, "attempt": 1}, {"round": 1, "attempt": 2}],
        "events": [
            {"type": "decision", "kind": "speak",
             "usage": usage(summarize=(1, 500, 300, 100), respond=(1, 400, 350, 20))},
            {"type": "decision", "kind": "vote_team", "usage": usage(act=(2, 900, 700, 80))},
            {"type": "decision", "kind": "vote_team", "usage": usage(act=(1, 450, 400, 40))},
            {"type": "decision", "kind": "quest_card"},  # a bot's decision: no usage
        ],
    }


def test_calls_and_tokens_are_summed_per_kind_and_module() -> None:
    costs = load_script("cost_by_step").step_costs(record())
    assert set(costs) == {("speak", "summarize"), ("speak", "respond"), ("vote_team", "act")}
    assert costs[("vote_team", "act")] == {"calls": 3, "uncached": 250, "generated": 120}
    assert costs[("speak", "summarize")] == {"calls": 1, "uncached": 200, "generated": 100}


def test_rows_are_estimated_from_tokens_largest_first_with_totals_per_game_and_team() -> None:
    rows = load_script("cost_by_step").table([record(), record()], prompt_rate=50.0, generation_rate=10.0)
    # vote_team/act per game: 250/50 + 120/10 = 17 s; speak/summarize: 4 + 10 = 14 s; speak/respond: 1 + 2 = 3 s
    assert [r[0] for r in rows[:3]] == ["vote_team / act", "speak / summarize", "speak / respond"]
    assert rows[0][6] == "34" and rows[0][7] == "50%"
    per_game, per_team = rows[3], rows[4]
    assert per_game[0] == "**per game**" and per_game[1] == "5.0" and per_game[6] == "34"
    assert per_team[0] == "**per team voted**" and per_team[1] == "2.5" and per_team[6] == "17"


def test_the_command_refuses_a_directory_without_records(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, str(BENCHMARKS / "cost_by_step.py"), str(tmp_path)],
                            capture_output=True, text=True, cwd=BENCHMARKS)
    assert result.returncode != 0 and "no game record" in result.stderr


def test_the_command_prints_the_table_of_a_records_directory(tmp_path: Path) -> None:
    (tmp_path / "records").mkdir()
    (tmp_path / "records" / "g.json").write_text(json.dumps(record()))
    result = subprocess.run([sys.executable, str(BENCHMARKS / "cost_by_step.py"), str(tmp_path)],
                            capture_output=True, text=True, cwd=BENCHMARKS, check=True)
    assert "| vote_team / act | 3 |" in result.stdout and "games: 1;" in result.stdout
