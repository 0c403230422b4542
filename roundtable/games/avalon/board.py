"""Avalon's board (`roundtable.games.board`): the leader, the team, the last revealed vote, the five quests and the
rejected teams, drawn from the public entries of a log (docs/games/avalon.md#what-the-log-records).

Only public entries (``to`` is ``None``) are read, so a seat's visible log, the spectator's public record and the
whole log draw the same board: under ``vote_visibility=tally_only`` (docs/games/avalon.md#vote_visibility) a
voter's own vote is private and no vote is marked, and no role is shown before ``game_over`` reveals them all (a
mid-game miss that exposes the Assassin, docs/games/avalon.md#the-assassination, marks nothing).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from roundtable.games.avalon.roles import MAX_PROPOSALS, QUESTS, Role, fails_needed, team_size
from roundtable.games.board import Board, SeatMark, TrackCell
from roundtable.games.protocol import Event, titled

TRACK = "Quests"
"""The name of the board's one track."""


def role_words(role: str) -> str:
    """A role's name as the rulebook prints it (``"Loyal Servant of Arthur"``); an unknown name, titled."""
    try:
        return Role(role).title
    except ValueError:
        return titled(role)


def quest_shape(players: int, quest: int, two_fail_quests: str) -> tuple[int | None, int]:
    """``(team size, fails needed)`` of ``quest`` by the setup table (docs/games/avalon.md#setup-table);
    ``(None, 1)`` at a table the game does not know."""
    try:
        return team_size(players, quest), fails_needed(players, quest, two_fail_quests)
    except ValueError:
        return None, 1


def quest_cell(quest: int, size: int | None, needed: int, result: Event | None, current: bool) -> TrackCell:
    """Quest ``quest``'s cell: ``"Quest 2 (3)"``, good or bad once played (note ``"1 fail"``, with ``"2 needed"``
    on a two-fail quest), ``current`` while it is being played, else ``pending`` (note ``"2 fails needed"`` on a
    two-fail quest)."""
    label = f"Quest {quest}" if size is None else f"Quest {quest} ({size})"
    if result is not None:
        fails = int(result["fails"])
        note = f"{fails} fail{'' if fails == 1 else 's'}" + (f" ({needed} needed)" if needed > 1 else "")
        return TrackCell(label=label, state="good" if result["success"] else "bad", note=note)
    return TrackCell(label=label, state="current" if current else "pending",
                     note=f"{needed} fails needed" if needed > 1 else "")


def board(events: Sequence[Event], players: int) -> Board:
    """The table after ``events``.

    Returns:
        A `Board`: seat marks ``leader`` (``"Leader"``, the current proposal's leader) and ``team`` (``"Team"``,
        the players of the current proposal or quest), ``vote`` (``"approve"`` / ``"reject"``) for the last team
        vote whose votes were public, and after ``game_over`` every role ``revealed`` (then no leader or team);
        the track ``Quests``, one `TrackCell` per quest (`quest_cell`); the counter ``("Rejected teams", "N of
        5")`` for the quest being played, and once the game is over ``("Winner", side)`` and ``("Reason", ...)``.
    """
    public = [e for e in events if e.get("to") is None]
    start = next((e for e in public if e["type"] == "game_start"), {})
    two_fail = str((start.get("rules") or {}).get("two_fail_quests", "official"))
    leader: int | None = None
    team: tuple[int, ...] = ()
    cast: dict[tuple[int, int], dict[int, bool]] = {}
    votes: dict[int, bool] = {}
    shapes: dict[int, tuple[int | None, int]] = {}
    results: dict[int, Event] = {}
    current: int | None = None
    rejected = 0
    over: dict[str, Any] | None = None
    for e in public:
        kind = e["type"]
        if kind == "round_start":
            current, rejected = e["round"], 0
            shapes[current] = (e.get("team_size"), int(e.get("fails_needed") or 1))
        elif kind == "leader":
            leader, team = e["leader"], ()
        elif kind in ("proposal", "team_approved"):
            team = tuple(e["team"])
        elif kind == "vote_team":
            cast.setdefault((e["round"], e["attempt"]), {})[e["player"]] = bool(e["approve"])
        elif kind == "vote_result":
            votes = cast.get((e["round"], e["attempt"]), {})
            rejected += 0 if e["approved"] else 1
        elif kind == "quest_result":
            results[e["round"]], team = e, ()
        elif kind == "game_over":
            over = e
    marks: dict[int, list[SeatMark]] = {}
    if over is None:
        if leader is not None:
            marks.setdefault(leader, []).append(SeatMark(kind="leader", label="Leader"))
        for p in team:
            marks.setdefault(p, []).append(SeatMark(kind="team", label="Team"))
    for p, approve in sorted(votes.items()):
        marks.setdefault(p, []).append(SeatMark(kind="vote", label="approve" if approve else "reject"))
    for seat, role in sorted(((int(p), r) for p, r in ((over or {}).get("roles") or {}).items())):
        marks.setdefault(seat, []).append(SeatMark(kind="revealed", label=role_words(role)))
    playing = current if over is None and current not in results else None
    cells = tuple(quest_cell(q, *shapes.get(q, quest_shape(players, q, two_fail)), results.get(q), q == playing)
                  for q in range(1, QUESTS + 1))
    counters: tuple[tuple[str, str], ...] = ()
    if over is not None:
        counters = (("Winner", titled(str(over.get("winner") or "nobody"))),
                    ("Reason", str(over.get("reason") or "").replace("_", " ")))
    elif playing is not None:
        counters = (("Rejected teams", f"{rejected} of {MAX_PROPOSALS}"),)
    return Board(seats={p: tuple(m) for p, m in sorted(marks.items())}, tracks={TRACK: cells}, counters=counters)
