"""Ratings of entrants from finished game records: OpenSkill, Bradley-Terry and Elo with bootstrap 95% intervals,
win rates with Wilson's interval, games and cost per game (docs/tournaments.md).

`matches` reads records into matches between entrants, `systems` holds the three rating systems, `board` makes
the leaderboard.
"""

from roundtable.metrics.ratings.board import ALL, RESAMPLES, SYSTEMS, Board, BoardRow, Interval, leaderboard
from roundtable.metrics.ratings.matches import Match, MatchError, Seat, record_match, seat_label

__all__ = ["ALL", "RESAMPLES", "SYSTEMS", "Board", "BoardRow", "Interval", "Match", "MatchError", "Seat",
           "leaderboard", "record_match", "seat_label"]
