"""Keep an experiment's finished games in git, and put them back into an experiment directory to go on.

A reproduction of ``docs/reproductions/`` takes more hours of model games than a session or a machine lasts,
and its directory stays out of git. This keeps what the report is computed from, the finished games, in
``benchmarks/results/NAME/`` (NAME: the configuration's name): the configuration run (``experiment.toml``),
each finished game's record (``records/GAME.json``), its attempts' lines of ``runs.jsonl`` (wall seconds),
the experience pools the games wrote (``pools/POOL.json``, ``roundtable pool export``), and what Lan et
al.'s learners learned (``learning.json``, `roundtable.experiments.learning.Learning.export`). Put back into a new
directory (the pools by ``roundtable pool import``), ``roundtable experiment run CONFIG --out DIR`` skips those
games (a finished record is a finished game, docs/experiments.md) and plays the rest; ``roundtable experiment
report DIR`` reports them all.

    python benchmarks/keep_experiment.py keep DIR          # DIR's finished games into benchmarks/results/NAME/
    python benchmarks/keep_experiment.py keep DIR --replace cot-s0000   # a game played again, in place of the kept
    python benchmarks/keep_experiment.py restore NAME DIR  # into DIR (created); nothing finished is replaced

A ``cga`` pool and an ``lga`` learner are kept as their games left them: keep between games, not while one
plays. A learning series put back goes on from its last kept game with what its learners had learned by then;
a learner's items already in DIR are never replaced.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Collection
from pathlib import Path

from roundtable.experiments.learning import Learning

RESULTS = Path(__file__).resolve().parent / "results"
"""Where kept experiments live, one directory per configuration name."""

CONFIG_FILE, RUNS_FILE, LEARNING_FILE = "experiment.toml", "runs.jsonl", "learning.json"


def finished_games(directory: Path) -> dict[str, Path]:
    """``{game id: record path}`` of the finished records in ``directory/records``."""
    games = {}
    for path in sorted((directory / "records").glob("*.json")):
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            continue
        if isinstance(record, dict) and record.get("status") == "finished":
            games[path.stem] = path
    return games


def run_lines(directory: Path) -> list[dict]:
    """The attempts logged in ``directory/runs.jsonl`` (a torn line skipped)."""
    path = directory / RUNS_FILE
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines() if path.exists() else ():
        try:
            lines.append(json.loads(line))
        except ValueError:
            continue
    return lines


def copy_games(source: Path, target: Path, replace: Collection[str] = ()) -> list[str]:
    """Copy ``source``'s finished games that ``target`` has not finished (records, then their run lines) and
    its configuration when ``target`` has none; the ids copied, in order.

    A game ``target`` has finished is never replaced unless named in ``replace`` (a game played again from the
    start after a change, as `docs/reproductions/` notes): its record and run lines then give way to
    ``source``'s.

    Raises:
        ValueError: ``source`` and ``target`` hold different configurations, or a game named in ``replace`` is
            not finished in ``source``.
    """
    config, stored = source / CONFIG_FILE, target / CONFIG_FILE
    if stored.exists() and config.exists() and \
            tomllib.loads(stored.read_text(encoding="utf-8")) != tomllib.loads(config.read_text(encoding="utf-8")):
        raise ValueError(f"{target} holds another configuration than {source}")
    target.mkdir(parents=True, exist_ok=True)
    if config.exists() and not stored.exists():
        shutil.copyfile(config, stored)
    offered = finished_games(source)
    if missing := sorted(set(replace) - set(offered)):
        raise ValueError(f"not finished in {source}, nothing to replace with: {', '.join(missing)}")
    done = set(finished_games(target)) - set(replace)
    copied = [gid for gid in offered if gid not in done]
    (target / "records").mkdir(exist_ok=True)
    for gid in copied:
        shutil.copyfile(source / "records" / f"{gid}.json", target / "records" / f"{gid}.json")
    runs = merged_runs(run_lines(target) if (target / RUNS_FILE).exists() else [],
                       [run for run in run_lines(source) if run.get("game_id") in copied], set(replace))
    (target / RUNS_FILE).write_text("".join(json.dumps(run) + "\n" for run in runs), encoding="utf-8")
    return copied


def merged_runs(kept: list[dict], new: list[dict], replace: Collection[str]) -> list[dict]:
    """``kept``'s run lines with ``new``'s added: a replaced game's new lines where its old ones first stood (the
    log keeps its order), every other game's at the end."""
    by_game: dict[str, list[dict]] = {}
    for run in new:
        by_game.setdefault(run.get("game_id", ""), []).append(run)
    merged: list[dict] = []
    for run in kept:
        gid = run.get("game_id", "")
        if gid not in replace:
            merged.append(run)
        elif gid in by_game:
            merged.extend(by_game.pop(gid))
    return merged + [run for runs in by_game.values() for run in runs]


