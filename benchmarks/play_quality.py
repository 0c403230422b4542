"""Play quality of finished Avalon games, from their records, with no model.

Per game and pooled over all of them: parroting, self-exposure,
knowledge-settled votes right, words and actions consistent (the measures of
`roundtable.metrics.play_quality`), then calls, uncached and generated tokens
and fallbacks per game, and the wall time where `bench_lga_game.py`
left its ``bench_lga_game.json`` next to the records. Targets (issue "Play quality on the embedded
model"): parroting <= 10%, self-exposure <= 5%, settled votes right >= 80%,
words and actions >= 90%. Last, the agent's own checks
(`roundtable.metrics.play_quality.agent_checks`): how many re-asks each kind
of check made and how many of them fixed what it found.

    python benchmarks/play_quality.py DIR_OR_RECORD...         # records/ directories, data directories or files
    python benchmarks/play_quality.py /tmp/bench/records --examples 5
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from roundtable.metrics.play_quality import PlayQuality, Share, agent_checks, play_quality

TARGETS = {"parroting": ("<=", 0.10), "self_exposure": ("<=", 0.05), "settled_votes": (">=", 0.80),
           "words_and_actions": (">=", 0.90)}
"""The issue's targets per measure."""


def wall_seconds(paths: list[str]) -> dict[str, float]:
    """Wall seconds per game id, from the ``bench_lga_game.json`` that `bench_lga_game.py` writes in its data
    directory."""
    walls: dict[str, float] = {}
    for name in paths:
        for directory in (Path(name), Path(name).parent):
            summary = directory / "bench_lga_game.json"
            if summary.is_file():
                walls |= {g["game_id"]: g["wall_s"] for g in json.loads(summary.read_text())["games"]}
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


def percent(share: Share) -> str:
    """``"hits/cases = rate%"``, or ``"-"`` without cases."""
    return "-" if share.rate is None else f"{share.hits}/{share.cases} = {100 * share.rate:.0f}%"


def row(name: str, quality: PlayQuality, games: int = 1, minutes: float | None = None) -> list[str]:
    """A table row: the four measures, then costs per game."""
    per = max(games, 1)
    return [name, *(percent(getattr(quality, m)) for m in PlayQuality.MEASURES),
            f"{quality.calls / per:.0f}", f"{quality.uncached_tokens / per:,.0f}",
            f"{quality.completion_tokens / per:,.0f}", f"{quality.fallbacks / per:.1f}",
            "-" if minutes is None else f"{minutes:.1f}"]


COLUMNS = ("game", "parroting", "self-exposure", "settled votes right", "words and actions",
           "calls", "uncached tok", "generated tok", "fallbacks", "wall min")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+", help="record files, records/ directories or data directories")
    parser.add_argument("--examples", type=int, default=3, help="offending utterances shown per measure")
    parser.add_argument("--json", action="store_true", help="print the pooled figures as JSON too")
    args = parser.parse_args()
    rows, total, games, walls = [], PlayQuality(), 0, []
    checks: dict[str, Share] = {}
    known_walls = wall_seconds(args.paths)
    for path in record_files(args.paths):
        record: dict[str, Any] = json.loads(path.read_text())
        if record.get("status") != "finished" or record.get("game") != "avalon":
            continue
        quality = play_quality(record)
        wall = known_walls.get(record["game_id"])
        walls.append(wall)
        rows.append(row(f"{record['game_id']} (seed {record.get('seed')})", quality,
                        minutes=None if wall is None else wall / 60))
        total, games = total.add(quality), games + 1
        for kind, share in agent_checks(record).items():
            checks[kind] = checks.get(kind, Share()).add(share)
    known = [w for w in walls if w is not None]
    rows.append(row(f"**all {games} games** (costs per game)", total, games,
                    sum(known) / len(known) / 60 if known else None))
    print("| " + " | ".join(COLUMNS) + " |\n|" + "---|" * len(COLUMNS))
    print("\n".join("| " + " | ".join(r) + " |" for r in rows))
    print()
    for measure, (sense, target) in TARGETS.items():
        rate = getattr(total, measure).rate
        met = rate is not None and (rate <= target if sense == "<=" else rate >= target)
        print(f"{measure}: {'-' if rate is None else f'{100 * rate:.1f}%'} (target {sense} {100 * target:.0f}%)"
              f" {'met' if met else 'NOT met'}")
    print("\nthe agent's checks, re-asks that fixed what they found: "
          + ("; ".join(f"{kind} {percent(share)}" for kind, share in sorted(checks.items())) or "none"))
    for measure, examples in sorted(total.examples.items()):
        print(f"\n{measure}, first {min(args.examples, len(examples))} of {len(examples)}:")
        for text in examples[: args.examples]:
            print(f"  - {text[:300]}")
    if args.json:
        print(json.dumps({m: getattr(total, m).rate for m in PlayQuality.MEASURES}
                         | {c: getattr(total, c) / max(games, 1) for c in PlayQuality.COSTS} | {"games": games}))


if __name__ == "__main__":
    main()
