"""The AvalonBench all-``naive`` baseline as an experiment: wall time, bytes on disk per retention policy, win rate.

Usage::

    python benchmarks/bench_experiment.py                          # 1,000 games under each policy
    python benchmarks/bench_experiment.py --games 100 --policies delete,keep_last
    python benchmarks/bench_experiment.py --games 1000 --policies delete --parallel 2
    python benchmarks/bench_experiment.py --games 1000 --policies delete --durability exit --executor ray --parallel 2

For each retention policy (`roundtable.experiments.retention`) it runs
``experiments/avalonbench_naive.toml``'s games (``bench5``, AvalonBench's
rules, every seat ``naive``; seeds 0..N-1) through ``run_experiment`` into a
fresh directory (SQLite checkpointer, ``--durability``, default ``sync``, ``--parallel``
games at once: threads of this process, or with ``--executor ray`` Ray tasks on a local instance of that many
worker processes, timed from the first game, the workers warm), then prints a markdown table: wall seconds, games
per second, bytes on disk per finished game (checkpoint database after compaction,
records, the whole directory) and the good side's win rate with its Wilson
95% interval for each of the configuration's conditions: ``naive`` (the rulebook's
Assassin, who names a player not known to be evil) and ``avalonbench-assassin``
(AvalonBench's code's Assassin, any seat; published by AvalonBench: 38.2%).
``--games N`` games are played per condition.
"""

from __future__ import annotations

import argparse
import re
import tempfile
import time
from pathlib import Path
from typing import Any

from roundtable.experiments.manifest import load_records
from roundtable.experiments.retention import POLICIES, database_bytes
from roundtable.experiments.runner import open_directory, run_experiment
from roundtable.metrics.tables import find, measure_table

CONFIG = Path(__file__).resolve().parents[1] / "experiments" / "avalonbench_naive.toml"


def config_text(games: int, policy: str, parallel: int, durability: str = "sync") -> str:
    text = CONFIG.read_text()
    text = re.sub(r"(?m)^games_per_condition = .*$", f"games_per_condition = {games}", text)
    text = re.sub(r"(?m)^durability = .*\n", "", text)
    text = re.sub(r"(?m)^retention = .*$", f'retention = "{policy}"\ndurability = "{durability}"', text)
    return re.sub(r"(?m)^parallel_games = .*$", f"parallel_games = {parallel}", text)


def ray_executor(workers: int) -> Any:
    """A `RayExecutor` on a local instance of ``workers`` processes, each of which has imported the game stack."""
    from bench_ray import warm

    from roundtable.experiments.ray_executor import RayExecutor, import_ray

    executor = RayExecutor(workers=workers)
    executor.connect()
    warm(import_ray(), workers)
    return executor


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games per policy (seeds 0..N-1)")
    parser.add_argument("--policies", default=",".join(POLICIES), help="comma-separated retention policies")
    parser.add_argument("--parallel", type=int, default=2, help="games played at once")
    parser.add_argument("--keep", type=Path, default=None, help="keep the experiment directories under this one")
    parser.add_argument("--durability", choices=("sync", "exit"), default="sync", help="the games' durability")
    parser.add_argument("--executor", choices=("process", "ray"), default="process", help="threads or Ray tasks")
    args = parser.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-experiment-") as tmp:
        base = args.keep or Path(tmp)
        for policy in args.policies.split(","):
            directory = base / f"avalonbench-{policy}"
            config = base / f"avalonbench-{policy}.toml"
            base.mkdir(parents=True, exist_ok=True)
            config.write_text(config_text(args.games, policy, args.parallel, args.durability))
            executor = ray_executor(args.parallel) if args.executor == "ray" else None
            start = time.perf_counter()
            summary = run_experiment(config, directory, executor=executor)
            seconds = time.perf_counter() - start
            assert not summary.failed, summary.failed
            _, games, _ = open_directory(directory)
            records = load_records(directory, games)
            table = measure_table(records)
            good = {c: find(table, "good_win_rate", condition=c) for c in records}
            finished = sum(len(r) for r in records.values())
            db = database_bytes(directory / "checkpoints.sqlite")
            recs = sum(p.stat().st_size for p in (directory / "records").glob("*.json"))
            total = sum(p.stat().st_size for p in directory.rglob("*") if p.is_file())
            rows.append((policy, finished, seconds, db / finished, recs / finished, total / finished, good))
    print(f"\n### AvalonBench all-naive baseline as an experiment: bench5, AvalonBench's rules, "
          f"seeds 0..{args.games - 1}, {args.parallel} games at once ({args.executor}), "
          f"durability {args.durability}\n")
    conditions = list(rows[0][-1]) if rows else []
    print("| retention | games | wall s | games/s | checkpoint DB KiB/game | records KiB/game | directory KiB/game | "
          + " | ".join(f"good win rate [95% CI], {c}" for c in conditions) + " |")
    print("|---|---:|---:|---:|---:|---:|---:|" + "---|" * len(conditions))
    for policy, n, secs, db, recs, total, good in rows:
        rates = " | ".join(f"{100 * g.value:.1f}% [{100 * g.low:.1f}, {100 * g.high:.1f}]" for g in good.values())
        print(f"| {policy} | {n} | {secs:.1f} | {n / secs:.2f} | {db / 1024:.1f} | {recs / 1024:.1f} | "
              f"{total / 1024:.1f} | {rates} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