def pool_command(directory: Path, *args: str) -> None:
    """Run ``roundtable pool ARGS`` with ``directory`` as the data directory.

    Raises:
        ValueError: the command failed (its error output).
    """
    done = subprocess.run([sys.executable, "-m", "roundtable.cli.main", "pool", *args], capture_output=True,
                          text=True, env=os.environ | {"ROUNDTABLE_HOME": str(directory)}, check=False)
    if done.returncode:
        raise ValueError(f"roundtable pool {' '.join(args)}: {done.stderr.strip()}")


def copy_pools(source: Path, target: Path, kept: bool) -> list[str]:
    """Export the pools of the data directory ``source`` into ``target/pools`` (``kept``: ``source`` is an
    experiment directory), or import those kept in ``source/pools`` into the data directory ``target``; the
    names, in order."""
    if kept:
        names = sorted(p.parent.name for p in (source / "pools").glob("*/pool.json"))
        for name in names:
            (target / "pools").mkdir(parents=True, exist_ok=True)
            pool_command(source, "export", name, str((target / "pools" / f"{name}.json").resolve()))
        return names
    names = sorted(p.stem for p in (source / "pools").glob("*.json"))
    for name in names:
        pool_command(target, "import", str((source / "pools" / f"{name}.json").resolve()), name)
    return names


def copy_learning(source: Path, target: Path, kept: bool) -> int:
    """Keep what ``lga`` learners learned in the experiment directory ``source`` as ``target/learning.json``
    (``kept``), or put ``source/learning.json`` back into ``target``'s store, never replacing what a learner
    learned there (`roundtable.experiments.learning.Learning.export`, ``restore``); the number of items."""
    if kept:
        items = Learning(source).export()
        if items:
            (target / LEARNING_FILE).write_text(json.dumps(items, indent=1) + "\n", encoding="utf-8")
        return len(items)
    path = source / LEARNING_FILE
    if not path.is_file():
        return 0
    target.mkdir(parents=True, exist_ok=True)
    return Learning(target).restore(json.loads(path.read_text(encoding="utf-8")))


def experiment_name(directory: Path) -> str:
    """The configuration name in ``directory/experiment.toml``.

    Raises:
        ValueError: no configuration there, or one without a name.
    """
    path = directory / CONFIG_FILE
    if not path.is_file():
        raise ValueError(f"{directory} is not an experiment directory (no {CONFIG_FILE})")
    name = tomllib.loads(path.read_text(encoding="utf-8")).get("name")
    if not isinstance(name, str) or not name:
        raise ValueError(f"{path} names no experiment")
    return name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    verbs = parser.add_subparsers(dest="verb", required=True)
    keep = verbs.add_parser("keep", help="copy DIR's finished games into benchmarks/results/NAME")
    keep.add_argument("directory")
    keep.add_argument("--replace", action="append", default=[], metavar="GAME",
                      help="a game kept before to replace with DIR's finished one (repeatable)")
    restore = verbs.add_parser("restore", help="copy kept games of NAME into DIR")
    restore.add_argument("name")
    restore.add_argument("directory")
    args = parser.parse_args()
    try:
        if args.verb == "keep":
            source = Path(args.directory)
            target = RESULTS / experiment_name(source)
        else:
            source, target = RESULTS / args.name, Path(args.directory)
            if not source.is_dir():
                raise ValueError(f"nothing kept under {source}")
        copied = copy_games(source, target, getattr(args, "replace", ()))
        pools = copy_pools(source, target, kept=args.verb == "keep")
        learned = copy_learning(source, target, kept=args.verb == "keep")
    except ValueError as error:
        parser.error(str(error))
    print(f"{len(copied)} finished games copied into {target}" + (f": {', '.join(copied)}" if copied else "")
          + (f"; pools {', '.join(pools)}" if pools else "") + (f"; {learned} learned items" if learned else ""))


if __name__ == "__main__":
    main()
