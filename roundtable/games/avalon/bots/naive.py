"""AvalonBench's rule-based bots, agent kind ``naive`` (docs/agents/naive.md).

Source: Light, Cai, Shen, Hu, *AvalonBench* (2023), the naive Servant, Merlin,
Minion and Assassin strategies. They use only quest outcomes (number of
fails), never votes or talk. Extensions so that every role of every preset
plays sensibly (each marked *extension* below):

- Percival uses the Servant logic with his extra knowledge (one of his pair is evil).
- Morgana and Mordred use the Minion logic. When more evil players are on a
  team than fails are needed, the Assassin fails (AvalonBench) and the others
  leave the fail to him: when a Minion-logic player can tell the Assassin
  (exactly one other evil player is known to it), it fails only if the
  Assassin is not on the team or if it is among the first ``fails needed - 1``
  other evil players on the team in seat order. *Extension*: when it cannot
  tell (three or more evil players), each fails only if it is among the first
  ``fails needed`` evil players on the team in seat order, so the quest never
  gets too few fails.
- Merlin proposes teams with himself (AvalonBench: himself plus good players).
- Oberon, who knows no teammate, fails every quest he is on and approves teams he is on.
- Good players approve a fifth proposal when its rejection would lose the game.
- Merlin with Mordred in play cannot see him: he falls back on the Servant's
  probabilities among the teams without a known evil player.
- An Assassin offered a mid-game shot (``after_each_quest``) passes; at the end
  he names a random good-looking player as in AvalonBench.
- An Assassin exposed by a missed mid-game shot (another kind's) counts as a
  known evil player for everyone, in team choices, votes and beliefs.
"""

from __future__ import annotations

from itertools import combinations
from random import Random

from roundtable.games.avalon.bots.belief import consistent_assignments, good_probability, team_score
from roundtable.games.avalon.bots.words import words_for
from roundtable.games.avalon.config import FifthRejection
from roundtable.games.avalon.roles import MAX_PROPOSALS, Role, fails_needed
from roundtable.games.avalon.view import AvalonView, known_evil
from roundtable.games.protocol import Decision, Request
from roundtable.games.rng import rng_for


def decide(view: AvalonView, request: Request, seed: int) -> Decision:
    """The naive bot's decision for ``request``.

    Args:
        view: what the player knows.
        request: what is asked.
        seed: the game seed (tie-breaks draw from ``rng_for(seed, request.id)``).

    Returns:
        A legal `Decision`; words, when asked, are a short templated sentence.
    """
    # Keyed by round and attempt (not the request), so the first and the final
    # proposal of an attempt break ties the same way.
    rng = rng_for(seed, "naive", request.round, request.attempt, request.player, request.kind)
    role = Role(view.role)
    evil = view.side == "evil"
    if request.kind == "propose_team":
        team = _evil_team(view, request, rng) if evil else _good_team(view, request, rng)
        return Decision.to(request, players=team,
                           utterance=words_for(view, request, team) if request.wants_words else None)
    if request.kind == "speak":
        suggested = None
        if request.answer == "pick":
            suggested = _evil_team(view, request, rng) if evil else _good_team(view, request, rng)
        opinion = _approve(view, request, role) if request.subject else None
        return Decision.to(request, players=suggested, utterance=words_for(view, request, suggested, opinion))
    if request.kind == "vote_team":
        return Decision.to(request, choice=_approve(view, request, role))
    if request.kind == "quest_card":
        if len(request.allowed) == 1:  # a good player's success; an evil player's fail under evil_quest_card=must_fail
            return Decision.to(request, choice=request.allowed[0])
        return Decision.to(request, choice=_card(view, request, role))
    target = None if request.may_pass else _assassination_target(view, request, rng)
    return Decision.to(request, players=None if target is None else (target,),
                       utterance=words_for(view, request, None) if request.wants_words else None)


# ------------------------------------------------------------------ good side


def _best_teams(view: AvalonView, size: int, candidates: tuple[int, ...]) -> tuple[list[tuple[int, ...]], float]:
    """Teams of ``size`` with the highest probability of being all good, and that probability."""
    assignments = consistent_assignments(view)
    known_evil = _known_evil(view)
    scored = [
        (team_score(assignments, team), team)
        for team in combinations(candidates, size)
        if not (set(team) & known_evil)
    ]
    if not scored:  # only when Merlin must take a known evil player: fall back to all teams
        scored = [(team_score(assignments, t), t) for t in combinations(candidates, size)]
    best = max(score for score, _ in scored)
    return [t for score, t in scored if score >= best - 1e-12], best


def _last_successful_team(view: AvalonView) -> set[int] | None:
    wins = [q for q in view.quests if q["success"]]
    return set(wins[-1]["team"]) if wins else None


