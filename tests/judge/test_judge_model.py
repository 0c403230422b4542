"""End to end on the embedded model (marked ``model``: slow, needs the weights): a small real game played through
the command line, then judged by the same model; every behaviour's judgements are cached, most replies are
usable, and a rerun asks nothing."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cli"))

from test_cli import run  # noqa: E402


@pytest.mark.model
def test_a_real_game_is_judged_on_the_embedded_model(tmp_path: Path) -> None:
    home = tmp_path / "data"
    played = run(home, "play", "avalon", "--preset", "lan6", "--seed", "5", "--game-id", "m1", "--agents",
                 "naive,merlin=lga,morgana=lga", "--model", "local", "--quiet", timeout=3600)
    assert played.returncode == 0, played.stderr[-3000:]
    judged = run(home, "judge", "m1", "--model", "local", timeout=3600)
    assert judged.returncode == 0, judged.stderr[-3000:]
    folder = home / "records" / "m1.judge"
    files = {p.name.split("-")[0]: json.loads(p.read_text()) for p in folder.glob("*.json")}
    assert set(files) == {"deception", "stance", "sharing"}
    answers = [a for data in files.values() for a in data["answers"].values()]
    assert all(data["items"] == len(data["answers"]) for data in files.values())
    assert answers and sum(a is not None for a in answers) >= 0.9 * len(answers)  # schema-constrained: usable
    again = run(home, "judge", "m1", "--model", "local", timeout=600)
    assert again.returncode == 0 and again.stdout.count("(0 asked now") == 3, again.stdout
    shown = run(home, "show", "m1")
    assert "Judge (local): round-1 claims" in shown.stdout
