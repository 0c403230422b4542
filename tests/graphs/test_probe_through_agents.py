"""The belief probe of a finished Avalon game, asked of model-driven seats through their own agent graphs
(roundtable.graphs.probe): the answers parse to numbers, an unusable one is left out and recorded, the
probe sees no role, and a run can switch it off."""

from __future__ import annotations

import re

import pytest
from pydantic import ValidationError

from roundtable.agents.common.beliefs import belief_schema, beliefs_from_text, listed_beliefs
from roundtable.games import avalon
from roundtable.graphs.avalon import build_avalon_graph
from roundtable.testing.scripted import FAKE_MODEL, Call, Script, ScriptedModels

MODEL_KINDS = ["lga", "cot", "codeact", "cga", "react"]
"""The model-driven kinds that answer the probe through their graphs."""


def _others(call: Call) -> list[int]:
    """The players a probe prompt asks about (the parser prompt names them: "for each of players 1, 3, 4")."""
    found = re.search(r"for each of players ([\d, ]+)", call.prompt)
    assert found, call.prompt[-400:]
    return [int(p) for p in found.group(1).replace(" ", "").strip(",").split(",")]


def _lines(call: Call) -> str:
    """A parser reply giving player q the probability q/10."""
    return "\n".join(f"Player {q}: {q / 10}" for q in _others(call))


AIDED = {"aids": "on", "dry": False, "overrule": False, "drop_sentences": False}
"""The aids' prompts (whose parser wording the scripted model reads), their auto switches off."""


def _play(kind: str, script: Script, seed: int = 3, json: bool = False, context: dict | None = None) -> dict:
    game = build_avalon_graph(models=ScriptedModels(script, json=json)).compile()
    config = avalon.AvalonConfig.build(preset="bench5", rules=["discussion=none"])
    state = avalon.new_game(config, seed)
    seats = [{"kind": kind, "model": FAKE_MODEL, "options": AIDED} if role.side.value == "good" and i == min(
        j for j, r in enumerate(state.roles) if r.side.value == "good") else {"kind": "naive"}
        for i, role in enumerate(state.roles)]
    return game.invoke({"config": config.to_dict(), "seed": seed, "seats": seats}, {"recursion_limit": 2000},
                       context=context)


def beliefs_of(out: dict) -> dict[int, dict[int, float]]:
    return {int(p): {int(q): v for q, v in row.items()} for p, row in (out.get("beliefs") or {}).items()}


def _probed(out: dict) -> tuple[int, dict]:
    model_seat = next(i for i, s in enumerate(out["seats"], 1) if s["kind"] != "naive")
    entries = [e for e in out["events"] if e["type"] == "decision" and e["kind"] == "belief"]
    assert [e["player"] for e in entries] == [model_seat], "only the model seat is asked through its graph"
    return model_seat, entries[0]


@pytest.mark.parametrize("kind", MODEL_KINDS)
def test_a_model_seats_probe_answer_parses_to_its_numbers(kind):
    script = Script(replies={"believe": "Player 2 looks loyal; the rest I doubt.", "parse_beliefs": _lines})
    out = _play(kind, script)
    player, entry = _probed(out)
    expected = {q: q / 10 for q in range(1, 6) if q != player}
    assert beliefs_of(out)[player] == expected
    assert entry["beliefs"] == {str(q): p for q, p in expected.items()} and entry.get("fallback") is None
    assert entry["usage"]["calls"] == 2, "the free answer and the parser call, both paid for"
    parser = [c for c in script.calls if c.module == "parse_beliefs"]
    assert len(parser) == 1 and parser[0].temperature == 0.0
    assert "Player 2 looks loyal" in parser[0].prompt
    naive_good = [p for p, r in enumerate(avalon.new_game(avalon.AvalonConfig.build(preset="bench5"), 3).roles, 1)
                  if r.side.value == "good" and p != player]
    assert set(beliefs_of(out)) == {player, *naive_good}, "the naive bots still state theirs"


