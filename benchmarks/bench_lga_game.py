"""A full Avalon game with language-model agents on a model, measured.

Plays one game through the same runner as the CLI (SQLite checkpointer,
durability "sync") and reports wall time, model calls, prompt / completion /
cached tokens and fallbacks, per player and for the game, from the game record.

    python benchmarks/bench_lga_game.py                       # lan6, six lga agents, embedded model
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

from roundtable.games.avalon import AvalonConfig, deal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--preset", default="lan6")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--agents", default="lga")
    parser.add_argument("--model", default="local")
    parser.add_argument("--rule", action="append", default=[])
    parser.add_argument("--agent-option", action="append", default=[])
    parser.add_argument("--home", default=None, help="data directory (default: a temporary one)")
    args = parser.parse_args()
    os.environ.setdefault("ROUNDTABLE_HOME", args.home or tempfile.mkdtemp(prefix="rt-bench-"))

    from roundtable.graphs.agents import AGENT_KINDS, MODEL_KINDS, OPTION_PARSERS
    from roundtable.nodes.avalon.setup import resolve_seats
    from roundtable.records import read_record
    from roundtable.runner import new_game_id, open_runner

    config = AvalonConfig.build(preset=args.preset, rules=args.rule)
    seats = resolve_seats(deal(config, args.seed), args.agents, args.model, set(AGENT_KINDS), MODEL_KINDS,
                          args.agent_option, OPTION_PARSERS)
    game_id = new_game_id()
    started = time.perf_counter()
    with open_runner() as runner:
        runner.start(game_id, {"config": config.to_dict(), "seed": args.seed, "seats": seats})
    wall = time.perf_counter() - started
    record = read_record(game_id) or {}
    game = record["usage"].get("game", {})
    prompt = game.get("prompt_tokens", 0)
    print(f"| preset | agents | seed | winner | reason | wall s | calls | prompt tok | cached tok | cached share"
          f" | completion tok | decisions | fallbacks |")
    print("|" + "---|" * 13)
    print(f"| {args.preset} | {args.agents} | {args.seed} | {record['winner']} | {record['end_reason']} | {wall:.0f}"
          f" | {game.get('calls', 0):.0f} | {prompt:.0f} | {game.get('cached_tokens', 0):.0f}"
          f" | {(game.get('cached_tokens', 0) / prompt if prompt else 0):.2f} | {game.get('completion_tokens', 0):.0f}"
          f" | {game.get('decisions', 0):.0f} | {game.get('fallbacks', 0):.0f} |")
    print()
    print("| module | calls | prompt tok | uncached tok | completion tok | model s |")
    print("|---|---|---|---|---|---|")
    for module, row in sorted(record.get("usage_by_module", {}).items()):
        print(f"| {module} | {row['calls']:.0f} | {row['prompt_tokens']:.0f}"
              f" | {row['prompt_tokens'] - row['cached_tokens']:.0f} | {row['completion_tokens']:.0f}"
              f" | {row['seconds']:.0f} |")
    print(json.dumps({"game_id": game_id, "home": os.environ["ROUNDTABLE_HOME"], "usage": record["usage"]}))


if __name__ == "__main__":
    main()
