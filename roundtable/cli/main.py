"""The ``roundtable`` command line: play, resume, inspect and list games.

Groups of subcommands (``experiment``, ``pool``) are Typer apps declared under the ``roundtable.commands``
entry points, so a plugin kind or game adds its own (docs/architecture.md#plugins).

Every option is validated before the game starts (and before any model
call); a problem exits with status 2 and a message naming it.
"""

from __future__ import annotations

import functools
import json
import math
import os
import signal
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.table import Table

from roundtable.agents.registry import AGENT_KINDS
from roundtable.cli.judge import judge
from roundtable.cli.leaderboard import leaderboard
from roundtable.cli.serve import serve
from roundtable.games import GAMES
from roundtable.games.errors import ConfigurationError
from roundtable.judge.run import judge_summaries, records_dir
from roundtable.metrics.summaries import game_summary
from roundtable.models.errors import ModelError
from roundtable.play.compare import compare_games, cost_of, divergence, recorded_action
from roundtable.play.forks import ForkError, fork_game, forks_of, parse_overrides
from roundtable.play.new_game import new_game
from roundtable.play.person import NoAnswer, TerminalPerson
from roundtable.play.runner import game_of, new_game_id, open_runner, recorded_inputs
from roundtable.play.seating import resolve_seats
from roundtable.plugins import load_plugins
from roundtable.store import paths, transcript
from roundtable.store.locks import GameBusyError
from roundtable.store.records import (
    RecordError,
    build_record,
    list_records,
    module_totals,
    read_record,
    record_path,
    usage_totals,
)
from roundtable.tools.sandbox import REQUIRED_LAYERS, isolation
from roundtable.web.replay import write_replay

app = typer.Typer(help="Language-model agents playing Avalon and Werewolf, as LangGraph graphs.", no_args_is_help=True,
                  add_completion=False, pretty_exceptions_enable=False)
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def _fail(message: str, code: int = 2) -> NoReturn:
    err.print(f"[red]error:[/red] {message}", markup=True)
    raise typer.Exit(code)


def _printer(quiet: bool, game: str, viewers: set[int] | None = None):
    """The transcript printer; with ``viewers`` (people at the terminal), private events of other players are
    left out."""
    if quiet:
        return None

    rules: dict[str, str] = {}

    def show(events: list[dict[str, Any]]) -> None:
        rules.update(next((e["rules"] for e in events if e.get("type") == "game_start"), {}))
        if viewers is not None:
            events = [e for e in events if e.get("to") is None or set(e["to"]) & viewers]
        for line in transcript.lines(events, game=game, rules=rules):
            out.print(line)

    return show


def _stepper():
    def step() -> bool:
        if not sys.stdin.isatty() and sys.stdin.closed:
            return True
        try:
            answer = input("-- Enter: next phase, q: stop (resume later) -- ")
        except EOFError:
            return True
        return answer.strip().lower() not in ("q", "quit")

    return step


def _finish(game_id: str, values: dict[str, Any], as_json: bool, quiet: bool, stop_ok: bool = False) -> None:
    record = read_record(game_id) or {}
    summary = {
        "game_id": game_id,
        "status": record.get("status"),
        "winner": record.get("winner"),
        "end_reason": record.get("end_reason"),
        "record": str(record_path(game_id)),
    }
    if as_json:
        print(json.dumps(summary))
    elif not quiet:
        out.print(f"Record: {summary['record']}")
    if summary["status"] != "finished" and stop_ok:
        err.print(f"Game {game_id} stopped as asked; continue it with: roundtable resume {game_id}")
    elif summary["status"] != "finished":
        err.print(f"Game {game_id} stopped before the end; continue it with: roundtable resume {game_id}")
        raise typer.Exit(STOPPED)


STOPPED = 3
"""Exit status of a game that stopped before its end (step mode's ``q``): resumable."""


Quiet = Annotated[bool, typer.Option(help="No transcript.")]
AsJson = Annotated[bool, typer.Option("--json", help="Print one final JSON line.")]
Step = Annotated[bool, typer.Option(help="Pause after each phase until Enter (q stops; resume later).")]
Pace = Annotated[float, typer.Option(help="Seconds to wait after each step (watch live).")]


