"""Agent kind ``naive``: AvalonBench's rule-based bots (SPEC.md §3.5); no model."""

from roundtable.games.avalon.bots import naive
from roundtable.nodes.agent import bot_kind

KIND = bot_kind("naive", "AvalonBench's rule-based bots: they reason from quest outcomes only (no model).",
                {"avalon": naive.decide})
