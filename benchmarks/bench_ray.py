"""Games per hour with the games as Ray tasks, against a fake model server taking 1 s a call, for 1, 2, 4 workers.

Usage::

    python benchmarks/bench_ray.py                            # 1, 2, 4 workers; the same 12 games; 1 s a call
    python benchmarks/bench_ray.py --workers 1,2 --games-per-worker 2 --latency 0.2   # quick check
    python benchmarks/bench_ray.py --address HOST:PORT --workers 8   # a cluster (its CPUs decide the workers)

Each row starts a local Ray instance of that many CPUs (one game task each: ``roundtable experiment run
--executor ray``), warms its workers (every worker imports the game stack once, as a long run does), then times
``run_experiment`` over the same games in every row (seeds 0 to ``most workers x games-per-worker`` - 1, so every
row makes the same model calls): ``bench5``, every seat ``naive`` with its words from
the model (``words=model``), so every utterance is one call to the fake server of `bench_parallel.SlowServer`,
``--latency`` seconds each, with more slots than games so that the server never queues. The table gives wall
time, games per hour, and the share of linear scaling from one worker (issue 37's target: 85% from 1 to 4).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_parallel import SlowServer

from roundtable.experiments.ray_executor import RayExecutor, import_ray
from roundtable.experiments.runner import run_experiment

CONFIG = """
name = "ray-workers"
games_per_condition = {games}
parallel_games = {workers}
model_calls_per_endpoint = 64
retention = "delete"

[defaults]
preset = "bench5"
agents = "naive"
agent_options = ["words=model"]
models = "{url}#fake"
rules = {{ fifth_rejection = "auto_approve", discussion = "leader_first_and_last" }}

[[conditions]]
name = "w{workers}"
"""


def warm(ray: Any, workers: int) -> None:
    """Have every worker of the instance import the game stack once (a long run pays it once per worker)."""

    def load() -> int:
        import os

        import roundtable.experiments.ray_executor  # noqa: F401
        import roundtable.play.runner  # noqa: F401

        time.sleep(1.0)  # hold the CPU so that each task lands on another worker
        return os.getpid()

    task = ray.remote(load)
    ray.get([task.remote() for _ in range(workers)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", default="1,2,4", help="comma-separated worker counts (CPUs of the instance)")
    parser.add_argument("--games-per-worker", type=int, default=3)
    parser.add_argument("--latency", type=float, default=1.0, help="seconds per model call")
    parser.add_argument("--address", default=None, help="a Ray cluster to join instead of a local instance")
    args = parser.parse_args(argv)
    ray = import_ray()
    rows = []
    counts = [int(w) for w in args.workers.split(",")]
    games = max(counts) * args.games_per_worker  # the same games (seeds) in every row
    for workers in counts:
        server = SlowServer(args.latency, 256)
        try:
            with tempfile.TemporaryDirectory(prefix="bench-ray-") as tmp:
                config = Path(tmp) / "ray.toml"
                config.write_text(CONFIG.format(games=games, workers=workers, url=server.url))
                executor = RayExecutor(address=args.address, workers=workers)
                executor.connect()
                warm(ray, workers)
                start = time.perf_counter()
                summary = run_experiment(config, Path(tmp) / "exp", executor=executor)  # closes the executor
                wall = time.perf_counter() - start
                assert not summary.failed, summary.failed
        finally:
            server.close()
        rows.append((workers, len(summary.finished), wall, server.calls, server.peak))
    base = rows[0][1] / rows[0][2] / rows[0][0]
    print(f"\n### Games as Ray tasks, {args.latency:g} s per model call: `naive` seats with words from the model, "
          f"bench5, the same {games} games in every row\n")
    print("| workers | games | wall s | model calls | peak calls at once | games per hour | "
          "share of linear scaling |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for workers, games, wall, calls, peak in rows:
        print(f"| {workers} | {games} | {wall:.1f} | {calls} | {peak} | {3600 * games / wall:.0f} | "
              f"{games / wall / workers / base:.0%} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
