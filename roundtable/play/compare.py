"""Comparing two branches of a game (an original and its fork, or two forks) decision by decision.

`compare_games(a, b)` lines up the two games' decisions by request id and says, for each, whether the
prompts, the raw replies, the parsed actions and the costs (calls and tokens) are the same; the first
decision where anything differs is where the branches diverge.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from roundtable.store.records import read_record

META = frozenset({"type", "to", "player", "request", "kind", "agent", "raw", "fallback", "checks", "usage"})
"""Keys of a decision record that are not the parsed action."""
COST = ("calls", "prompt_tokens", "completion_tokens")
"""Cost fields compared (seconds of model time always differ)."""
ASPECTS = ("prompt", "raw", "action", "cost")


def recorded_action(decision: dict[str, Any]) -> dict[str, Any]:
    """The parsed action of a decision record (its game-specific keys), with its fallback."""
    return {k: v for k, v in decision.items() if k not in META} | {"fallback": decision.get("fallback")}


def prompts_of(decision: dict[str, Any]) -> list[Any]:
    """The prompts of a decision's model calls, in order (``[]`` for rule bots and people)."""
    return [call.get("prompt") for call in (decision.get("usage") or {}).get("log") or []]


def cost_of(decision: dict[str, Any]) -> dict[str, Any]:
    """The compared cost fields of a decision (`COST`)."""
    usage = decision.get("usage") or {}
    return {k: usage.get(k, 0) for k in COST}


@dataclass
class DecisionDiff:
    """One decision in two branches.

    Attributes:
        request: the request id. player: who decided.
        a, b: its decision record in each game (``None``: not made there).
        differs: the aspects (``prompt``, ``raw``, ``action``, ``cost``) that differ; ``["only in A"]`` or
            ``["only in B"]`` when the decision is in one game only (say, a fork stopped after one decision).
    """

    request: str
    player: int
    a: dict[str, Any] | None
    b: dict[str, Any] | None
    differs: list[str] = field(default_factory=list)

    @property
    def same(self) -> bool:
        """Whether the decision is the same in both games."""
        return not self.differs


def compare_decisions(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> list[DecisionDiff]:
    """Line up two games' event logs' decision records by request id (in ``a``'s order, then ``b``'s extras).

    Returns:
        One `DecisionDiff` per request decided in either game.
    """
    in_a = {e["request"]: e for e in a if e.get("type") == "decision"}
    in_b = {e["request"]: e for e in b if e.get("type") == "decision"}
    order = list(in_a) + [r for r in in_b if r not in in_a]
    out = []
    for request in order:
        da, db = in_a.get(request), in_b.get(request)
        either = da if da is not None else in_b[request]
        diff = DecisionDiff(request, int(either["player"]), da, db)
        if da is None or db is None:
            diff.differs = ["only in A" if db is None else "only in B"]
        else:
            checks = {"prompt": prompts_of, "raw": lambda d: d.get("raw"), "action": recorded_action, "cost": cost_of}
            diff.differs = [name for name, get in checks.items() if get(da) != get(db)]
        out.append(diff)
    return out


def compare_games(game_a: str, game_b: str) -> list[DecisionDiff]:
    """Compare two stored games decision by decision (from their records).

    Raises:
        KeyError: a game has no record.
    """
    logs = []
    for game_id in (game_a, game_b):
        record = read_record(game_id)
        if record is None:
            raise KeyError(f"no record of game {game_id!r}")
        logs.append(record.get("events") or [])
    return compare_decisions(*logs)


def divergence(diffs: list[DecisionDiff]) -> DecisionDiff | None:
    """The first decision made in both games that differs, or ``None`` when they agree on every decision
    both made."""
    return next((d for d in diffs if d.a is not None and d.b is not None and not d.same), None)
