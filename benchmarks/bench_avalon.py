"""Throughput of all-``naive`` Avalon games: rules library vs game graph vs graph + SQLite or PostgreSQL checkpoints.

Usage::

    python benchmarks/bench_avalon.py                 # 1,000 bench5 games, seeds 0..999
    python benchmarks/bench_avalon.py --games 50      # quick check
    python benchmarks/bench_avalon.py --games 1000 --sqlite-games 200
    python benchmarks/bench_avalon.py --games 500 --postgres   # adds PostgreSQL rows (a server of its own)

Ways to play the same games (``bench5``, default rules, every seat ``naive``), one after another in one process:

1. *rules*: the pure loop ``pending`` -> ``view`` -> policy -> ``apply``;
2. *graph*: `roundtable.graphs.avalon.graph` (no checkpointer);
3. *graph + SQLite*: the same graph compiled with a `SqliteSaver` on a file in a
   temporary directory, ``durability="sync"`` (every step on disk before the next, as the CLI runs) and
   ``durability="exit"`` (one checkpoint when the game ends: an experiment's ``durability = "exit"``);
4. with ``--postgres``: the graph with LangGraph's `PostgresSaver` on a server of its own
   (`roundtable.testing.postgres.local_postgres`, with a production server's durability: fsync and synchronous
   commit on, a Unix socket), under both durabilities.

It checks that all agree on every game's ending, then prints a markdown
table: games/second, milliseconds per game, the slowdown ratios graph/rules and
SQLite/graph, and checkpoint bytes per game under ``sync`` (database file size, and the sum of
the ``checkpoint`` blobs plus the ``value`` blobs of ``writes``).
"""

from __future__ import annotations

import argparse
import gc
import os
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from typing import Any

from langgraph.checkpoint.sqlite import SqliteSaver

from roundtable.games import avalon as A
from roundtable.graphs.avalon import build_avalon_graph, graph
from roundtable.graphs.phases import agent_seed
from roundtable.testing.policies import rule_policies

PRESET = "bench5"
RUN = {"recursion_limit": 10_000}


def play_rules(config: A.AvalonConfig, seed: int) -> tuple[str, str]:
    policy = rule_policies("avalon")["naive"]
    state = A.new_game(config, seed)
    while not state.is_over:
        requests = A.pending(state)
        # Agents get a per-player seed derived from the game seed, as in the game graph.
        state = A.apply(state, {r.player: policy(A.view(state, r.player), r, agent_seed(seed, r.player))
                                for r in requests})
    assert state.winner is not None  # the game is over
    return state.winner.value, state.end_reason


def game_input(config: A.AvalonConfig, seed: int) -> dict:
    return {"config": config.to_dict(), "seed": seed, "seats": [{"kind": "naive"}] * config.players}


def ending(values: dict) -> tuple[str, str]:
    over = values["events"][-1]
    assert over["type"] == "game_over", over
    return over["winner"], over["reason"]


