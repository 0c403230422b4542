"""Secret Hitler's rule bot, played by roundtable's ``naive`` kind (docs/games/secret-hitler.md#the-rule-bot).

The rulebook gives no bots; these follow the simplest play its *Strategy Notes* describe, by side:

- **Track record.** Every player's record is the sum over the elected governments it sat in of +1 for a Liberal
  policy enacted and -1 for a Fascist one (`record`); an investigation's result (the player's own) makes a player
  known Liberal or known Fascist, and a Fascist knows its teammates from the reveal.
- **Liberals** (and Hitler at 7 or more players, who knows nobody and passes for a Liberal) nominate, choose as
  next President and vote for players by their track record: they vote ja when neither member of the government
  is a known Fascist and both have a record of at least zero, or when a third failure would throw the country
  into chaos; they investigate and execute the worst record; as President they discard a Fascist policy and as
  Chancellor enact a Liberal one when they hold one; they propose and agree to a veto only of two Fascist
  policies.
- **Fascists who know their team** favour it: they nominate Hitler once three Fascist policies are enacted (an
  immediate win), else a teammate when eligible; they vote ja on any government with a teammate (or themselves)
  in it and otherwise vote as a Liberal would; they discard and enact by side (a Liberal policy discarded, a
  Fascist one enacted when held), veto only two Liberal policies, and investigate, choose and execute players
  outside their team, the best record first.

Ties are broken by a draw from ``rng_for(seed, "naive", request.id)``. The bot reads only its view's table and
private fields (``governments``, ``investigations``, ``knowledge``, ``hand``, ``passed``), never past events, so it
declares no ``remembers``.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from roundtable.games.protocol import Decision, Request
from roundtable.games.rng import rng_for
from roundtable_secret_hitler.bots.words import words_for
from roundtable_secret_hitler.deck import FASCIST, LIBERAL
from roundtable_secret_hitler.powers import HITLER_ZONE, TRACKER_CHAOS
from roundtable_secret_hitler.view import SecretHitlerView

KNOWN = 100
"""The record of a player known to be Liberal (its negative: known Fascist)."""


def team(view: SecretHitlerView) -> set[int]:
    """The Fascist-side players this player knows besides itself (from the reveal): ``set()`` for a Liberal and
    for Hitler at 7 or more players."""
    return {int(k["player"]) for k in view.knowledge}


def hitler_seat(view: SecretHitlerView) -> int | None:
    """Hitler's seat, when the reveal showed it."""
    return next((int(k["player"]) for k in view.knowledge if k["is"] == "hitler"), None)


def informed_fascist(view: SecretHitlerView) -> bool:
    """Whether the player plays for the Fascists knowing its team (a Fascist, or Hitler at 5 or 6 players)."""
    return view.side == FASCIST and bool(team(view))


def record(view: SecretHitlerView, player: int) -> int:
    """``player``'s track record in ``view`` (see the module docstring); `KNOWN` for a player known Liberal,
    ``-KNOWN`` for one known Fascist."""
    found = {int(i["player"]): i["party"] for i in view.investigations}
    if player in found:
        return KNOWN if found[player] == LIBERAL else -KNOWN
    score = 0
    for government in view.governments:
        if player in (government["president"], government["chancellor"]) and government["policy"] in (LIBERAL,
                                                                                                      FASCIST):
            score += 1 if government["policy"] == LIBERAL else -1
    return score


def _best(view: SecretHitlerView, candidates: Sequence[int], rng: Random, *, worst: bool = False) -> int:
    """The candidate with the best (``worst``: the worst) track record, ties drawn."""
    scores = {p: record(view, p) for p in candidates}
    top = (min if worst else max)(scores.values())
    return rng.choice([p for p in candidates if scores[p] == top])


def _pick(request: Request, player: int) -> Decision:
    return Decision.to(request, players=(player,))


def liberal_vote(view: SecretHitlerView, request: Request) -> bool:
    """A Liberal's vote on the government under vote: by the track record (see the module docstring)."""
    president, chancellor = request.details["president"], request.details["chancellor"]
    if view.player in (president, chancellor):
        return True
    scores = (record(view, president), record(view, chancellor))
    if min(scores) <= -KNOWN:
        return False
    return min(scores) >= 0 or request.details.get("tracker", 0) == TRACKER_CHAOS - 1


def vote(view: SecretHitlerView, request: Request) -> bool:
    """The bot's vote: a Fascist who knows its team says ja to any government with one of it; everyone else votes
    as a Liberal."""
    government = {request.details["president"], request.details["chancellor"]}
    if informed_fascist(view) and government & (team(view) | {view.player}):
        return True
    return liberal_vote(view, request)


def decide(view: SecretHitlerView, request: Request, seed: int) -> Decision:
    """The rule bot's decision for ``request``.

    Args:
        view: what the player knows.
        request: what is asked.
        seed: the agent's seed (its draws come from ``rng_for(seed, "naive", request.id)``).

    Returns:
        A legal `Decision`; words, when asked, are one plain sentence.
    """
    rng = rng_for(seed, "naive", request.id)
    fascist = informed_fascist(view)
    mine = team(view) if fascist else set()
    kind = request.kind
    candidates = list(request.candidates)
    if kind == "nominate":
        hitler = hitler_seat(view)
        if fascist and hitler in candidates and view.fascist_policies >= HITLER_ZONE:
            return _pick(request, hitler)
        friends = [p for p in candidates if p in mine]
        return _pick(request, rng.choice(friends) if friends else _best(view, candidates, rng))
    if kind == "vote":
        return Decision.to(request, choice=vote(view, request))
    if kind in ("discard", "enact"):  # the first word is the Liberal policy: discard it, or enact it
        liberal = view.side == FASCIST if kind == "discard" else view.side != FASCIST
        return Decision.to(request, choice=liberal if liberal in request.allowed else request.allowed[0])
    if kind in ("propose_veto", "consent_veto"):
        cards = tuple(request.details.get("hand") or request.details.get("passed") or ())
        unwanted = LIBERAL if view.side == FASCIST else FASCIST
        return Decision.to(request, choice=bool(cards) and all(c == unwanted for c in cards))
    if kind in ("investigate", "execute", "choose_president"):
        outside = [p for p in candidates if p not in mine] or candidates
        if fascist:
            friends = [p for p in candidates if p in mine]
            if kind == "choose_president" and friends:
                return _pick(request, rng.choice(friends))
            return _pick(request, _best(view, outside, rng))
        return _pick(request, _best(view, candidates, rng, worst=kind != "choose_president"))
    if kind == "speak":
        ja = view.chancellor is not None and vote(view, Request(
            id=request.id, kind="vote", player=view.player, phase=request.phase, round=request.round,
            answer="yes_no", details={"president": view.president, "chancellor": view.chancellor,
                                      "tracker": view.tracker}))
        return Decision.to(request, utterance=words_for(view, request, ja))
    return Decision.to(request, players=tuple(candidates[: request.count or 0]) if request.answer == "pick" else None,
                       choice=request.allowed[0] if request.answer == "yes_no" else None,
                       utterance="..." if request.wants_words else None)
