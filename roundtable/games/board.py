"""The picture of a table: what a game's board shows of a log, in shapes every game shares.

A game's `roundtable.games.protocol.GameRules.board` reads the log entries a viewer may see (a seat's
view, a spectator's public record, or the whole log after the game) and says what the table looks like after
them: a mark on each seat (``leader``, ``team``, ``dead``, a vote revealed), a track of the game's rounds or
policies, and a few counters. The browser's table (`roundtable.web`) draws any game's board from these shapes
alone, so nothing in the page knows a game; the board only reads the entries it is given, so what it shows a
viewer is never more than that viewer's log.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

CellState = Literal["pending", "current", "good", "bad", "neutral"]
"""A track cell's state: not reached, being played, won by the good (Liberal, village) side, won by the
other side, or decided without a side (a Werewolf night, a chaos policy)."""


class SeatMark(BaseModel):
    """One mark on a seat: ``kind`` (a closed vocabulary the page styles: ``leader``, ``team``, ``dead``,
    ``vote``, ``office``, ``revealed``) and ``label``, its words (``"approve"``, ``"President"``,
    ``"Merlin"``)."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["leader", "team", "dead", "vote", "office", "revealed"]
    label: str


class TrackCell(BaseModel):
    """One cell of a board's track: ``label`` (``"Quest 2 (3)"``, ``"Day 1"``), its `CellState` and a
    ``note`` (``"1 fail"``, ``"Player 4 eliminated"``; empty for none)."""

    model_config = ConfigDict(frozen=True)

    label: str
    state: CellState = "pending"
    note: str = ""


class Board(BaseModel):
    """What a table looks like after a log.

    Attributes:
        seats: ``{player: [SeatMark]}`` for the players with marks (1-based seat numbers).
        tracks: named rows of cells, ``{"Quests": [TrackCell]}`` (a game may have several, one per policy).
        counters: ``[(label, value)]`` shown beside the tracks (``("Rejected teams", "2 of 5")``).
    """

    model_config = ConfigDict(frozen=True)

    seats: dict[int, tuple[SeatMark, ...]] = Field(default_factory=dict)
    tracks: dict[str, tuple[TrackCell, ...]] = Field(default_factory=dict)
    counters: tuple[tuple[str, str], ...] = ()


def no_board(events: Sequence[dict[str, Any]], players: int) -> Board:
    """The board of a game that draws none: no marks, tracks or counters."""
    return Board()
