"""Run in a fresh interpreter with the toy package on the path: everything the plugin test asserts."""

from __future__ import annotations

from typer.testing import CliRunner

from roundtable.agents.registry import AGENT_KINDS
from roundtable.cli.main import app
from roundtable.games import GAMES
from roundtable.graphs import served
from roundtable.graphs.game import build_game_graph
from roundtable.testing.agents import check_agent_kind
from roundtable.testing.games import check_game

assert "toy" in GAMES and "parrot" in AGENT_KINDS, (list(GAMES), list(AGENT_KINDS))
check_game(GAMES["toy"])
check_agent_kind("parrot")  # in Avalon, Werewolf and the toy game
check_agent_kind("random")  # a kind of this project, in the plugin's game

help_text = CliRunner().invoke(app, ["play", "--help"], env={"COLUMNS": "300"}).output
assert "toy" in help_text and "parrot" in help_text, help_text
said = CliRunner().invoke(app, ["toy", "hello"])
assert said.exit_code == 0 and "hello from the toy plugin" in said.output, said.output

assert served.langgraph_spec()["graphs"]["toy"] == "roundtable.graphs.served:toy"
nodes = set(served.toy.get_graph().nodes)
assert {"talk", "accuse", "confirm", "parrot", "random"} <= nodes, nodes

graph = build_game_graph(GAMES["toy"]).compile()
out = graph.invoke({"config": {"players": 3}, "seed": 4,
                    "seats": [{"kind": "parrot"}, {"kind": "random"}, {"kind": "parrot"}]})
over = [e for e in out["events"] if e["type"] == "game_over"]
assert len(over) == 1 and over[0]["winner"] in ("agents", "spies"), over
print("toy plugin ok")
