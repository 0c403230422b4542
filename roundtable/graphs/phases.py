r"""The phase machinery of a game graph: a node per phase asks, agents answer, ``apply`` applies.

::

    setup --> <phase> --(ask: one Send per request, to the seat's agent node)--> <agent kind> --> apply
                 \--(no request: an automatic step)--------------------------------------------> apply
    apply --(route: the phase the game is in now)--> <phase> | game_over

- A phase node runs once per decision point: it writes the requests the game
  waits for (``requests``). A breakpoint *before* a phase node therefore
  pauses once, before the players of that phase are asked.
- ``ask`` (the phase node's conditional edge) sends each request with the
  player's view (only the events not delivered before), memory, seat and seed
  to the node of the seat's agent kind; simultaneous requests (votes, cards)
  run in parallel. With a round's first requests it also sends a
  `prepare_round` notice to every other seat whose kind prepares rounds
  (`AgentKind.prepares_rounds`), in the same step, so their per-round notes
  are written in parallel too (`round_notices`).
- ``apply`` checks every answer against its request, records each decision
  (an analysis-only log entry), applies the answers with the rules module
  and clears the answers; its conditional edge goes to the next phase.

Every route is an edge, so after `update_state` on any node (Studio's state
editor) the graph continues from the edited state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from langgraph.runtime import Runtime
from langgraph.types import Overwrite, Send

from roundtable.agents.protocol import AgentInput, AgentKind
from roundtable.games.errors import IllegalActionError
from roundtable.games.protocol import (
    Decision,
    Event,
    GameRules,
    PlayerView,
    Request,
    can_see,
    check_decision,
    prepare_round,
)
from roundtable.games.rng import rng_for
from roundtable.graphs.state import GameState

GAME_OVER = "game_over"
APPLY = "apply"


def load(rules: GameRules, state: GameState, *, log: bool = True) -> Any:
    """The game state held by the graph state (snapshot plus log; ``log=False`` skips the log, for routing)."""
    return rules.restore(state["game"], (state.get("events") or []) if log else ())


def agent_seed(game_seed: int, player: int) -> int:
    """The seed an agent gets for its own tie-breaks: derived from the game seed, which it must not learn
    (the game seed reproduces the deal)."""
    return rng_for(game_seed, "agent", player).getrandbits(62)


def decision_record(rules: GameRules, request: Request, decision: Decision, kind: str) -> Event:
    """A hidden (analysis-only) log entry for one decision: the answer in the game's words, raw text, fallback, the
    agent's own checks and private thoughts (for docs/measures.md#play-quality), cost."""
    record: Event = {"type": "decision", "to": [], "player": decision.player, "request": decision.request_id,
                     "kind": decision.kind, "agent": kind}
    if request.answer == "belief":  # the game graph's probe, not a move of the game
        record["beliefs"] = None if decision.beliefs is None else {str(q): decision.beliefs[q]
                                                                   for q in sorted(decision.beliefs)}
    else:
        record |= rules.action_of(request, decision)
    for key in ("raw", "fallback"):
        value = getattr(decision, key)
        if value is not None:
            record[key] = value
    if decision.checks:
        record["checks"] = list(decision.checks)
    if decision.thoughts:
        record["thoughts"] = list(decision.thoughts)
    if decision.usage:
        record["usage"] = decision.usage
    return record



class Node(Protocol):
    """A game graph node over the game's state, returning its update (LangGraph calls it with ``state=``)."""

    def __call__(self, state: GameState) -> dict[str, Any]:
        """The node's update of the state."""
        ...


def make_phase(rules: GameRules, phase: str) -> Node:
    """The node of ``phase``: write the requests the game waits for.

    Raises (from the node):
        IllegalActionError: the game is not in ``phase`` (an edited state routed here by hand).
    """

    def node(state: GameState) -> dict[str, Any]:
        game = load(rules, state)
        if rules.phase(game) != phase:
            raise IllegalActionError(f"the game is in phase {rules.phase(game)!r}, not {phase!r}")
        return {"requests": [r.model_dump(mode="json") for r in rules.pending(game)]}

    node.__name__ = phase
    node.__doc__ = rules.phases[phase]
    return node


