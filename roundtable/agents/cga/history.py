"""The history modules (Xu et al. 2023; docs/agents/cga.md#the-modules): memory storage, freshness, informativeness. No
model call."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import Overwrite

from roundtable.agents.cga import memory as mem
from roundtable.agents.cga.state import CgaState
from roundtable.agents.cga.turn import CgaTurn
from roundtable.agents.protocol import FRESH_CHECKS


def observe(state: CgaState, runtime: Runtime[Any]) -> dict[str, Any]:
    """Read the view's new events into the memory as scored messages, and clear the working channels.

    Returns:
        ``pool`` (with the seat's experience settings), the ``view`` without its events (they are in
        the memory now), ``refresh`` (whether this decision asks its questions afresh: always in the
        paper's mode, once per `CgaTurn.refresh_key` with ``refresh=round``) and fresh working channels.
    """
    turn = CgaTurn.of(state, runtime)
    aided = turn.options.checks_answers() or turn.options.knowledge_note
    pool = mem.ingest(turn.memory, turn.view, turn.narrate, turn.intro(), aided) or dict(turn.memory)
    opts = turn.options
    pool.update(pool=opts.pool, learn=opts.learn)
    per_round = opts.per_round()
    refresh = not per_round or pool.get("refreshed") != turn.refresh_key or "reflection" not in pool
    view = state["view"]
    return {
        "pool": pool, "refresh": refresh,
        "view": {**view, "events": [], "first_event": turn.view.first_event + len(turn.view.events)},
        "action": None, "utterance": None, "retry": False, "attempts": 0,
        "questions": [], "retrieved": [], "answers": [], "reflection": "", "suggestion": "",
        "raw": Overwrite([]), "problems": Overwrite([]), "usage": Overwrite([]), "checks": Overwrite([]),
        "thoughts": Overwrite([]), "retrieval_seconds": Overwrite([]), **FRESH_CHECKS,
    }


def freshness(state: CgaState, runtime: Runtime[Any]) -> dict[str, Any]:
    """Freshness: the last K messages (Xu et al.: K = 15; option ``freshness``), the oldest leaving
    ``freshness_step`` at a time."""
    turn = CgaTurn.of(state, runtime)
    return {"recent": mem.freshness(turn.memory, turn.options.freshness, turn.options.freshness_step)}


def informativeness(state: CgaState, runtime: Runtime[Any]) -> dict[str, Any]:
    """Informativeness: the top N earlier messages by the scores of docs/agents/cga.md#informativeness (option
    ``informative``)."""
    turn = CgaTurn.of(state, runtime)
    opts = turn.options
    return {"informative": mem.informative(turn.memory, opts.freshness, opts.informative, opts.freshness_step)}
