"""The leaderboard of experiment directories: their finished records as matches between entrants, rated
(`roundtable.metrics.ratings`; docs/tournaments.md#the-leaderboard).

In a tournament's directory the entrant at each seat is the one its rotation put there (`PlannedGame.entrants`);
in any other experiment's, an entrant is a seat spec (`roundtable.metrics.ratings.matches.seat_label`: ``naive``,
``lga@local``), so the board also ranks the kinds and models of an experiment that did not rotate them (and says
so). Records of several directories are rated together, entrants matched by name.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from roundtable.experiments.config import ExperimentConfig, ExperimentConfigError, PlannedGame
from roundtable.experiments.manifest import load_records
from roundtable.experiments.runner import open_directory
from roundtable.metrics.ratings import RESAMPLES, Board, Match, leaderboard, record_match


@dataclass(frozen=True)
class Source:
    """One experiment directory of a board: its ``path``, ``name``, whether it is a ``tournament``, and its games
    ``planned`` and ``finished``."""

    path: Path
    name: str
    tournament: bool
    planned: int
    finished: int


def planned_matches(games: list[PlannedGame], records: dict[str, list[dict[str, Any]]],
                    where: str = "") -> list[Match]:
    """The matches of an experiment's finished ``records`` (``{condition: records}``), each seat's entrant the
    one its plan names (a tournament) or else its seat spec; ``where``: appended to each match's key."""
    names = {g.game_id: g.entrants for g in games if g.entrants}
    return [record_match(r, names.get(str(r.get("game_id"))), where) for items in records.values() for r in items
            if r.get("status") == "finished"]


def directories_board(directories: list[Path], resamples: int | None = None,
                      seed: int = 0) -> tuple[Board, list[Source]]:
    """The board of the finished games of ``directories`` together; ``resamples``: the bootstrap's (``None``: the
    first tournament's ``resamples``, else `roundtable.metrics.ratings.RESAMPLES`).

    Raises:
        ExperimentConfigError: a directory that is no experiment, two of one name, or none with a finished game.
        MatchError: records of several games, or one entrant name for two seat specs.
        RecordError: a record that cannot be read.
    """
    matches: list[Match] = []
    sources: list[Source] = []
    configured: list[int] = []
    for directory in directories:
        config, games, path = open_directory(directory)
        if any(s.path == path for s in sources):
            raise ExperimentConfigError(f"{path} is given twice")
        records = load_records(path, games)
        found = planned_matches(games, records, where=str(path) if len(directories) > 1 else "")
        matches += found
        sources.append(Source(path, config.name, config.tournament is not None, len(games), len(found)))
        configured += [config.tournament.resamples] if config.tournament is not None else []
    if not matches:
        raise ExperimentConfigError(f"no finished game in {', '.join(str(s.path) for s in sources)}")
    return leaderboard(matches, resamples or (configured + [RESAMPLES])[0], seed), sources


def experiment_board(directory: Path, config: ExperimentConfig, games: list[PlannedGame],
                     records: dict[str, list[dict[str, Any]]], seed: int = 0) -> tuple[Board, list[Source]] | None:
    """The board of a tournament's report, with the tournament's ``resamples`` (``None``: not a tournament, or no
    finished game yet).

    Raises:
        MatchError: records that do not match the plan.
    """
    if config.tournament is None:
        return None
    matches = planned_matches(games, records)
    if not matches:
        return None
    board = leaderboard(matches, config.tournament.resamples, seed)
    return board, [Source(directory, config.name, True, len(games), len(matches))]