def round_notices(state: GameState, kinds: Mapping[str, AgentKind]) -> tuple[int, list[int]]:
    """Who is told, with the requests in hand, that their round has begun.

    Args:
        state: the game graph's state (its ``requests``, ``seats`` and ``prepared``).
        kinds: the agent kinds seated, by name.

    Returns:
        ``(round, players)``: the requests' round (the largest, 0 when there are none) and, in seat
        order, every seat whose kind prepares rounds (`AgentKind.prepares_rounds`) and was not yet
        told of that round: those asked now are told by their request, the others get a
        `prepare_round` notice. ``ask`` and ``apply`` compute it from the same state.
    """
    requests = state.get("requests") or []
    if not requests:
        return 0, []
    round_ = max(int(r["round"]) for r in requests)
    prepared = state.get("prepared") or {}
    players = [p for p, seat in enumerate(state["seats"], 1)
               if getattr(kinds.get(seat["kind"]), "prepares_rounds", False)
               and int(prepared.get(str(p), 0)) < round_]
    return round_, players


def make_ask(rules: GameRules, kinds: Mapping[str, AgentKind] | None = None) -> Callable[[GameState], list[Send] | str]:
    """The edge leaving every phase node: one `Send` per request to the seat's agent node, plus a
    `prepare_round` notice to each seat of ``kinds`` that `round_notices` names and no request asks; or
    ``apply`` when nothing is asked."""

    def ask(state: GameState) -> list[Send] | str:
        requests = state.get("requests") or []
        if not requests:
            return APPLY
        game = load(rules, state)
        asked = {int(data["player"]) for data in requests}
        round_, told = round_notices(state, kinds or {})
        phase = str(requests[0]["phase"])
        notices = [prepare_round(p, phase, round_).model_dump(mode="json") for p in told if p not in asked]
        return [agent_send(state, data, rules.view(game, int(data["player"]))) for data in [*requests, *notices]]

    return ask


def agent_send(state: GameState, request: dict[str, Any], view: PlayerView) -> Send:
    """The `Send` of one dumped request to its seat's agent node: the player's ``view`` (only the events its
    agent was not given yet), the request, the player's memory, its seat and its own seed (`AgentInput`)."""
    player = int(request["player"])
    seat = state["seats"][player - 1]
    task: AgentInput = {
        "view": view.since((state.get("delivered") or {}).get(str(player), 0)).model_dump(mode="json"),
        "request": request,
        "pool": (state.get("memory") or {}).get(str(player), {}),
        "seat": seat,
        "seed": agent_seed(state["seed"], player),
    }
    return Send(seat["kind"], task)


def make_apply(rules: GameRules, kinds: Mapping[str, AgentKind] | None = None
               ) -> Node:
    """The ``apply`` node: check, record and apply the answers to the requests in hand, and note which
    seats of ``kinds`` were told of the round (`round_notices`) and which events each told or asked
    player's agent was given.

    Raises (from the node):
        IllegalActionError: an answer is missing or illegal (say, edited by hand), named in the message.
    """

    def apply(state: GameState) -> dict[str, Any]:
        """Apply the answers: check each against its request, record it, and move the game on."""
        game = load(rules, state)
        requests = rules.pending(game)
        answers = state.get("decisions") or {}
        missing = [r.id for r in requests if r.id not in answers]
        if missing:
            raise IllegalActionError(f"no answer yet for {', '.join(missing)}")
        decisions: dict[int, Decision] = {}
        records: list[Event] = []
        seated = [seat["kind"] for seat in state["seats"]]
        for request in requests:
            decision = Decision.model_validate(answers[request.id])
            check_decision(request, decision)
            decisions[request.player] = decision
            records.append(decision_record(rules, request, decision, seated[request.player - 1]))
        after = rules.apply(game, decisions)
        before = len(rules.events(game))
        update: dict[str, Any] = {
            "game": rules.snapshot(after),
            "events": records + list(rules.events(after)[before:]),
            "decisions": Overwrite({}),
            "requests": [],
        }
        round_, told = round_notices(state, kinds or {})
        given = {r.player for r in requests} | set(told)
        if given:  # what each asked or told player's agent was given: every event it may see so far
            log = rules.events(game)
            update["delivered"] = {str(p): sum(1 for e in log if can_see(e, p)) for p in sorted(given)}
        if told:
            update["prepared"] = {str(p): round_ for p in told}
        return update

    return apply


