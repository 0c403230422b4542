"""A leaderboard (`roundtable.metrics.ratings.Board`) as markdown, CSV and a PNG plot (docs/tournaments.md).

Written by ``roundtable leaderboard DIR...`` (``leaderboard.md``, ``leaderboard.csv``, ``leaderboard.png``) and,
for a tournament, by ``roundtable experiment report`` (its section of ``report.md`` and the same two files beside
it). Numbers have fixed formats, rows a fixed order and the PNG no timestamp, so the same records give the same
bytes.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path

from roundtable.experiments.reports.format import table
from roundtable.experiments.tournament_board import Source
from roundtable.metrics.ratings import ALL, Board, BoardRow, Interval

CSV_COST = ("calls", "prompt_tokens", "completion_tokens", "cached_tokens", "seconds", "fallbacks")
"""The cost per game fields of ``leaderboard.csv`` (`roundtable.metrics.cost.COST_FIELDS`, each ``_per_game``)."""

NOT_ROTATED = "; not a tournament: seats were not rotated, an entrant is a seat spec"


def ranked(board: Board) -> list[tuple[int, BoardRow]]:
    """The board's rows with their rank within their side (1 = the highest Bradley-Terry rating)."""
    out, rank, side = [], 0, None
    for row in board.rows:
        rank = rank + 1 if row.side == side else 1
        side = row.side
        out.append((rank, row))
    return out


def _rating(value: Interval, digits: int) -> str:
    return f"{value.value:.{digits}f} [{value.low:.{digits}f}, {value.high:.{digits}f}]"


def _win(row: BoardRow) -> str:
    if row.win_rate is None:
        return "-"
    return f"{100 * row.win_rate:.1f}% [{100 * row.win_low:.1f}, {100 * row.win_high:.1f}]"


def _tokens(row: BoardRow) -> str:
    return f"{row.cost.get('prompt_tokens_per_game', 0) + row.cost.get('completion_tokens_per_game', 0):.0f}"


def markdown(board: Board, sources: Sequence[Source], heading: str = "#") -> str:
    """The board as markdown: where its games come from, the table (per side, ranked), how evenly the entrants
    held the roles, and how to read it. ``heading``: the markdown level of its title (``#``, or ``##`` inside a
    report)."""
    games = ", ".join(f"`{s.name}` ({s.finished} of {s.planned} games finished{'' if s.tournament else NOT_ROTATED})"
                      for s in sources)
    parts = [f"{heading} Leaderboard\n",
             f"{board.games} finished games ({board.draws} draws) of {games}. Ratings with seeded bootstrap 95% "
             f"intervals ({board.resamples} resamples of whole games, seed {board.seed}); win rate with Wilson's 95% "
             "interval. Rows are ranked within each side by the Bradley-Terry rating.\n"]
    parts.append(table(["rank", "entrant", "side", "games", "win rate", "OpenSkill μ", "Bradley-Terry (Elo scale)",
                        "Elo", "calls/game", "tokens/game"], (
        [str(rank), row.entrant, row.side, str(row.games), _win(row), _rating(row.openskill, 1), _rating(row.bt, 0),
         _rating(row.elo, 0), f"{row.cost.get('calls_per_game', 0):.1f}", _tokens(row)]
        for rank, row in ranked(board))))
    roles = sorted({r for c in board.roles.values() for r in c})
    if board.even_roles():
        held = ", ".join(f"{r} {n}" for r, n in next(iter(board.roles.values())).items())
        parts.append(f"Roles held: even, each entrant held {held} (seats, over the finished games).\n")
    else:
        parts.append("Roles held (seats, over the finished games): **not even**, so a side's advantage may show in "
                     "the ratings; a tournament's rotation is even over whole blocks of games "
                     "(docs/tournaments.md#rotation).\n")
        parts.append(table(["entrant", *roles], ([e, *(str(c.get(r, 0)) for r in roles)]
                                                 for e, c in board.roles.items())))
    parts.append(f"Side `{ALL}` rates each entrant whatever side it sat on; a side's rows rate the entrant on that "
                 "side alone, so compare them within the side. OpenSkill's μ starts at 25; Bradley-Terry and Elo are "
                 "in Elo points (start 1500; 400 points: odds of 10 to 1). Tokens are prompt and completion tokens.\n")
    return "\n".join(parts)


