"""Play quality of finished Avalon and Werewolf games, from their records, with no model.

Per game and pooled per game (Avalon, Werewolf), every measure of `roundtable.metrics.play_quality`
(docs/measures.md#play-quality): parroting, thoughts said aloud, self-exposure, Merlin (the Seer) exposed,
knowledge-settled decisions right, dead players named, words and actions agreeing, fallbacks, and the Avalon games
ended by five rejected teams with the quest each ended in; then calls, uncached and generated tokens per game, and
the wall time where `bench_lga_game.py` (``bench_lga_game.json``) or `bench_play_quality.py`
(``bench_play_quality.json``) left it next to the records. Each pooled measure is checked against issue 35's
target: parroting <= 10%, thoughts said aloud <= 5%, self-exposure <= 5%, Merlin exposed <= 5%,
knowledge-settled decisions right >= 80%, words and actions agree >= 90%, at most a third of Avalon games ended by
five rejections, fallbacks <= 5% of decisions. Last, the agent's own checks
(`roundtable.metrics.play_quality.agent_checks`): how many re-asks each kind of check made and how many of them
fixed what it found.

    python benchmarks/play_quality.py DIR_OR_RECORD...         # records/ directories, data directories or files
    python benchmarks/play_quality.py /tmp/bench/records --examples 5
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from roundtable.metrics.play_quality import (
    LABELS,
    TARGETS,
    PlayQuality,
    Share,
    agent_checks,
    meets,
    overruled,
    percent,
    play_quality,
)

GAMES = ("avalon", "werewolf")
"""The games whose records are read."""
WALL_FILES = ("bench_lga_game.json", "bench_play_quality.json")
"""Where the benchmarks that play games leave their wall seconds: ``{"games": [{"game_id", "wall_s"}]}`` or
``{game_id: seconds}``."""


def wall_seconds(paths: list[str]) -> dict[str, float]:
    """Wall seconds per game id, from the `WALL_FILES` in each path or its parent."""
    walls: dict[str, float] = {}
    for name in paths:
        for directory in (Path(name), Path(name).parent):
            for file in WALL_FILES:
                summary = directory / file
                if not summary.is_file():
                    continue
                data = json.loads(summary.read_text())
                if isinstance(data.get("games"), list):
                    walls |= {g["game_id"]: g["wall_s"] for g in data["games"]}
                else:
                    walls |= {k: float(v) for k, v in data.items() if isinstance(v, int | float)}
    return walls


def record_files(paths: list[str]) -> list[Path]:
    """The ``*.json`` game records under each path (a file, a ``records`` directory or a data directory).

    A directory's forks (records with ``fork_of``, e.g. from ``models/fork_decisions.py`` run in a benchmark's
    data directory) are left out: they repeat their original's decisions up to the fork. Files named one by
    one are all kept.
    """
    files: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_file():
            files.append(path)
            continue
        found = sorted((path / "records" if (path / "records").is_dir() else path).glob("*.json"))
        files += [f for f in found if not _is_fork(f)]
    return files


def _is_fork(path: Path) -> bool:
    try:
        return bool(json.loads(path.read_text()).get("fork_of"))
    except (OSError, ValueError):
        return False


COLUMNS = ("game", *(LABELS[m] for m in PlayQuality.MEASURES), "calls", "uncached tok", "generated tok",
           "wall min")


def row(name: str, quality: PlayQuality, games: int = 1, minutes: float | None = None) -> list[str]:
    """A table row: every measure, then costs per game."""
    per = max(games, 1)
    return [name, *(percent(getattr(quality, m)) for m in PlayQuality.MEASURES),
            f"{quality.calls / per:.0f}", f"{quality.uncached_tokens / per:,.0f}",
            f"{quality.completion_tokens / per:,.0f}", "-" if minutes is None else f"{minutes:.1f}"]


def target_lines(game: str, total: PlayQuality) -> list[str]:
    """One line per measure with a target and cases in ``game``'s pool: the rate, the target, met or not."""
    lines = []
    for measure, (sense, target) in TARGETS.items():
        rate = getattr(total, measure).rate
        if rate is None:
            continue
        lines.append(f"{game} {LABELS[measure]}: {100 * rate:.1f}% (target {sense} {100 * target:.0f}%) "
                     f"{'met' if meets(measure, rate) else 'NOT met'}")
    if total.settled_rules:
        lines.append(f"{game} knowledge-settled decisions right by rule: " + "; ".join(
            f"{rule} {percent(share)}" for rule, share in sorted(total.settled_rules.items())))
    if total.five_rejections.cases:
        quests = ", ".join(map(str, sorted(total.five_rejection_quests))) or "none"
        lines.append(f"{game} games ended by five rejected teams: {total.five_rejections.hits} of "
                     f"{total.five_rejections.cases}, in quests {quests}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+", help="record files, records/ directories or data directories")
    parser.add_argument("--examples", type=int, default=3, help="offending utterances shown per measure")
    parser.add_argument("--json", action="store_true", help="print the pooled figures per game as JSON too")
    args = parser.parse_args()
    rows: list[list[str]] = []
    totals = {game: PlayQuality() for game in GAMES}
    games = dict.fromkeys(GAMES, 0)
    walls: dict[str, list[float]] = {game: [] for game in GAMES}
    checks: dict[str, Share] = {}
    replaced: dict[str, int] = {}
    known_walls = wall_seconds(args.paths)
    for path in record_files(args.paths):
        record: dict[str, Any] = json.loads(path.read_text())
        game = str(record.get("game") or "avalon")
        if record.get("status") != "finished" or game not in GAMES:
            continue
        quality = play_quality(record)
        wall = known_walls.get(record["game_id"])
        if wall is not None:
            walls[game].append(wall)
        rows.append(row(f"{record['game_id']} (seed {record.get('seed')})", quality,
                        minutes=None if wall is None else wall / 60))
        totals[game], games[game] = totals[game].add(quality), games[game] + 1
        for kind, share in agent_checks(record).items():
            checks[kind] = checks.get(kind, Share()).add(share)
        for kind, count in overruled(record).items():
            replaced[kind] = replaced.get(kind, 0) + count
    for game in GAMES:
        if games[game]:
            known = walls[game]
            rows.append(row(f"**all {games[game]} {game} games** (costs per game)", totals[game], games[game],
                            sum(known) / len(known) / 60 if known else None))
    print("| " + " | ".join(COLUMNS) + " |\n|" + "---|" * len(COLUMNS))
    print("\n".join("| " + " | ".join(r) + " |" for r in rows))
    print()
    for game in GAMES:
        if games[game]:
            print("\n".join(target_lines(game, totals[game])))
    print("\nthe agent's checks, re-asks that fixed what they found: "
          + ("; ".join(f"{kind} {percent(share)}" for kind, share in sorted(checks.items())) or "none"))
    print("decisions the agent's rule took instead of the model (overrule): "
          + ("; ".join(f"{kind} {count}" for kind, count in sorted(replaced.items())) or "none"))
    pooled = totals["avalon"].add(totals["werewolf"])
    for measure, examples in sorted(pooled.examples.items()):
        print(f"\n{LABELS.get(measure, measure)}, first {min(args.examples, len(examples))} of {len(examples)}:")
        for text in examples[: args.examples]:
            print(f"  - {text[:300]}")
    if args.json:
        print(json.dumps({game: {m: getattr(totals[game], m).rate for m in PlayQuality.MEASURES}
                          | {c: getattr(totals[game], c) / max(games[game], 1) for c in PlayQuality.COSTS}
                          | {"games": games[game]} for game in GAMES if games[game]}))


if __name__ == "__main__":
    main()
