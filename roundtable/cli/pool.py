"""``roundtable pool``: the ``cga`` agent's experience pools (Xu et al. 2023; docs/agents/cga.md#experience-pool).

A pool grows while ``cga`` seats play with ``--agent-option pool=NAME`` (each
finished game adds its tuples), or is built afterwards from earlier finished
games (``pool build NAME GAME_ID...`` or ``--last N``) or from the first games
of another pool (``pool copy SOURCE NAME --first N``: Xu et al.'s pools of 10 to
40 games, built once), and is frozen for evaluation (``pool freeze NAME``): a
frozen pool is read, never written. ``pool export NAME FILE`` writes a pool as
JSON (its games and tuples, no embeddings) and ``pool import FILE NAME`` adds
such a file's games to a pool of another data directory or machine, embedded
again.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from roundtable.agents.cga.experience import ExperiencePool, record_game
from roundtable.agents.cga.experience import list_pools as pools
from roundtable.play.runner import game_of, open_runner
from roundtable.store.paths import GameIdError
from roundtable.store.records import list_records

app = typer.Typer(help="Experience pools of the cga agent: list, show, build from earlier games, freeze, "
                       "export and import.",
                  no_args_is_help=True)
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def _pool(name: str):
    try:
        return ExperiencePool(name)
    except GameIdError as error:
        err.print(f"error: {str(error).replace('game id', 'pool name')}")
        raise typer.Exit(2) from None


def _existing_pool(name: str):
    """The pool ``name``; exits 1 when it has not been created."""
    pool = _pool(name)
    if not pool.exists:
        err.print(f"error: no pool {name!r}; see roundtable pool list")
        raise typer.Exit(1)
    return pool


@app.command(name="list")
def list_pools() -> None:
    """List the pools of the data directory."""
    rows = pools()
    if not rows:
        out.print("No experience pools yet (play cga seats with --agent-option pool=NAME).")
        return
    table = Table("pool", "games", "frozen", "embeddings")
    for row in rows:
        table.add_row(row["name"], str(row["games"]), "yes" if row["frozen"] else "no", row["embeddings"])
    out.print(table)


@app.command()
def show(name: Annotated[str, typer.Argument(help="The pool.")]) -> None:
    """How many games and tuples a pool holds, and whether it is frozen."""
    pool = _existing_pool(name)
    info = pool.info()
    out.print(f"Pool {name}: {len(info.get('games') or [])} games, {pool.count()} experiences, "
              f"{'frozen' if info.get('frozen') else 'learning'}; embeddings {pool.embeddings}; in {pool.directory}")


@app.command()
def build(
    name: Annotated[str, typer.Argument(help="The pool to add to (created if missing).")],
    game_ids: Annotated[list[str] | None, typer.Argument(help="Finished games with cga seats.")] = None,
    last: Annotated[int | None, typer.Option(help="Take the last N finished games instead.", min=1)] = None,
    freeze: Annotated[bool, typer.Option(help="Freeze the pool afterwards (for evaluation).")] = False,
) -> None:
    """Add earlier finished games' cga (reflection, response, score) tuples to a pool."""
    pool = _pool(name)
    if pool.frozen:
        err.print(f"error: pool {name!r} is frozen; thaw it first (roundtable pool thaw {name})")
        raise typer.Exit(2)
    if bool(game_ids) == bool(last):
        err.print("error: name the games, or give --last N")
        raise typer.Exit(2)
    if last:
        finished = sorted((r for r in list_records() if r["status"] == "finished"), key=lambda r: r["updated"])
        game_ids = [r["game_id"] for r in finished][-last:]
    total = 0
    for game_id in game_ids or []:
        with open_runner(game_of(game_id)) as runner:
            values, done = runner.state(game_id) if runner.exists(game_id) else ({}, False)
        if not done:
            err.print(f"error: game {game_id!r} has no finished checkpoint here; nothing taken from it")
            raise typer.Exit(1)
        written = record_game(game_id, values, into=name).get(name, 0)
        out.print(f"{game_id}: {written} experiences")
        total += written
    if freeze:
        pool.freeze()
    out.print(f"Pool {name}: {pool.count()} experiences{' (frozen)' if freeze else ''}; added {total}.")


@app.command()
def copy(
    source: Annotated[str, typer.Argument(help="The pool to copy from.")],
    name: Annotated[str, typer.Argument(help="The pool to add to (created if missing).")],
    first: Annotated[int | None, typer.Option(help="Only the source's first N games (in the order they were "
                                                   "added); default every game.", min=1)] = None,
    freeze: Annotated[bool, typer.Option(help="Freeze the pool afterwards (for evaluation).")] = False,
) -> None:
    """Add the tuples of another pool's games (its first N with --first) to a pool, embeddings and scores as written."""
    origin, pool = _existing_pool(source), _pool(name)
    if pool.frozen:
        err.print(f"error: pool {name!r} is frozen; thaw it first (roundtable pool thaw {name})")
        raise typer.Exit(2)
    games = list(origin.info().get("games") or [])
    if first is not None and first > len(games):
        err.print(f"error: pool {source!r} holds {len(games)} games, fewer than --first {first}")
        raise typer.Exit(1)
    try:
        copied = ExperiencePool(name, origin.embeddings).copy_games(origin, games[:first])
    except ValueError as error:
        err.print(f"error: {error}")
        raise typer.Exit(1) from None
    if freeze:
        pool.freeze()
    out.print(f"Pool {name}: {pool.count()} experiences from {len(games[:first])} games of {source}"
              f"{' (frozen)' if freeze else ''}; added {copied}.")


@app.command(name="freeze")
def freeze_pool(name: Annotated[str, typer.Argument(help="The pool.")]) -> None:
    """Freeze a pool: cga seats read it, finished games no longer add to it."""
    pool = _pool(name)
    pool.freeze(True)
    out.print(f"Pool {name} is frozen.")


@app.command()
def thaw(name: Annotated[str, typer.Argument(help="The pool.")]) -> None:
    """Let finished games add to a frozen pool again."""
    pool = _pool(name)
    pool.freeze(False)
    out.print(f"Pool {name} learns again.")


@app.command(name="export")
def export_pool(
    name: Annotated[str, typer.Argument(help="The pool.")],
    file: Annotated[Path, typer.Argument(help="The JSON file to write.")],
) -> None:
    """Write a pool's games and tuples (no embeddings) to a JSON file, for `pool import` elsewhere."""
    data = _existing_pool(name).export_games()
    file.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    out.print(f"Pool {name}: {len(data['games'])} games, {len(data['tuples'])} experiences written to {file}.")


@app.command(name="import")
def import_pool(
    file: Annotated[Path, typer.Argument(help="A file written by `roundtable pool export`.")],
    name: Annotated[str, typer.Argument(help="The pool to add to (created if missing).")],
) -> None:
    """Add the games of an exported pool that a pool does not hold yet, their tuples embedded again."""
    pool = _pool(name)
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or not isinstance(data.get("games"), list):
            raise ValueError(f"{file} is no pool export (no games)")
        written = pool.import_games(data)
    except (OSError, ValueError) as error:
        err.print(f"error: {error}")
        raise typer.Exit(1) from None
    out.print(f"Pool {name}: {pool.count()} experiences{' (frozen)' if pool.frozen else ''}; added {written}.")
