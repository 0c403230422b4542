"""Agent kind ``naive``: each game's own rule bots (`GameRules.bots`), no model."""
