"""AvalonBench's deduction accuracy (Light et al. 2023; docs/measures.md#deduction-accuracy), from game records.

A game record's ``beliefs`` (`roundtable.store.records.build_record`) hold, for the
good players whose agent kind states a belief, their belief in every other
player's side when the game ended: ``{player: {other player: P(good)}}``.
For a good player j, **deduction accuracy** is the share of the other
players i whose side it guesses right, guessing good when its probability is
at least 0.5 (AvalonBench's ``AvalonScoring.deduction_acc`` thresholds the
same way, ``src/server/tasks/avalon/task_scoring.py`` of
github.com/jonathanmli/Avalon-LLM). Next to it stands the **trivial
baseline** of answering 0.5 for everyone: it guesses every other player good,
so it is right on the good ones.

In another game the probe asks about its own side (`roundtable.games.protocol.GameRules.probe_side`: each probed
player's probability of every other being on that side): "good" above reads as that side, and the
players' sides come from the record's role events (`roundtable.metrics.sides`).

AvalonBench's code divides by all seats, the player's own (always right)
included; docs/measures.md#deduction-accuracy counts the other players only, and so does this module.
Evil players' beliefs, if a record holds any, are not scored.

Both are proportions pooled over the players of a group (right guesses /
guesses, summed over players and games) with Wilson's 95% interval, grouped
like every per-player metric (`roundtable.metrics.tables`: by side, role,
agent kind, model, per condition); AvalonBench's per-game mean is the same
number when every game has the same player count. A player's guesses in one
game are not independent trials, so the interval is an optimistic one. A
record without ``beliefs`` (recorded before the belief probe existed, with
no seat that states a belief, or with the probe switched off) contributes no
guess: "no beliefs recorded". A model-driven seat whose answer to the probe
was unusable (`roundtable.graphs.probe`) has no belief in the record and
contributes no guess either; ``probe_answered`` counts how often that happened.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from roundtable.metrics.sides import probe_side, sides_of

THRESHOLD = 0.5
"""A probability of being on the probe's side (good) at or above this guesses that side (AvalonBench)."""

METRICS = ("deduction_accuracy", "deduction_baseline", "probe_answered")
"""The names of the deduction measures (and the share of belief probes answered usably) in
`roundtable.metrics.tables.Measure` rows (pooled by
`roundtable.metrics.tables.deduction_accuracy`)."""


@dataclass(frozen=True)
class Deduction:
    """One probed player's guesses in one game: ``guesses`` (other players it stated a belief on), ``right``
    (those whose side it guessed right), ``baseline`` (those on the probe's side, good: the trivial baseline's
    right guesses)."""

    guesses: int
    right: int
    baseline: int


def beliefs_of(record: Mapping[str, Any]) -> dict[int, dict[int, float]]:
    """The record's ``beliefs`` with player numbers as ints (``{}`` when it has none).

    Raises:
        ValueError: a belief names a player not at the table or the player itself, or is not a number in
            [0, 1] (the game id named).
    """
    players = len(record.get("roles") or {})
    out: dict[int, dict[int, float]] = {}
    for player, belief in (record.get("beliefs") or {}).items():
        j = int(player)
        row: dict[int, float] = {}
        for other, p in (belief or {}).items():
            i = int(other)
            if i == j or not 1 <= i <= players or isinstance(p, bool) or not isinstance(p, (int, float)) \
                    or not 0.0 <= p <= 1.0:
                raise ValueError(f"game {record.get('game_id')!r}: player {j}'s belief {other!r}: {p!r} is not a "
                                 "probability of being good for another player at the table")
            row[i] = float(p)
        out[j] = row
    return out


def deductions(record: Mapping[str, Any]) -> dict[int, Deduction]:
    """``{player: Deduction}`` for each player of ``record`` on the side the game's belief probe asks about
    (`roundtable.games.protocol.GameRules.probe_side`: Avalon's good players) that stated a belief, seat order.

    Raises:
        ValueError: a malformed belief (see `beliefs_of`), or a record whose players' sides are unknown (see
            `roundtable.metrics.sides.sides_of`).
    """
    beliefs = beliefs_of(record)
    if not beliefs:
        return {}
    sides, asked = sides_of(record), probe_side(record)
    out: dict[int, Deduction] = {}
    for j, belief in sorted(beliefs.items()):
        if sides.get(j) != asked:
            continue
        good = {i: sides[i] == asked for i in belief}
        out[j] = Deduction(guesses=len(belief), right=sum(1 for i, p in belief.items() if (p >= THRESHOLD) == good[i]),
                           baseline=sum(good.values()))
    return out
