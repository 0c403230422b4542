"""End to end on the real embedded model (marked ``model``), with every seat's aids off: one short Avalon game
seating every model-driven kind (``lga``, ``react``, ``cot``, ``codeact``, ``cga``), each sending its paper's
prompts (docs/agents/paper-values.md#where-each-prompt-line-comes-from), reaches its end; whatever the 1.5B model
could not answer is decided by the fallback rules and recorded in the decisions, not hidden, and no aid acted."""

from __future__ import annotations

from pathlib import Path

import pytest
from e2e_cli import record, run

pytestmark = pytest.mark.model

KINDS = ("lga", "react", "cot", "codeact", "cga")
CHEAP = ("1:analysis_words=20", "1:plan_words=15", "1:summary_words=30", "1:response_words=20",
         "2:thought_words=30", "2:summary_words=40", "3:thought_words=30", "4:thought_words=30",
         "5:questions=1", "5:own_questions=0", "5:thought_words=30", "5:answer_words=20", "5:reflection_words=30")
"""Shorter word limits than the papers' (a 1.5B model on two cores writes about 15 words a second)."""
AID_MARKS = ("asked again", "kept after asking again", "overruled", "sentences dropped", "cut to the first")
"""How an aid's intervention ends in `Decision.checks` (docs/agents/checks.md)."""


def test_every_model_kind_finishes_a_game_with_its_aids_off(tmp_path: Path) -> None:
    agents = ",".join(f"{seat}={kind}" for seat, kind in enumerate(KINDS, start=1))
    # the papers' prompts, with shorter word limits and one cga question (its paper asks 5 and 2 of its own for
    # every action) to keep CI in its budget; the per-kind games with the papers' own limits are benchmarks
    played = run(tmp_path, "play", "avalon", "--preset", "bench5", "--seed", "4", "--game-id", "paper",
                 "--rule", "discussion=none", "--agents", agents, "--model", "local", "--agent-option", "aids=off",
                 *[part for option in CHEAP for part in ("--agent-option", option)], "--json")
    assert played.returncode == 0, played.stderr[-3000:]
    game = record(tmp_path, "paper")
    assert game["status"] == "finished" and game["winner"] in ("good", "evil")
    assert [seat["kind"] for seat in game["seats"]] == list(KINDS)
    assert all((seat.get("options") or {}).get("aids") in ("off", False) for seat in game["seats"])
    decisions = [d for d in game["decisions"] if d["kind"] != "belief"]
    for player, kind in enumerate(KINDS, start=1):
        mine = [d for d in decisions if d["player"] == player]
        assert mine, f"{kind} made no decision"
        assert sum(d["usage"]["calls"] for d in mine if d.get("usage")) > 0, f"{kind} never called its model"
        acted = [c for d in mine for c in d.get("checks") or () if c.endswith(AID_MARKS)]
        assert not acted, f"{kind}: an aid acted with the aids off: {acted}"
    for d in decisions:  # what the model could not answer was decided by a rule, and the rule is named
        assert d.get("fallback") is None or isinstance(d["fallback"], str)
