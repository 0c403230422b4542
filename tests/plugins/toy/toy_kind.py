"""A toy agent kind, shipped by a package of its own (declared under the ``roundtable.agents`` entry points):
always the first legal answer, and "hello" when words are asked, in every game."""

from __future__ import annotations

import typer

from roundtable.agents.protocol import bot_kind
from roundtable.games import GAMES
from roundtable.games.protocol import Decision, PlayerView, Request


def decide(view: PlayerView, request: Request, seed: int) -> Decision:
    fields: dict = {}
    if request.answer == "pick":
        fields["players"] = tuple(request.candidates[: request.count or 0])
    elif request.answer == "yes_no":
        fields["choice"] = request.allowed[0]
    if request.wants_words:
        fields["utterance"] = "hello"
    return Decision.to(request, **fields)


KIND = bot_kind("parrot", "Always the first legal answer (a toy plugin).", {game: decide for game in GAMES})


commands = typer.Typer(help="The toy plugin's own commands.", no_args_is_help=True)


@commands.command()
def hello() -> None:
    """Say hello."""
    print("hello from the toy plugin")
