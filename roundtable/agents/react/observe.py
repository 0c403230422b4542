"""Memory storage of the ``react`` agent: the view's new events become lines of the minutes
(`roundtable.agents.react.memory.ingest`); no model call."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import Overwrite

from roundtable.agents.protocol import FRESH_CHECKS
from roundtable.agents.react import memory as mem
from roundtable.agents.react.state import ReactState
from roundtable.agents.react.turn import ReactTurn


def observe(state: ReactState, runtime: Runtime[Any]) -> dict[str, Any]:
    """Add the new events to the pool; clear the working channels (a reused thread starts each decision clean).

    Returns:
        ``pool`` (when there was something new), the ``view`` without its events (they are in the pool now), and
        fresh working channels.
    """
    turn = ReactTurn.of(state, runtime)
    view = state["view"]
    update: dict[str, Any] = {
        "view": {**view, "events": [], "first_event": turn.view.first_event + len(turn.view.events)},
        "thought": None, "action": None, "utterance": None, "retry": False, "attempts": 0,
        "raw": Overwrite([]), "problems": Overwrite([]), "usage": Overwrite([]), "checks": Overwrite([]),
        "thoughts": Overwrite([]), **FRESH_CHECKS,
    }
    memory = mem.ingest(turn.memory, turn.view, turn.table.narrate)
    if memory is not None:
        update["pool"] = memory
    return update
