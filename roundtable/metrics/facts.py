"""The counts every Avalon metric is made of, read from one game record (no model).

A record (`roundtable.store.records.build_record`) gives ``roles``, ``seats``,
``winner``, ``end_reason`` and the ``events`` log. `game_facts` reads the
game-level counts, `player_facts` one row of counts per player; the metric
families (`roundtable.metrics.outcomes`, `roundtable.metrics.strategy`) divide
them, `roundtable.metrics.tables` groups and pools them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from roundtable.games.fallbacks import fell_back
from roundtable.games.protocol import BELIEF
from roundtable.metrics.deduction import deductions
from roundtable.metrics.sides import probe_side, sides_of

THREE_FAILED_QUESTS = "three_failed_quests"
MERLIN_ASSASSINATED = "merlin_assassinated"


@dataclass(frozen=True)
class GameFacts:
    """Game-level counts: ``winner`` (``good``/``evil``/None), ``end_reason``, quests played, quests good
    won, assassinations with a target and Merlin hits among them, team votes held, proposals made."""

    game_id: str
    winner: str | None
    end_reason: str | None
    quests: int
    good_quests: int
    assassinations: int
    merlin_hits: int
    team_votes: int
    proposals: int


@dataclass(frozen=True)
class PlayerFacts:
    """One player's counts in one game (see `player_facts` for each definition).

    ``kind`` and ``model`` are the seat's agent kind and model spec (``-`` for none).
    """

    game_id: str
    player: int
    role: str
    side: str
    kind: str
    model: str
    won: bool
    rounds: int
    rounds_on_team: int
    quest_cards: int
    fail_cards: int
    votes_on_proposals: int
    approvals_on_proposals: int
    proposals: int
    self_proposals: int
    self_proposals_on_team: int
    decisions: int
    valid_decisions: int
    guesses: int = 0
    right_guesses: int = 0
    baseline_guesses: int = 0
    probed_side: bool = False
    probes: int = 0
    usable_probes: int = 0


def _events(record: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [e for e in record.get("events") or [] if e.get("type") == kind]


def game_facts(record: dict[str, Any]) -> GameFacts:
    """The game-level counts of ``record``; an unfinished game has ``winner`` None."""
    quests = _events(record, "quest_result")
    shots = [e for e in _events(record, "assassination") if e.get("target") is not None]
    return GameFacts(
        game_id=str(record.get("game_id")),
        winner=record.get("winner"),
        end_reason=record.get("end_reason"),
        quests=len(quests),
        good_quests=sum(1 for q in quests if q.get("success")),
        assassinations=len(shots),
        merlin_hits=sum(1 for s in shots if s.get("hit")),
        team_votes=len(_events(record, "vote_result")),
        proposals=len(_final_proposals(record)),
    )


def _final_proposals(record: dict[str, Any]) -> list[dict[str, Any]]:
    """One proposal per (round, attempt): the final one (a leader who speaks first and last may restate it)."""
    last: dict[tuple[int, int], dict[str, Any]] = {}
    for event in _events(record, "proposal"):
        last[(event["round"], event["attempt"])] = event
    return list(last.values())


def player_facts(record: dict[str, Any]) -> list[PlayerFacts]:
    """One `PlayerFacts` per player of ``record``, players in seat order.

    Definitions (Lan et al. 2024; docs/measures.md#lan-et-al-2024):

    - ``rounds``: quests played; ``rounds_on_team``: those whose team held the player (QER);
    - ``quest_cards`` / ``fail_cards``: cards the player played / of them fail (FVR);
    - ``votes_on_proposals`` / ``approvals_on_proposals``: votes cast on the player's final proposals / of
      them approve (LAR);
    - ``proposals``: the player's final proposals plus its team suggestions (``speak`` decisions naming a
      team); ``self_proposals``: those that include the player; ``self_proposals_on_team``: of those, the
      ones made in a round whose quest team held the player (self-recommendation rate and success);
    - ``decisions`` / ``valid_decisions``: the player's decisions / those answered without a fallback (VRR;
      `roundtable.metrics.quality.checks.fell_back`); the belief probe at game over is not a move and counts
      here not;
    - ``probes`` / ``usable_probes``: belief probes asked of the player through its agent graph (0 or 1) /
      those it answered usably (an unusable one is left out of deduction accuracy, never filled in);
    - ``guesses`` / ``right_guesses`` / ``baseline_guesses``: a good player's end-of-game belief: the other
      players it stated one on / whose side it guessed right / that are good (AvalonBench's deduction
      accuracy and its 0.5-for-everyone baseline, `roundtable.metrics.deduction`); 0 without a belief;
      ``probed_side``: the player is on the side the game's belief probe asks about (Avalon's good players,
      `roundtable.metrics.sides.probe_side`), whose beliefs deduction accuracy scores.

    Raises:
        ValueError: a malformed belief in the record's ``beliefs``.
    """
    roles = {int(p): r for p, r in (record.get("roles") or {}).items()}
    seats = record.get("seats") or []
    winner = record.get("winner")
    quest_teams = {q["round"]: set(q["team"]) for q in _events(record, "quest_result")}
    proposals = _final_proposals(record)
    leader_of = {(p["round"], p["attempt"]): p["leader"] for p in proposals}
    decisions = _events(record, "decision")
    deduced = deductions(record)
    sides, asked = sides_of(record), probe_side(record)
    rows = []
    for player in sorted(roles):
        role = roles[player]
        side = sides[player]
        seat = seats[player - 1] if player - 1 < len(seats) else {}
        cards = [c for c in _events(record, "quest_card") if c["player"] == player]
        votes = [v for v in _events(record, "vote_team") if leader_of.get((v["round"], v["attempt"])) == player]
        teams = [(p["round"], set(p["team"])) for p in proposals if p["leader"] == player]
        teams += [(d.get("round") or _round_of(d), set(d["team"])) for d in decisions
                  if d["player"] == player and d.get("kind") == "speak" and d.get("team")]
        own = [r for r, team in teams if player in team]
        mine = [d for d in decisions if d["player"] == player and d.get("kind") != BELIEF]
        probed = [d for d in decisions if d["player"] == player and d.get("kind") == BELIEF]
        rows.append(PlayerFacts(
            game_id=str(record.get("game_id")), player=player, role=role, side=side, probed_side=side == asked,
            kind=str(seat.get("kind") or "-"), model=str(seat.get("model") or "-"),
            won=winner is not None and winner == side,
            rounds=len(quest_teams), rounds_on_team=sum(1 for t in quest_teams.values() if player in t),
            quest_cards=len(cards), fail_cards=sum(1 for c in cards if not c["success"]),
            votes_on_proposals=len(votes), approvals_on_proposals=sum(1 for v in votes if v["approve"]),
            proposals=len(teams), self_proposals=len(own),
            self_proposals_on_team=sum(1 for r in own if player in quest_teams.get(r, set())),
            decisions=len(mine), valid_decisions=sum(1 for d in mine if not fell_back(d)),
            probes=len(probed), usable_probes=sum(1 for d in probed if d.get("beliefs") is not None),
            **({"guesses": deduced[player].guesses, "right_guesses": deduced[player].right,
                "baseline_guesses": deduced[player].baseline} if player in deduced else {}),
        ))
    return rows


def _round_of(decision: dict[str, Any]) -> int:
    """The round of a decision from its request id (``r2.a1.speak.p3`` -> 2)."""
    head = str(decision.get("request", "")).split(".", 1)[0]
    return int(head[1:]) if head[1:].isdigit() else 0
