"""Play quality of every model-driven kind on a model, in every game it plays: play the seeded games, print the table.

Plays the suite of seeded games below through the CLI (``roundtable play``,
one game at a time, each in a process of its own with the data directory
``--home``), resumably: a game whose record is finished is skipped, a game
stopped midway is continued (``roundtable resume``); with ``--again``, the
chosen games are deleted from ``--home`` first and played from the start
(after a change to the agents; refused while another process plays one). Then prints, per suite
entry (a kind in one game and setting), the play-quality measures pooled over
its games (`roundtable.metrics.play_quality`, docs/measures.md#play-quality),
calls per decision and wall minutes per game, against the targets of issue
"Every model-driven kind plays sensibly".

    python benchmarks/bench_play_quality.py --home DIR                      # the whole suite (hours)
    python benchmarks/bench_play_quality.py --home DIR --only cga-xu7 lga-lan6
    python benchmarks/bench_play_quality.py --home DIR --only cga-xu7 --tag nochecks \\
        --agent-option checks=off                                           # a variant, in games of its own
    python benchmarks/bench_play_quality.py --home DIR --report             # play nothing, print the table
    python benchmarks/bench_play_quality.py --home DIR --report \\
        --experiment cot-avalonplay=EXP_DIR:cot                             # count an experiment's games too

An experiment condition that plays exactly an entry's configuration (the same
game, preset or setting, kind in every seat, model and no options, as
``experiments/avalonplay_table3.toml``'s ``cot`` and ``codeact`` conditions
play ``cot-avalonplay`` and ``codeact-avalonplay``) is the same measurement on
other seeds: ``--experiment ENTRY=DIR:CONDITION`` counts its finished games in
the entry's row (the row says how many), so hour-long games serve both. A game
whose record differs from the entry's configuration is refused, named. Without
``--experiment``, the reproductions' games kept in git count (`KEPT_EXPERIMENTS`).

Wall times (summed over a game's runs, so a resumed game counts the time it
was played) are kept in ``DIR/bench_play_quality.json``; a game interrupted
midway counts its earlier runs' time only when they ended normally.

The code each run of a game played on (the commit, ``+`` when the package had uncommitted changes) is
kept beside, in ``DIR/bench_play_quality_code.json`` (``{game: [commit, ...]}``, a resumed game naming each).

Each finished game's record, wall time and code are also kept in ``--archive``
(by default `ARCHIVE`, in git), and a game found there is neither played
again nor missing from the table: the suite takes more hours than a session
or a machine lasts, and the table is measured over all of its games.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from roundtable.games import GAMES
from roundtable.metrics.play_quality import PlayQuality, play_quality
from roundtable.play.runner import open_runner
from roundtable.settings import data_home
from roundtable.store.locks import GameBusyError, game_lock
from roundtable.store.records import record_path


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
    *(Entry(f"{kind}-sh5", "secret_hitler", ("--players", "5", "--agents", kind), (1, 2))
      for kind in ("lga", "cga", "react", "cot", "codeact")),
)
"""The seeded games of issue 35: at least four per kind and game it plays, two for the long ``cot``/``codeact``;
and issue 60's Secret Hitler games (the plugin package's game, five players) of each kind that plays it on the
embedded model, two seeds each."""

TIMES = "bench_play_quality.json"
CODE = "bench_play_quality_code.json"
"""The commits each game's runs played on, ``{game: [commit, ...]}`` (`code_version`)."""

ARCHIVE = Path(__file__).resolve().parent / "results" / "play_quality"
"""The finished games of the suite, kept in git: ``records/GAME.json`` and the wall seconds in `TIMES`."""

KEPT_EXPERIMENTS = (("codeact-avalonplay", "avalonplay-table3", "codeact"),
                    ("cot-avalonplay", "avalonplay-table3", "cot"),
                    ("cga-xu7", "xu-fig3-pools", "pool-0"))
"""``(entry, kept experiment, condition)``: the reproductions' conditions that play a suite entry's configuration,
counted in its row from their games kept in git (``benchmarks/keep_experiment.py``) unless ``--experiment`` names
others."""



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


