"""``roundtable judge GAME_ID|EXPERIMENT_DIR --model SPEC``: the social-behaviour judge over finished records
(docs/judge.md#running-the-judge).

Everything is checked before the first model call: the model spec, the game id or experiment directory, that
each game is finished, that its game has the behaviours asked for. A refusal is one line on stderr with exit
status 2; an endpoint that fails mid-run exits with status 1 and keeps the judgements made so far (the same
command continues).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from roundtable.experiments.config import ExperimentConfigError
from roundtable.experiments.runner import open_directory
from roundtable.judge.graph import judge_game
from roundtable.judge.protocol import judges
from roundtable.judge.run import JudgeInputError, check_record, load_record, records_dir
from roundtable.models import ModelError, check_model, parse_model_spec
from roundtable.settings import settings

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def _fail(message: str, code: int = 2) -> NoReturn:
    err.print(f"[red]error:[/red] {escape(message)}", markup=True)
    raise typer.Exit(code)


def _targets(target: str, behaviours: list[str] | None) -> tuple[Path | None, list[dict[str, Any]]]:
    """``(data directory or None for the current one, the finished records to judge)``, every one checked.

    Raises:
        JudgeInputError: an unknown game, an unfinished one, a record of a game or behaviour not judged.
        ExperimentConfigError: a directory that is no experiment.
    """
    if not Path(target).is_dir():
        record = load_record(records_dir(), target)
        check_record(record, behaviours)
        return None, [record]
    _, games, path = open_directory(target)
    found = [load_record(path / "records", g.game_id) for g in games
             if (path / "records" / f"{g.game_id}.json").is_file()]
    finished = [r for r in found if r.get("status") == "finished"]
    if not finished:
        raise JudgeInputError(f"experiment {path} has no finished game to judge ({len(games)} planned, "
                              f"{len(found)} started)")
    for record in finished:
        check_record(record, behaviours)
    if len(finished) < len(games):
        err.print(f"{len(games) - len(finished)} of the experiment's {len(games)} games are not finished and are "
                  "left out.", markup=False)
    return path, finished


def _counts(behaviour: str, counts: dict[str, int]) -> str:
    """``stance 12 questions (3 asked now, 1 unusable)``."""
    unusable = f", {counts['unusable']} unusable" if counts["unusable"] else ""
    return f"{behaviour} {counts['items']} questions ({counts['asked']} asked now{unusable})"


def judge(
    target: Annotated[str, typer.Argument(
        help="A finished game's id, or an experiment directory (its finished games).")],
    model: Annotated[str, typer.Option(
        help="The judge model: local, a hosted model name, BASE_URL#MODEL or BASE_URL|BASE_URL...#MODEL (replicas) "
             "(default: $ROUNDTABLE_MODEL or local). Asked at temperature 0, schema-constrained where the endpoint "
             "allows.")] = "",
    behaviour: Annotated[list[str] | None, typer.Option(
        help="Judge only this behaviour (repeatable). Default: all of the game's: "
             + "; ".join(f"{game} {', '.join(j.behaviours)}" for game, j in judges().items()) + ".")] = None,
) -> None:
    """Judge the players' social behaviour in finished games with a model (Lan et al.: deception, teamwork and
    confrontation, sharing; Xu et al.: trust, confrontation, camouflage), cached per record, behaviour and judge
    model beside the record."""
    spec = model or settings().model
    try:
        check_model(parse_model_spec(spec))
        home, records = _targets(target, behaviour)
    except (ValueError, ExperimentConfigError) as error:  # JudgeInputError and ModelConfigError are ValueErrors
        _fail(str(error))
    for record in records:
        game_id = str(record["game_id"])
        try:
            result = judge_game(game_id, spec, behaviour, home=home)
        except ModelError as error:
            _fail(f"{error}\nThe judgements made so far are kept; run the same command to continue.", code=1)
        except KeyboardInterrupt:
            _fail("interrupted; the judgements made so far are kept; run the same command to continue.", code=130)
        out.print(f"{game_id}: " + ", ".join(_counts(name, c) for name, c in result.get("judged", {}).items()),
                  markup=False)
        out.print(f"  {result.get('summary', '')}", markup=False)
