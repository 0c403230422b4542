"""The ``avalonbench`` flavour of Avalon's naive bots: AvalonBench's ``baseline_agents.py`` decision by decision
(docs/agents/naive.md#the-avalonbench-flavour).

Source: ``NaiveServant``, ``NaiveMerlin``, ``NaiveMinion`` and ``NaiveAssassin`` in
``src/server/tasks/avalon/agents/baseline_agents.py`` of github.com/jonathanmli/Avalon-LLM. Like them, a bot
reads only its own role, what it sees in the reveal and the quests' fails, never votes or talk:

- **Servant** (`roundtable.games.avalon.bots.avalonbench_servant`): approves only its most preferred teams
  and proposes one drawn from them.
- **Merlin**: approves a team with no evil player on it; proposes himself and good players drawn with
  ``random.sample``.
- **Minion**: approves a team holding as many evil players as the quest needs fails; proposes itself, other
  evil players drawn for the fails still needed and good players drawn to fill; fails a quest when the evil
  players on it are exactly the fails needed, passes when more are on it in a game of two evil players
  (the Assassin fails it), and fails otherwise.
- **Assassin**: the Minion's votes and proposals; fails whenever enough evil players are on the team; names a
  player drawn with ``random.choice`` from the good players in seat order.

Every bot's constructor there calls ``random.seed(0, version=1)``. Here each bot draws from a private
`random.Random` seeded the same way, never the global generator, and makes the same calls on it with the same
0-based lists: a decision replays the bot's own earlier proposals (kept from the public log) to bring its
generator to where its own code's would be, so it is a pure function of the view. That code's bots share one
global generator: the flavour reproduces each bot's own draws, not the draws the other bots took from the
shared one (docs/agents/naive.md#randomness).

Roles that code does not have play as the nearest one (*extension*): Percival as a Servant (his sight unused),
Morgana, Mordred and Oberon as a Minion. An evil player who knows fewer teammates than a quest's fails need
takes those it knows (their code would raise). A mid-game shot (``after_each_quest``) is passed.
"""

from __future__ import annotations

from random import Random
from typing import Any

from roundtable.games.avalon.bots import avalonbench_servant as servant
from roundtable.games.avalon.bots.words import words_for
from roundtable.games.avalon.roles import Role, fails_needed, side_counts, team_size
from roundtable.games.avalon.view import AvalonView
from roundtable.games.protocol import Decision, Event, Request

SERVANT_LOGIC = frozenset({Role.SERVANT, Role.PERCIVAL})
"""Roles that play AvalonBench's ``NaiveServant``."""
MINION_LOGIC = frozenset({Role.MINION, Role.MORGANA, Role.MORDRED, Role.OBERON})
"""Roles that play AvalonBench's ``NaiveMinion``."""


def decide(view: AvalonView, request: Request, seed: int) -> Decision:
    """The AvalonBench bot's decision for ``request``.

    Args:
        view: what the player knows, with the earlier ``proposal`` entries of the log (`remembers`).
        request: what is asked.
        seed: unused: AvalonBench's bots reseed with 0 whatever the game (kept for the policy's signature).

    Returns:
        A legal `Decision`; words, when asked, are the naive bots' templated sentence.
    """
    role = Role(view.role)
    if request.kind == "propose_team":
        team = _propose(view, role, request.round, _generator(view, (request.round, request.attempt)))
        return Decision.to(request, players=team,
                           utterance=words_for(view, request, team) if request.wants_words else None)
    if request.kind == "speak":
        suggested = None
        if request.answer == "pick":  # the team it would propose now; its generator does not move
            suggested = _propose(view, role, request.round, _generator(view, (request.round, request.attempt)))
        opinion = _approves(view, role, tuple(request.subject)) if request.subject else None
        return Decision.to(request, players=suggested, utterance=words_for(view, request, suggested, opinion))
    if request.kind == "vote_team":
        return Decision.to(request, choice=_approves(view, role, tuple(request.subject)))
    if request.kind == "quest_card":
        choice = _card(view, role, tuple(request.subject))
        return Decision.to(request, choice=choice if choice in request.allowed else request.allowed[0])
    target = None if request.may_pass else _assassination_target(view, request)
    return Decision.to(request, players=None if target is None else (target,),
                       utterance=words_for(view, request, None) if request.wants_words else None)


def remembers(event: Event) -> bool:
    """The past entries a bot reads: the proposals (its own earlier draws are replayed from them)."""
    return event["type"] == "proposal"


# ------------------------------------------------------------------ the generator


