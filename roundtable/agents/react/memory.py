"""The ``react`` agent's memory (Light et al. 2023, §3.2 and §3.3): a running summary and the current round's minutes.

The pool (the agent's ``memory`` in the game), JSON-ready::

    {
      "seen": 41,                                   # visible events already read from the views
      "minutes": [                                  # the lines of the rounds not yet summarized
        {"round": 3, "text": "Host: Quest 3 begins: ...", "outcome": False},
        {"round": 3, "text": "Player 2: I trust 4 and 5.", "outcome": False},
        {"round": 3, "text": "Host: Quest 3 (players 4, 5) succeeded with 0 fail cards.", "outcome": True},
      ],
      "summary": "...", "summary_round": 2,         # Summary_t, covering rounds 1..summary_round
    }

Every event the player may see becomes one line (the game's narrator; talk as ``Player N: ...``, the rest as
``Host: ...``): AvalonBench's *Minutes* are the round's lines, its *Outcome* the Host's outcome lines among them
(vote and quest results, the assassination). When a round has ended, its lines are folded into the new summary
(``Summary_t = LLM(Summary_t-1, Minutes_t, Outcome)``) and dropped.
"""

from __future__ import annotations

from typing import Any

from roundtable.agents.common.memory import Narrate, key_events, new_events
from roundtable.games.protocol import PlayerView


def ingest(memory: dict[str, Any], view: PlayerView, narrate: Narrate) -> dict[str, Any] | None:
    """The pool with a line for each of the view's new events (``None``: nothing new).

    Args:
        memory: the pool so far (``{}`` at first).
        view: the player's view (maybe only the events not delivered before).
        narrate: the game's narrator for this player.
    """
    events, seen = new_events(memory, view)
    if not events and seen == memory.get("seen"):
        return None
    minutes = list(memory.get("minutes") or [])
    # an event that names no round (the reveal's; every event of a game whose log counts days) belongs to the round
    # of the line before it, or to the view's round when that is later (a new day's events name none)
    round_ = max(int(minutes[-1]["round"]) if minutes else int(memory.get("summary_round") or 0) + 1, view.round)
    facts = key_events(view)
    for event in events:
        round_ = int(event.get("round") or round_)
        text = narrate(event)
        if not text:
            continue
        line = f"Player {event['speaker']}: {text}" if event["type"] == "utterance" else f"Host: {text}"
        minutes.append({"round": round_, "text": line, "outcome": event["type"] in facts})
    return {**memory, "seen": seen, "minutes": minutes}


def ended(memory: dict[str, Any], round_: int) -> list[dict[str, Any]]:
    """The lines of the rounds before ``round_``, which the next summary folds in."""
    return [m for m in memory.get("minutes") or [] if int(m["round"]) < round_]


def minutes(memory: dict[str, Any], round_: int) -> list[str]:
    """The lines of round ``round_`` and later (the current round's minutes)."""
    return [m["text"] for m in memory.get("minutes") or [] if int(m["round"]) >= round_]


def after_summary(memory: dict[str, Any], round_: int, summary: str) -> dict[str, Any]:
    """The pool once the rounds before ``round_`` are folded into ``summary`` (their lines dropped)."""
    kept = [m for m in memory.get("minutes") or [] if int(m["round"]) >= round_]
    return {**memory, "minutes": kept, "summary": summary.strip(), "summary_round": round_ - 1}
