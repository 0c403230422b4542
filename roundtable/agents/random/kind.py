"""Agent kind ``random``: uniform legal play in every game, for baselines and property tests; no model."""

from roundtable.agents.protocol import bot_kind
from roundtable.agents.random import policy as uniform
from roundtable.games import GAMES

KIND = bot_kind("random", "Uniformly random legal play (no model).", {game: uniform.decide for game in GAMES})
