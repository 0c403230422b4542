"""Full Avalon games with language-model agents on a model, measured.

Plays one game per seed through the same runner as the CLI (SQLite
checkpointer, durability "sync"; one process, so the embedded model starts
once) and reports, per game, from its game record: the quests played and the
teams voted on, wall time, model calls, prompt / completion / cached
tokens and fallbacks, then the cost per agent module of every game.

    python benchmarks/bench_lga_game.py                       # lan6, six lga agents, embedded model, seed 1
    python benchmarks/bench_lga_game.py --seed 3 --seed 4 --seed 5
    python benchmarks/bench_lga_game.py --agents naive,merlin=lga --seed 3

Target (issue 3): a lan6 game with six lga agents on the embedded model on a
2-core machine in under 15 minutes and under 250 model calls.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from typing import Any

from roundtable.games.avalon import AvalonConfig
from roundtable.seating import resolve_seats

GAME_COLUMNS = ("seed", "winner", "reason", "quests", "teams voted", "wall min", "calls", "prompt tok",
                "uncached tok", "cached share", "completion tok", "decisions", "fallbacks")


def game_row(seed: int, wall: float, record: dict[str, Any]) -> list[str]:
    """One table row for a finished game: the `GAME_COLUMNS` as text (wall time in minutes)."""
    game = record["usage"].get("game", {})
    prompt, cached = game.get("prompt_tokens", 0), game.get("cached_tokens", 0)
    return [str(seed), str(record["winner"]), str(record["end_reason"]), str(len(record["quests"])),
            str(len(record["vote_results"])),
            f"{wall / 60:.1f}", f"{game.get('calls', 0):.0f}", f"{prompt:.0f}", f"{prompt - cached:.0f}",
            f"{cached / prompt if prompt else 0:.2f}", f"{game.get('completion_tokens', 0):.0f}",
            f"{game.get('decisions', 0):.0f}", f"{game.get('fallbacks', 0):.0f}"]


def markdown(columns: tuple[str, ...] | list[str], rows: list[list[str]]) -> str:
    """A Markdown table."""
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])


def module_rows(record: dict[str, Any]) -> list[list[str]]:
    """Per agent module: calls, prompt, uncached and completion tokens, model seconds (queueing included)."""
    return [[module, f"{row['calls']:.0f}", f"{row['prompt_tokens']:.0f}",
             f"{row['prompt_tokens'] - row['cached_tokens']:.0f}", f"{row['completion_tokens']:.0f}",
             f"{row['seconds']:.0f}"]
            for module, row in sorted(record.get("usage_by_module", {}).items())]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--preset", default="lan6")
    parser.add_argument("--seed", type=int, action="append", help="deal seed; repeat for several games (default 1)")
    parser.add_argument("--agents", default="lga")
    parser.add_argument("--model", default="local")
    parser.add_argument("--rule", action="append", default=[])
    parser.add_argument("--agent-option", action="append", default=[])
    parser.add_argument("--home", default=None, help="data directory (default: a temporary one)")
    args = parser.parse_args()
    os.environ.setdefault("ROUNDTABLE_HOME", args.home or tempfile.mkdtemp(prefix="rt-bench-"))

    from roundtable.games import GAMES
    from roundtable.records import read_record
    from roundtable.runner import new_game_id, open_runner

    config = AvalonConfig.build(preset=args.preset, rules=args.rule)
    rows, modules, summaries = [], [], []
    for seed in args.seed or [1]:
        seats = resolve_seats(GAMES["avalon"], config.to_dict(), seed, args.agents, args.model, args.agent_option)
        game_id = new_game_id()
        started = time.perf_counter()
        with open_runner() as runner:
            runner.start(game_id, {"config": config.to_dict(), "seed": seed, "seats": seats})
        wall = time.perf_counter() - started
        record = read_record(game_id) or {}
        rows.append(game_row(seed, wall, record))
        modules.append((seed, module_rows(record)))
        summaries.append({"game_id": game_id, "seed": seed, "wall_s": round(wall, 1), "usage": record["usage"]})
        print(markdown(GAME_COLUMNS, rows[-1:]), flush=True)  # each game as it ends
    print(f"\n{args.preset}, agents {args.agents}, model {args.model}\n")
    print(markdown(GAME_COLUMNS, rows))
    for seed, table in modules:
        print(f"\nseed {seed}, cost per agent module (model seconds include queueing):\n")
        print(markdown(("module", "calls", "prompt tok", "uncached tok", "completion tok", "model s"), table))
    print(json.dumps({"home": os.environ["ROUNDTABLE_HOME"], "games": summaries}))


if __name__ == "__main__":
    main()
