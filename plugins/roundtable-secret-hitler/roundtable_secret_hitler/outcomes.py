"""Secret Hitler's outcome measures (docs/games/secret-hitler.md#the-report), pure functions of game records, no
model: which side won and how each game ended, how long it lasted, how many policies chaos enacted, and each
player's win by side, role, agent kind and model; beside them roundtable's deduction accuracy of the Liberals.

A record is any mapping with ``events`` (the game's log), ``roles`` and ``seats``, as
`roundtable.store.records.build_record` writes it; unfinished games (no ``game_over``) are left out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from roundtable.metrics.intervals import bootstrap, mean
from roundtable.metrics.tables import Measure, deduction_accuracy, finished_records, proportion
from roundtable_secret_hitler.roles import Role, Side
from roundtable_secret_hitler.rules import FASCIST_POLICIES, HITLER_ELECTED, HITLER_EXECUTED, LIBERAL_POLICIES

SIDES = tuple(side.value for side in Side)
"""``("liberal", "fascist")``."""

REASONS = (LIBERAL_POLICIES, HITLER_EXECUTED, FASCIST_POLICIES, HITLER_ELECTED)
"""The end reasons, in the rulebook's order (docs/games/secret-hitler.md#end-of-the-game)."""

REASON_LABELS = {LIBERAL_POLICIES: "five Liberal policies", HITLER_EXECUTED: "Hitler executed",
                 FASCIST_POLICIES: "six Fascist policies", HITLER_ELECTED: "Hitler elected Chancellor"}
"""How tables name each end reason."""

PLAYER_GROUPS = ("side", "role", "kind", "model")
"""What the per-player win rate (``WR``) is grouped by."""

def game_over(record: Mapping[str, Any]) -> dict[str, Any] | None:
    """The record's ``game_over`` event, or ``None`` for an unfinished game."""
    return next((e for e in record.get("events") or [] if e.get("type") == "game_over"), None)


@dataclass(frozen=True)
class Outcomes:
    """The outcome measures over a set of Secret Hitler games.

    Attributes:
        games: finished games counted.
        wins: ``{side: games it won}``.
        reasons: ``{end reason: games that ended so}`` (`REASONS`).
        rounds: each finished game's length in rounds (presidencies), in record order.
        policies: policies enacted over the games. by_chaos: those of them enacted by chaos.
    """

    games: int
    wins: dict[str, int] = field(default_factory=dict)
    reasons: dict[str, int] = field(default_factory=dict)
    rounds: tuple[int, ...] = ()
    policies: int = 0
    by_chaos: int = 0


def outcomes(records: Iterable[Mapping[str, Any]]) -> Outcomes:
    """The outcomes of the finished games among ``records``.

    Raises:
        ValueError: a finished game won by no Secret Hitler side, or ended for an unknown reason.
    """
    wins = dict.fromkeys(SIDES, 0)
    reasons = dict.fromkeys(REASONS, 0)
    rounds: list[int] = []
    policies = chaos = 0
    for record in records:
        over = game_over(record)
        if over is None:
            continue
        if over.get("winner") not in wins or over.get("reason") not in reasons:
            raise ValueError(f"game {record.get('game_id')!r} ended with {over.get('winner')!r} "
                             f"({over.get('reason')!r}), not a Secret Hitler side and end reason")
        wins[over["winner"]] += 1
        reasons[over["reason"]] += 1
        rounds.append(int(over["round"]))
        events = record.get("events") or []
        policies += sum(1 for e in events if e.get("type") in ("enact", "chaos"))
        chaos += sum(1 for e in events if e.get("type") == "chaos")
    return Outcomes(games=len(rounds), wins=wins, reasons=reasons, rounds=tuple(rounds), policies=policies,
                    by_chaos=chaos)


def player_rows(condition: str, finished: list[Mapping[str, Any]]) -> list[Measure]:
    """``WR`` per side, role, agent kind and model (`PLAYER_GROUPS`): the players of the group whose side won /
    the group's players, over ``finished`` records (``games``: the records with a player of the group); groups
    sorted."""
    rows: list[Measure] = []
    for group_by in PLAYER_GROUPS:
        won: dict[str, int] = {}
        players: dict[str, int] = {}
        games: dict[str, set[str]] = {}
        for record in finished:
            over = game_over(record) or {}
            seats = record.get("seats") or []
            for player, name in (record.get("roles") or {}).items():
                role = Role(name)
                seat = seats[int(player) - 1] if 0 < int(player) <= len(seats) else {}
                group = {"side": role.side.value, "role": role.value, "kind": str(seat.get("kind") or "-"),
                         "model": str(seat.get("model") or "none")}[group_by]
                won[group] = won.get(group, 0) + int(over.get("winner") == role.side.value)
                players[group] = players.get(group, 0) + 1
                games.setdefault(group, set()).add(str(record.get("game_id")))
        rows += [proportion("WR", condition, group_by, group, won[group], players[group], len(games[group]))
                 for group in sorted(players)]
    return rows


def outcome_table(records: Mapping[str, Iterable[Mapping[str, Any]]]) -> list[Measure]:
    """Secret Hitler's measures per condition, over the records whose ``status`` is ``finished``, in a fixed order:
    ``liberal_win_rate`` and ``fascist_win_rate``; one row per end reason (metric: the reason, e.g.
    ``hitler_elected``: games that ended so / finished games); ``chaos_share`` (policies enacted by chaos /
    policies enacted); ``rounds_per_game`` (mean, seeded bootstrap interval); ``WR`` per side, role, kind and
    model (`player_rows`); the Liberals' deduction accuracy from the end-of-game belief probe beside its 0.5
    baseline, per group (roundtable's `roundtable.metrics.tables.deduction_accuracy`, which reads the probe's side
    from the game: a Liberal's probability of each other player being a Liberal; docs/measures.md#deduction-accuracy).
    Proportions carry Wilson's 95% interval.

    Raises:
        ValueError: see `outcomes`; a belief that is no probability.
    """
    rows: list[Measure] = []
    for condition, items in records.items():
        finished = [r for r in finished_records(items) if game_over(r) is not None]
        out = outcomes(finished)
        for side in SIDES:
            rows.append(proportion(f"{side}_win_rate", condition, "all", "all", out.wins[side], out.games, out.games))
        for reason in REASONS:
            rows.append(proportion(reason, condition, "all", "all", out.reasons[reason], out.games, out.games))
        rows.append(proportion("chaos_share", condition, "all", "all", out.by_chaos, out.policies, out.games))
        low, high = bootstrap(out.rounds) if out.rounds else (None, None)
        rows.append(Measure("rounds_per_game", condition, "all", "all", sum(out.rounds), out.games,
                            mean(out.rounds) if out.rounds else None, low, high, out.games, "bootstrap"))
        rows += player_rows(condition, finished)
        rows += deduction_accuracy({condition: [dict(r) for r in finished]})
    return rows
