"""Memory storage (Lan et al. 2024, module 1): read the view's new events into the memory pool."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import Overwrite

from roundtable.agents.lga import memory as mem
from roundtable.agents.lga.context import LgaContext
from roundtable.agents.lga.state import LgaState
from roundtable.agents.lga.turn import Turn
from roundtable.agents.protocol import FRESH_CHECKS


def observe(state: LgaState, runtime: Runtime[LgaContext]) -> dict[str, Any]:
    """Add the records of the events not seen before to the memory, and clear the working channels.

    Returns:
        ``pool`` (when there was something new); the ``view`` without its
        events (they are in the memory now, and later checkpoints of the turn
        need not store them again); fresh working channels (``action``,
        ``words``, ``retry``, ``attempts``, ``raw``, ``problems``, ``usage``, the checks' channels),
        so a thread reused for several decisions starts each clean.
    """
    turn = Turn.of(state, runtime)
    view = state["view"]
    read = turn.view.first_event + len(turn.view.events)
    update: dict[str, Any] = {
        "view": {**view, "events": [], "first_event": read},
        "action": None, "utterance": None, "retry": False, "attempts": 0,
        "raw": Overwrite([]), "problems": Overwrite([]), "usage": Overwrite([]),
        "checks": Overwrite([]), "thoughts": Overwrite([]), **FRESH_CHECKS,
    }
    memory = mem.ingest(turn.memory, turn.view, turn.narrate)
    if memory is not None:
        update["pool"] = memory
    return update
