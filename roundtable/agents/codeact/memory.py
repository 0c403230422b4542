"""Global memory of the CodeAct agent (Shi et al. 2023; docs/agents/codeact.md#memory): key information plus the last k
messages.

The pool (the agent's ``memory`` in the game) is ``{"seen", "key", "recent",
"votes"}``:

- ``key``: the Host's notes of outcomes (vote results, teams sent without a
  vote, quest results, the assassination) and utterances that reveal or deduce
  identities (they name a role or a side), newest kept;
- ``recent``: the last k messages of any kind (the Host's lines and utterances);
  with a memory step above 1 (`roundtable.agents.common.memory.window`), the
  oldest leave that many at a time, so the memory grows by appending between
  drops and an endpoint's prompt cache serves it (docs/agents/codeact.md#memory);
- ``votes``: the public record of each vote on a team (leader, team, approvers where
  public), for the leader's facts (a game whose votes name no team records none here: its outcomes are key
  lines).

Everything comes from the player's view, narrated by the game's narrator.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from roundtable.agents.common.memory import Narrate, identity_words, key_events, new_events, window
from roundtable.games.protocol import PlayerView


@cache
def identity_pattern(words: tuple[str, ...]) -> re.Pattern[str] | None:
    """The pattern of ``words`` (the game's words by which an utterance reveals or deduces an identity, a role or a
    side: `roundtable.agents.common.memory.identity_words`), whole words, any case; ``None``: no words."""
    return re.compile(rf"\b({'|'.join(map(re.escape, words))})\b", re.IGNORECASE) if words else None


def is_key(event: dict[str, Any], view: PlayerView) -> bool:
    """Whether a visible event is key information: a Host outcome note (the game's key facts), or talk that names a
    role or a side (the game's identity words)."""
    if event["type"] in key_events(view):
        return True
    pattern = identity_pattern(identity_words(view))
    return event["type"] == "utterance" and pattern is not None and bool(pattern.search(str(event.get("text") or "")))


def earlier_key(key: list[str], recent: list[str]) -> list[str]:
    """The key lines said before the recent messages begin (the rest are among them), oldest first.

    The key lines are a subsequence of the messages and the recent ones their suffix, so the key lines among the
    recent ones are the longest suffix of ``key`` found, in order, in ``recent``; the memory shows each line once,
    and between the drops of `roundtable.agents.common.memory.window` it grows only by appending.
    """
    among = 0
    at = len(recent)
    for line in reversed(key):
        while at and recent[at - 1] != line:
            at -= 1
        if not at:
            break
        among += 1
        at -= 1
    return key[:len(key) - among]


def remember(memory: dict[str, Any], view: PlayerView, narrate: Narrate, k: int,
             key_lines: int, step: int = 1) -> dict[str, Any] | None:
    """The pool with the view's new events added (``None``: nothing new).

    Args:
        memory: the pool so far (``{}`` at first).
        view: the player's view (maybe only new events).
        narrate: the game's narrator for this player.
        k: messages kept in ``recent``.
        key_lines: lines kept in ``key``.
        step: messages (and key lines) that leave the memory at once (`roundtable.agents.common.memory.window`; 1: a
            sliding window).
    """
    events, seen = new_events(memory, view)
    if not events and seen == memory.get("seen"):
        return None
    key = list(memory.get("key") or [])
    recent = list(memory.get("recent") or [])
    votes = list(memory.get("votes") or [])
    leaders = dict(memory.get("leaders") or {})
    for event in events:
        if event["type"] == "proposal" and "attempt" in event:  # a team vote's record: a game whose votes are on teams
            leaders[f"{event['round']}.{event['attempt']}"] = event["leader"]
        if event["type"] == "vote_result" and "team" in event:
            votes.append({"round": event["round"], "attempt": event["attempt"], "team": list(event["team"]),
                          "leader": leaders.get(f"{event['round']}.{event['attempt']}"),
                          "approved": bool(event["approved"]), "approvals": event["approvals"],
                          "rejections": event["rejections"], "approvers": event.get("approvers")})
        text = narrate(event)
        if not text:
            continue
        line = f"Player {event['speaker']}: {text}" if event["type"] == "utterance" else f"Host: {text}"
        recent.append(line)
        if is_key(event, view):
            key.append(line)
    return {"seen": seen, "key": window(key, key_lines, step), "recent": window(recent, k, step), "votes": votes,
            "leaders": leaders}
