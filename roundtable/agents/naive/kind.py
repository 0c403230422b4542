"""Agent kind ``naive``: each game's own rule bot (`roundtable.games.protocol.RuleBot`, ``GameRules.bot``), no
model: AvalonBench's in Avalon (docs/agents/naive.md), simple role heuristics in Werewolf. A game that declares no
bot is not played by this kind. The seat option ``flavour`` (`roundtable.agents.naive.options.NaiveOptions`) picks
another bot of the game (``RuleBot.flavours``), e.g. Avalon's ``avalonbench``."""

from collections.abc import Callable
from typing import Any

from roundtable.agents.naive.options import FLAVOURS, OURS, NaiveOptions
from roundtable.agents.protocol import AgentInput, AgentKind, AgentOutput, policy_node
from roundtable.games import GAMES
from roundtable.games.errors import ConfigurationError
from roundtable.games.protocol import RuleBot

BOTS = {name: rules.bot for name, rules in GAMES.items() if rules.bot is not None}


def flavour_bots(flavour: str) -> dict[str, RuleBot]:
    """``{game: bot}``: the bot of ``flavour`` in every game that has one (``ours``: every game's own)."""
    if flavour == OURS:
        return dict(BOTS)
    return {game: bot.flavours[flavour] for game, bot in BOTS.items() if flavour in bot.flavours}


def naive_node(models: Any = None) -> Callable[[AgentInput], AgentOutput]:
    """The ``naive`` kind's game-graph node: the seat's flavour of the game's bot (`policy_node` of each).

    Raises (from the node):
        ConfigurationError: a flavour the game's bot does not have (the message names the games that do).
    """
    nodes = {}
    for flavour in FLAVOURS:
        bots = flavour_bots(flavour)
        nodes[flavour] = (policy_node("naive", {game: bot.decide for game, bot in bots.items()},
                                      {game: bot.remembers for game, bot in bots.items() if bot.remembers}),
                          frozenset(bots))

    def node(task: AgentInput) -> AgentOutput:
        flavour = NaiveOptions.parse(task["seat"].get("options")).flavour
        play, games = nodes[flavour]
        game = str(task["view"].get("game"))
        if game not in games:
            raise ConfigurationError(f"the naive flavour {flavour!r} is not played in {game}; games that have it: "
                                     f"{', '.join(sorted(games))}")
        return play(task)

    node.__name__ = "naive"
    node.__doc__ = nodes[OURS][0].__doc__
    return node


KIND = AgentKind(name="naive", description="Rule-based bots: AvalonBench's (quest outcomes only) in Avalon, simple "
                 "role heuristics in Werewolf (no model).", games=frozenset(BOTS), node=naive_node,
                 options=NaiveOptions,
                 beliefs={game: bot.beliefs for game, bot in BOTS.items() if bot.beliefs is not None})
