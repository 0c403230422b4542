"""Full Avalon games with language-model agents on a model, measured.

Plays one game per seed through the same runner as the CLI (SQLite
checkpointer, durability "sync"; one process, so the embedded model starts
once) and reports, per game, from its game record: the quests played and the
teams voted on, wall time, model calls, prompt / completion / cached
tokens and fallbacks; then, over all games, the median, 90th percentile and
maximum of wall time, calls, teams voted, uncached and generated tokens; the
play-quality measures pooled over the games (`roundtable.metrics.play_quality`);
and the cost per agent module of every game. The games' summaries are also
written, as each game ends, to ``bench_lga_game.json`` in the data directory,
after those of earlier runs into it (``benchmarks/play_quality.py`` reads the
wall times from it).

    python benchmarks/bench_lga_game.py                       # lan6, six lga agents, embedded model, seed 1
    python benchmarks/bench_lga_game.py --seeds 1-10          # ten games, seeds 1 to 10
    python benchmarks/bench_lga_game.py --agents naive,merlin=lga --seed 3
    python benchmarks/bench_lga_game.py --report DIR [DIR...] # the distribution of the games runs wrote there

Targets (issue "A full game on the embedded model in under 10 minutes"): on a
2-core machine with the prebuilt llama.cpp wheel, median game under 10
minutes, every game under 15, at most 150 calls a game.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from roundtable.games.avalon import AvalonConfig
from roundtable.play.seating import resolve_seats

GAME_COLUMNS = ("seed", "winner", "reason", "quests", "teams voted", "wall min", "calls", "prompt tok",
                "uncached tok", "cached share", "completion tok", "decisions", "fallbacks", "re-asks")


def game_row(seed: int, wall: float, record: dict[str, Any]) -> list[str]:
    """One table row for a finished game: the `GAME_COLUMNS` as text (wall time in minutes)."""
    game = record["usage"].get("game", {})
    prompt, cached = game.get("prompt_tokens", 0), game.get("cached_tokens", 0)
    return [str(seed), str(record["winner"]), str(record["end_reason"]), str(len(record["quests"])),
            str(len(record["vote_results"])),
            f"{wall / 60:.1f}", f"{game.get('calls', 0):.0f}", f"{prompt:.0f}", f"{prompt - cached:.0f}",
            f"{cached / prompt if prompt else 0:.2f}", f"{game.get('completion_tokens', 0):.0f}",
            f"{game.get('decisions', 0):.0f}", f"{game.get('fallbacks', 0):.0f}", str(reasks(record))]


def reasks(record: dict[str, Any]) -> int:
    """Decisions whose words the agent asked for again after its own check (`roundtable.agents.lga.review`)."""
    return sum(1 for d in record.get("decisions", []) if any(c.endswith("asked again") for c in d.get("checks", [])))


def summary_of(game_id: str, seed: int, wall: float, record: dict[str, Any]) -> dict[str, Any]:
    """One game's figures for the distribution and for ``bench_lga_game.json``."""
    game = record["usage"].get("game", {})
    return {"game_id": game_id, "seed": seed, "wall_s": round(wall, 1), "quests": len(record["quests"]),
            "teams_voted": len(record["vote_results"]), "calls": game.get("calls", 0),
            "uncached_tokens": game.get("prompt_tokens", 0) - game.get("cached_tokens", 0),
            "generated_tokens": game.get("completion_tokens", 0), "re_asks": reasks(record),
            "usage": record["usage"]}


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile of ``values`` (linear interpolation between order statistics)."""
    ordered = sorted(values)
    position = (len(ordered) - 1) * share
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


DISTRIBUTION = (("wall min", lambda g: g["wall_s"] / 60, "{:.1f}"), ("calls", lambda g: g["calls"], "{:.0f}"),
                ("teams voted", lambda g: g["teams_voted"], "{:.0f}"), ("quests", lambda g: g["quests"], "{:.0f}"),
                ("uncached tok", lambda g: g["uncached_tokens"], "{:,.0f}"),
                ("generated tok", lambda g: g["generated_tokens"], "{:,.0f}"),
                ("uncached tok per call", lambda g: g["uncached_tokens"] / max(g["calls"], 1), "{:.0f}"))
"""Figures reported as a distribution over the games: (name, value of a game summary, format)."""


def distribution_rows(games: list[dict[str, Any]]) -> list[list[str]]:
    """Median, 90th percentile and maximum of each `DISTRIBUTION` figure over ``games``."""
    rows = []
    for name, value, fmt in DISTRIBUTION:
        values = [float(value(g)) for g in games]
        rows.append([name, *(fmt.format(v) for v in (percentile(values, 0.5), percentile(values, 0.9), max(values)))])
    return rows


SUMMARY_COLUMNS = ("seed", "quests", "teams voted", "wall min", "calls", "uncached tok", "generated tok", "re-asks")


SUMMARY_FILE = "bench_lga_game.json"
"""The games' summaries in a data directory: ``{"home": DIR, "games": [summary_of(...), ...]}``."""


