"""AvalonPlay's measures (Shi et al., *Cooperation on the Fly*, 2023; docs/measures.md#avalonplay), from game records.

- **Game Win**: the share of games in which good wins by three quests, that is
  completes three successful quests (the assassination that may follow is
  reported apart, as ``good_wins``, the share of games whose winner is good);
- **Quest Win**: the share of quests played that good wins (the quest succeeds);
- **Team Acc**: the share of the teams led by a good-side leader that went on a
  quest (approved by vote, or sent without a vote on a fifth proposal) whose
  quest succeeds.

Input: game records (`roundtable.store.records.build_record`) or anything with their
``events`` (the log with ``game_over``, ``team_approved``/``vote_result``,
``proposal`` and ``quest_result`` entries); the side of each leader comes from
the roles the log reveals at ``game_over`` (or the record's ``roles``). An
unfinished game counts for Quest Win and Team Acc, not for Game Win.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from roundtable.games.avalon import Role
from roundtable.metrics.play_quality import Share


@dataclass
class AvalonPlayMetrics:
    """The three measures as `Share` objects (hits among cases; ``rate`` in 0..1, None without cases).

    Attributes:
        game_win: games with three successful quests, among finished games.
        quest_win: successful quests, among quests played.
        team_acc: successful quests among those whose team a good-side leader proposed.
        good_wins: games whose winner is good (after any assassination), among finished games.
    """

    game_win: Share = field(default_factory=Share)
    quest_win: Share = field(default_factory=Share)
    team_acc: Share = field(default_factory=Share)
    good_wins: Share = field(default_factory=Share)

    def as_row(self) -> dict[str, Any]:
        """``{"Game Win": rate, "Quest Win": rate, "Team Acc": rate, ...}`` with the counts, for tables."""
        row: dict[str, Any] = {}
        for label, share in (("Game Win", self.game_win), ("Quest Win", self.quest_win),
                             ("Team Acc", self.team_acc), ("Good wins", self.good_wins)):
            row[label] = share.rate
            row[f"{label} n"] = f"{share.hits}/{share.cases}"
        return row


def _roles(record: Mapping[str, Any]) -> dict[int, str]:
    events = record.get("events") or []
    over = next((e for e in events if e.get("type") == "game_over"), None)
    roles = (over or {}).get("roles") or record.get("roles") or {}
    return {int(p): str(r) for p, r in roles.items()}


def game_metrics(record: Mapping[str, Any]) -> AvalonPlayMetrics:
    """The measures of one game record (see the module docstring).

    A quest whose leader's role the record does not give (an unfinished game's
    log without ``roles``) does not count for Team Acc.
    """
    events = list(record.get("events") or [])
    roles = _roles(record)
    metrics = AvalonPlayMetrics()
    leader_of: dict[int, int] = {}  # round -> leader of the proposal that went on the quest
    proposals: dict[tuple[int, int], int] = {}
    for e in events:
        kind = e.get("type")
        if kind == "proposal":
            proposals[(e["round"], e["attempt"])] = e["leader"]
        elif kind == "vote_result" and e.get("approved"):
            leader_of[e["round"]] = proposals[(e["round"], e["attempt"])]
        elif kind == "team_approved":
            leader_of[e["round"]] = proposals[(e["round"], e["attempt"])]
        elif kind == "quest_result":
            success = bool(e["success"])
            metrics.quest_win = metrics.quest_win.add(Share(int(success), 1))
            leader = leader_of.get(e["round"])
            if leader in roles and Role(roles[leader]).side.value == "good":
                metrics.team_acc = metrics.team_acc.add(Share(int(success), 1))
        elif kind == "game_over":
            successes = sum(1 for q in events if q.get("type") == "quest_result" and q["success"])
            metrics.game_win = Share(int(successes >= 3), 1)
            metrics.good_wins = Share(int(e.get("winner") == "good"), 1)
    return metrics


def avalonplay_metrics(records: Iterable[Mapping[str, Any]]) -> AvalonPlayMetrics:
    """The measures over several games: hits and cases summed (so rates weight every quest and team equally)."""
    total = AvalonPlayMetrics()
    for record in records:
        one = game_metrics(record)
        total = AvalonPlayMetrics(*(a.add(b) for a, b in zip(
            (total.game_win, total.quest_win, total.team_acc, total.good_wins),
            (one.game_win, one.quest_win, one.team_acc, one.good_wins), strict=True)))
    return total