@pytest.mark.parametrize("kind", MODEL_KINDS)
def test_an_answer_listing_every_player_as_the_parser_would_needs_no_parser_call(kind):
    listed = "\n".join(f"Player {q}: {q / 10}" for q in range(1, 6)) + "\n\nPlayer 3 voted for every team."
    script = Script(replies={"believe": listed, "parse_beliefs": "Player 1: 0.99"})
    out = _play(kind, script)
    player, entry = _probed(out)
    assert beliefs_of(out)[player] == {q: q / 10 for q in range(1, 6) if q != player}, "its own line left out"
    assert entry["usage"]["calls"] == 1 and not [c for c in script.calls if c.module == "parse_beliefs"]


def test_listed_beliefs_reads_only_a_complete_unambiguous_list():
    assert listed_beliefs("- **Player 1**: 80%\nPlayer 3: P = 0.25, evil?\nP4 = .5 P", [1, 3, 4]) == {
        1: 0.8, 3: 0.25, 4: 0.5}
    assert listed_beliefs("Player 1: 0.8\nPlayer 3: 0.2", [1, 3, 4]) is None, "player 4 missing: the parser reads it"
    assert listed_beliefs("Player 1: 0.8\nPlayer 3: 0.2\nPlayer 4: 0.5\nPlayer 4: 0.9", [1, 3, 4]) is None
    assert listed_beliefs("Player 1: 0.8\nPlayer 3: 0.2\nPlayer 4: 1.7", [1, 3, 4]) is None, "1.7 is 1.7%? no"
    assert listed_beliefs("Player 1 voted 2 times\nPlayer 3: 0.2\nPlayer 4: 0.5", [1, 3, 4]) is None
    assert listed_beliefs("Player 1: 0.8 and Player 3: 0.2\nPlayer 4: 0.5", [1, 3, 4]) is None, "one line a player"
    assert listed_beliefs("", [1]) is None and listed_beliefs("Player 1: 0.5", []) is None


@pytest.mark.parametrize("kind", MODEL_KINDS)
def test_an_unusable_probe_answer_is_left_out_and_recorded(kind):
    script = Script(replies={"believe": "Who knows.", "parse_beliefs": "none"})
    out = _play(kind, script)
    player, entry = _probed(out)
    assert str(player) not in out["beliefs"], "never filled in with 0.5"
    assert entry["beliefs"] is None and "belief" in entry["fallback"]
    assert entry["usage"]["fallbacks"] == 1


def test_the_schema_path_reads_the_parsers_json():
    script = Script(replies={"parse_beliefs": lambda call: "{" + ", ".join(
        f'"player_{q}": "{q / 10}"' for q in _others(call)) + "}"})
    out = _play("lga", script, json=True)
    player, _ = _probed(out)
    assert beliefs_of(out)[player] == {q: q / 10 for q in range(1, 6) if q != player}
    assert [c for c in script.calls if c.module == "parse_beliefs"][0].schema is not None


def test_the_schema_writes_probabilities_with_two_decimals_at_most_and_a_cut_reply_is_read_as_far_as_it_goes():
    schema = belief_schema([1, 3])
    assert schema.model_validate({"player_1": "0.05", "player_3": "1"})
    for runaway in ("0.5000000000000000", "1.5", "-0.1", "50"):
        with pytest.raises(ValidationError):
            schema.model_validate({"player_1": runaway, "player_3": "0.5"})
    cut = '{ "player_1": 0.5000000000000000, "player_3": 0.25000000'  # a number reply, cut at the budget
    assert beliefs_from_text(cut, [1, 3, 4]) == {1: 0.5, 3: 0.25}


def test_the_probe_prompt_holds_no_role_nor_the_assassins_target():
    script = Script(replies={"parse_beliefs": _lines})
    out = _play("lga", script)
    probe = next(c for c in script.calls if c.module == "believe").prompt
    player, _ = _probed(out)
    roles = {p: r for p, r in enumerate(out["game"]["roles"], 1)}
    for q, role in roles.items():
        if q != player and role != "servant":
            assert f"Player {q} is {role}" not in probe and f"Player {q} was {role}" not in probe
    assert "game_over" not in probe and "revealed" not in probe.lower().replace("no role has been revealed", "")


def test_the_probe_can_be_switched_off_per_run():
    script = Script(replies={"parse_beliefs": _lines})
    out = _play("lga", script, context={"belief_probe": False})
    assert "believe" not in script.modules() and "parse_beliefs" not in script.modules()
    assert not [e for e in out["events"] if e["type"] == "decision" and e["kind"] == "belief"]
    assert not out.get("beliefs")
