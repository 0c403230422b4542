"""Agent kind ``naive`` in Werewolf: simple rule-based play per role, no model (issue 12's heuristics).

Xu et al. (2023) give no rule bots; these follow common human play:

- **Werewolves** never target each other: both name the same victim, a player
  who claimed to be the Seer if one lives, else one drawn from the living
  non-werewolves by a draw both werewolves make alike (so their votes agree).
  Voting in turn (``werewolf_night=sequential``), a werewolf names the victim
  its teammates named before it tonight, when they named one (the most named,
  the first on a tie), and tells its teammates its vote (or its agreement) in
  one plain sentence.
  By day they vote out the claimed Seer if one lives, else a random non-werewolf.
- **Seer** checks a living player it has not checked yet; once it has found a
  living werewolf it reveals itself and names it in its statement (and in its
  last words), and votes for it.
- **Witch** saves the target on night one (never later); she poisons a
  werewolf revealed by a Seer's claim, else keeps the poison.
- **Guard** protects a claimed Seer when allowed, else itself when allowed,
  else a random living player.
- **Everyone on the village side** votes for a revealed werewolf (named by a
  player who claimed to be the Seer); without one, for a random other living
  player not known to be good, as a plain guess.

A claim is a public statement containing "I am the Seer"; an accusation,
"Player N is a werewolf" (the words these bots say, `words.words_for`).
Of the past, the bot reads only the Seer's own checks and the claims
(`remembers`), besides the view's table status.
"""

from __future__ import annotations

import re
from random import Random

from roundtable.games.protocol import Decision, Request
from roundtable.games.rng import rng_for
from roundtable.games.werewolf.bots.words import kill_words, words_for
from roundtable.games.werewolf.view import WerewolfView

_CLAIM = re.compile(r"\bI am the seer\b", re.IGNORECASE)
_ACCUSE = re.compile(r"\bplayer (\d+) is a werewolf\b", re.IGNORECASE)


def decide(view: WerewolfView, request: Request, seed: int) -> Decision:
    """The naive bot's decision for ``request``.

    Args:
        view: what the player knows.
        request: what is asked.
        seed: the agent's seed (its own draws come from ``rng_for(seed, "naive", request.id)``).

    Returns:
        A legal `Decision`; words, when asked, are one plain sentence.
    """
    rng = rng_for(seed, "naive", request.id)
    kind = request.kind
    if kind == "kill":
        target = kill_target(view, request)
        agreed = target in {v["target"] for v in request.details.get("votes", ())}
        return Decision.to(request, players=None if target is None else (target,),
                           utterance=kill_words(target, agreed) if request.wants_words else None)
    if kind == "protect":
        seer = _claimed_seer(view)
        choice = next((p for p in (seer, view.player) if p in request.candidates), None)
        return _pick(request, choice if choice is not None else rng.choice(request.candidates))
    if kind == "save":
        return Decision.to(request, choice=request.round == 1)
    if kind == "poison":
        revealed = _revealed_werewolf(view)
        return _pick(request, revealed if revealed in request.candidates else None)
    if kind == "see":
        checked = {e["target"] for e in view.events if e["type"] == "seer_result"}
        unknown = [p for p in request.candidates if p not in checked]
        return _pick(request, rng.choice(unknown or list(request.candidates)))
    if kind == "eliminate":
        return _pick(request, _vote(view, request, rng))
    found = _found_werewolf(view)
    claim = "Seer" if found is not None else None
    return Decision.to(request, utterance=words_for(view, request, found, claim))


def remembers(event: dict) -> bool:
    """Whether ``decide`` reads ``event`` later: the Seer's checks and public statements claiming the Seer."""
    if event.get("type") == "seer_result":
        return True
    return (event.get("type") == "utterance" and event.get("to") is None
            and bool(_CLAIM.search(event.get("text") or "")))


def _pick(request: Request, player: int | None) -> Decision:
    return Decision.to(request, players=None if player is None else (player,))


def _werewolves(view: WerewolfView) -> set[int]:
    """The werewolves this player knows: itself and its teammates (werewolves), or its Seer findings."""
    known = {k["player"] for k in view.knowledge if k["is"] == "werewolf"}
    if view.role == "werewolf":
        known.add(view.player)
    known |= {e["target"] for e in view.events if e["type"] == "seer_result" and e["werewolf"]}
    return known


def _found_werewolf(view: WerewolfView) -> int | None:
    """A living werewolf the Seer has found (the first found), or ``None`` (everyone else)."""
    if view.role != "seer":
        return None
    found = [e["target"] for e in view.events if e["type"] == "seer_result" and e["werewolf"]]
    return next((p for p in found if p in view.alive), None)


def _claims(view: WerewolfView) -> list[tuple[int, int | None]]:
    """Public Seer claims, oldest first: ``(claimant, accused or None)``."""
    out = []
    for e in view.events:
        if e["type"] == "utterance" and e.get("to") is None and _CLAIM.search(e.get("text") or ""):
            accused = _ACCUSE.search(e["text"])
            out.append((e["speaker"], int(accused.group(1)) if accused else None))
    return out


def _claimed_seer(view: WerewolfView) -> int | None:
    """The latest living player who claimed to be the Seer."""
    return next((p for p, _ in reversed(_claims(view)) if p in view.alive), None)


def _revealed_werewolf(view: WerewolfView) -> int | None:
    """The latest living player a Seer claim named as a werewolf (not this player)."""
    return next((a for _, a in reversed(_claims(view)) if a is not None and a in view.alive and a != view.player),
                None)


def kill_target(view: WerewolfView, request: Request) -> int | None:
    """The rule bot's night kill: both werewolves name the same non-werewolf, the one a teammate named before
    tonight (voting in turn), else a claimed Seer, else a draw they make alike; None when no non-werewolf is a
    candidate. Also the agents' rule for a model werewolf's pass (`roundtable.aids.werewolf`)."""
    wolves = _werewolves(view)
    victims = [p for p in request.candidates if p not in wolves]
    if not victims:
        return None
    named = [v["target"] for v in request.details.get("votes", ()) if v["target"] in victims]
    if named:
        return max(named, key=named.count)
    seer = _claimed_seer(view)
    if seer in victims:
        return seer
    shared = rng_for("werewolves", *sorted(wolves), request.round, *victims)  # the same for every werewolf
    return shared.choice(victims)


def _vote(view: WerewolfView, request: Request, rng: Random) -> int | None:
    known = _werewolves(view)
    if view.role == "werewolf":
        seer = _claimed_seer(view)
        if seer in request.candidates and seer not in known:
            return seer
        victims = [p for p in request.candidates if p not in known]
        return rng.choice(victims) if victims else None
    for suspect in (_found_werewolf(view), _revealed_werewolf(view)):
        if suspect in request.candidates:
            return suspect
    trusted = {_claimed_seer(view)}
    guesses = [p for p in request.candidates if p not in trusted] or list(request.candidates)
    return rng.choice(guesses)