def board_csv(board: Board) -> str:
    """The board as CSV: one line per row, ratings and intervals with 6 decimals."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["side", "rank", "entrant", "games", "trials", "wins", "win_rate", "win_low", "win_high",
                     "openskill_mu", "openskill_low", "openskill_high", "openskill_sigma", "bt", "bt_low", "bt_high",
                     "elo", "elo_low", "elo_high", *(f"{name}_per_game" for name in CSV_COST)])
    for rank, row in ranked(board):
        rate = "" if row.win_rate is None else f"{row.win_rate:.6f}"
        writer.writerow([row.side, rank, row.entrant, row.games, row.trials, row.wins, rate, f"{row.win_low:.6f}",
                         f"{row.win_high:.6f}",
                         *(f"{x:.6f}" for x in (row.openskill.value, row.openskill.low, row.openskill.high,
                                                row.openskill_sigma, row.bt.value, row.bt.low, row.bt.high,
                                                row.elo.value, row.elo.low, row.elo.high)),
                         *(f"{row.cost.get(f'{name}_per_game', 0.0):.6f}" for name in CSV_COST)])
    return buffer.getvalue()


def board_plot(path: Path, board: Board) -> None:
    """``path``: a PNG of the three ratings with their 95% intervals, one panel each, entrants down the side, a
    marker per side (``all`` and each side), written without metadata."""
    import matplotlib  # here, not at the top: half a second to import, and only reports draw

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    entrants = [row.entrant for _, row in ranked(board) if row.side == ALL]
    sides = list(dict.fromkeys(row.side for row in board.rows))
    figure, axes = plt.subplots(1, 3, figsize=(12, 1.2 + 0.45 * len(entrants) * len(sides)), dpi=100, sharey=True)
    panels = (("OpenSkill μ", "openskill"), ("Bradley-Terry (Elo scale)", "bt"), ("Elo", "elo"))
    for axis, (title, system) in zip(axes, panels, strict=True):
        for k, side in enumerate(sides):
            rows = {row.entrant: row for row in board.rows if row.side == side}
            ys = [i + (k - (len(sides) - 1) / 2) * 0.8 / len(sides) for i, e in enumerate(entrants) if e in rows]
            values: list[Interval] = [getattr(rows[e], system) for e in entrants if e in rows]
            axis.errorbar([v.value for v in values], ys, xerr=[[v.value - v.low for v in values],
                                                               [v.high - v.value for v in values]],
                          fmt="o", capsize=3, label=side, markersize=4)
        axis.set_title(title, fontsize=10)
        axis.grid(axis="x", alpha=0.3)
    axes[0].set_yticks(range(len(entrants)), entrants, fontsize=8)
    axes[0].invert_yaxis()
    axes[-1].legend(fontsize=8, loc="best")
    figure.suptitle(f"Ratings with 95% bootstrap intervals ({board.games} games)", fontsize=10)
    figure.tight_layout()
    figure.savefig(path, format="png", metadata={"Software": None})
    plt.close(figure)


def write_board(target: Path, board: Board, sources: Sequence[Source]) -> list[Path]:
    """Write ``leaderboard.md``, ``leaderboard.csv`` and ``leaderboard.png`` to ``target`` (created); their paths."""
    target.mkdir(parents=True, exist_ok=True)
    written = [target / "leaderboard.md", target / "leaderboard.csv", target / "leaderboard.png"]
    written[0].write_text(markdown(board, sources), encoding="utf-8")
    written[1].write_text(board_csv(board), encoding="utf-8")
    board_plot(written[2], board)
    return written