def _check_pace(pace: float) -> None:
    if not math.isfinite(pace) or pace < 0:
        _fail(f"--pace must be a number of seconds, 0 or more, not {pace}")


def _people(seats: list[dict[str, Any]] | None) -> set[int]:
    """The players whose seats a person takes (kinds that ask a person)."""
    return {p for p, seat in enumerate(seats or [], start=1)
            if seat.get("kind") in AGENT_KINDS and AGENT_KINDS[seat["kind"]].asks_person}


def _run(game_id: str, start: Any, quiet: bool, as_json: bool, step: bool, pace: float,
         seats: list[dict[str, Any]] | None = None, until_decision: bool = False, **kwargs: Any) -> None:
    """Run ``start`` (`GameRunner.start` or `.resume`) with the transcript, stepping, the people at human
    seats (asked at this terminal; hot-seat, with the screen cleared between them, when there are several)
    and outage handling."""
    people = _people(seats)
    viewers = (people if len(people) == 1 else set()) if people else None
    person = TerminalPerson(err if as_json else out, hot_seat=len(people) > 1) if people else None
    with _stopped_cleanly(game_id):
        values = start(game_id, **kwargs, on_events=_printer(quiet or as_json, start.__self__.game, viewers),
                       step=_stepper() if step else None, pace=pace, person=person, until_decision=until_decision)
    _finish(game_id, values, as_json, quiet, stop_ok=until_decision)


@contextmanager
def _stored(game_id: str, *, repair: bool = True) -> Iterator[Any]:
    """The runner of a stored game, its record first put in step with its checkpoints (``repair``); a bad or
    unknown id is refused without creating anything. A game whose record holds its inputs but that has no
    checkpoint yet (killed before its first step) counts as stored."""
    try:
        paths.check_game_id(game_id)
    except paths.GameIdError as error:
        _fail(str(error))
    database = paths.home_path() / "checkpoints.sqlite"
    unstarted = recorded_inputs(game_id) is not None
    if not database.is_file() and not unstarted:
        _fail(f"no game {game_id!r}: no games in {paths.home_path()}")
    with open_runner(game_of(game_id)) as runner:
        if not runner.exists(game_id) and not unstarted:
            _fail(f"no game {game_id!r} in {database}")
        if repair and runner.sync_record(game_id):
            err.print(f"The record of {game_id} was out of step with its checkpoints and is rewritten from them.")
        yield runner


@contextmanager
def _data_directory() -> Iterator[None]:
    """Turn an unusable data directory (a file where a directory should be, no permission, a damaged
    checkpoint database, a record that is not a JSON object) into a one-line message naming the file."""
    try:
        yield
    except sqlite3.DatabaseError as error:
        home = paths.home_path()
        if home.is_dir() and not os.access(home, os.W_OK):
            _fail(f"the data directory {home} is read-only ({error}); point ROUNDTABLE_HOME at a writable one", code=1)
        _fail(f"{home / 'checkpoints.sqlite'} is not a usable checkpoint database ({error}); "
              "move it aside to start afresh", code=1)
    except RecordError as error:
        _fail(str(error), code=1)
    except OSError as error:
        where = getattr(error, "filename", None) or paths.home_path()
        _fail(f"the data directory cannot be used: {where}: {error.strerror or error}", code=1)


def _guarded(command: Any) -> Any:
    """A command run inside `_data_directory` (its signature kept for Typer)."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        with _data_directory():
            return command(*args, **kwargs)

    return run


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread so a game stops as on Ctrl-C (checkpoint kept, record marked)."""


def _terminate(signum: int, frame: Any) -> None:
    raise Terminated()


@contextmanager
def _stopped_cleanly(game_id: str) -> Iterator[None]:
    """Turn a model outage, another driver, Ctrl-C or SIGTERM into a message with the resume command
    (the checkpoint is kept and the record marked interrupted)."""
    hint = f"The game is saved at its last step; continue it with: roundtable resume {game_id}"
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        yield
    except GameBusyError as error:
        _fail(str(error), code=1)
    except ModelError as error:
        _fail(f"{error}\n{hint}", code=1)
    except Terminated:
        _fail(f"terminated.\n{hint}", code=128 + signal.SIGTERM)
    except NoAnswer:
        _fail(f"no answer (end of input).\n{hint}", code=STOPPED)
    except KeyboardInterrupt:
        _fail(f"interrupted.\n{hint}", code=130)
    finally:
        signal.signal(signal.SIGTERM, previous)


