"""The agent-kind registry is the one list of kinds: the CLI, the README and every game graph read it."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from roundtable.cli.main import app
from roundtable.games import GAMES
from roundtable.agents.registry import AGENT_KINDS
from roundtable.graphs.avalon import graph

README = (Path(__file__).resolve().parents[2] / "README.md").read_text()


def test_every_kind_plays_known_games_and_is_a_node_of_their_graphs():
    assert {"naive", "random", "lga"} <= set(AGENT_KINDS)
    nodes = set(graph.get_graph().nodes)
    for name, kind in AGENT_KINDS.items():
        assert kind.name == name and kind.games and kind.games <= set(GAMES)
        assert (name in nodes) == ("avalon" in kind.games)


def test_the_readme_lists_every_kind_with_its_description():
    for kind in AGENT_KINDS.values():
        line = f"- `{kind.name}`: {kind.description} Games: {', '.join(sorted(kind.games))}."
        assert line in README, f"README misses: {line}"


def test_the_cli_help_names_every_kind():
    help_text = " ".join(CliRunner().invoke(app, ["play", "--help"], terminal_width=400).output.split())
    for name in AGENT_KINDS:
        assert name in help_text


def test_the_game_context_nests_each_kind_context():
    context = graph.builder.context_schema()
    for name, kind in AGENT_KINDS.items():
        if kind.context is not None:
            assert isinstance(getattr(context, name), kind.context)