def _good_team(view: AvalonView, request: Request, rng: Random) -> tuple[int, ...]:
    """A best-scoring team; among equals, subsets or supersets of the last successful team first."""
    size = request.count or 0
    teams, _ = _best_teams(view, size, request.candidates or tuple(range(1, view.players + 1)))
    if Role(view.role) is Role.MERLIN:  # AvalonBench: Merlin proposes himself plus good players
        teams = [t for t in teams if view.player in t] or teams
    last = _last_successful_team(view)
    if last is not None:
        nested = [t for t in teams if set(t) <= last or set(t) >= last]
        teams = nested or teams
    return tuple(sorted(rng.choice(teams)))


def _known_evil(view: AvalonView) -> set[int]:
    return known_evil(view)


def _approve(view: AvalonView, request: Request, role: Role) -> bool:
    team = tuple(request.subject)
    if view.side == "evil":
        return _evil_approves(view, team, role)
    must_pass = request.attempt == MAX_PROPOSALS and view.rules["fifth_rejection"] == FifthRejection.EVIL_WINS.value
    if must_pass:  # extension: rejecting would lose the game
        return True
    if role is Role.MERLIN and not (set(team) & _known_evil(view)) and "mordred" not in view.role_set:
        return True
    teams, best = _best_teams(view, len(team), tuple(range(1, view.players + 1)))
    assignments = consistent_assignments(view)
    return team_score(assignments, team) >= best - 1e-12 and not (set(team) & _known_evil(view))


# ------------------------------------------------------------------ evil side


def _needed(view: AvalonView) -> int:
    """Fail cards needed on the current quest, under the game's ``two_fail_quests`` variant."""
    return fails_needed(view.players, view.round, view.rules.get("two_fail_quests", "official"))


def _council(view: AvalonView) -> list[int]:
    """Evil players this player knows, itself included, in seat order."""
    return sorted(_known_evil(view) | {view.player})


def _evil_team(view: AvalonView, request: Request, rng: Random) -> tuple[int, ...]:
    """Itself, the other evil players needed to fail the quest, good players to fill."""
    size = request.count or 0
    needed = _needed(view)
    others = [p for p in _council(view) if p != view.player]
    team = [view.player] + rng.sample(others, min(needed - 1, len(others)))
    fill = [p for p in range(1, view.players + 1) if p not in team and p not in others]
    team += rng.sample(fill, size - len(team))
    return tuple(sorted(team))


def _evil_approves(view: AvalonView, team: tuple[int, ...], role: Role) -> bool:
    if role is Role.OBERON:
        return view.player in team
    return len(set(team) & set(_council(view))) >= _needed(view)


def _card(view: AvalonView, request: Request, role: Role) -> bool:
    """``True`` for success. Good players always succeed; see the module docstring for evil."""
    if view.side == "good":
        return True
    if role is Role.OBERON:
        return False
    needed = _needed(view)
    evil_on_team = [p for p in request.subject if p in _council(view)]
    if len(evil_on_team) < needed:
        return True  # AvalonBench: fail only when enough evil are on the team
    if role is Role.ASSASSIN:
        return False  # AvalonBench: the Assassin fails whenever enough evil are on the team
    assassin = _known_assassin(view)
    if assassin is not None and assassin in request.subject:
        # AvalonBench: with more evil on the team than needed, the Minion leaves the fail to the Assassin;
        # the other evil players on it add only the fails still needed beside the Assassin's, in seat order.
        others = [p for p in sorted(evil_on_team) if p != assassin]
        return view.player not in others[:needed - 1]
    return view.player not in sorted(evil_on_team)[:needed]


def _known_assassin(view: AvalonView) -> int | None:
    """The Assassin's seat when this evil player can tell it: the role set holds an Assassin, this player is
    not it, and exactly one other evil player is known to it (the Assassin is never hidden from evil)."""
    others = [p for p in _council(view) if p != view.player]
    if "assassin" in view.role_set and Role(view.role) is not Role.ASSASSIN and len(others) == 1:
        return others[0]
    return None


def _assassination_target(view: AvalonView, request: Request, rng: Random) -> int:
    """AvalonBench: a random player among those not known to be evil."""
    return rng.choice(list(request.candidates))


def beliefs(view: AvalonView) -> dict[int, float]:
    """The naive bot's belief in every other player's side, ``{other player: P(good) in [0, 1]}``.

    docs/agents/naive.md#beliefs: a Servant's belief in a player is the share of surviving
    assignments (`consistent_assignments`, the same bookkeeping its team
    choices use) in which that player is good; Merlin, Percival and the evil
    players start from what they see, so a side they know has probability 0
    or 1 (Merlin with Mordred in play still doubts). AvalonBench's naive
    Servant states the same marginals (``get_believed_sides`` of
    ``NaiveServant``, ``src/server/tasks/avalon/agents/baseline_agents.py``
    of github.com/jonathanmli/Avalon-LLM), its own seat included; here the
    player's own seat is left out. A pure function of the view: the belief
    probe at the end of a game (`roundtable.graphs.phases.make_game_over`)
    calls it.
    """
    return {p: good for p, good in good_probability(consistent_assignments(view), view.players).items()
            if p != view.player}
