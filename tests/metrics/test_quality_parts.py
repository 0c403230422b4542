"""Each game's part of the play-quality measures is found through the ``roundtable.quality`` entry points
(`roundtable.metrics.quality.parts`), not by a game's name in the measures: Avalon's and Werewolf's are declared,
a game whose part is declared gets it counted, and a game with none gets the measures every game shares."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from roundtable.metrics.play_quality import play_quality
from roundtable.metrics.quality.parts import QualityPart, quality_parts
from roundtable.metrics.quality.result import PlayQuality


def test_avalon_and_werewolf_declare_their_parts():
    found = quality_parts()
    assert {"avalon", "werewolf"} <= set(found)
    assert all(isinstance(part, QualityPart) and part.name == name for name, part in found.items())


def record(game: str) -> dict[str, Any]:
    words = "I think Player 2 is honest and we should approve this team today."
    return {"game": game, "roles": {"1": "a", "2": "b"}, "usage": {"game": {}},
            "events": [{"type": "utterance", "speaker": 1, "phase": "talk", "round": 1, "text": words, "to": None},
                       {"type": "utterance", "speaker": 2, "phase": "talk", "round": 1, "text": words, "to": None}]}


def test_a_game_without_a_part_gets_the_shared_measures_and_one_with_a_part_gets_it(monkeypatch: pytest.MonkeyPatch):
    counted: list[str] = []

    def count(rec: dict[str, Any], quality: PlayQuality) -> None:
        counted.append(rec["game"])
        quality.self_exposure.cases += 1

    measures = importlib.import_module("roundtable.metrics.play_quality")
    monkeypatch.setattr(measures, "quality_parts", lambda: {"toy": QualityPart("toy", count)})
    shared = play_quality(record("other"))
    assert shared.parroting.cases == 2 and shared.parroting.hits == 1 and shared.self_exposure.cases == 0
    toy = play_quality(record("toy"))
    assert counted == ["toy"] and toy.self_exposure.cases == 1 and toy.parroting.hits == 1


def test_each_game_names_the_shared_measures_in_its_own_words_and_leaves_out_those_it_never_counts(
        monkeypatch: pytest.MonkeyPatch):
    from roundtable.metrics.quality import parts

    measures = importlib.import_module("roundtable.metrics.play_quality")

    toy = QualityPart("toy", lambda rec, quality: None, labels={"merlin_exposed": "", "plain_named": ""})
    monkeypatch.setattr(parts, "quality_parts", lambda: {**quality_parts(), "toy": toy})
    assert parts.measure_label("avalon", "merlin_exposed") == "Merlin exposed"
    assert parts.measure_label("werewolf", "merlin_exposed") == "Seer exposed"
    assert parts.measure_label("toy", "merlin_exposed") == "" and parts.measure_label("toy", "parroting") == "parroting"
    assert parts.measure_label("unregistered", "merlin_exposed") == "Merlin (Seer) exposed"
    monkeypatch.setattr(measures, "quality_parts", lambda: {"toy": toy})
    talk = measures.quality_lines(record("toy"))[0]
    assert talk.startswith("Play quality, talk: parroting") and "exposed" not in talk.replace("self-exposure", "")
