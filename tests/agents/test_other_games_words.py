"""At another game's table than Avalon's, the model-driven kinds say none of Avalon's words (issue 60, part 3): the
belief probe and its parser ask about the table's probe sides (`roundtable.tables.protocol.GameTable.probe_sides`)
and name its roles (``probe_roles``), the aids' prompts name the game's round (``round_name``), and Avalon's
strategy wording (the Assassin, team votes, what a summary keeps of the quests) stays Avalon's own, as the templates
``<kind>/avalon/<piece>`` the lookup `roundtable.tables.protocol.kind_template` finds for Avalon alone.

Whole scripted games of Werewolf (always there) and of Secret Hitler (where its plugin is installed) with each kind,
its aids on and off, send no prompt holding an Avalon word; Werewolf asks no belief probe, so each kind's probe is
asked of it directly at a finished Werewolf game. Avalon's own prompts are kept as they were by the paper-mode
fixtures (aids off) and by the per-game templates being the former texts (aids on).
"""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest

from roundtable.agents.cga.graph import build_cga_graph
from roundtable.agents.codeact.graph import build_codeact_graph
from roundtable.agents.lga.graph import build_lga_graph
from roundtable.agents.react.graph import build_react_graph
from roundtable.games import GAMES, werewolf
from roundtable.games.protocol import belief_request
from roundtable.games.werewolf.bots import naive
from roundtable.graphs.game import build_game_graph
from roundtable.prompts.registry import registry
from roundtable.prompts.rendering import TemplateContext
from roundtable.tables.protocol import TableSettings, kind_template
from roundtable.testing.scripted import FAKE_MODEL, Script, ScriptedModels

KINDS = ("lga", "react", "cot", "codeact", "cga")
AVALON_WORDS = re.compile(r"\b(avalon|quests?|merlin|percival|arthur|assassin\w*|morgana|mordred|oberon|minions?|"
                          r"loyal)\b", re.IGNORECASE)
"""Avalon's own words: its name, its rounds and its roles, and the loyalty of its good side."""
SIDE_WORDS = re.compile(r"\b(good|evil)\b", re.IGNORECASE)
"""Avalon's sides, the belief probe's words before the table gave its own (a game whose sides are others')."""
REPLIES = {
    "summarize": "SUMMARY-TEXT.", "analyze": "ANALYSIS-TEXT.", "plan": "PLAN-TEXT.", "respond": "WORDS-TEXT.",
    "answer": "ANSWER-TEXT.", "reflect": "As the player, I observed that REFLECTION-TEXT.",
    "suggest": "SUGGESTION-TEXT.", "speak": "WORDS-TEXT.", "write": "WORDS-TEXT.", "debug": "WORDS-TEXT.",
    "react": "WORDS-TEXT.", "suggestions": "1. SUGGESTION-TEXT.", "strategy": "STRATEGY-TEXT.",
    "other_role": "ROLE-TEXT.",
    "believe": "Player 2 has been straight with us; the others I cannot read.",  # not listed: the parser reads it
}
"""The scripted model's replies, free of any game's words (the scripted defaults speak of quests), so a word found
in a prompt is a template's; the probe's answer needs the parser call."""
CHEAP = {"cga": {"refresh": "round", "merge_answers": True}}
"""cga's questions once a round, answered in one call (a scripted game kept short)."""
PER_GAME = ("aids/lga", "aids/react", "aids/codeact", "aids/cga", "cga", "extraction")
"""Where a kind's (or the parser's) templates of one game are: ``<prefix>/<game>/<piece>``."""


def seat(kind: str, aids: str) -> dict[str, Any]:
    return {"kind": kind, "model": FAKE_MODEL, "options": {"aids": aids, **CHEAP.get(kind, {})}}


def avalon_words(text: str, sides: tuple[str, str]) -> list[str]:
    """The lines of ``text`` holding an Avalon word, or Avalon's sides where the table's are others."""
    words = AVALON_WORDS if sides == ("good", "evil") else re.compile(
        f"{AVALON_WORDS.pattern}|{SIDE_WORDS.pattern}", re.IGNORECASE)
    return sorted({line.strip()[:200] for line in text.splitlines() if words.search(line)})


def prompts(script: Script) -> str:
    return "\n".join(message.content for call in script.calls for message in call.messages
                     if isinstance(message.content, str))


