"""The aids' one switch over whole scripted games of every model-driven kind, in every game it plays: with
``aids=off`` no aid runs (only the switch itself is read, `roundtable.aids.options` and `.switch`), and no
decision records an aid's intervention; with ``aids=on`` the answers go through the aids' one interface."""

from __future__ import annotations

import sys
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import roundtable.aids
import roundtable.aids.interface as interface
from roundtable.agents.registry import AGENT_KINDS
from roundtable.games import avalon, werewolf
from roundtable.graphs.avalon import build_avalon_graph
from roundtable.graphs.werewolf import build_werewolf_graph
from roundtable.testing.scripted import FAKE_MODEL, Script, ScriptedModels

AIDS = Path(roundtable.aids.__file__).parent
SWITCH = {"options.py", "switch.py"}
"""The aids' files a seat with the aids off still reads: the switch and the options it switches."""
CASES = [(kind, game) for kind in sorted(AGENT_KINDS) if AGENT_KINDS[kind].needs_model
         for game in sorted(AGENT_KINDS[kind].games)]
CHEAP = {"cga": {"refresh": "round", "merge_answers": True}}
"""Options that keep a scripted game short, given by hand (kept with the aids off): cga's questions once a round,
answered in one call."""


def play(kind: str, game: str, aids: str) -> tuple[dict[str, Any], Counter[tuple[str, str]]]:
    """A whole scripted game with ``kind`` at every seat under ``aids``, and the calls into the aids' package by
    ``(file, function)``, traced in every thread the graphs run nodes in."""
    calls: Counter[tuple[str, str]] = Counter()

    def trace(frame: Any, _event: str, _arg: Any) -> None:  # a Python function's call; no line events asked
        if frame.f_code.co_filename.startswith(str(AIDS)):
            calls[(Path(frame.f_code.co_filename).name, frame.f_code.co_name)] += 1

    if game == "avalon":
        graph, config, seats = build_avalon_graph, avalon.AvalonConfig.build(preset="bench5"), 5
    else:
        graph, config, seats = build_werewolf_graph, werewolf.WerewolfConfig.build(preset="xu7"), 7
    seat = {"kind": kind, "model": FAKE_MODEL, "options": {"aids": aids, **CHEAP.get(kind, {})}}
    compiled = graph(models=ScriptedModels(Script())).compile()
    sys.settrace(trace)
    threading.settrace(trace)
    try:
        out = compiled.invoke({"config": config.to_dict(), "seed": 3, "seats": [seat] * seats},
                              {"recursion_limit": 5000})
    finally:
        sys.settrace(None)
        threading.settrace(None)
    assert out["result"] is not None, "the game reached its end"
    return out, calls


def decisions(out: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in out["events"] if e["type"] == "decision"]


def test_every_model_kind_and_game_is_covered():
    assert {kind for kind, _ in CASES} == {"cga", "codeact", "cot", "lga", "react"}
    assert ("cga", "werewolf") in CASES


@pytest.mark.parametrize(("kind", "game"), CASES)
def test_with_the_aids_off_no_aid_runs_in_a_whole_game(kind, game):
    out, calls = play(kind, game, "off")
    ran = sorted({f"{file}:{name}" for file, name in calls if file not in SWITCH})
    assert ran == [], f"aids run with aids=off: {ran}"
    assert decisions(out), "the seats decided"
    checked = [e for e in decisions(out) if e.get("checks")]
    assert all(not any(("asked again" in c or "overruled" in c or "dropped" in c) for c in e["checks"])
               for e in checked), "no aid's intervention is recorded"


@pytest.mark.parametrize(("kind", "game"), CASES)
def test_with_the_aids_on_answers_go_through_the_one_interface(kind, game, monkeypatch):
    checked: list[str] = []
    real = interface.check

    def counted(answer: interface.Answer) -> dict[str, Any]:
        checked.append(answer.request.kind)
        return real(answer)

    module = sys.modules[f"roundtable.agents.{'codeact' if kind == 'cot' else kind}.aids"]
    monkeypatch.setattr(module, "check", counted)
    out, calls = play(kind, game, "on")
    assert checked, "the kind's aids step handed its answers to the interface"
    assert {file for file, _ in calls} - SWITCH, "the aids ran"