def finished_record(gid: str, *directories: Path | None) -> dict[str, Any]:
    """The finished record of game ``gid`` in the first of ``directories`` (data directories or archives,
    None skipped) that has one in its ``records/``, or ``{}``."""
    for directory in directories:
        if directory is not None:
            record = read_json(directory / "records" / f"{gid}.json")
            if record.get("status") == "finished":
                return record
    return {}


def wall_seconds(gid: str, *directories: Path | None) -> float | None:
    """The wall seconds of game ``gid`` in the `TIMES` of the first of ``directories`` that logged them."""
    for directory in directories:
        if directory is not None and gid in (times := read_json(directory / TIMES)):
            return float(times[gid])
    return None


def code_version() -> str:
    """The commit of the checkout this script runs from, ``+`` appended when ``roundtable/`` has uncommitted
    changes; ``"unknown"`` outside a git checkout."""
    root = Path(__file__).resolve().parent.parent

    def git(*args: str) -> str | None:
        try:  # Popen, not run: the suite's tests stand in for the games' subprocess.run
            with subprocess.Popen(["git", "-C", str(root), *args], stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True) as proc:
                out, _ = proc.communicate()
        except OSError:
            return None
        return out.strip() if proc.returncode == 0 else None

    commit = git("rev-parse", "--short", "HEAD")
    if not commit:
        return "unknown"
    return commit + ("+" if git("status", "--porcelain", "--", "roundtable") else "")


def note_code(directory: Path, gid: str, commits: Sequence[str]) -> None:
    """Add ``commits`` (in order, without repeating the last one named) to game ``gid``'s list in ``directory``'s
    `CODE`."""
    code = read_json(directory / CODE)
    named = list(code.get(gid) or [])
    for commit in commits:
        if not named or named[-1] != commit:
            named.append(commit)
    (directory / CODE).write_text(json.dumps(code | {gid: named}, indent=1, sort_keys=True) + "\n")


def keep(home: Path, archive: Path, gid: str) -> None:
    """Copy game ``gid``'s record, wall time and code from ``home`` into ``archive`` when it is finished there."""
    record = finished_record(gid, home)
    if not record:
        return
    (archive / "records").mkdir(parents=True, exist_ok=True)
    (archive / "records" / f"{gid}.json").write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    seconds = wall_seconds(gid, home)
    if seconds is not None:
        times = read_json(archive / TIMES) | {gid: seconds}
        (archive / TIMES).write_text(json.dumps(times, indent=1, sort_keys=True) + "\n")
    if commits := read_json(home / CODE).get(gid):  # home's list is the game's whole history: it replaces
        code = read_json(archive / CODE) | {gid: commits}
        (archive / CODE).write_text(json.dumps(code, indent=1, sort_keys=True) + "\n")


def forget(home: Path, entry: Entry, gid: str, archive: Path | None = None) -> None:
    """Delete game ``gid``'s checkpoints, record and wall time from ``home``, so that `play` starts it afresh (after
    a change to the agents, its seed played again on the new code).

    Raises:
        ValueError: the game is finished in ``archive`` (kept in git: play it under a new ``--tag``).
        GameBusyError: another process is playing it now (its lock is held); nothing is deleted.
    """
    if finished_record(gid, archive):
        raise ValueError(f"{gid} is finished in the archive {archive}; play it again under a new --tag")
    with data_home(home), game_lock(gid):
        with open_runner(entry.game) as runner:
            runner.saver.delete_thread(gid)
        record_path(gid).unlink(missing_ok=True)
    for name in (TIMES, CODE):
        logged = read_json(home / name)
        if logged.pop(gid, None) is not None:
            (home / name).write_text(json.dumps(logged, indent=1, sort_keys=True))
    print(f"== {gid}: forgotten, to be played from the start", flush=True)