def make_route(rules: GameRules) -> Callable[[GameState], str]:
    """The edge leaving ``setup`` and ``apply``: to the node of the phase the game is in, or ``game_over``."""

    def route(state: GameState) -> str:
        game = load(rules, state, log=False)
        phase = rules.phase(game)
        return GAME_OVER if phase not in rules.phases else phase

    return route


def stated_beliefs(rules: GameRules, game: Any, seats: list[dict[str, Any]],
                   kinds: Mapping[str, AgentKind]) -> dict[str, dict[str, float]]:
    """The belief probe of a finished game: ``{player: {other player: P(good)}}`` (keys as strings).

    Each player the game's `GameRules.belief_probe` asks states its belief on the view the probe gives,
    through its seat's agent kind (`AgentKind.beliefs`); a player whose kind states none is left out, so
    the result never holds a belief nobody stated.

    Raises:
        IllegalActionError: a stated belief names the player itself or a player not at the table, or a
            probability outside [0, 1] (a bug in the kind, named).
    """
    if rules.belief_probe is None:
        return {}
    out: dict[str, dict[str, float]] = {}
    for player, view in sorted(rules.belief_probe(game).items()):
        kind = kinds.get(str(seats[player - 1].get("kind")))
        if kind is None:
            continue
        belief = (kind.beliefs or {}).get(rules.name)
        if belief is None:
            continue
        stated = dict(belief(view))
        wrong = [q for q, p in stated.items() if q == player or not 1 <= q <= len(seats) or not 0.0 <= p <= 1.0]
        if wrong:
            raise IllegalActionError(f"the {kind.name} belief of player {player} is not a probability of being "
                                     f"good for each other player: {stated}")
        out[str(player)] = {str(q): float(stated[q]) for q in sorted(stated)}
    return out


def probes_beliefs(rules: GameRules, runtime: Runtime[Any] | None) -> bool:
    """Whether this run asks the game's belief probe: the game has one and the run's context does not switch
    it off (``belief_probe``, default true; ``roundtable play --no-belief-probe``)."""
    context = None if runtime is None else runtime.context
    wanted = context.get("belief_probe", True) if isinstance(context, dict) else getattr(context, "belief_probe", True)
    return rules.belief_probe is not None and bool(wanted)


class ContextNode(Protocol):
    """A game graph node that also reads the run's context (LangGraph passes ``runtime=``)."""

    def __call__(self, state: GameState, runtime: Runtime[Any]) -> dict[str, Any]:
        """The node's update of the state."""
        ...


def make_game_over(rules: GameRules, kinds: Mapping[str, AgentKind] | None = None) -> ContextNode:
    """The ``game_over`` node over the seated agent ``kinds``: write the result (winner and end reason) and,
    where the game probes beliefs and the run does not switch the probe off (`probes_beliefs`), the
    ``beliefs`` its players stated: those the rule bots' kinds state here (`stated_beliefs`) and those the
    model-driven kinds gave through their graphs at ``belief_probe`` (`roundtable.graphs.probe`)."""

    def game_over(state: GameState, runtime: Runtime[Any]) -> dict[str, Any]:
        """Game over: the winner and the reason (also in the log), and the players' stated beliefs in the
        others' sides where the game asks (Avalon: AvalonBench's belief probe); nothing is left to decide."""
        probing = probes_beliefs(rules, runtime)
        game = load(rules, state, log=probing)  # the probe's views read the log
        result = rules.result(game)
        if result is None:
            raise IllegalActionError(f"game_over reached while the game is in phase {rules.phase(game)!r}")
        update: dict[str, Any] = {"result": result.model_dump()}
        if probing:
            stated = stated_beliefs(rules, game, state["seats"], kinds or {})
            given = {**stated, **(state.get("beliefs") or {})}
            update["beliefs"] = {p: given[p] for p in sorted(given, key=int)}
        return update

    return game_over
