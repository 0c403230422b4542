"""Agent kind ``random``: uniform legal play in every game, no model."""