def play(home: Path, entry: Entry, seed: int, tag: str, extra: list[str], model: str,
         archive: Path | None = None) -> None:
    """Play (or continue) one game of the suite in its own process, adding its wall seconds to `TIMES`; a game
    finished in ``home`` or ``archive`` is skipped, and one finished now is kept in ``archive`` (`keep`)."""
    gid = game_id(entry, seed, tag)
    if finished_record(gid, home, archive):
        if archive is not None:
            keep(home, archive, gid)
        return
    record = read_json(home / "records" / f"{gid}.json")
    cli = [sys.executable, "-m", "roundtable.cli.main"]
    if record:
        command = [*cli, "resume", gid, "--quiet"]
    else:
        command = [*cli, "play", entry.game, *entry.args, "--seed", str(seed), "--game-id", gid,
                   "--model", model, "--quiet", *extra]
    print(f"== {gid}: {' '.join(command[3:])}", flush=True)
    note_code(home, gid, [code_version()])
    started = time.perf_counter()
    done = subprocess.run(command, env=os.environ | {"ROUNDTABLE_HOME": str(home)}, check=False)
    wall = time.perf_counter() - started
    times = read_json(home / TIMES)
    times[gid] = times.get(gid, 0.0) + wall
    (home / TIMES).write_text(json.dumps(times, indent=1, sort_keys=True))
    print(f"== {gid}: exit {done.returncode}, {wall / 60:.1f} min", flush=True)
    if archive is not None:
        keep(home, archive, gid)


@dataclass(frozen=True)
class Borrowed:
    """An experiment condition whose games count in a suite entry's row: ``DIR/records/CONDITION-sNNNN.json``."""

    entry: str
    directory: Path
    condition: str


def parse_borrowed(text: str) -> Borrowed:
    """``ENTRY=DIR:CONDITION`` as a `Borrowed`.

    Raises:
        ValueError: another form, or a directory with no ``records``.
    """
    entry, _, rest = text.partition("=")
    directory, _, condition = rest.rpartition(":")
    if not entry or not directory or not condition:
        raise ValueError(f"--experiment {text!r}: give ENTRY=DIR:CONDITION")
    if not (Path(directory) / "records").is_dir():
        raise ValueError(f"--experiment {text!r}: {directory} holds no experiment's records")
    return Borrowed(entry, Path(directory), condition)


def kept_borrowed(results: Path) -> list[Borrowed]:
    """The `KEPT_EXPERIMENTS` whose kept directory under ``results`` holds records."""
    return [Borrowed(entry, results / name, condition) for entry, name, condition in KEPT_EXPERIMENTS
            if (results / name / "records").is_dir()]


def configuration_problem(entry: Entry, record: dict[str, Any], model: str) -> str | None:
    """Why ``record`` is not a game of ``entry``'s configuration on ``model``, or None when it is one.

    The same game; every seat the entry's kind on ``model`` with no options; and the entry's preset, or its named
    setting's preset and every rule variant of that setting.
    """
    args = dict(zip(entry.args[::2], entry.args[1::2], strict=True))
    if record.get("game") != entry.game:
        return f"game {record.get('game')!r}, not {entry.game!r}"
    wanted = {"kind": args["--agents"], "model": model, "options": {}}
    for player, seat in enumerate(record.get("seats") or [], start=1):
        if {k: seat.get(k) for k in wanted} != wanted:
            return f"seat {player} is {seat}, not {wanted}"
    config = record.get("config") or {}
    preset, rules = args.get("--preset"), ()
    if "--setting" in args:
        setting = GAMES[entry.game].settings[args["--setting"]]
        preset, rules = setting.preset, setting.rules
    if preset is not None and config.get("preset") != preset:
        return f"preset {config.get('preset')!r}, not {preset!r}"
    for rule in rules:
        key, _, value = rule.partition("=")
        if str((config.get("rules") or {}).get(key)) != value:
            return f"rule {key}={(config.get('rules') or {}).get(key)!r}, not {value!r}"
    return None


def borrowed_games(borrowed: Borrowed, entry: Entry, model: str) -> list[tuple[dict[str, Any], float | None]]:
    """The finished games of an experiment condition, each with its wall seconds (summed over the runs of
    ``runs.jsonl``; None when none was logged).

    Raises:
        ValueError: a finished game whose configuration is not the entry's (`configuration_problem`).
    """
    seconds: dict[str, float] = {}
    log = borrowed.directory / "runs.jsonl"
    for line in log.read_text().splitlines() if log.exists() else ():
        run = json.loads(line)
        seconds[run["game_id"]] = seconds.get(run["game_id"], 0.0) + float(run.get("seconds") or 0.0)
    games = []
    for path in sorted((borrowed.directory / "records").glob(f"{borrowed.condition}-s*.json")):
        record = read_json(path)
        if record.get("status") != "finished":
            continue
        problem = configuration_problem(entry, record, model)
        if problem is not None:
            raise ValueError(f"{path}: not a game of {entry.name}: {problem}")
        games.append((record, seconds.get(path.stem)))
    return games


