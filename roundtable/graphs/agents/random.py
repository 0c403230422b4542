"""Agent kind ``random``: uniform legal play, for baselines and property tests; no model."""

from roundtable.games.avalon.bots import uniform
from roundtable.nodes.agent import bot_kind

KIND = bot_kind("random", "Uniformly random legal play (no model).", {"avalon": uniform.decide})
