"""Agent kind ``random``: uniform legal play in every game, for baselines and property tests; no model."""

from roundtable.games import GAMES
from roundtable.agents.random import policy as uniform
from roundtable.agents.protocol import bot_kind

KIND = bot_kind("random", "Uniformly random legal play (no model).", {game: uniform.decide for game in GAMES})
