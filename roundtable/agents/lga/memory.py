"""The agent's memory pool (Lan et al. 2024, module 1: memory storage).

One pool per agent, a JSON-ready dict persisted by the game between decisions
(in every checkpoint where it changes, so it is kept small)::

    {
      "seen": 41,                  # visible events already read from the views
      "round": 3, "attempt": 1,    # round and proposal of the newest record
      "records": [                 # this round's records (older rounds are summarized away)
        {"speaker": "Host", "text": "Player 4 leads proposal 1.", "round": 3,
         "phase": "proposal", "vis": "public"},
        {"speaker": "Player 2", "text": "I trust 4 and 5.", "round": 3,
         "phase": "discussion", "vis": "public", "attempt": 1, "team": [4, 5]},
        {"speaker": "Host", "text": "Quest 2 (players 1, 4) failed with 1 fail card.",
         "round": 2, "phase": "quest", "vis": "public", "fact": True},
      ],
      "board": ["Quest 1: ..."],   # key Host facts of summarized rounds, one line each
      "summary": "...", "summary_round": 2,   # M_t covers rounds 1..summary_round
      "analysis": "...", "analysis_round": 3,
      "plan": "...", "plan_round": 3,
    }

Records are the paper's ``(speaker, text, round, phase, public|private)``,
built only from the events not read before. When a round ends its records are
compressed into the summary (``M_t = SMR(M_{t-1}, records of round t)``) and
dropped; only its key Host facts (vote results, quest results, the
assassination) stay, as one short line each on the ``board``.
"""

from __future__ import annotations

from typing import Any

from roundtable.agents.common.memory import Narrate, key_events, new_events
from roundtable.games.protocol import PlayerView

HOST = "Host"

_PHASE_OF = {  # the phase of a Host record, by event type
    "round_start": "proposal",
    "leader": "proposal",
    "proposal": "proposal",
    "vote_team": "vote_team",
    "vote_result": "vote_team",
    "team_approved": "quest",
    "quest_card": "quest",
    "quest_result": "quest",
    "assassination_phase": "assassination",
    "assassination": "assassination",
    "game_over": "game_over",
}


def players_text(players: list[int] | tuple[int, ...]) -> str:
    """``[1, 3]`` -> ``"1, 3"``."""
    return ", ".join(str(p) for p in players)


def record_of(event: dict[str, Any], narrate: Narrate, round_: int, attempt: int,
              facts: frozenset[str] = frozenset()) -> dict[str, Any] | None:
    """The memory record of a visible event (its text from the game's narrator), or ``None``; ``facts`` are the
    game's key Host facts (`roundtable.agents.common.memory.key_events`).

    Returns:
        ``{speaker, text, round, phase, vis}`` (the paper's record) plus
        ``attempt`` (proposal number), ``fact`` (a key Host fact kept on the
        board after the summary) and ``team`` (a speaker's team suggestion).
    """
    text = narrate(event)
    if text is None:
        return None
    kind = event["type"]
    speaker = f"Player {event['speaker']}" if kind == "utterance" else HOST
    record: dict[str, Any] = {
        "speaker": speaker,
        "text": text,
        "round": int(event.get("round") or round_),
        "phase": event.get("phase") or _PHASE_OF.get(kind, "proposal"),
        "vis": "public" if event.get("to") is None else "private",
        "attempt": int(event.get("attempt") or (1 if kind == "round_start" else attempt)),
    }
    if kind in facts:
        record["fact"] = True
    if kind == "utterance" and event.get("team") and event.get("phase") != "proposal":
        record["team"] = list(event["team"])  # a suggestion (a leader's team is in the proposal record)
    return record


def ingest(memory: dict[str, Any], view: PlayerView, narrate: Narrate) -> dict[str, Any] | None:
    """Memory storage: add the records of the view's new events, narrated by ``narrate``.

    Returns:
        The new memory, or ``None`` when the view holds nothing new.
    """
    events, seen = new_events(memory, view)
    if not events and seen == memory.get("seen"):
        return None
    round_ = int(memory.get("round") or 1)
    attempt = int(memory.get("attempt") or 1)
    records = list(memory.get("records") or [])
    facts = key_events(view)
    for event in events:
        record = record_of(event, narrate, round_, attempt, facts)
        if record is not None:
            if record["round"] > round_:
                round_, attempt = record["round"], 1
            attempt = record["attempt"] if record["round"] == round_ else attempt
            records.append(record)
    return {**memory, "seen": seen, "round": round_, "attempt": attempt, "records": records}


def stale_records(memory: dict[str, Any], round_: int) -> list[dict[str, Any]]:
    """Records of rounds before ``round_`` (to be summarized)."""
    return [r for r in memory.get("records") or [] if r["round"] < round_]


def after_summary(memory: dict[str, Any], round_: int, summary: str) -> dict[str, Any]:
    """The memory once the rounds before ``round_`` are summarized into ``summary``.

    Their records are dropped; their key Host facts move to the board.
    """
    old = stale_records(memory, round_)
    board = list(memory.get("board") or []) + [r["text"] for r in old if r.get("fact")]
    kept = [r for r in memory.get("records") or [] if r["round"] >= round_]
    return {**memory, "records": kept, "board": board, "summary": summary.strip(),
            "summary_round": round_ - 1}


def line(record: dict[str, Any]) -> str:
    """One record as ``Speaker: text``; a suggestion goes with the speaker: ``Player 2 (suggests 1, 4): ...``."""
    who = record["speaker"]
    if record.get("team"):
        who += f" (suggests {players_text(record['team'])})"
    return f"{who}: {record['text']}"


def lines(records: list[dict[str, Any]]) -> str:
    """Records as `line` lines."""
    return "\n".join(line(r) for r in records)


def clip(text_lines: list[str], budget: int) -> str:
    """The newest lines that fit in ``budget`` characters, with a note when older ones are left out."""
    kept: list[str] = []
    used = 0
    for text in reversed(text_lines):
        if kept and used + len(text) + 1 > budget:
            break
        kept.append(text)
        used += len(text) + 1
    omitted = len(text_lines) - len(kept)
    head = [f"({omitted} earlier lines omitted)"] if omitted else []
    return "\n".join(head + list(reversed(kept)))


def public_transcript(memory: dict[str, Any], round_: int, attempt: int, budget: int) -> str:
    """This round's public records, the same text for every player at the same moment.

    The text only grows within a round, so each player's prompt cache reuses
    it: the round's records in full while they fit in ``budget`` characters.
    Past that, earlier proposals of the round keep only the Host's lines
    (leader, proposal, vote result) and the current proposal keeps everything
    said, clipped to the newest ``budget`` characters only if one proposal's
    talk alone exceeds it; that text again only grows within the proposal.
    """
    public = [r for r in memory.get("records") or [] if r["round"] >= round_ and r["vis"] == "public"]
    whole = [line(r) for r in public]
    if sum(len(text) + 1 for text in whole) <= budget:
        return "\n".join(whole)
    return clip([line(r) for r in public if r["speaker"] == HOST or int(r.get("attempt") or 1) >= attempt], budget)


def private_notes(memory: dict[str, Any], round_: int) -> str:
    """This round's private records (own votes and cards, evil council talk)."""
    records = [r for r in memory.get("records") or [] if r["round"] >= round_ and r["vis"] == "private"]
    return lines(records)
