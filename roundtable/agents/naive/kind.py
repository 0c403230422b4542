"""Agent kind ``naive``: rule-based bots, no model: AvalonBench's for Avalon (docs/agents/naive.md), simple role
heuristics for Werewolf (`roundtable.games.werewolf.bots.naive`)."""

from roundtable.games.avalon.bots import naive as avalon_naive
from roundtable.games.werewolf.bots import naive as werewolf_naive
from roundtable.agents.protocol import bot_kind

KIND = bot_kind("naive", "Rule-based bots: AvalonBench's (quest outcomes only) in Avalon, simple role heuristics "
                "in Werewolf (no model).", {"avalon": avalon_naive.decide, "werewolf": werewolf_naive.decide},
                memories={"werewolf": werewolf_naive.remembers}, beliefs={"avalon": avalon_naive.beliefs})