@app.command()
@_guarded
def play(
    game: Annotated[str, typer.Argument(help=f"The game to play: {', '.join(GAMES)}.")] = "avalon",
    preset: Annotated[str | None, typer.Option(
        help="Role set: Avalon lan6, bench5, play7 or standard; Werewolf xu7 (the default).")] = None,
    players: Annotated[int | None, typer.Option(
        help="Player count, 5 to 10 (Avalon standard preset; Werewolf xu7 is for 7).")] = None,
    seed: Annotated[int | None, typer.Option(help="Game seed (default: random, printed).")] = None,
    rule: Annotated[list[str] | None, typer.Option(help="Rule variant KEY=VALUE (repeatable).")] = None,
    setting: Annotated[str | None, typer.Option(
        help="A paper's setting: its preset and rule variants (--preset and --rule override them). "
             + " | ".join(f"{name} {s.describe()}" for name, r in GAMES.items() for s in r.settings.values())
             + ".")] = None,
    agents: Annotated[str, typer.Option(help="Who plays: KIND, good=KIND, evil=KIND, ROLE=KIND, ROLE#K=KIND, "
                                        "SEAT=KIND, comma-separated, applied in order. "
                                        f"Kinds: {', '.join(AGENT_KINDS)}.")] = "naive",
    model: Annotated[str, typer.Option(help="Model per seat or side for model-driven agents, same syntax as --agents "
                                       "(default: $ROUNDTABLE_MODEL or local).")] = "",
    agent_option: Annotated[list[str] | None, typer.Option(
        help="Agent switch [TARGET:]KEY=VALUE (repeatable), e.g. no_analysis=true, evil:no_plan=true, "
             "3:analysis_scope=teammates.")] = None,
    game_id: Annotated[str | None, typer.Option(
        "--game-id", help="Use this id instead of a fresh one: 1 to 80 letters, digits, '_', '.', '-'.")] = None,
    context: Annotated[list[str] | None, typer.Option(
        help="Set the game's context: KEY=VALUE, KEY dotted (seeded_calls=false, lga.temperature=0.0), VALUE JSON "
             "or text (repeatable; kept for resume).")] = None,
    quiet: Quiet = False,
    as_json: AsJson = False,
    step: Step = False,
    pace: Pace = 0.0,
) -> None:
    """Play a game from the start."""
    _check_pace(pace)
    if game not in GAMES:
        _fail(f"unknown game {game!r}; available: {', '.join(GAMES)}")
    if game_id is not None:
        try:
            paths.check_game_id(game_id)
        except paths.GameIdError as error:
            _fail(str(error))
    try:
        made = new_game(game, preset=preset, players=players, rules=rule or [], setting=setting, agents=agents,
                        model=model, options=agent_option or [], seed=seed, context=context or [])
    except ConfigurationError as error:
        _fail(str(error))
    inputs, overrides, seed = made.inputs, made.context, made.seed
    game_id = game_id or new_game_id(game)
    if not as_json:
        out.print(f"Game {game_id} (seed {seed}); data in {paths.home()}")
    with open_runner(game) as runner:
        if runner.exists(game_id):
            _fail(f"game {game_id} already exists; resume it with: roundtable resume {game_id}")
        _run(game_id, runner.start, quiet, as_json, step, pace, seats=inputs["seats"], inputs=inputs,
             context=overrides or None)


@app.command()
@_guarded
def resume(
    game_id: Annotated[str, typer.Argument(help="The game to continue.")],
    quiet: Quiet = False,
    as_json: AsJson = False,
    step: Step = False,
    pace: Pace = 0.0,
) -> None:
    """Continue a stopped or interrupted game from its last checkpoint."""
    _check_pace(pace)
    with _stored(game_id, repair=False) as runner:
        if runner.is_finished(game_id):
            repaired = runner.sync_record(game_id)
            note = "; its record was out of step and is rewritten from its checkpoints" if repaired else ""
            _fail(f"game {game_id} is already over{note}; see: roundtable show {game_id}", code=1)
        _run(game_id, runner.resume, quiet, as_json, step, pace, seats=(read_record(game_id) or {}).get("seats"))


