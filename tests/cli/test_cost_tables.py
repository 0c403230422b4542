"""`roundtable show`'s cost tables, from decision records."""

from __future__ import annotations

from roundtable.cli import main as cli
from roundtable.store.records import module_totals, usage_totals

CALL = {"calls": 1, "failures": 0, "prompt_tokens": 400, "completion_tokens": 30, "cached_tokens": 300,
        "seconds": 2.5}
EVENTS = [
    {"type": "decision", "player": 1, "fallback": None,
     "usage": {**CALL, "calls": 2, "prompt_tokens": 800, "modules": {"summarize": CALL, "act": CALL}}},
    {"type": "decision", "player": 2, "fallback": "no usable vote: approve",
     "usage": {**CALL, "modules": {"act": CALL}}},
]


def test_show_prints_cost_per_player_and_per_module():
    with cli.out.capture() as captured:
        cli._print_usage(usage_totals(EVENTS))
        cli._print_module_usage(module_totals(EVENTS))
    text = captured.get()
    assert "Model cost (tokens" in text and "Model cost per agent module" in text
    cells = [[c.strip() for c in line.strip("│ ").split("│")] for line in text.splitlines() if "│" in line]
    rows = {row[0]: row[1:] for row in cells}
    assert rows["game"][:3] == ["2", "3", "1200"]  # decisions, calls, prompt tokens
    assert rows["act"][:2] == ["2", "800"] and rows["summarize"][:2] == ["1", "400"]


def test_rule_based_games_print_no_cost_tables():
    events = [{"type": "decision", "player": 1, "fallback": None, "usage": {}}]
    with cli.out.capture() as captured:
        cli._print_usage(usage_totals(events))
        cli._print_module_usage(module_totals(events))
    assert captured.get() == ""
