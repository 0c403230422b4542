"""``roundtable experiment run | status | report``: the experiment commands (a Typer sub-application).

Exit status: 0 every game finished (``run``) or the command did its work; 2 a
refused configuration or directory (nothing started); 1 some games failed or
are unfinished (rerun the same command to retry them); 130 Ctrl-C, 143 SIGTERM (no game starts after, and each
game in play stops after its current step: docs/experiments.md#running).
"""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from roundtable.experiments.config import ExperimentConfigError
from roundtable.experiments.manifest import experiment_status, experiment_store
from roundtable.experiments.progress import ProgressBar
from roundtable.experiments.ray_executor import RayExecutor, executor_for
from roundtable.experiments.report import write_report
from roundtable.experiments.runner import Listener, open_directory, prepare_directory, run_experiment
from roundtable.settings import settings
from roundtable.store.database import DatabaseError

app = typer.Typer(help="Batches of games from a configuration file: run (parallel, resumable), status, report.",
                  no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def _fail(message: str, code: int = 2) -> NoReturn:
    err.print(f"[red]error:[/red] {escape(message)}", markup=True)
    raise typer.Exit(code)


class _Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread as Ctrl-C is."""


def _terminate(signum: int, frame: Any) -> None:
    raise _Terminated()


DatabaseOption = Annotated[str | None, typer.Option(
    "--database", metavar="URL",
    help="A PostgreSQL URL (postgresql://USER:PASSWORD@HOST:PORT/DB): checkpoints, records and the run log go "
         "there, shared by every worker and the report (default: $ROUNDTABLE_DATABASE_URL; else the directory's "
         "files). Needs the 'postgres' extra.")]


@app.command()
def run(
    config: Annotated[Path, typer.Argument(help="The experiment's TOML configuration.")],
    out_dir: Annotated[Path | None, typer.Option(
        "--out", help="The experiment directory (default: <data dir>/experiments/NAME).")] = None,
    quiet: Annotated[bool, typer.Option(help="No progress bar.")] = False,
    games: Annotated[int | None, typer.Option(
        help="Play only each condition's first N games this time (a smaller-scale run; a later run without "
             "--games continues it).", min=1)] = None,
    executor: Annotated[str, typer.Option(
        metavar="in-process|ray",
        help="What plays the games: threads of this process (in-process), or Ray tasks (ray: the 'cluster' extra; "
             "docs/experiments.md#running-on-several-machines).")] = "in-process",
    ray_address: Annotated[str | None, typer.Option(
        "--ray-address", metavar="ADDR",
        help="With --executor ray: the Ray cluster to join, 'auto' (the one `ray start` started here) or "
             "HOST:PORT (default: start a local Ray instance).")] = None,
    database: DatabaseOption = None,
    condition: Annotated[list[str] | None, typer.Option(
        "--condition", metavar="NAME",
        help="Play only this condition's games this time (repeatable); a later run without it plays the others.",
        show_default=False)] = None,
    parallel: Annotated[int | None, typer.Option(
        help="Games at once this time, instead of the configuration's parallel_games (e.g. 1 on the embedded "
             "model, whose players would share its slots' prompt caches across games).", min=1, max=64)] = None,
) -> None:
    """Play every unfinished game of an experiment; rerun the same command to resume after any stop."""
    ray: RayExecutor | None = None
    try:
        checked, _, _ = prepare_directory(config, out_dir)  # refuse a bad configuration before anything runs
        ray = executor_for(executor, ray_address, checked)  # and Ray missing or not answering
    except ExperimentConfigError as error:
        _fail(str(error))
    url = database or (env.get_secret_value() if (env := settings().database_url) is not None else None)
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        if quiet:
            summary = run_experiment(config, out_dir, Listener(), first=games, executor=ray, database=url,
                                     conditions=condition, parallel=parallel)
        else:
            with ProgressBar(err) as bar:
                summary = run_experiment(config, out_dir, bar, first=games, executor=ray, database=url,
                                         conditions=condition, parallel=parallel)
    except _Terminated:
        _fail("terminated; rerun the same command to continue", code=128 + signal.SIGTERM)
    except KeyboardInterrupt:
        _fail("interrupted; rerun the same command to continue", code=130)
    except (ExperimentConfigError, DatabaseError) as error:
        _fail(str(error))
    finally:
        signal.signal(signal.SIGTERM, previous)
        if ray is not None:
            ray.close()
    elsewhere = f", {len(summary.elsewhere)} left to another process" if summary.elsewhere else ""
    out.print(f"{summary.directory}: {len(summary.finished)} games finished now, {summary.skipped} before, "
              f"{len(summary.failed)} failed, {len(summary.unfinished)} unfinished{elsewhere}", markup=False)
    for game_id, reason in sorted(summary.failed.items()):
        err.print(f"failed: {game_id}: {reason}", markup=False)
    if summary.failed or summary.unfinished:
        err.print("Rerun the same command to retry the failed and unfinished games.")
        raise typer.Exit(1)


@app.command()
def status(directory: Annotated[Path, typer.Argument(help="The experiment directory.")],
           database: DatabaseOption = None) -> None:
    """Where an experiment stands: games finished, unfinished, running, missing and failed per condition."""
    try:
        config, games, path = open_directory(directory)
        with experiment_store(path, config, database):
            state = experiment_status(path, config, games)
    except (ExperimentConfigError, DatabaseError) as error:
        _fail(str(error))
    table = Table(title=f"Experiment {state['experiment']} ({path})")
    for column in ("condition", "planned", "finished", "running", "unfinished", "missing", "calls", "tokens",
                   "fallbacks", "wall s"):
        table.add_column(column, justify="right")
    for name, c in state["conditions"].items():
        cost = c["cost"]
        table.add_row(name, *(str(c[k]) for k in ("planned", "finished", "running", "unfinished", "missing")),
                      str(int(cost["calls"])), str(int(cost["prompt_tokens"] + cost["completion_tokens"])),
                      str(int(cost["fallbacks"])), f"{c['wall_seconds']:.1f}")
    out.print(table)
    out.print(f"{state['finished']}/{state['planned']} finished; checkpoints {state['database_bytes']:,} bytes, "
              f"records {state['records_bytes']:,} bytes", markup=False)
    for game_id, reason in sorted(state["failures"].items()):
        out.print(f"failed (retried by the next run): {game_id}: {reason}", markup=False)


@app.command()
def report(
    directory: Annotated[Path, typer.Argument(help="The experiment directory.")],
    out_dir: Annotated[Path | None, typer.Option("--out", help="Where to write (default: DIR/report).")] = None,
    database: DatabaseOption = None,
) -> None:
    """Write the experiment's report from its finished records: report.md, CSV tables, PNG plots."""
    try:
        config, games, path = open_directory(directory)
        with experiment_store(path, config, database):
            written = write_report(path, config, games, out_dir)
    except (ExperimentConfigError, DatabaseError) as error:
        _fail(str(error))
    out.print(str(written), markup=False)