@app.command()
@_guarded
def show(
    game_id: Annotated[str, typer.Argument(help="The game to show.")],
    hidden: Annotated[bool, typer.Option(help="Also show analysis-only records (model decisions).")] = False,
) -> None:
    """Transcript and result of a finished or unfinished game (a finished game whose checkpoints were released, as an
    experiment's retention does, from its record)."""
    with _stored(game_id) as runner:
        values, finished = runner.state(game_id)
        released = not runner.exists(game_id)
    kept = read_record(game_id) or {} if released else {}
    if kept.get("status") == "finished":
        values, finished = {"events": kept.get("events") or []}, True
    for line in transcript.lines(values.get("events") or [], game=runner.game, hidden=hidden):
        out.print(line)
    _print_usage(usage_totals(values.get("events") or []))
    _print_module_usage(module_totals(values.get("events") or []))
    record = kept if kept.get("status") == "finished" else build_record(
        game_id, values, "finished" if finished else "running", runner.game)
    for line in game_summary(runner.game, record, finished):
        out.print(line)
    for line in judge_summaries(records_dir(), record) if finished else []:
        out.print(line, markup=False)
    if not finished:
        phase = (values.get("game") or {}).get("phase")
        out.print(f"Unfinished (phase {phase}); continue with: roundtable resume {game_id}")


def _print_usage(totals: dict[str, dict[str, float]]) -> None:
    if not any(row["calls"] for row in totals.values()):
        return
    keys = sorted((k for k in totals if k != "game"), key=int) + ["game"]
    _print_cost_table("Model cost (tokens; seconds of model time)", "player", [(k, totals[k]) for k in keys],
                      counts=("decisions",), trailing=("fallbacks",))


def _print_module_usage(totals: dict[str, dict[str, float]]) -> None:
    if totals:
        _print_cost_table("Model cost per agent module", "module", sorted(totals.items()))


def _print_cost_table(title: str, key_column: str, rows: list[tuple[str, dict[str, float]]],
                      counts: tuple[str, ...] = (), trailing: tuple[str, ...] = ()) -> None:
    """One row per key: ``counts``, calls, prompt, cached and output tokens, seconds, then ``trailing`` counts."""
    fields = (*counts, "calls", "prompt_tokens", "cached_tokens", "completion_tokens")
    table = Table(title=title)
    for column in (key_column, *counts, "calls", "prompt", "cached", "output", "seconds", *trailing):
        table.add_column(column, justify="right")
    for key, row in rows:
        table.add_row(key, *(str(int(row[f])) for f in fields), f"{row['seconds']:.1f}",
                      *(str(int(row[f])) for f in trailing))
    out.print(table)


@app.command()
@_guarded
def history(game_id: Annotated[str, typer.Argument(help="The game whose checkpoints to list.")]) -> None:
    """The game's checkpoints: step, phase, next node and what changed; forks are marked."""
    with _stored(game_id) as runner:
        fork_of = (read_record(game_id) or {}).get("fork_of")
        if fork_of:
            out.print(f"Fork of {fork_of['game_id']} at step {fork_of['step']} "
                      f"(checkpoint {fork_of['checkpoint_id']})", markup=False)
        forks: dict[str, list[str]] = {}
        for fork in forks_of(game_id):
            forks.setdefault(fork["checkpoint_id"], []).append(fork["game_id"])
        for entry in runner.history(game_id):
            changed = transcript.lines(entry["new_events"], game=runner.game, hidden=True, markup=False)
            what = "; ".join(line.strip() for line in changed) if changed else "-"
            nxt = ",".join(entry["next"]) or "(end)"
            mark = f"  <- forked: {', '.join(forks[entry['checkpoint_id']])}" if entry["checkpoint_id"] in forks else ""
            out.print(f"{entry['step']:>4}  {entry['phase'] or '-':<14} next={nxt:<16} {what}{mark}", markup=False)