def _generator(view: AvalonView, before: tuple[int, int] | None) -> Random:
    """The bot's generator as its own code's stands at proposal ``before`` (round, attempt), or after every
    proposal it made (``None``): seeded as the constructor seeds it, then its own earlier proposals drawn again."""
    rng = Random()
    rng.seed(0, version=1)
    role = Role(view.role)
    for round_ in [r for r, a in _own_proposals(view) if before is None or (r, a) < before]:
        _propose(view, role, round_, rng)
    return rng


def _own_proposals(view: AvalonView) -> list[tuple[int, int]]:
    """``(round, attempt)`` of each proposal this player made, in play order (a first and a final proposal of
    one attempt, with talk between them, are one draw)."""
    made = {(e["round"], e["attempt"]) for e in view.events
            if e["type"] == "proposal" and e["leader"] == view.player}
    return sorted(made)


# ------------------------------------------------------------------ decisions, in AvalonBench's 0-based seats


def _sides(view: AvalonView) -> list[int]:
    """``player_sides``: Merlin and the evil players see every side (those not known to be evil are good);
    any other player knows only its own."""
    me = view.player - 1
    if Role(view.role) in SERVANT_LOGIC:
        sides = [-1] * view.players
        sides[me] = 1
        return sides
    evil = {k["player"] - 1 for k in view.knowledge if k["is"] == "evil"}
    if view.side == "evil":
        evil.add(me)
    return [0 if i in evil else 1 for i in range(view.players)]


def _servant_belief(view: AvalonView, round_: int) -> servant.ServantBelief:
    """The Servant's belief when quest ``round_`` begins (after every earlier quest)."""
    quests = [(frozenset(p - 1 for p in q["team"]), int(q["fails"])) for q in view.quests if q["round"] < round_]
    return servant.servant_belief(view.players, view.player - 1, side_counts(view.players)[1], quests)


def _servant_teams(view: AvalonView, round_: int, size: int) -> list[servant.Team]:
    belief = _servant_belief(view, round_)
    return servant.most_preferred(servant.team_preferences(belief, view.players, size), belief.largest_success)


def _needed(view: AvalonView, round_: int) -> int:
    return fails_needed(view.players, round_, view.rules.get("two_fail_quests", "official"))


def _propose(view: AvalonView, role: Role, round_: int, rng: Random) -> tuple[int, ...]:
    """The team its code proposes for quest ``round_``, drawing from ``rng`` as it does (1-based, sorted)."""
    me, size = view.player - 1, team_size(view.players, round_)
    if role in SERVANT_LOGIC:
        team: Any = rng.choice(_servant_teams(view, round_, size))
    elif role is Role.MERLIN:
        sides = _sides(view)
        team = rng.sample([i for i in range(view.players) if sides[i] != 0 and i != me], size - 1) + [me]
    else:
        sides, needed = _sides(view), _needed(view, round_)
        others = [i for i in range(view.players) if sides[i] == 0 and i != me]
        evil_team = rng.sample(others, min(needed - 1, len(others))) + [me]
        goods = [i for i in range(view.players) if i not in evil_team and sides[i] == 1]
        team = rng.sample(goods, size - len(evil_team)) + evil_team
    return tuple(sorted(i + 1 for i in team))


def _approves(view: AvalonView, role: Role, team: tuple[int, ...]) -> bool:
    members = frozenset(p - 1 for p in team)
    if role in SERVANT_LOGIC:
        return members in _servant_teams(view, view.round, len(members))
    sides = _sides(view)
    if role is Role.MERLIN:
        return not any(sides[i] == 0 for i in members)
    return sum(sides[i] == 0 for i in members) >= _needed(view, view.round)


def _card(view: AvalonView, role: Role, team: tuple[int, ...]) -> bool:
    """``vote_on_mission``: ``True`` for success."""
    if view.side == "good":
        return True
    sides, needed = _sides(view), _needed(view, view.round)
    evil_on_team = sum(sides[p - 1] == 0 for p in team)
    if role is Role.ASSASSIN:
        return evil_on_team < needed
    if evil_on_team < needed:
        return True
    if evil_on_team == needed:
        return False
    return side_counts(view.players)[1] == 2 and needed == 1  # the Assassin is on the team and fails it


def _assassination_target(view: AvalonView, request: Request) -> int:
    """``NaiveAssassin.assassinate``: ``random.choice`` of the good players in seat order, after its proposals."""
    sides = _sides(view)
    target = _generator(view, None).choice([i for i in range(view.players) if sides[i] == 1]) + 1
    return target if target in request.candidates else min(request.candidates)
