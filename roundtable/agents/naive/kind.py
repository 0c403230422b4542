"""Agent kind ``naive``: each game's own rule bot (`roundtable.games.protocol.RuleBot`, ``GameRules.bot``), no
model: AvalonBench's in Avalon (docs/agents/naive.md), simple role heuristics in Werewolf. A game that declares no
bot is not played by this kind."""

from roundtable.agents.protocol import bot_kind
from roundtable.games import GAMES

BOTS = {name: rules.bot for name, rules in GAMES.items() if rules.bot is not None}

KIND = bot_kind("naive", "Rule-based bots: AvalonBench's (quest outcomes only) in Avalon, simple role heuristics "
                "in Werewolf (no model).", {game: bot.decide for game, bot in BOTS.items()},
                memories={game: bot.remembers for game, bot in BOTS.items() if bot.remembers is not None},
                beliefs={game: bot.beliefs for game, bot in BOTS.items() if bot.beliefs is not None})
