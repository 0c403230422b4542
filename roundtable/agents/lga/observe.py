"""Memory storage (Lan et al. 2024, module 1): read the view's new events into the memory pool."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import Overwrite

from roundtable.agents.common.memory import new_events
from roundtable.agents.lga import memory as mem
from roundtable.agents.lga.context import LgaContext
from roundtable.agents.lga.state import LgaState
from roundtable.agents.lga.turn import Turn
from roundtable.agents.protocol import FRESH_CHECKS
from roundtable.aids.interface import record_checks


def observe(state: LgaState, runtime: Runtime[LgaContext]) -> dict[str, Any]:
    """Add the records of the events not seen before to the memory, and clear the working channels.

    Returns:
        ``pool`` (when there was something new); the ``view`` without its
        events (they are in the memory now, and later checkpoints of the turn
        need not store them again); fresh working channels (``action``,
        ``words``, ``retry``, ``attempts``, ``raw``, ``problems``, ``usage``, the checks' channels),
        so a thread reused for several decisions starts each clean. The memory's ``checked`` keeps the player's
        private results among the new events (a Werewolf Seer's checks: `roundtable.aids.interface.record_checks`),
        for the aids' checks and notes (a seat
        whose checks and knowledge note are off keeps none).
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
    fresh, _ = new_events(turn.memory, turn.view)
    memory = mem.ingest(turn.memory, turn.view, turn.narrate)
    if memory is not None:
        opts = turn.options  # only a seat whose checks or knowledge note read them keeps them (no aid runs else)
        keeps = opts.checks_answers() or opts.knowledge_note
        checked = record_checks(turn.view, turn.memory.get("checked") or {}, fresh) if keeps else None
        update["pool"] = {**memory, "checked": checked} if checked else memory
    return update
