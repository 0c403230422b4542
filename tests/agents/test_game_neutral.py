"""The model-driven kinds that read a game only through its table (`roundtable.tables.protocol.GameTable`,
docs/architecture.md#a-games-table) tell no game apart in their code: a source scan of every Python file of such a
kind finds no game's name compared, no ``isinstance`` on a game's view, no import of a game's own modules, no game
named in the games it declares or its phases named or told apart, and no template chosen by a game's name (issue 60,
part 1).

`NEUTRAL_KINDS` lists the kinds held to it; ``lga``, ``react`` and ``codeact`` join it when they read the table.
The kinds' and the aids' templates are scanned too: none compares a game's name; a game's own wording is a template
of its own (``cga/werewolf/rules``, ``aids/lga/avalon/standing``) found by `roundtable.tables.protocol.kind_template`.
"""

from __future__ import annotations

import ast
import re
from dataclasses import replace
from pathlib import Path

import pytest
from test_paper_prompts_cga import decide, werewolf_decision

import roundtable
from roundtable.agents.registry import AGENT_KINDS as KINDS
from roundtable.games import GAMES
from roundtable.games.errors import ConfigurationError
from roundtable.graphs.setup import check_seat
from roundtable.tables.werewolf import WerewolfTable

NEUTRAL_KINDS = ("cga", "react", "codeact", "lga")
"""The agent kinds whose code reads its games only through their tables."""

ALLOWED = {
    "roundtable/agents/cga/informativeness.py": "names a game's phases",
    "roundtable/agents/lga/options.py": "names a game's phases (('vote_team', 'propose_team'))",
}
"""Findings let be, by file: Xu et al.'s informativeness rules score every game's messages with the paper's own
Werewolf role words (``seer``, ``witch``, ``guard`` are also Werewolf's phases), alike in every game: a word list of
the paper, not a game told apart (docs/agents/cga.md#informativeness). lga's
``reason_before`` default names the request kinds before whose answer the aids ask a reason (``vote_team``,
``propose_team``, measured in Avalon: docs/measurements.md#team-votes), a seat option that a game not asking them
never meets (docs/agents/lga.md#other-games)."""

ROOT = Path(roundtable.__file__).parent
GAME_NAMES = frozenset(GAMES) | {"avalon", "werewolf"}
VIEW_CLASSES = frozenset(rules.view_model.__name__ for rules in GAMES.values()) - {"PlayerView"}
PHASES = frozenset(phase for rules in GAMES.values() for phase in rules.phases)
GAME_MODULES = tuple(f"roundtable.{layer}.{game}" for layer in ("games", "tables") for game in GAME_NAMES)


def _names_game(node: ast.AST) -> bool:
    """A game's name as a constant, a collection holding one, or a view's ``.game``."""
    if isinstance(node, ast.Constant):
        return node.value in GAME_NAMES
    if isinstance(node, ast.Attribute):
        return node.attr == "game"
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_names_game(e) for e in node.elts)
    if isinstance(node, ast.Call):  # frozenset({"avalon"}), set(...)
        return any(_names_game(a) for a in node.args)
    return False


def _view_classes(node: ast.AST) -> set[str]:
    """The game view classes named in an ``isinstance`` class argument (a name, a tuple, an ``A | B``)."""
    names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    names |= {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}
    return names & VIEW_CLASSES


