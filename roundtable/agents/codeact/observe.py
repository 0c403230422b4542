"""Memory storage of the CodeAct agent: the view's new events into the global memory (`memory.remember`), each
narrated by the game's table (`roundtable.tables.protocol.GameTable.narrate`)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import Overwrite

from roundtable.agents.codeact.facts import leader_facts
from roundtable.agents.codeact.memory import remember
from roundtable.agents.codeact.state import CodeActState
from roundtable.agents.codeact.turn import CodeActTurn
from roundtable.agents.protocol import FRESH_CHECKS


def observe(state: CodeActState, runtime: Runtime[Any]) -> dict[str, Any]:
    """Add the new events to the pool; clear the working channels (a reused thread starts each decision clean).

    Returns:
        ``pool`` (when there was something new), the ``view`` without its events
        (they are in the pool now), and fresh working channels.
    """
    turn = CodeActTurn.of(state, runtime)
    view = state["view"]
    read = turn.view.first_event + len(turn.view.events)
    update: dict[str, Any] = {
        "view": {**view, "events": [], "first_event": read},
        "facts": [], "program": None, "action": None, "utterance": None,
        "attempts": Overwrite([]), "steps": Overwrite([]),
        "raw": Overwrite([]), "problems": Overwrite([]), "usage": Overwrite([]),
        "checks": Overwrite([]), "thoughts": Overwrite([]), **FRESH_CHECKS,
    }
    memory = remember(turn.memory, turn.view, turn.table.narrate, turn.options.memory_messages, turn.options.key_lines,
                      turn.options.memory_step)
    if memory is not None:
        update["pool"] = memory
    return update


def gather_facts(state: CodeActState, runtime: Runtime[Any]) -> dict[str, Any]:
    """Leader memory: the facts its player may know (`roundtable.agents.codeact.facts.leader_facts`)."""
    turn = CodeActTurn.of(state, runtime)
    return {"facts": leader_facts(turn.view, turn.memory, turn.table, turn.paper)}
