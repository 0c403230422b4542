"""Werewolf's board (`roundtable.games.board`): the dead, the last day vote, the nights and days played and the
living, drawn from the public entries of a log (docs/games/werewolf.md#what-the-log-records).

Only public entries (``to`` is ``None``) are read, so a seat's visible log, the spectator's public record and the
whole log draw the same board: the werewolves' kill votes, the night actions and the Seer's checks never reach
it, and no role is shown before ``game_over`` reveals them all. Dawn announces the dead, not how they died
(docs/games/werewolf.md#dawn), so a night's dead are marked ``"died night 1"``, whether killed or poisoned.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from roundtable.games.board import Board, SeatMark, TrackCell
from roundtable.games.protocol import Event, titled

TRACK = "Days"
"""The name of the board's one track."""


def players_words(players: Sequence[int], what: str, none: str) -> str:
    """``"Player 3 died"``, ``"Players 2, 5 died"``, or ``none`` for nobody."""
    if not players:
        return none
    seats = ", ".join(str(p) for p in players)
    return f"Player{'s' if len(players) > 1 else ''} {seats} {what}"


def board(events: Sequence[Event], players: int) -> Board:
    """The table after ``events``.

    Returns:
        A `Board`: seat marks ``dead`` (``"died night 2"``, ``"eliminated day 1"``), ``vote`` (``"votes 3"`` or
        ``"passes"``) for the last day vote, and after ``game_over`` every role ``revealed``; the track ``Days``,
        a `TrackCell` for each night and day begun (``"Night 1"``, ``"Day 1"``), ``neutral`` once decided (note:
        who died, who was eliminated) and ``current`` while under way; the counter ``("Living", "5 of 7")``, and
        once the game is over ``("Winner", side or "Draw")`` and ``("Reason", ...)``.
    """
    public = [e for e in events if e.get("to") is None]
    dead: dict[int, str] = {}
    cells: dict[str, TrackCell] = {}
    cast: dict[int, dict[int, int | None]] = {}
    votes: dict[int, int | None] = {}
    over: dict[str, Any] | None = None
    for e in public:
        kind, day = e["type"], e.get("day")
        if kind == "night_start":
            cells[f"Night {day}"] = TrackCell(label=f"Night {day}", state="current")
        elif kind == "deaths":
            dead |= {p: f"died night {day}" for p in e["players"] if p not in dead}
            cells[f"Night {day}"] = TrackCell(label=f"Night {day}", state="neutral",
                                              note=players_words(e["players"], "died", "nobody died"))
        elif kind == "day_start":
            cells[f"Day {day}"] = TrackCell(label=f"Day {day}", state="current")
        elif kind == "eliminate":
            cast.setdefault(int(day or 0), {})[e["player"]] = e["target"]
        elif kind == "vote_result":
            votes, out = cast.get(int(day or 0), {}), e["eliminated"]
            if out is not None:
                dead.setdefault(out, f"eliminated day {day}")
            cells[f"Day {day}"] = TrackCell(label=f"Day {day}", state="neutral",
                                            note=players_words([out] if out else [], "eliminated", "nobody eliminated"))
        elif kind == "game_over":
            over = e
    marks: dict[int, list[SeatMark]] = {}
    for p, how in dead.items():
        marks.setdefault(p, []).append(SeatMark(kind="dead", label=how))
    for p, target in votes.items():
        marks.setdefault(p, []).append(SeatMark(kind="vote", label="passes" if target is None else f"votes {target}"))
    for seat, role in sorted(((int(p), r) for p, r in ((over or {}).get("roles") or {}).items())):
        marks.setdefault(seat, []).append(SeatMark(kind="revealed", label=titled(role)))
    counters: tuple[tuple[str, str], ...] = (("Living", f"{players - len(dead)} of {players}"),)
    if over is not None:
        counters += (("Winner", titled(str(over.get("winner") or "draw"))),
                     ("Reason", str(over.get("reason") or "").replace("_", " ")))
    return Board(seats={p: tuple(m) for p, m in sorted(marks.items())}, tracks={TRACK: tuple(cells.values())},
                 counters=counters)
