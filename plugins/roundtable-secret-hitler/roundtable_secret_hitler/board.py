"""Secret Hitler's board (`roundtable.games.board`): the government, the executed, the last election's votes,
the two policy tracks and the election tracker, drawn from the public entries of a log
(docs/games/secret-hitler.md#what-the-log-records).

Only public entries (``to`` is ``None``) are read, so a seat's visible log, the spectator's public record and the
whole log draw the same board: the policies drawn, passed and discarded, the peeks and the investigations' results
never reach it, and no role is shown before ``game_over`` reveals them all. The Fascist track's squares carry the
executive power of the board for the player count (`roundtable_secret_hitler.powers.TRACKS`,
docs/games/secret-hitler.md#executive-actions).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from roundtable.games.board import Board, CellState, SeatMark, TrackCell
from roundtable.games.protocol import Event, titled
from roundtable_secret_hitler.powers import FASCIST_WIN, LIBERAL_WIN, TRACKER_CHAOS, TRACKS, VETO_FROM

LIBERAL_TRACK = "Liberal policies"
FASCIST_TRACK = "Fascist policies"
COUNTED = frozenset({"round_start", "enact", "chaos", "game_over"})
"""The public entries that give both tracks (``liberal``, ``fascist``: the policies enacted)."""


def square_words(players: int, square: int) -> str:
    """What Fascist square ``square`` (1-based) gives at a table of ``players``: its power (``"execution"``), the
    veto from square 5, the Fascists' win on the last; ``""`` for none."""
    power = TRACKS.get(players, {}).get(square)
    words = [power.value.replace("_", " ")] if power is not None else []
    if square == VETO_FROM:
        words.append("veto")
    if square == FASCIST_WIN:
        words.append("Fascists win")
    return ", ".join(words)


def track(enacted: int, how: dict[int, str], squares: int, state: CellState,
          notes: Sequence[str]) -> tuple[TrackCell, ...]:
    """A policy track: ``squares`` cells labelled ``"1"``.., the first ``enacted`` in ``state``, each noting its
    square's own note and, where the log says, how it was enacted (``how``: ``{square: "round 2" or "chaos, round
    5"}``), the others ``pending`` with the square's note."""
    cells = []
    for square, note in enumerate(notes[:squares], start=1):
        if square <= enacted:
            cells.append(TrackCell(label=str(square), state=state,
                                   note="; ".join(w for w in (note, how.get(square, "")) if w)))
        else:
            cells.append(TrackCell(label=str(square), note=note))
    return tuple(cells)


def board(events: Sequence[Event], players: int) -> Board:
    """The table after ``events``.

    Returns:
        A `Board`: seat marks ``office`` (``"President"``, the round's Presidential candidate or President;
        ``"Nominee"``, the Chancellor candidate before the vote; ``"Chancellor"`` once elected), ``dead``
        (``"executed round 4"``), ``vote`` (``"ja"`` / ``"nein"``) for the last election, and after ``game_over``
        every role ``revealed``; the tracks ``Liberal policies`` (5 cells, ``good`` when enacted) and ``Fascist
        policies`` (6 cells, ``bad`` when enacted, each noting its square's power, `square_words`); the counter
        ``("Election tracker", "N of 3")``, and once the game is over ``("Winner", side)`` and ``("Reason",
        ...)``.
    """
    public = [e for e in events if e.get("to") is None]
    president: int | None = None
    nominee: int | None = None
    chancellor: int | None = None
    dead: dict[int, str] = {}
    cast: dict[int, dict[int, bool]] = {}
    votes: dict[int, bool] = {}
    enacted = {"liberal": 0, "fascist": 0}  # the tracks, as the last entry that gives them says
    how: dict[str, dict[int, str]] = {"liberal": {}, "fascist": {}}
    tracker = 0
    over: dict[str, Any] | None = None
    for e in public:
        kind = e["type"]
        if kind in COUNTED:
            enacted = {policy: int(e.get(policy) or 0) for policy in enacted}
        if kind == "round_start":
            president, nominee, chancellor = e["president"], None, None
            tracker = int(e.get("tracker") or 0)
        elif kind == "nomination":
            nominee = e["chancellor"]
        elif kind == "vote":
            cast.setdefault(int(e["round"]), {})[e["player"]] = bool(e["ja"])
        elif kind == "election":
            votes = cast.get(int(e["round"]), {})
            if e["elected"]:
                nominee, chancellor = None, e["chancellor"]
        elif kind == "tracker":
            tracker = int(e["tracker"])
        elif kind in ("enact", "chaos"):
            if e["policy"] in how:
                how[e["policy"]][enacted[e["policy"]]] = ("" if kind == "enact" else "chaos, ") + f"round {e['round']}"
            tracker = 0
        elif kind == "execution":
            dead.setdefault(e["target"], f"executed round {e['round']}")
        elif kind == "game_over":
            over = e
    marks: dict[int, list[SeatMark]] = {}
    for seat, office in ((president, "President"), (nominee, "Nominee"), (chancellor, "Chancellor")):
        if seat is not None:
            marks.setdefault(seat, []).append(SeatMark(kind="office", label=office))
    for p, death in dead.items():
        marks.setdefault(p, []).append(SeatMark(kind="dead", label=death))
    for p, ja in sorted(votes.items()):
        marks.setdefault(p, []).append(SeatMark(kind="vote", label="ja" if ja else "nein"))
    for seat, role in sorted(((int(p), r) for p, r in ((over or {}).get("roles") or {}).items())):
        marks.setdefault(seat, []).append(SeatMark(kind="revealed", label=titled(role)))
    liberal_notes = [""] * (LIBERAL_WIN - 1) + ["Liberals win"]
    fascist_notes = [square_words(players, i) for i in range(1, FASCIST_WIN + 1)]
    tracks = {LIBERAL_TRACK: track(enacted["liberal"], how["liberal"], LIBERAL_WIN, "good", liberal_notes),
              FASCIST_TRACK: track(enacted["fascist"], how["fascist"], FASCIST_WIN, "bad", fascist_notes)}
    counters: tuple[tuple[str, str], ...] = (("Election tracker", f"{tracker} of {TRACKER_CHAOS}"),)
    if over is not None:
        counters = (("Winner", titled(str(over.get("winner") or "nobody"))),
                    ("Reason", str(over.get("reason") or "").replace("_", " ")))
    return Board(seats={p: tuple(m) for p, m in sorted(marks.items())}, tracks=tracks, counters=counters)
