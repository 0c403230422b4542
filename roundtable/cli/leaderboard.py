"""``roundtable leaderboard DIR... [--out OUT]``: rate the entrants of experiments' finished games
(docs/tournaments.md#the-leaderboard).

Writes ``leaderboard.md``, ``leaderboard.csv`` and ``leaderboard.png`` (to ``DIR/report/`` for one directory)
and prints the markdown. A refusal (a directory that is no experiment, none with a finished game, records of two
games, one entrant name for two seat specs) is one line on stderr with exit status 2.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from roundtable.experiments.config import ExperimentConfigError
from roundtable.experiments.reports.leaderboard import markdown, write_board
from roundtable.experiments.tournament_board import directories_board
from roundtable.metrics.ratings import RESAMPLES, MatchError
from roundtable.store.records import RecordError

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def _fail(message: str, code: int = 2) -> NoReturn:
    err.print(f"[red]error:[/red] {escape(message)}", markup=True)
    raise typer.Exit(code)


def leaderboard(
    directories: Annotated[list[Path], typer.Argument(
        help="Experiment directories (a tournament's, or any experiment's); their finished games are rated "
             "together, entrants matched by name.", show_default=False)],
    out_dir: Annotated[Path | None, typer.Option(
        "--out", help="Where to write leaderboard.md, .csv and .png (default: DIR/report for one directory; "
                      "needed for several).")] = None,
    resamples: Annotated[int | None, typer.Option(
        help=f"Bootstrap resamples of the games for the ratings' 95% intervals (default: the tournament's "
             f"resamples, else {RESAMPLES}).", min=1, show_default=False)] = None,
    seed: Annotated[int, typer.Option(help="The bootstrap's seed (the same records and seed give the same board).",
                                      min=0)] = 0,
) -> None:
    """Rank entrants: OpenSkill, Bradley-Terry and Elo ratings with bootstrap 95% intervals, win rate with Wilson's
    interval, games and cost per game, per entrant and per side."""
    if out_dir is None and len(directories) > 1:
        _fail("several directories: say where to write the leaderboard with --out")
    try:
        board, sources = directories_board(directories, resamples, seed)
    except (ExperimentConfigError, MatchError, RecordError) as error:
        _fail(str(error))
    target = out_dir if out_dir is not None else sources[0].path / "report"
    out.print(markdown(board, sources), markup=False)
    for path in write_board(target, board, sources):
        err.print(f"wrote {path}", markup=False)
