"""The agent-kind registry is the one list of kinds: the CLI, the docs' list of kinds and every game graph read it."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from roundtable.agents.registry import AGENT_KINDS
from roundtable.cli.main import app
from roundtable.games import GAMES
from roundtable.graphs.avalon import graph

KINDS_PAGE = Path(__file__).resolve().parents[2] / "docs" / "agents" / "index.md"
BEGIN, END = "<!-- agent kinds: begin", "<!-- agent kinds: end -->"


def kind_line(name: str) -> str:
    kind = AGENT_KINDS[name]
    return f"- `{kind.name}`: {kind.description} Games: {', '.join(sorted(kind.games))}."


def listed_kinds() -> list[str]:
    """The lines between the markers of docs/agents/index.md's list of kinds."""
    text = KINDS_PAGE.read_text()
    start, end = text.index(BEGIN), text.index(END)
    return [line for line in text[start:end].splitlines()[1:] if line.strip()]


def test_every_kind_plays_known_games_and_is_a_node_of_their_graphs():
    assert {"naive", "random", "lga"} <= set(AGENT_KINDS)
    nodes = set(graph.get_graph().nodes)
    for name, kind in AGENT_KINDS.items():
        assert kind.name == name and kind.games and kind.games <= set(GAMES)
        assert (name in nodes) == ("avalon" in kind.games)


def test_the_docs_list_every_kind_with_its_description_and_no_other():
    expected = [kind_line(name) for name in sorted(AGENT_KINDS)]
    assert listed_kinds() == expected, (
        f"docs/agents/index.md's list of kinds (between {BEGIN!r} and {END!r}) must be, one line per registered "
        "kind sorted by name:\n" + "\n".join(expected))


def test_the_cli_help_names_every_kind():
    help_text = " ".join(CliRunner().invoke(app, ["play", "--help"], terminal_width=400).output.split())
    for name in AGENT_KINDS:
        assert name in help_text


def test_the_game_context_nests_each_kind_context():
    context = graph.builder.context_schema()
    for name, kind in AGENT_KINDS.items():
        if kind.context is not None:
            assert isinstance(getattr(context, name), kind.context)
