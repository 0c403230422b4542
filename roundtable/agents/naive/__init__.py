"""Agent kind ``naive``: each game's own rule bots (`GameRules.bot`), no model; with the seat option ``words=model``
their words, and only their words, come from a model (`roundtable.agents.naive.words`)."""