def timed(label: str, games: int, run) -> tuple[float, list[tuple[str, str]]]:
    gc.collect()
    results = []
    start = time.perf_counter()
    for seed in range(games):
        results.append(run(seed))
        if (seed + 1) % max(1, games // 10) == 0:
            print(f"  {label}: {seed + 1}/{games} games, {time.perf_counter() - start:.1f}s", file=sys.stderr)
    return time.perf_counter() - start, results


def saved_games(label: str, saver: Any, config: A.AvalonConfig, games: int, durability: str,
                expected: list[tuple[str, str]]) -> float:
    """Seconds to play ``games`` games through the graph compiled with ``saver`` under ``durability``; each
    game's ending must be ``expected``'s."""
    saved = build_avalon_graph().compile(checkpointer=saver)

    def run(seed: int) -> tuple[str, str]:
        config_ = {**RUN, "configurable": {"thread_id": f"bench-{durability}-{seed}"}}
        return ending(saved.invoke(game_input(config, seed), config_, durability=durability))

    seconds, out = timed(label, games, run)
    if out != expected[:games]:
        raise SystemExit(f"{label} disagrees with the rules loop")
    return seconds


def postgres_rows(config: A.AvalonConfig, games: int, expected: list[tuple[str, str]]) -> list[tuple[str, float]]:
    """``(durability, seconds)`` for ``games`` games with a `PostgresSaver` on a durable server of its own."""
    from langgraph.checkpoint.postgres import PostgresSaver

    from roundtable.testing.postgres import database_url, local_postgres

    rows = []
    with local_postgres(durable=True) as socket:
        for durability in ("sync", "exit"):
            with PostgresSaver.from_conn_string(database_url(socket, f"bench_{durability}")) as saver:
                saver.setup()
                rows.append((durability, saved_games(f"graph+postgres {durability}", saver, config, games,
                                                     durability, expected)))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games for the rules and graph runs (seeds 0..N-1)")
    parser.add_argument("--sqlite-games", type=int, default=None, help="games for the SQLite run (default: --games)")
    parser.add_argument("--postgres", action="store_true", help="add PostgreSQL rows (needs the server binaries)")
    args = parser.parse_args(argv)
    games = args.games
    sqlite_games = args.sqlite_games if args.sqlite_games is not None else games
    config = A.AvalonConfig.build(PRESET)

    rules_s, rules_out = timed("rules", games, lambda seed: play_rules(config, seed))
    graph_s, graph_out = timed("graph", games, lambda seed: ending(graph.invoke(game_input(config, seed), RUN)))
    if graph_out != rules_out:
        bad = [s for s, (a, b) in enumerate(zip(rules_out, graph_out, strict=True)) if a != b]
        raise SystemExit(f"graph and rules disagree on seeds {bad[:10]}")

    with tempfile.TemporaryDirectory(prefix="bench-avalon-") as tmp:
        path = os.path.join(tmp, "checkpoints.sqlite")
        with SqliteSaver.from_conn_string(path) as saver:
            saved = build_avalon_graph().compile(checkpointer=saver)

            def run_saved(seed: int) -> tuple[str, str]:
                config_ = {**RUN, "configurable": {"thread_id": f"bench-{seed}"}}
                return ending(saved.invoke(game_input(config, seed), config_, durability="sync"))

            sqlite_s, sqlite_out = timed("graph+sqlite", sqlite_games, run_saved)
        if sqlite_out != rules_out[:sqlite_games]:
            raise SystemExit("the SQLite-checkpointed graph disagrees with the rules loop")
        with SqliteSaver.from_conn_string(os.path.join(tmp, "exit.sqlite")) as saver:
            exit_s = saved_games("graph+sqlite exit", saver, config, games, "exit", rules_out)
        file_bytes = sum(os.path.getsize(os.path.join(tmp, f)) for f in os.listdir(tmp))
        con = sqlite3.connect(path)
        (ckpt_bytes, meta_bytes, ckpt_rows), = con.execute(
            "SELECT COALESCE(SUM(LENGTH(checkpoint)), 0), COALESCE(SUM(LENGTH(metadata)), 0), COUNT(*) "
            "FROM checkpoints").fetchall()
        (write_bytes, write_rows), = con.execute(
            "SELECT COALESCE(SUM(LENGTH(value)), 0), COUNT(*) FROM writes").fetchall()
        threads = con.execute("SELECT COUNT(DISTINCT thread_id) FROM checkpoints").fetchone()[0]
        con.close()
    assert threads == sqlite_games, (threads, sqlite_games)

    postgres = postgres_rows(config, games, rules_out) if args.postgres else []
    per = {"rules": rules_s / games, "graph": graph_s / games, "sqlite": sqlite_s / max(sqlite_games, 1)}
    wins = Counter(w for w, _ in rules_out)
    reasons = Counter(r for _, r in rules_out)
    print(f"\n### Avalon throughput: `{PRESET}`, all seats `naive`, seeds 0..{games - 1}\n")
    print("| path | games | seconds | games/s | ms/game |")
    print("|---|---:|---:|---:|---:|")
    for label, n, secs in [
        ("rules library (pending/view/policy/apply)", games, rules_s),
        ("graph, no checkpointer", games, graph_s),
        ("graph + SqliteSaver (durability=sync)", sqlite_games, sqlite_s),
        ("graph + SqliteSaver (durability=exit)", games, exit_s),
        *((f"graph + PostgresSaver (durability={mode})", games, secs) for mode, secs in postgres),
    ]:
        print(f"| {label} | {n} | {secs:.1f} | {n / secs:.1f} | {secs / n * 1000:.1f} |")
    print()
    print("| measure | value |")
    print("|---|---:|")
    print(f"| time ratio graph / rules | {per['graph'] / per['rules']:.1f}x |")
    print(f"| time ratio SQLite / graph | {per['sqlite'] / per['graph']:.2f}x |")
    print(f"| checkpoint DB file size per game | {file_bytes / sqlite_games / 1024:.1f} KiB |")
    print(f"| checkpoint blobs + write values per game | {(ckpt_bytes + write_bytes) / sqlite_games / 1024:.1f} KiB |")
    print(f"| of which checkpoint blobs / write values | {ckpt_bytes / sqlite_games / 1024:.1f} / "
          f"{write_bytes / sqlite_games / 1024:.1f} KiB |")
    print(f"| checkpoint metadata per game | {meta_bytes / sqlite_games / 1024:.1f} KiB |")
    print(f"| checkpoints / writes per game | {ckpt_rows / sqlite_games:.0f} / {write_rows / sqlite_games:.0f} |")
    print(f"| good wins | {wins['good'] / games:.1%} |")
    print(f"| endings | {', '.join(f'{r} {c}' for r, c in reasons.most_common())} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