def test_every_avalon_wording_has_a_neutral_piece_the_lookup_gives_every_other_game():
    names = registry.names()
    avalon = [(prefix, name.removeprefix(f"{prefix}/avalon/")) for name in names for prefix in PER_GAME
              if name.startswith(f"{prefix}/avalon/")]
    assert {piece for _, piece in avalon} >= {"believe", "standing", "summarize", "plan", "parse", "belief"}
    context = TemplateContext()
    for prefix, piece in avalon:
        settings = TableSettings(prompt=lambda p, prefix=prefix: f"{prefix}/{p}")
        assert f"{prefix}/{piece}" in names, f"{prefix}/avalon/{piece} has no neutral piece"
        assert kind_template(context, settings, "avalon", piece) == f"{prefix}/avalon/{piece}"
        for game in sorted(set(GAMES) - {"avalon"}):
            assert kind_template(context, settings, game, piece) == f"{prefix}/{piece}", (game, prefix, piece)
    for prefix, piece in avalon:  # what other games get says none of Avalon's words
        assert not AVALON_WORDS.search(re.sub(r"\{#.*?#\}", "", registry.text(f"{prefix}/{piece}"), flags=re.S)), (
            prefix, piece)


def play(game: str, kind: str, aids: str, seed: int) -> tuple[dict[str, Any], Script]:
    """A whole scripted game of ``game`` with ``kind`` at seats 1 and 3, the naive bots elsewhere."""
    rules = GAMES[game]
    config = rules.configurations()[0]  # Werewolf's xu7, Secret Hitler's five players
    script = Script(replies=dict(REPLIES))
    graph = build_game_graph(rules, models=ScriptedModels(script)).compile()
    players = int(config.get("players") or len(config["roles"]))
    seats = [seat(kind, aids) if p in (1, 3) else {"kind": "naive"} for p in range(1, players + 1)]
    out = graph.invoke({"config": config, "seed": seed, "seats": seats}, {"recursion_limit": 10_000})
    assert [e for e in out["events"] if e["type"] == "game_over"], "the game reached its end"
    return out, script


@pytest.mark.parametrize("aids", ["off", "on"])
@pytest.mark.parametrize("kind", KINDS)
def test_a_whole_werewolf_game_says_no_avalon_word(kind, aids):
    _, script = play("werewolf", kind, aids, seed=3)
    assert script.calls, "the model seats decided through their model"
    assert avalon_words(prompts(script), ("good", "evil")) == []


@pytest.mark.parametrize("aids", ["off", "on"])
@pytest.mark.parametrize("kind", KINDS)
def test_a_whole_secret_hitler_game_and_its_probe_say_no_avalon_word(kind, aids):
    pytest.importorskip("roundtable_secret_hitler")
    _, script = play("secret_hitler", kind, aids, seed=3)
    assert {"believe", "parse_beliefs"} <= set(script.modules()), "the probe was asked and its answer parsed"
    text = prompts(script)
    assert avalon_words(text, ("liberal", "fascist")) == []
    probe = "\n".join(m.content for c in script.calls if c.module in ("believe", "parse_beliefs")
                      for m in c.messages if isinstance(m.content, str))
    assert "liberal" in probe.lower() and "fascist" in probe.lower()


def probe(kind: str, aids: str) -> Script:
    """The belief probe asked of ``kind`` at a finished Werewolf game of the naive bots (xu7, seed 1), through the
    kind's own graph."""
    state = werewolf.new_game(werewolf.WerewolfConfig.build(), seed=1)
    while not state.is_over:
        state = werewolf.apply(state, {r.player: naive.decide(werewolf.view(state, r.player), r, 1)
                                       for r in werewolf.pending(state)})
    player = 4
    view = werewolf.view(state, player)
    request = belief_request(player, [q for q in range(1, view.players + 1) if q != player], "game_over", view.round)
    script = Script(replies=dict(REPLIES))
    models = ScriptedModels(script, json=False)
    builder = {"lga": build_lga_graph, "react": build_react_graph, "cga": build_cga_graph}.get(kind)
    graph = (builder(models) if builder is not None else build_codeact_graph(kind, models)).compile()
    out = graph.invoke({"view": view.model_dump(mode="json"), "request": request.model_dump(mode="json"),
                        "pool": {}, "seat": seat(kind, aids), "seed": 1},
                       {"configurable": {"thread_id": f"probe-{uuid.uuid4()}"}})
    assert request.id in out["decisions"]
    return script


@pytest.mark.parametrize("aids", ["off", "on"])
@pytest.mark.parametrize("kind", KINDS)
def test_the_belief_probe_at_a_werewolf_table_says_no_avalon_word(kind, aids):
    script = probe(kind, aids)
    asked = [c for c in script.calls if c.module == "believe"]
    assert asked, "the probe was asked"
    assert avalon_words(prompts(script), ("good", "evil")) == []
