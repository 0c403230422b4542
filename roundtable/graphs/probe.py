r"""The belief probe of a finished game, asked of the model-driven seats through their own agent graphs.

AvalonBench (Light et al. 2023) asks each good player, once the game is over
and before any role is revealed, for the probability that every other player
is good; deduction accuracy is scored from the answers
(docs/measures.md#deduction-accuracy). A rule bot states its belief as a pure
function of its view (`roundtable.agents.protocol.AgentKind.beliefs`, read at
``game_over``). A model-driven kind answers from its own memory with model
calls, so the probe is a step of the game graph like any decision::

    apply --(the game is over)--> belief_probe --(Send per probed player)--> <agent kind> --> apply --> game_over
                                        \--(nobody to ask, or the probe switched off)------------------> game_over

- ``belief_probe`` writes one `roundtable.games.protocol.belief_request` per player the game's
  `GameRules.belief_probe` names whose kind answers it through its graph
  (`roundtable.agents.protocol.AgentKind.probed`), unless the run's context switches the probe off
  (`roundtable.graphs.phases.probes_beliefs`).
- Each request goes to the seat's agent node with the probe's view (the log up to the end of play: no
  assassination target, no roles), its memory and its seat, as a move would.
- ``apply`` (wrapped by `with_beliefs`) checks each answer, records it as a hidden ``decision`` entry
  (beliefs, raw reply, fallback, cost) and writes the usable ones to ``beliefs``; an unusable answer is
  recorded with its fallback and left out of ``beliefs``, never filled in.

A checkpoint is saved after each step, so a game interrupted during the probe resumes there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import Overwrite, Send

from roundtable.agents.protocol import AgentKind
from roundtable.games.errors import IllegalActionError
from roundtable.games.protocol import BELIEF, Decision, GameRules, Request, belief_request, check_decision
from roundtable.graphs.phases import (
    GAME_OVER,
    ContextNode,
    Node,
    agent_send,
    decision_record,
    load,
    probes_beliefs,
)
from roundtable.graphs.state import GameState

BELIEF_PROBE = "belief_probe"


def probed_players(rules: GameRules, state: GameState, kinds: Mapping[str, AgentKind]) -> dict[int, Any]:
    """``{player: probe view}`` for each player the game's probe names whose seat's kind answers it through its
    graph (``rules.name in kind.probed``), in seat order; ``{}`` for a game with no probe."""
    if rules.belief_probe is None:
        return {}
    seats = state["seats"]
    views = rules.belief_probe(load(rules, state))
    return {p: view for p, view in sorted(views.items())
            if rules.name in getattr(kinds.get(str(seats[p - 1].get("kind"))), "probed", frozenset())}


def make_belief_probe(rules: GameRules, kinds: Mapping[str, AgentKind]) -> ContextNode:
    """The ``belief_probe`` node: write a `belief_request` for every player `probed_players` names (none when
    the run switches the probe off, `probes_beliefs`)."""

    def belief_probe(state: GameState, runtime: Runtime[Any]) -> dict[str, Any]:
        """The game is over: ask each good model-driven player, before any role is revealed, how likely every
        other player is to be good (AvalonBench's belief probe)."""
        if not probes_beliefs(rules, runtime):
            return {"requests": []}
        players, phase = len(state["seats"]), rules.phase(load(rules, state, log=False))
        requests = [belief_request(p, [q for q in range(1, players + 1) if q != p], phase, int(view.round))
                    for p, view in probed_players(rules, state, kinds).items()]
        return {"requests": [r.model_dump(mode="json") for r in requests]}

    return belief_probe


def make_ask_beliefs(rules: GameRules, kinds: Mapping[str, AgentKind]) -> Callable[[GameState], list[Send] | str]:
    """The edge leaving ``belief_probe``: one `Send` per probe request to the seat's agent node, with the
    probe's view (`probed_players`), or ``game_over`` when nobody is asked."""

    def ask_beliefs(state: GameState) -> list[Send] | str:
        requests = state.get("requests") or []
        if not requests:
            return GAME_OVER
        views = probed_players(rules, state, kinds)
        return [agent_send(state, data, views[int(data["player"])]) for data in requests]

    return ask_beliefs


def is_probe(state: GameState) -> bool:
    """Whether the requests in hand are the belief probe's (`roundtable.games.protocol.BELIEF`)."""
    requests = state.get("requests") or []
    return bool(requests) and all(r.get("kind") == BELIEF for r in requests)


def collect_beliefs(rules: GameRules, state: GameState) -> dict[str, Any]:
    """The update that takes the probe's answers: each checked and recorded as a hidden ``decision`` entry,
    the usable ones (``beliefs`` given) as ``beliefs`` ``{player: {other: P(good)}}`` (keys as strings).

    Raises:
        IllegalActionError: an answer is missing or breaks `roundtable.games.protocol.check_beliefs`.
    """
    answers = state.get("decisions") or {}
    seated = [seat["kind"] for seat in state["seats"]]
    stated: dict[str, dict[str, float]] = {}
    records = []
    for data in state.get("requests") or []:
        request = Request.model_validate(data)
        if request.id not in answers:
            raise IllegalActionError(f"no answer yet for {request.id}")
        decision = Decision.model_validate(answers[request.id])
        check_decision(request, decision)
        records.append(decision_record(rules, request, decision, seated[request.player - 1]))
        if decision.beliefs is not None:
            stated[str(request.player)] = {str(q): float(decision.beliefs[q]) for q in sorted(decision.beliefs)}
    return {"events": records, "beliefs": stated, "decisions": Overwrite({}), "requests": []}


def with_beliefs(rules: GameRules, apply: Node) -> Node:
    """The ``apply`` node of a game with a belief probe: `collect_beliefs` when the requests in hand are the
    probe's, else ``apply`` itself."""

    def apply_or_collect(state: GameState) -> dict[str, Any]:
        return collect_beliefs(rules, state) if is_probe(state) else apply(state)

    apply_or_collect.__name__ = getattr(apply, "__name__", "apply")
    apply_or_collect.__doc__ = apply.__doc__
    return apply_or_collect


def with_probe_route(rules: GameRules, route: Callable[[GameState], str]) -> Callable[[GameState], str]:
    """The route leaving ``setup`` and ``apply`` in a game with a belief probe: to ``belief_probe`` where
    ``route`` goes to ``game_over`` and the probe has not been taken yet (no ``beliefs`` in the state)."""

    def route_or_probe(state: GameState) -> str:
        to = route(state)
        return BELIEF_PROBE if to == GAME_OVER and "beliefs" not in state else to

    return route_or_probe