def save_games(home: Path, games: list[dict[str, Any]]) -> None:
    """Write ``games`` to ``home``'s `SUMMARY_FILE`, after the games earlier runs wrote there (a game of the same
    ``game_id`` replaced), so a second run into the same directory (more seeds, a seed played again) adds to the
    distribution instead of erasing it."""
    path = home / SUMMARY_FILE
    earlier = json.loads(path.read_text())["games"] if path.exists() else []
    ours = {g["game_id"] for g in games}
    path.write_text(json.dumps({"home": str(home), "games": [g for g in earlier if g["game_id"] not in ours] + games},
                               indent=1))


def report(*homes: Path) -> str:
    """The games runs wrote to each ``home``'s `SUMMARY_FILE`, one row each, and their distribution over all of
    them, as Markdown.

    For a run stopped before its last seed (its final tables were never printed): the file holds every game that
    ended. Raises FileNotFoundError when a ``home`` holds no such file, ValueError when the files list no game.
    """
    games = [g for home in homes for g in json.loads((home / SUMMARY_FILE).read_text())["games"]]
    if not games:
        raise ValueError(f"no game in {', '.join(str(home / SUMMARY_FILE) for home in homes)}")
    rows = [[str(g["seed"]), str(g["quests"]), str(g["teams_voted"]), f"{g['wall_s'] / 60:.1f}", f"{g['calls']:.0f}",
             f"{g['uncached_tokens']:,.0f}", f"{g['generated_tokens']:,.0f}", str(g["re_asks"])] for g in games]
    return (markdown(SUMMARY_COLUMNS, rows) + f"\n\nover {len(games)} games:\n\n"
            + markdown(("figure", "median", "90th percentile", "max"), distribution_rows(games)))


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
    parser.add_argument("--seed", type=int, action="append", default=[],
                        help="deal seed; repeat for several games (default 1)")
    parser.add_argument("--seeds", default=None, help="a range of seeds, e.g. 1-10 (added to --seed)")
    parser.add_argument("--agents", default="lga")
    parser.add_argument("--model", default="local")
    parser.add_argument("--rule", action="append", default=[])
    parser.add_argument("--agent-option", action="append", default=[])
    parser.add_argument("--home", default=None, help="data directory (default: a temporary one)")
    parser.add_argument("--report", metavar="DIR", nargs="+", default=None,
                        help="play nothing: print the games runs (finished or stopped) wrote to each DIR, and their "
                             "distribution over all of them")
    args = parser.parse_args()
    if args.report:
        print(report(*map(Path, args.report)))
        return
    os.environ.setdefault("ROUNDTABLE_HOME", args.home or tempfile.mkdtemp(prefix="rt-bench-"))

    from roundtable.games import GAMES
    from roundtable.play.runner import new_game_id, open_runner
    from roundtable.store.records import read_record

    config = AvalonConfig.build(preset=args.preset, rules=args.rule)
    rows, modules, summaries = [], [], []
    seeds = list(args.seed)
    if args.seeds:
        first, _, last = args.seeds.partition("-")
        seeds += list(range(int(first), int(last or first) + 1))
    from roundtable.metrics.play_quality import PlayQuality, play_quality

    quality = PlayQuality()
    for seed in seeds or [1]:
        seats = resolve_seats(GAMES["avalon"], config.to_dict(), seed, args.agents, args.model, args.agent_option)
        game_id = new_game_id()
        started = time.perf_counter()
        with open_runner() as runner:
            runner.start(game_id, {"config": config.to_dict(), "seed": seed, "seats": seats})
        wall = time.perf_counter() - started
        record = read_record(game_id) or {}
        rows.append(game_row(seed, wall, record))
        modules.append((seed, module_rows(record)))
        summaries.append(summary_of(game_id, seed, wall, record))
        quality = quality.add(play_quality(record))
        save_games(Path(os.environ["ROUNDTABLE_HOME"]), summaries)
        print(markdown(GAME_COLUMNS, rows[-1:]), flush=True)  # each game as it ends
    print(f"\n{args.preset}, agents {args.agents}, model {args.model}\n")
    print(markdown(GAME_COLUMNS, rows))
    print(f"\nover {len(summaries)} games:\n")
    print(markdown(("figure", "median", "90th percentile", "max"), distribution_rows(summaries)))
    print("\nplay quality, pooled: " + "; ".join(
        f"{name} {'-' if getattr(quality, name).rate is None else f'{100 * getattr(quality, name).rate:.0f}%'}"
        f" ({getattr(quality, name).hits}/{getattr(quality, name).cases})" for name in PlayQuality.MEASURES))
    for seed, table in modules:
        print(f"\nseed {seed}, cost per agent module (model seconds include queueing):\n")
        print(markdown(("module", "calls", "prompt tok", "uncached tok", "completion tok", "model s"), table))
    print(json.dumps({"home": os.environ["ROUNDTABLE_HOME"], "games": summaries}))


if __name__ == "__main__":
    main()