def _read_prompts(items: list[str]) -> dict[str, str]:
    """``NAME=FILE`` options as ``{NAME: the file's text}``; a malformed item or unreadable file is refused."""
    prompts = {}
    for item in items:
        name, sep, file = item.partition("=")
        if not sep or not name.strip() or not file.strip():
            _fail(f"--prompt {item!r} is not of the form NAME=FILE")
        try:
            prompts[name.strip()] = open(file.strip(), encoding="utf-8").read()
        except OSError as error:
            _fail(f"--prompt {name.strip()}: cannot read {file.strip()}: {error.strerror or error}")
    return prompts


@app.command()
@_guarded
def fork(
    game_id: Annotated[str, typer.Argument(help="The game to fork.")],
    at: Annotated[str, typer.Option("--at", help="Checkpoint id or step number to fork at (see: roundtable history).")],
    prompt: Annotated[list[str] | None, typer.Option(
        help="Replace a prompt for the fork: NAME=FILE, NAME a prompt field such as act_prompt or lga.act_prompt "
             "(repeatable).")] = None,
    context: Annotated[list[str] | None, typer.Option(
        help="Override the game's context: KEY=VALUE, KEY dotted (lga.temperature=0.0, seeded_calls=false), "
             "VALUE JSON or text (repeatable).")] = None,
    until_decision: Annotated[bool, typer.Option(
        help="Stop once the next decision point's answers are applied (rerun one decision).")] = False,
    new_id: Annotated[str | None, typer.Option("--game-id", help="The fork's game id (default: a fresh one).")] = None,
    agents: Annotated[str | None, typer.Option(help="Who plays on from the checkpoint, as for play (KIND, good=KIND, "
                                                    "ROLE=KIND, SEAT=KIND, ...); default: the game's own seats. A "
                                                    "seat that changes starts with an empty memory and reads the "
                                                    "game so far.")] = None,
    model: Annotated[str | None, typer.Option(help="Models of the seats, as for play (with --agents).")] = None,
    agent_option: Annotated[list[str] | None, typer.Option(
        help="Agent options, as for play (with --agents; repeatable).")] = None,
    quiet: Quiet = False,
    as_json: AsJson = False,
) -> None:
    """Continue a game from one of its checkpoints as a new game (a fork), with edited prompts or context, or with
    other agents at some seats (--agents)."""
    prompts = _read_prompts(prompt or [])
    seats = None
    try:
        overrides = parse_overrides(context or [])
        paths.check_game_id(game_id)
        new_id = paths.check_game_id(new_id) if new_id else new_game_id(game_of(game_id))
        if agents is None and (model or agent_option):
            raise ConfigurationError("--model and --agent-option need --agents: the seats the fork is played on")
        if agents is not None:
            original = read_record(game_id) or {}
            seats = resolve_seats(GAMES[game_of(game_id)], dict(original.get("config") or {}),
                                  int(original.get("seed") or 0), agents, model or "", agent_option or [])
    except (ConfigurationError, paths.GameIdError) as error:
        _fail(str(error))
    with _stored(game_id):
        pass
    try:
        fork_game(game_id, at, prompts=prompts, context=overrides, new_id=new_id, seats=seats, run=False)
    except ForkError as error:
        _fail(str(error))
    fork_of = (read_record(new_id) or {})["fork_of"]
    if not as_json:
        out.print(f"Fork {new_id} of {game_id} at step {fork_of['step']} (checkpoint {fork_of['checkpoint_id']})",
                  markup=False)
    with _stored(new_id, repair=False) as runner:
        _run(new_id, runner.resume, quiet, as_json, False, 0.0, seats=(read_record(new_id) or {}).get("seats"),
             until_decision=until_decision)