def percent(hits: int, cases: int) -> str:
    """``"hits/cases = rate%"``, or ``"-"`` without cases."""
    return f"{hits}/{cases} = {100 * hits / cases:.0f}%" if cases else "-"


def entry_row(home: Path, entry: Entry, tag: str, borrowed: Sequence[Borrowed] = (),
              model: str = "local", archive: Path | None = None) -> list[str] | None:
    """The table row of one suite entry over its finished games (in ``home`` or ``archive``) and those of the
    experiment conditions ``borrowed`` for it, or None when none has finished."""
    games: list[tuple[dict[str, Any], float | None]] = []
    for seed in entry.seeds:
        gid = game_id(entry, seed, tag)
        if record := finished_record(gid, home, archive):
            games.append((record, wall_seconds(gid, home, archive)))
    own = len(games)
    for source in borrowed:
        if source.entry == entry.name:
            games += borrowed_games(source, entry, model)
    if not games:
        return None
    total, walls, calls, decisions = PlayQuality(), [], 0.0, 0.0
    for record, seconds in games:
        total = total.add(play_quality(record))
        usage = (record.get("usage") or {}).get("game") or {}
        calls, decisions = calls + usage.get("calls", 0), decisions + usage.get("decisions", 0)
        if seconds is not None:
            walls.append(seconds / 60)
    measures = [percent(getattr(total, m).hits, getattr(total, m).cases) for m in PlayQuality.MEASURES]
    count = f"{own}/{len(entry.seeds)}" + (f" + {len(games) - own} of experiments" if len(games) > own else "")
    return [f"{entry.name}{f' ({tag})' if tag else ''}", count, *measures,
            f"{calls / decisions:.2f}" if decisions else "-",
            f"{statistics.median(walls):.1f}" if walls else "-"]


def table(home: Path, entries: list[Entry], tag: str, borrowed: Sequence[Borrowed] = (),
          model: str = "local", archive: Path | None = None) -> str:
    """The markdown table of the entries that have a finished game (their own, archived or ``borrowed``)."""
    columns = ["kind and game", "games", *(m.replace("_", " ") for m in PlayQuality.MEASURES),
               "calls per decision", "wall min (median)"]
    rows = [row for entry in entries
            if (row := entry_row(home, entry, tag, borrowed, model, archive)) is not None]
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
    parser.add_argument("--again", action="store_true",
                        help="play the chosen games from the start: their checkpoints, record and wall time in "
                             "--home are deleted first (refused for a game being played or kept in the archive)")
    parser.add_argument("--archive", default=str(ARCHIVE),
                        help="where finished games are kept and read from ('' for none; default: in git)")
    parser.add_argument("--experiment", action="append", default=[], metavar="ENTRY=DIR:CONDITION",
                        help="count an experiment condition's finished games in a suite entry's row (same setup; "
                             "default: the reproductions' games kept in git, KEPT_EXPERIMENTS)")
    args = parser.parse_args()
    known = {e.name: e for e in SUITE}
    try:
        borrowed = ([parse_borrowed(text) for text in args.experiment] if args.experiment
                    else kept_borrowed(ARCHIVE.parent))
    except ValueError as error:
        parser.error(str(error))
    unknown = sorted((set(args.only or ()) | {b.entry for b in borrowed}) - set(known))
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
    archive = Path(args.archive) if args.archive else None
    if args.again and not args.report:
        try:
            for entry in entries:
                for seed in entry.seeds:
                    forget(home, entry, game_id(entry, seed, args.tag), archive)
        except (ValueError, GameBusyError) as error:
            parser.error(str(error))
    for entry in entries:
        for seed in entry.seeds:
            if not args.report:
                play(home, entry, seed, args.tag, extra, args.model, archive)
            elif archive is not None:
                keep(home, archive, game_id(entry, seed, args.tag))
    try:
        print(table(home, entries, args.tag, borrowed, args.model, archive))
    except ValueError as error:
        parser.error(str(error))


if __name__ == "__main__":
    main()
