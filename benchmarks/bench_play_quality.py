"""Play quality of every model-driven kind on a model, in every game it plays: play the seeded games, print the table.

Plays the suite of seeded games below through the CLI (``roundtable play``,
one game at a time, each in a process of its own with the data directory
``--home``), resumably: a game whose record is finished is skipped, a game
stopped midway is continued (``roundtable resume``). Then prints, per suite
entry (a kind in one game and setting), the play-quality measures pooled over
its games (`roundtable.metrics.play_quality`, docs/measures.md#play-quality),
calls per decision and wall minutes per game, against the targets of issue
"Every model-driven kind plays sensibly".

    python benchmarks/bench_play_quality.py --home DIR                      # the whole suite (hours)
    python benchmarks/bench_play_quality.py --home DIR --only cga-xu7 lga-lan6
    python benchmarks/bench_play_quality.py --home DIR --only cga-xu7 --tag nochecks \\
        --agent-option checks=off                                           # a variant, in games of its own
    python benchmarks/bench_play_quality.py --home DIR --report             # play nothing, print the table

Wall times (summed over a game's runs, so a resumed game counts the time it
was played) are kept in ``DIR/bench_play_quality.json``; a game interrupted
midway counts its earlier runs' time only when they ended normally.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from roundtable.metrics.play_quality import PlayQuality, play_quality


@dataclass(frozen=True)
class Entry:
    """A kind in one game and setting: ``args`` for ``roundtable play`` (after the game), and its seeds."""

    name: str
    game: str
    args: tuple[str, ...]
    seeds: tuple[int, ...]


SUITE = (
    Entry("lga-lan6", "avalon", ("--preset", "lan6", "--agents", "lga"), (1, 2, 3, 4)),
    Entry("lga-bench5", "avalon", ("--preset", "bench5", "--agents", "lga"), (1, 2, 3, 4)),
    Entry("cga-lan6", "avalon", ("--preset", "lan6", "--agents", "cga"), (1, 2, 3, 4)),
    Entry("cga-xu7", "werewolf", ("--preset", "xu7", "--agents", "cga"), (1, 2, 3, 4)),
    Entry("react-bench5", "avalon", ("--setting", "avalonbench", "--agents", "react"), (1, 2, 3, 4)),
    Entry("cot-avalonplay", "avalon", ("--setting", "avalonplay", "--agents", "cot"), (1, 2)),
    Entry("codeact-avalonplay", "avalon", ("--setting", "avalonplay", "--agents", "codeact"), (1, 2)),
)
"""The seeded games of issue 35: at least four per kind and game it plays, two for the long ``cot``/``codeact``."""

TIMES = "bench_play_quality.json"


def game_id(entry: Entry, seed: int, tag: str = "") -> str:
    """The id of ``entry``'s game on ``seed`` (``pq-cga-xu7-s1``, ``pq-cga-xu7-nochecks-s1`` with a tag)."""
    return f"pq-{entry.name}{f'-{tag}' if tag else ''}-s{seed}"


def read_json(path: Path) -> dict[str, Any]:
    """The JSON object in ``path``, or ``{}`` when it is missing or unreadable."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def play(home: Path, entry: Entry, seed: int, tag: str, extra: list[str], model: str) -> None:
    """Play (or continue) one game of the suite in its own process, adding its wall seconds to `TIMES`."""
    gid = game_id(entry, seed, tag)
    record = read_json(home / "records" / f"{gid}.json")
    if record.get("status") == "finished":
        return
    cli = [sys.executable, "-m", "roundtable.cli.main"]
    if record:
        command = [*cli, "resume", gid, "--quiet"]
    else:
        command = [*cli, "play", entry.game, *entry.args, "--seed", str(seed), "--game-id", gid,
                   "--model", model, "--quiet", *extra]
    print(f"== {gid}: {' '.join(command[3:])}", flush=True)
    started = time.perf_counter()
    done = subprocess.run(command, env=os.environ | {"ROUNDTABLE_HOME": str(home)}, check=False)
    wall = time.perf_counter() - started
    times = read_json(home / TIMES)
    times[gid] = times.get(gid, 0.0) + wall
    (home / TIMES).write_text(json.dumps(times, indent=1, sort_keys=True))
    print(f"== {gid}: exit {done.returncode}, {wall / 60:.1f} min", flush=True)


def percent(hits: int, cases: int) -> str:
    """``"hits/cases = rate%"``, or ``"-"`` without cases."""
    return f"{hits}/{cases} = {100 * hits / cases:.0f}%" if cases else "-"


def entry_row(home: Path, entry: Entry, tag: str) -> list[str] | None:
    """The table row of one suite entry over its finished games, or None when none has finished."""
    times = read_json(home / TIMES)
    total, games, walls, calls, decisions = PlayQuality(), 0, [], 0.0, 0.0
    for seed in entry.seeds:
        gid = game_id(entry, seed, tag)
        record = read_json(home / "records" / f"{gid}.json")
        if record.get("status") != "finished":
            continue
        total, games = total.add(play_quality(record)), games + 1
        usage = (record.get("usage") or {}).get("game") or {}
        calls, decisions = calls + usage.get("calls", 0), decisions + usage.get("decisions", 0)
        if gid in times:
            walls.append(times[gid] / 60)
    if not games:
        return None
    measures = [percent(getattr(total, m).hits, getattr(total, m).cases) for m in PlayQuality.MEASURES]
    return [f"{entry.name}{f' ({tag})' if tag else ''}", f"{games}/{len(entry.seeds)}", *measures,
            f"{calls / decisions:.2f}" if decisions else "-",
            f"{statistics.median(walls):.1f}" if walls else "-"]


def table(home: Path, entries: list[Entry], tag: str) -> str:
    """The markdown table of the entries that have a finished game."""
    columns = ["kind and game", "games", *(m.replace("_", " ") for m in PlayQuality.MEASURES),
               "calls per decision", "wall min (median)"]
    rows = [row for entry in entries if (row := entry_row(home, entry, tag)) is not None]
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--home", required=True, help="data directory of the games (kept out of git)")
    parser.add_argument("--only", nargs="+", default=None, help=f"suite entries: {', '.join(e.name for e in SUITE)}")
    parser.add_argument("--seeds", default=None, help="override the entries' seeds: a range, e.g. 1-2")
    parser.add_argument("--tag", default="", help="a variant's name, part of its games' ids")
    parser.add_argument("--model", default="local")
    parser.add_argument("--rule", action="append", default=[])
    parser.add_argument("--agent-option", action="append", default=[])
    parser.add_argument("--report", action="store_true", help="play nothing, print the table")
    args = parser.parse_args()
    known = {e.name: e for e in SUITE}
    unknown = sorted(set(args.only or ()) - set(known))
    if unknown:
        parser.error(f"unknown suite entries {', '.join(unknown)}; known: {', '.join(known)}")
    entries = [known[name] for name in args.only] if args.only else list(SUITE)
    if args.seeds:
        first, _, last = args.seeds.partition("-")
        seeds = tuple(range(int(first), int(last or first) + 1))
        entries = [Entry(e.name, e.game, e.args, seeds) for e in entries]
    home = Path(args.home)
    home.mkdir(parents=True, exist_ok=True)
    extra = [*(f"--rule={r}" for r in args.rule), *(f"--agent-option={o}" for o in args.agent_option)]
    if not args.report:
        for entry in entries:
            for seed in entry.seeds:
                play(home, entry, seed, args.tag, extra, args.model)
    print(table(home, entries, args.tag))


if __name__ == "__main__":
    main()