@app.command()
@_guarded
def compare(
    game_a: Annotated[str, typer.Argument(help="One branch (e.g. the original game).")],
    game_b: Annotated[str, typer.Argument(help="The other branch (e.g. its fork).")],
    all_decisions: Annotated[bool, typer.Option(
        "--all", help="List every decision, also those that are the same or made in one branch only.")] = False,
) -> None:
    """Where two branches of a game diverge, decision by decision: prompt, raw reply, parsed action, cost."""
    for game_id in (game_a, game_b):
        with _stored(game_id):
            pass
    diffs = compare_games(game_a, game_b)
    first = divergence(diffs)
    both = [d for d in diffs if d.a is not None and d.b is not None]
    same = sum(1 for d in both if d.same)
    only_a, only_b = (sum(1 for d in diffs if d.b is None), sum(1 for d in diffs if d.a is None))
    out.print(f"{len(both)} decisions in both: {same} the same, {len(both) - same} different; "
              f"{only_a} only in A, {only_b} only in B.", markup=False)
    if first is None:
        out.print("No decision made in both differs.")
    else:
        out.print(f"First divergence: {first.request} (player {first.player}): {', '.join(first.differs)}",
                  markup=False)

    def brief(decision: dict[str, Any] | None) -> tuple[str, str, str]:
        if decision is None:
            return "-", "-", "-"
        action = json.dumps({k: v for k, v in recorded_action(decision).items() if v is not None}, ensure_ascii=False)
        raw = " ".join((decision.get("raw") or "").split())
        cost = cost_of(decision)
        spent = f"{cost['calls']}c {cost['prompt_tokens']}+{cost['completion_tokens']}t"
        return action, raw[:60] + ("..." if len(raw) > 60 else ""), spent

    table = Table(title=f"{game_a} (A) vs {game_b} (B)")
    for column in ("request", "player", "differs", "action A", "action B", "raw A", "raw B", "cost A", "cost B"):
        table.add_column(column)
    shown = [d for d in diffs if all_decisions or (not d.same and d.a is not None and d.b is not None)]
    for d in shown:
        (aa, ra, ca), (ab, rb, cb) = brief(d.a), brief(d.b)
        table.add_row(d.request, str(d.player), ",".join(d.differs) or "=", aa, ab, ra, rb, ca, cb)
    if shown:
        out.print(table)


@app.command()
@_guarded
def replay(
    game_id: Annotated[str, typer.Argument(help="The game to replay (finished or not).")],
    output: Annotated[str | None, typer.Option(
        "--out", help="Where to write the page (default: <data dir>/replays/GAME_ID.html).")] = None,
) -> None:
    """Write a self-contained HTML page that replays the game step by step (open it in any browser, offline)."""
    with _stored(game_id) as runner:
        values, finished = runner.state(game_id)
    record = read_record(game_id) or {}
    if not record.get("events"):
        record = build_record(game_id, values, "finished" if finished else "interrupted", runner.game)
    out.print(str(write_replay(record, Path(output) if output else None)), markup=False)


@app.command(name="list")
@_guarded
def list_games() -> None:
    """The games in the data directory with their status (records out of step with their checkpoints are
    rewritten from them first)."""
    records = list_records()
    stale = [r["game_id"] for r in records if r["status"] in ("running", "interrupted")]
    if stale and (paths.home_path() / "checkpoints.sqlite").is_file():
        for game in sorted({game_of(game_id) for game_id in stale}):
            with open_runner(game) as runner:
                for game_id in stale:
                    if game_of(game_id) == game:
                        runner.sync_record(game_id)
        records = list_records()
    if not records:
        out.print(f"No games in {paths.home()}")
        return
    for r in records:
        if r["status"] == "unreadable":
            out.print(f"{r['game_id']:<22} unreadable   {r['problem']}", markup=False)
            continue
        result = f"{r['winner'] or 'draw'} ({r['end_reason']})" if r["end_reason"] else "-"
        out.print(f"{r['game_id']:<22} {r['status']:<12} {r['preset'] or '-':<9} seed={r['seed']!s:<11} {result}",
                  markup=False)


@app.command()
def doctor() -> None:
    """What this machine gives the project: the CodeAct sandbox's isolation layers (and whether each is in force)."""
    layers = isolation()
    out.print("CodeAct sandbox (Python_REPL): a separate worker process per agent")
    for layer in ("limits", "namespaces", "files", "syscalls"):
        need = "required" if layer in REQUIRED_LAYERS else "optional"
        out.print(f"  {layer:<11} ({need}): {layers.get(layer, 'unavailable: not tried')}")
    out.print(f"  status: {layers['status']}")
    if not layers["status"].startswith("ok"):
        raise typer.Exit(1)


app.command()(judge)
app.command()(leaderboard)
app.command()(serve)

for _name, _commands in load_plugins("roundtable.commands", typer.Typer).items():
    app.add_typer(_commands, name=_name)  # experiment, pool (cga's experience pools), and any a plugin declares

if __name__ == "__main__":
    app()
