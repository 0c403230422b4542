"""Each game's measures of one game, as lines for ``roundtable show``: found through the ``roundtable.summaries``
entry-point group (`roundtable.plugins`), one function per game, so a game added by another package brings its own.

A summary is ``summary(record, finished) -> [line, ...]`` over a game record (`roundtable.store.records`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from roundtable.games.protocol import BELIEF
from roundtable.metrics.avalonplay import game_metrics
from roundtable.metrics.deduction import deductions
from roundtable.metrics.play_quality import quality_lines
from roundtable.metrics.werewolf import werewolf_outcomes
from roundtable.plugins import load_plugins

Summary = Callable[[dict[str, Any], bool], list[str]]
"""``summary(record, finished) -> lines``: a game's measures of one game."""


def avalon_summary(record: dict[str, Any], finished: bool) -> list[str]:
    """AvalonPlay's measures (Shi et al.; `roundtable.metrics.avalonplay`), the play-quality measures
    (`roundtable.metrics.play_quality.quality_lines`, once anything was said or decided) and, once the game is over,
    AvalonBench's deduction accuracy of each good player that stated a belief, next to the 0.5-for-everyone
    baseline (`roundtable.metrics.deduction`)."""
    lines = []
    m = game_metrics(record)
    if m.quest_win.cases:
        parts = []
        for label, share in (("Game Win", m.game_win), ("Quest Win", m.quest_win), ("Team Acc", m.team_acc)):
            rate = "-" if share.rate is None else f"{share.rate:.2f}"
            parts.append(f"{label} {rate} ({share.hits}/{share.cases})")
        lines.append("AvalonPlay measures: " + ", ".join(parts))
    lines += play_quality_lines(record)
    if finished:
        found = deductions(record)
        seats = record.get("seats") or []
        if not found:
            lines.append("Deduction accuracy (AvalonBench): no beliefs recorded")
        else:
            lines.append("Deduction accuracy (AvalonBench): " + ", ".join(
                f"player {p} ({record['roles'][str(p)]}, {seat_label(seats, p)}) {d.right}/{d.guesses} "
                f"(0.5 baseline {d.baseline}/{d.guesses})" for p, d in found.items()))
        unusable = [e for e in record.get("events") or []
                    if e.get("type") == "decision" and e.get("kind") == BELIEF and e.get("beliefs") is None]
        if unusable:
            lines.append("Belief probe left out (unusable answer): " + ", ".join(
                f"player {e['player']} ({e.get('fallback')})" for e in unusable))
    return lines


def seat_label(seats: list[dict[str, Any]], player: int) -> str:
    """``kind`` or ``kind on model`` of a player's seat (``-`` when the record has no seats)."""
    seat = seats[player - 1] if 0 < player <= len(seats) else {}
    kind, model = seat.get("kind") or "-", seat.get("model")
    return f"{kind} on {model}" if model else str(kind)


def werewolf_summary(record: dict[str, Any], finished: bool) -> list[str]:
    """Xu et al.'s measures of one Werewolf game (`roundtable.metrics.werewolf`): who won and in how many days; then
    the play-quality measures (`roundtable.metrics.play_quality.quality_lines`, once anything was said or
    decided)."""
    m = werewolf_outcomes([record])
    lines = [f"Werewolf measures: village win {m.village_wins}/{m.games}, {m.days[0]} days"] if m.games else []
    return lines + play_quality_lines(record)


def play_quality_lines(record: dict[str, Any]) -> list[str]:
    """The play-quality lines of a game in which something was said or decided (``[]`` before)."""
    said = any(e.get("type") in ("utterance", "decision") for e in record.get("events") or [])
    return quality_lines(record) if said else []


def game_summary(game: str, record: dict[str, Any], finished: bool) -> list[str]:
    """The lines of ``game``'s summary of one game (``[]`` for a game that declares none).

    Raises:
        PluginError: a declared summary that does not load.
    """
    # mypy takes the special form Callable for no type[T]; isinstance, what load_plugins checks with, accepts it
    summary = load_plugins("roundtable.summaries", Callable).get(game)  # type: ignore[arg-type]  # see above
    return summary(record, finished) if summary is not None else []
