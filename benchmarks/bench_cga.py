"""Games with ``cga`` agents (Xu et al.; docs/agents/cga.md) on a model, in the paper's mode and with the cost switches.

Plays one game per seed and mode through the same runner as the CLI and
reports, from each game's record: wall time, model calls, prompt / uncached /
completion tokens per game; per decision of a ``cga`` seat, the median and
maximum of calls, tokens and model seconds; per question, the retrieval
latency (embedding the question and the messages not indexed yet, and the
Chroma query); and the cost per agent module.

Modes: ``faithful`` (``refresh=action``, ``merge_answers=false``: the paper's
pipeline, questions, one answer per question and the reflection for every
action) and ``cheap`` (``refresh=round``, ``merge_answers=true``: the
defaults for the embedded model).

    python benchmarks/bench_cga.py                                   # avalon bench5, cga everywhere, both modes
    python benchmarks/bench_cga.py --game werewolf --modes cheap     # seven cga agents, the cost switches
    python benchmarks/bench_cga.py --agents naive,merlin=cga --rule discussion=none --modes faithful,cheap

Target (issue 12): a full 7-player Werewolf game with seven ``cga`` agents on
the embedded model in under 30 minutes and under 250 model calls.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from typing import Any

MODES = {"faithful": ["refresh=action", "merge_answers=false"], "cheap": ["refresh=round", "merge_answers=true"]}


def markdown(columns: list[str], rows: list[list[str]]) -> str:
    """A Markdown table."""
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])


def spread(values: list[float], fmt: str = "{:.0f}") -> str:
    """``median / max`` of ``values`` (``-`` when none)."""
    return f"{fmt.format(statistics.median(values))} / {fmt.format(max(values))}" if values else "-"


def figures(record: dict[str, Any], wall: float) -> dict[str, Any]:
    """One game's figures: per game and per cga decision, and the retrieval latencies."""
    kinds = {p: seat.get("kind") for p, seat in enumerate(record.get("seats") or [], start=1)}
    decisions = [d for d in record.get("decisions") or [] if kinds.get(d["player"]) == "cga"]
    used = [d["usage"] for d in decisions if d.get("usage", {}).get("calls")]
    game = record.get("usage", {}).get("game", {})
    return {
        "winner": record.get("winner"), "wall_s": round(wall, 1), "calls": game.get("calls", 0),
        "prompt_tokens": game.get("prompt_tokens", 0),
        "uncached_tokens": game.get("prompt_tokens", 0) - game.get("cached_tokens", 0),
        "completion_tokens": game.get("completion_tokens", 0), "decisions": len(decisions),
        "decision_calls": [u["calls"] for u in used],
        "decision_tokens": [u["prompt_tokens"] + u["completion_tokens"] for u in used],
        "decision_seconds": [u["seconds"] for u in used],
        "retrieval_seconds": [s for u in used for s in u.get("retrieval_seconds") or []],
        "modules": record.get("usage_by_module", {}),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="avalon")
    parser.add_argument("--preset", default=None)
    parser.add_argument("--seed", type=int, action="append", default=[])
    parser.add_argument("--agents", default="cga")
    parser.add_argument("--model", default="local")
    parser.add_argument("--rule", action="append", default=[])
    parser.add_argument("--agent-option", action="append", default=[])
    parser.add_argument("--modes", default="faithful,cheap")
    parser.add_argument("--home", default=None, help="data directory (default: a temporary one)")
    args = parser.parse_args()
    os.environ.setdefault("ROUNDTABLE_HOME", args.home or tempfile.mkdtemp(prefix="rt-bench-cga-"))

    from roundtable.games import GAMES
    from roundtable.play.runner import new_game_id, open_runner
    from roundtable.play.seating import resolve_seats
    from roundtable.store.records import read_record

    rules = GAMES[args.game]
    data: dict[str, Any] = {"rules": dict(r.split("=", 1) for r in args.rule)}
    if args.preset:
        data["preset"] = args.preset
    config = rules.config_dict(rules.config(data))
    results = []
    for mode in args.modes.split(","):
        for seed in args.seed or [1]:
            seats = resolve_seats(rules, config, seed, args.agents, args.model, args.agent_option)
            cga = [p for p, seat in enumerate(seats, start=1) if seat["kind"] == "cga"]  # bots take no options
            options = [*args.agent_option, *(f"{p}:{o}" for p in cga for o in MODES[mode])]
            seats = resolve_seats(rules, config, seed, args.agents, args.model, options)
            game_id = new_game_id(args.game)
            started = time.perf_counter()
            with open_runner(args.game) as runner:
                runner.start(game_id, {"config": config, "seed": seed, "seats": seats})
            result = figures(read_record(game_id) or {}, time.perf_counter() - started) | {"mode": mode, "seed": seed}
            results.append(result)
            print(json.dumps({k: v for k, v in result.items() if not isinstance(v, (list, dict))}), flush=True)
    print(f"\n{args.game} {args.preset or ''}, agents {args.agents}, model {args.model}\n")
    print(markdown(["mode", "seed", "winner", "wall min", "calls", "prompt tok", "uncached tok", "completion tok",
                    "cga decisions", "calls/decision (med / max)", "tokens/decision", "model s/decision",
                    "retrieval ms/question"],
                   [[r["mode"], str(r["seed"]), str(r["winner"]), f"{r['wall_s'] / 60:.1f}", f"{r['calls']:.0f}",
                     f"{r['prompt_tokens']:.0f}", f"{r['uncached_tokens']:.0f}", f"{r['completion_tokens']:.0f}",
                     str(r["decisions"]), spread(r["decision_calls"]), spread(r["decision_tokens"]),
                     spread(r["decision_seconds"], "{:.1f}"),
                     spread([1000 * s for s in r["retrieval_seconds"]])] for r in results]))
    for r in results:
        print(f"\n{r['mode']}, seed {r['seed']}: cost per module\n")
        print(markdown(["module", "calls", "prompt tok", "completion tok", "model s"],
                       [[m, f"{row['calls']:.0f}", f"{row['prompt_tokens']:.0f}", f"{row['completion_tokens']:.0f}",
                         f"{row['seconds']:.0f}"] for m, row in sorted(r["modules"].items())]))
    print(json.dumps({"home": os.environ["ROUNDTABLE_HOME"], "games": results}))


if __name__ == "__main__":
    main()