def problems_in(source: str, where: str = "<source>") -> list[str]:
    """What in ``source`` tells a game apart, one line each (``where:line: what``)."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        line = f"{where}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Compare) and any(_names_game(o) for o in (node.left, *node.comparators)):
            found.append(f"{line}: compares a game's name ({ast.unparse(node)})")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("isinstance", "issubclass") and len(node.args) == 2
              and _view_classes(node.args[1])):
            found.append(f"{line}: isinstance on a game's view ({ast.unparse(node)})")
        elif isinstance(node, ast.ImportFrom) and node.module and (
                node.module.startswith(GAME_MODULES) or {a.name for a in node.names} & VIEW_CLASSES):
            found.append(f"{line}: imports a game's own module ({node.module})")
        elif isinstance(node, ast.Import) and any(a.name.startswith(GAME_MODULES) for a in node.names):
            found.append(f"{line}: imports a game's own module")
        elif isinstance(node, ast.Compare) and any(
                isinstance(o, ast.Attribute) and o.attr == "phase" for o in (node.left, *node.comparators)):
            found.append(f"{line}: tells a game's phases apart ({ast.unparse(node)})")
        elif isinstance(node, ast.Tuple | ast.List | ast.Set) and any(
                isinstance(e, ast.Constant) and e.value in PHASES for e in node.elts):
            found.append(f"{line}: names a game's phases ({ast.unparse(node)})")
        elif isinstance(node, ast.keyword) and node.arg in ("games", "probed") and any(
                isinstance(n, ast.Constant) and n.value in GAME_NAMES for n in ast.walk(node.value)):
            found.append(f"{line}: names a game in {node.arg}= ({ast.unparse(node.value)})")
        elif isinstance(node, ast.JoinedStr) and any(
                isinstance(n, ast.Attribute) and n.attr == "game" for n in ast.walk(node)):
            found.append(f"{line}: a text built from a game's name ({ast.unparse(node)})")
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Attribute) and node.slice.attr == "game":
            found.append(f"{line}: looks a game up by its name ({ast.unparse(node)})")
    return found


@pytest.mark.parametrize("kind", NEUTRAL_KINDS)
def test_a_kind_that_reads_tables_tells_no_game_apart(kind):
    files = sorted((ROOT / "agents" / kind).rglob("*.py"))
    assert files
    found = []
    for path in files:
        where = str(path.relative_to(ROOT.parent))
        found += [p for p in problems_in(path.read_text(), where) if ALLOWED.get(where, "\0") not in p]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("source", [
    'if view.game != "werewolf":\n    pass',
    'x = turn.view.game == "avalon"',
    'x = game in ("avalon", "werewolf")',
    "x = isinstance(view, AvalonView | WerewolfView)",
    "x = isinstance(view, (AvalonView,))",
    "from roundtable.tables.avalon import AvalonTable",
    "from roundtable.games.werewolf import Phase",
    "from roundtable.games.avalon.game import RULES",
    'KIND = AgentKind(name="x", games=frozenset({"avalon"}))',
    'KIND = AgentKind(name="x", games=frozenset(g for g in ("avalon", "werewolf") if g in GAMES))',
    'NIGHT = frozenset({"night", "werewolves", "guard", "witch", "seer"})',
    "x = request.phase in NIGHT",
    'name = f"questions/{self.view.game}"',
    "rules = GAMES[self.view.game]",
])
def test_the_scan_finds_each_way_of_telling_a_game_apart(source):
    assert problems_in(source)


@pytest.mark.parametrize("source", [
    "table = game_table(view, request, context)",
    'KIND = AgentKind(name="x", games=games_with_tables())',
    'out = {"game": view.game}',
    'x = isinstance(pool, dict)',
])
def test_the_scan_lets_neutral_code_be(source):
    assert not problems_in(source)


def test_cga_plays_the_games_with_tables_and_refuses_one_without(monkeypatch):
    assert KINDS["cga"].games == {name for name, rules in GAMES.items() if rules.table is not None}
    untabled = replace(GAMES["avalon"], name="untabled", table=None)
    monkeypatch.setitem(GAMES, "untabled", untabled)
    with pytest.raises(ConfigurationError, match="does not play untabled"):
        check_seat({"kind": "cga", "model": "local"}, 1, untabled, KINDS, None)


class MarkedTable(WerewolfTable):
    """Werewolf's table with marked texts, to see that a kind (cga, lga) says what the registered table says."""

    def rules_text(self) -> str:
        return "MARKED RULES."

    def role_card(self) -> str:
        return "MARKED ROLE CARD."

    def instruction(self) -> str:
        return "MARKED INSTRUCTION."

    @property
    def game_title(self) -> str:
        return "Marked Game"

    @property
    def role_title(self) -> str:
        return "Marked Role"

    @property
    def question_set(self) -> str | None:
        return None


def marked_table(view, request, context, settings):
    """The table maker of `MarkedTable` (registered by its import path below)."""
    return MarkedTable(view=view, request=request, context=context, settings=settings)


def test_cga_says_what_the_table_the_game_registers_says(monkeypatch):
    monkeypatch.setitem(GAMES, "werewolf", replace(GAMES["werewolf"], table=f"{__name__}:marked_table"))
    view, request = werewolf_decision("eliminate")
    script, _ = decide(view, request)
    assert script.calls
    assert all(call.messages[0].content == "MARKED RULES." for call in script.calls)
    history = script.calls[0].messages[1].content
    assert "MARKED ROLE CARD." in history and "the Marked Role" in history
    assert "MARKED INSTRUCTION." in script.calls[-1].messages[1].content
    # no question set of the game's own: only the model's own questions are asked (Xu et al.'s second call)
    assert "list of questions below" not in history


TEMPLATE_ROOTS = (ROOT / "agents", ROOT / "aids" / "prompts")
_NAMES = "|".join(map(re.escape, sorted(GAME_NAMES)))
_TEMPLATE_COMPARE = re.compile(r"\bgame\s*(?:==|!=)|(?:==|!=)\s*game\b|['\"](?:" + _NAMES + r")['\"]\s*(?:==|!=|in\b)")


def template_problems(text: str, where: str = "<template>") -> list[str]:
    """The lines of a Jinja2 template that tell a game apart by its name (``game == 'werewolf'``)."""
    return [f"{where}:{n}: {line.strip()}" for n, line in enumerate(text.splitlines(), start=1)
            if _TEMPLATE_COMPARE.search(line)]


def test_the_template_scan_finds_a_game_told_apart_by_name():
    assert template_problems("{% if game == 'werewolf' %}x{% endif %}")
    assert template_problems("{{ 'a' if 'avalon' == game else 'b' }}")
    assert not template_problems("{{ round_name }} {{ game_title }}: {% if 'merlin' in role_set %}x{% endif %}")


def test_no_kind_or_aid_template_tells_a_game_apart_by_name():
    found = [problem for root in TEMPLATE_ROOTS for path in sorted(root.rglob("*.j2"))
             for problem in template_problems(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT.parent)))]
    assert not found, "templates that compare a game's name:\n" + "\n".join(found)
