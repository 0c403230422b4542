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

from roundtable.games.avalon import PlayerView

HOST = "Host"
FACT_TYPES = frozenset({"vote_result", "team_approved", "quest_result", "assassination", "game_over"})

_PHASE_OF = {
    "round_start": "proposal",
    "leader": "proposal",
    "proposal": "proposal",
    "vote": "team_vote",
    "vote_result": "team_vote",
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


def event_text(event: dict[str, Any], me: int, rules: dict[str, str]) -> str | None:
    """What the Host (or a player) said, as one line, for a visible event; ``None`` for events kept out of memory.

    The role, knowledge and game-start events are left out: the prompt gives
    them from the view's fields. Public text never depends on ``me`` (so it is
    the same for every player and the prompt prefix is shared).
    """
    kind = event.get("type")
    if kind == "round_start":
        fails = event.get("fails_needed", 1)
        return (f"Quest {event['round']} begins: the team has {event['team_size']} players; "
                f"{fails} fail card{'s' if fails != 1 else ''} fail{'' if fails != 1 else 's'} it.")
    if kind == "leader":
        return f"Player {event['leader']} leads proposal {event['attempt']}."
    if kind == "proposal":
        final = event.get("final") and rules.get("discussion") == "leader_first_and_last"
        return f"Player {event['leader']} {'names the final team' if final else 'proposes'}: players {players_text(event['team'])}."
    if kind == "utterance":
        return " ".join(str(event.get("text") or "").split())
    if kind == "vote":
        if event.get("to") is None:
            return None  # public votes are in the vote result
        return f"You voted {'approve' if event['approve'] else 'reject'} on proposal {event['attempt']}."
    if kind == "vote_result":
        outcome = "approved" if event["approved"] else "rejected"
        line = (f"Quest {event['round']} proposal {event['attempt']}, players {players_text(event['team'])}: "
                f"{outcome} {event['approvals']}-{event['rejections']}")
        if "approvers" in event:
            line += f" (approved by {players_text(event['approvers']) or 'nobody'})"
        return line + "."
    if kind == "team_approved":
        return f"Quest {event['round']}: the fifth team, players {players_text(event['team'])}, goes without a vote."
    if kind == "quest_card":
        return f"You played {'success' if event['success'] else 'fail'} on quest {event['round']}."
    if kind == "quest_result":
        fails = event["fails"]
        return (f"Quest {event['round']} (players {players_text(event['team'])}) "
                f"{'succeeded' if event['success'] else 'FAILED'} with {fails} fail card{'s' if fails != 1 else ''}.")
    if kind == "assassination_phase":
        return ("The Assassin may now name Merlin (or pass)." if event.get("optional")
                else "Good won three quests: the Assassin now names Merlin.")
    if kind == "assassination":
        if event.get("target") is None:
            return f"The Assassin (Player {event['assassin']}) passed."
        return (f"The Assassin (Player {event['assassin']}) named Player {event['target']}: "
                f"{'that was Merlin' if event.get('hit') else 'not Merlin'}.")
    if kind == "game_over":
        return f"Game over: {event['winner']} wins ({str(event.get('reason', '')).replace('_', ' ')})."
    return None


def record_of(event: dict[str, Any], me: int, rules: dict[str, str], round_: int, attempt: int) -> dict[str, Any] | None:
    """The memory record of a visible event, or ``None``.

    Returns:
        ``{speaker, text, round, phase, vis}`` (the paper's record) plus
        ``attempt`` (proposal number), ``fact`` (a key Host fact kept on the
        board after the summary) and ``team`` (a speaker's team suggestion).
    """
    text = event_text(event, me, rules)
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
    if kind in FACT_TYPES:
        record["fact"] = True
    if kind == "utterance" and event.get("team") and event.get("phase") != "proposal":
        record["team"] = list(event["team"])  # a suggestion (a leader's team is in the proposal record)
    return record


def new_events(memory: dict[str, Any], view: PlayerView) -> tuple[tuple[dict[str, Any], ...], int]:
    """The view's events not read before, and the new read count.

    A view may hold the whole visible log (``first_event`` 0) or only the
    entries not delivered before; either way the events at visible-log index
    ``memory["seen"]`` and later are new.
    """
    seen = int(memory.get("seen") or 0)
    start = max(0, seen - view.first_event)
    return view.events[start:], max(seen, view.first_event + len(view.events))


def ingest(memory: dict[str, Any], view: PlayerView) -> dict[str, Any] | None:
    """Memory storage: add the records of the view's new events.

    Returns:
        The new memory, or ``None`` when the view holds nothing new.
    """
    events, seen = new_events(memory, view)
    if not events and seen == memory.get("seen"):
        return None
    round_ = int(memory.get("round") or 1)
    attempt = int(memory.get("attempt") or 1)
    records = list(memory.get("records") or [])
    for event in events:
        record = record_of(event, view.player, view.rules, round_, attempt)
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

    Earlier proposals of the round keep only the Host's lines (leader,
    proposal, vote result); the current proposal keeps everything said. The
    text therefore only grows within a proposal (a prompt cache reuses it),
    and is clipped to the newest ``budget`` characters only if one proposal's
    talk alone exceeds it.
    """
    records = [
        r for r in memory.get("records") or []
        if r["round"] >= round_ and r["vis"] == "public"
        and (r["speaker"] == HOST or int(r.get("attempt") or 1) >= attempt)
    ]
    return clip([line(r) for r in records], budget)


def private_notes(memory: dict[str, Any], round_: int) -> str:
    """This round's private records (own votes and cards, evil council talk)."""
    records = [r for r in memory.get("records") or [] if r["round"] >= round_ and r["vis"] == "private"]
    return lines(records)


def knowledge_text(view: PlayerView) -> str:
    """What the player learned at the reveal, in words (``""`` when nothing)."""
    known = list(view.knowledge)
    if not known:
        return ""
    labels = {k["is"] for k in known}
    who = " and ".join(f"Player {k['player']}" for k in known)
    if labels == {"merlin_or_morgana"}:
        return f"You know that {who} are Merlin and Morgana, but not which is which."
    if labels == {"merlin"}:
        return f"You know that {who} is Merlin."
    if view.side == "evil":
        return f"Your evil teammates: {who}." if len(known) > 1 else f"Your evil teammate: {who}."
    return f"You know that these players are evil: {who}."


def team_knowledge(view: PlayerView, team: list[int] | tuple[int, ...]) -> str:
    """What the player's own reveal knowledge says about ``team``, in words (``""`` when it says nothing).

    Merlin learns the evil players (but Mordred) and evil players their
    teammates (but Oberon); a 1.5B model does not reliably intersect that list
    with a team, so the prompt states the intersection. Nothing here is new to
    the player: it restates `knowledge_text` for the team in hand.
    """
    if not team:
        return ""
    known = [k["player"] for k in view.knowledge if k.get("is") == "evil"]
    if view.side == "evil":
        on = [p for p in team if p == view.player or p in known]
        if not on:
            return "No player of your side you know of is on this team."
        return "Your side on this team: " + ", ".join(
            f"Player {p}" + (" (you)" if p == view.player else "") for p in on) + "; one fail card fails the quest."
    if not known:
        return ""
    on = [p for p in team if p in known]
    if not on:
        return "No evil player you know is on this team."
    return f"On this team you know {'these players are' if len(on) > 1 else 'this player is'} evil: {players_text(on)}."
