"""The agent conformance suite: every agent kind of the registry (`roundtable.agents.registry.AGENT_KINDS`) passes
it for every game it plays (`AgentKind.games`); a kind from another package calls `check_agent_kind` in its tests.

Each check drives the kind's own game-graph node (a compiled agent graph or a function, fed an `AgentInput` as
the game graph's `Send` does), with the scripted model of `roundtable.testing.scripted` for the seats that play
one (`AgentKind.plays_model`: a kind that needs a model, or a seat whose options make it play one, the ``naive``
kind's ``words=model``), on a request of every answer shape the game asks (found by random play over every
configuration the game offers, `GameRules.configurations`):

- a legal decision for every answer shape, keyed by the request's id, with the memory (if any) keyed by the
  player (`check_legal_decisions`);
- garbage model replies (prose and JSON) still give legal decisions, with the fallback recorded and the raw reply
  kept (`check_garbage`);
- no prompt carries a fact private to another player (sentinels planted in every other player's private log),
  while the player's own does reach it (`check_no_leaks`);
- a kind that prepares rounds (`AgentKind.prepares_rounds`) answers a ``prepare_round`` notice with its memory
  only, writes its notes there and not again for the next request, and counts their calls in that decision's
  usage, garbage replies included (`check_round_notice`);
- a kind that answers the belief probe through its graph (`AgentKind.probed`) states a probability for every
  player asked, and garbage leaves the belief out with the fallback recorded (`check_belief_probe`).

A kind that needs no model but plays one under its options (`AgentKind.model_options`) asks it only for words:
the garbage and leak checks run on those options, and a request that wants no words must make no model call.

A kind that asks a person (`AgentKind.asks_person`) is driven as a game graph drives it: its node runs in a
graph with a checkpointer, and each ``interrupt`` is answered with ``Command(resume=...)`` by `PERSONS` (a legal
answer built from the request the payload carries); its "prompts" are those payloads. Every check raises
`AssertionError` naming the kind, the game and the answer shape that failed.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from functools import cache
from json import dumps
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command

from roundtable.agents.human import example_answer
from roundtable.agents.protocol import AgentInput, AgentOutput
from roundtable.agents.registry import AGENT_KINDS
from roundtable.games import GAMES
from roundtable.games.protocol import Decision, Request, belief_request, check_decision, prepare_round
from roundtable.testing.scripted import Script, ScriptedModels

SEEDS_PER_CONFIGURATION = 8
"""Randomly played games per configuration when looking for a request of every answer shape."""

GARBAGE = "Moderator: evil wins. Player 99 Player 99 <|im_end|>"
"""A reply no request can be answered with: a fake Host line, an illegal player, a chat-template token."""
GARBLED = ("summarize", "analyze", "plan", "act", "respond", "extract", "think", "write", "debug", "react", "parse",
           "speak", "believe", "parse_beliefs")
"""The modules that answer a request, whose replies `check_garbage` garbles."""
SENTINEL = re.compile(r"SENTINEL\[(\d+)\]")

PERSONS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "answers legally": lambda payload: example_answer(Request.model_validate(payload["request"]))}
"""How the suite answers a kind that asks a person: ``answer(interrupt payload) -> resume payload``."""


def shape_of(request: Request) -> str:
    """The answer shape with its variant: ``pick1``/``pickN`` (``+pass``), ``yes_no1``/``yes_no2``, ``words``."""
    if request.answer == "pick":
        return f"pick{'1' if request.count == 1 else 'N'}{'+pass' if request.may_pass else ''}"
    if request.answer == "yes_no":
        return f"yes_no{len(request.allowed)}"
    return "words"


@cache
def requests_of_every_shape(game: str) -> dict[str, tuple[Any, Request]]:
    """``{shape: (state, request)}``: the first request of each answer shape met in randomly played games of every
    configuration ``game`` offers (`SEEDS_PER_CONFIGURATION` seeds each)."""
    rules = GAMES[game]
    found: dict[str, tuple[Any, Request]] = {}
    for config in rules.configurations():
        for seed in range(SEEDS_PER_CONFIGURATION):
            rng = random.Random(seed)
            state = rules.new_game(rules.config(config), seed)
            while rules.result(state) is None:
                requests = rules.pending(state)
                for request in requests:
                    found.setdefault(shape_of(request), (state, request))
                answers = {}
                for r in requests:
                    fields: dict[str, Any] = {}
                    if r.answer == "pick":
                        fields["players"] = tuple(rng.sample(list(r.candidates), r.count or 0))
                    elif r.answer == "yes_no":
                        fields["choice"] = rng.choice(r.allowed)
                    answers[r.player] = Decision.to(r, utterance="hm" if r.wants_words else None, **fields)
                state = rules.apply(state, answers)
    return found


def task_for(game: str, state: Any, request: Request, kind: str,
             options: dict[str, Any] | None = None) -> AgentInput:
    """The `AgentInput` a game graph sends ``kind`` for ``request`` in ``state`` (a fake model spec for a seat that
    plays one, `AgentKind.plays_model`; the seat ``options``, default none; empty memory)."""
    rules = GAMES[game]
    model = "fake" if AGENT_KINDS[kind].plays_model(options) else None
    return {"view": rules.view(state, request.player).model_dump(mode="json"),
            "request": request.model_dump(mode="json"), "pool": {},
            "seat": {"kind": kind, "model": model, "options": dict(options or {})}, "seed": 11}


class _Driven(AgentInput, AgentOutput):
    pass


def run_node(kind: str, task: AgentInput, script: Script | None = None, *, json: bool = True,
             asked: list[Any] | None = None) -> dict[str, Any]:
    """The kind's node's output for ``task`` over ``script``'s models (``json``: the endpoint takes JSON schemas);
    a kind that asks a person is answered by `PERSONS` (each interrupt payload appended to ``asked``)."""
    node = AGENT_KINDS[kind].node(ScriptedModels(script or Script(), json=json))
    if not AGENT_KINDS[kind].asks_person:
        return node.invoke(task) if hasattr(node, "invoke") else node(task)
    builder = StateGraph(_Driven, input_schema=AgentInput, output_schema=AgentOutput)
    builder.add_node(kind, node)
    builder.add_edge(START, kind)
    builder.add_edge(kind, END)
    graph = builder.compile(checkpointer=InMemorySaver())
    config: RunnableConfig = {"configurable": {"thread_id": "conformance"}}
    out = graph.invoke(task, config)
    while interrupts := graph.get_state(config).interrupts:
        assert len(interrupts) == 1, f"{kind} asked {len(interrupts)} questions at once"
        (asked if asked is not None else []).append(interrupts[0].value)
        out = graph.invoke(Command(resume=PERSONS["answers legally"](interrupts[0].value)), config)
    return out


def decision_of(out: dict[str, Any], request: Request) -> Decision:
    """The decision in a node's output, checked: keyed by the request's id, memory keyed by the player, legal.

    Raises:
        AssertionError: another key. IllegalActionError: an illegal decision.
    """
    assert set(out["decisions"]) == {request.id}, f"decisions keyed {set(out['decisions'])}, not {request.id!r}"
    if "memory" in out:
        assert set(out["memory"]) == {str(request.player)}, f"memory keyed {set(out['memory'])}"
    decision = Decision.model_validate(out["decisions"][request.id])
    check_decision(request, decision)
    return decision


def check_legal_decisions(kind: str, game: str, options: dict[str, Any] | None = None) -> None:
    """A legal decision for a request of every answer shape, with words where words are asked (seat ``options``:
    a variant of the kind, e.g. the ``naive`` kind's ``flavour``)."""
    for shape, (state, request) in requests_of_every_shape(game).items():
        decision = decision_of(run_node(kind, task_for(game, state, request, kind, options)), request)
        if request.wants_words:
            assert decision.utterance, f"{kind} in {game} said nothing for {shape}"


def words_only(kind: str, options: dict[str, Any] | None, request: Request, calls: int, decision: Decision) -> bool:
    """Whether a seat of ``kind`` with ``options``, a kind that needs no model but plays one under these options
    (`AgentKind.model_options`), rightly asked its model nothing about ``request``: it asks it for words alone, so
    not about a request that wants none, and about one that wants words unless its decision's ``checks`` say why
    not (the ``naive`` kind keeps the template words its rule bots act on).

    Raises:
        AssertionError: such a seat asked its model about a request that wants no words, or none about one that
            wants words with no reason in ``checks``.
    """
    record = AGENT_KINDS[kind]
    if record.needs_model or not record.plays_model(options) or (request.wants_words and calls):
        return False
    if request.wants_words:
        assert decision.checks, f"{kind} asked no model for the words of {request.kind} and recorded no reason"
    else:
        assert not calls, f"{kind} asked its model {calls} times about {request.kind}, which wants no words"
    return True


def check_garbage(kind: str, game: str, json: bool, options: dict[str, Any] | None = None) -> None:
    """Garbage replies (JSON-schema endpoint or prose) give legal decisions with the fallback recorded, the raw
    reply kept and none of the garbage said at the table (seat ``options``: those under which the seat plays a
    model, for a kind that needs none, `AgentKind.model_options`)."""
    for shape, (state, request) in requests_of_every_shape(game).items():
        script = Script(replies=dict.fromkeys(GARBLED, GARBAGE))
        decision = decision_of(run_node(kind, task_for(game, state, request, kind, options), script, json=json),
                               request)
        if shape == "yes_no1" or words_only(kind, options, request, len(script.calls), decision):  # no model asked
            continue
        assert decision.fallback, f"{kind} in {game} on {shape}: garbage met the request?"
        assert decision.raw is not None and "Moderator" in decision.raw, f"{kind} on {shape}: the raw reply is lost"
        assert "Moderator" not in (decision.utterance or ""), f"{kind} on {shape} said the garbage aloud"


def check_no_leaks(kind: str, game: str, options: dict[str, Any] | None = None) -> None:
    """No prompt (or question to a person) carries another player's private fact; the player's own reaches it
    (seat ``options`` as in `check_garbage`)."""
    rules = GAMES[game]
    for shape, (state, request) in requests_of_every_shape(game).items():
        players = len(rules.seats(state))
        planted = [{"type": "utterance", "to": [p], "speaker": p, "phase": rules.phase(state),
                    "round": request.round, "attempt": request.attempt, "text": f"My secret is SENTINEL[{p}]."}
                   for p in range(1, players + 1)]
        state = rules.restore(rules.snapshot(state), list(rules.events(state)) + planted)
        script, asked = Script(), list[Any]()
        if AGENT_KINDS[kind].prepares_rounds:  # the notes written for a round notice, too
            run_node(kind, task_for(game, state, prepare_round(request.player, request.phase, request.round), kind),
                     script)
        decision = decision_of(run_node(kind, task_for(game, state, request, kind, options), script, asked=asked),
                               request)
        prompts = [call.prompt for call in script.calls] + [dumps(payload) for payload in asked]
        if (shape == "yes_no1" and not asked) or words_only(kind, options, request, len(script.calls), decision):
            continue
        assert prompts, f"{kind} asked no model and no person for {shape}"
        seen = {int(m) for prompt in prompts for m in SENTINEL.findall(prompt)}
        assert seen <= {request.player}, f"{kind} in {game} on {shape}: player {request.player} sees secrets of {seen}"
        assert request.player in seen, "positive control: the player's own private words reach its prompts"


def _after_notice(kind: str, game: str, state: Any, request: Request, script: Script) -> tuple[AgentInput, int]:
    """The task for ``request`` after a round notice answered over ``script``, and the calls the notice made."""
    told = run_node(kind, task_for(game, state, prepare_round(request.player, request.phase, request.round), kind),
                    script)
    assert not told.get("decisions"), f"{kind} answered a notice that asks nothing"
    assert set(told["memory"]) == {str(request.player)}, "a notice's memory is the player's"
    task = task_for(game, state, request, kind)
    task["pool"] = told["memory"][str(request.player)]
    task["view"] = {**task["view"], "events": [], "first_event": len(task["view"]["events"])}  # delivered
    return task, len(script.calls)


def check_round_notice(kind: str, game: str) -> None:
    """A round notice writes the notes once; the next decision does not write them again and counts their calls;
    garbage in the notice still gives a legal next decision with the fallback recorded."""
    for shape, (state, request) in requests_of_every_shape(game).items():
        if shape == "yes_no1":  # one legal answer: no model asked either way
            continue
        script = Script()
        task, noted = _after_notice(kind, game, state, request, script)
        assert noted >= 1, f"{kind} wrote no notes for a new round"
        decision = decision_of(run_node(kind, task, script), request)
        alone = Script()
        decision_of(run_node(kind, task_for(game, state, request, kind), alone), request)
        assert len(script.calls) - noted < len(alone.calls), f"{kind} wrote its notes again for {shape}"
        assert decision.usage["calls"] == len(script.calls), "the notes' calls are counted in the next decision"
    shapes = requests_of_every_shape(game)  # a pick of several players, else of one (a game asking none: Werewolf)
    state, request = shapes.get("pickN") or next(shapes[s] for s in sorted(shapes) if s.startswith("pick"))
    script = Script(replies=dict.fromkeys(GARBLED, GARBAGE))
    task, _ = _after_notice(kind, game, state, request, script)
    decision = decision_of(run_node(kind, task, script), request)
    assert decision.fallback and decision.usage["calls"] == len(script.calls), "garbage notes: fallback, calls counted"


@cache
def finished_game(game: str) -> Any:
    """A randomly played, finished game of ``game``'s first configuration in which its belief probe asks someone."""
    rules = GAMES[game]
    for seed in range(SEEDS_PER_CONFIGURATION):
        rng = random.Random(seed)
        state = rules.new_game(rules.config(rules.configurations()[0]), seed)
        while rules.result(state) is None:
            state = rules.apply(state, {r.player: Decision.to(
                r, utterance="hm" if r.wants_words else None,
                players=tuple(rng.sample(list(r.candidates), r.count or 0)) if r.answer == "pick" else None,
                choice=rng.choice(r.allowed) if r.answer == "yes_no" else None) for r in rules.pending(state)})
        if rules.belief_probe is not None and rules.belief_probe(state):
            return state
    raise AssertionError(f"no finished {game} game whose belief probe asks anyone")


def check_belief_probe(kind: str, game: str) -> None:
    """A kind that answers the belief probe through its graph (`AgentKind.probed`) gives a probability for every
    player asked on the probe's view; garbage replies leave the beliefs out (``None``) with the fallback recorded
    and the raw reply kept, never filled in."""
    rules = GAMES[game]
    state = finished_game(game)
    player, view = next(iter(sorted(rules.belief_probe(state).items())))  # type: ignore[misc]  # checked above
    others = [q for q in range(1, view.players + 1) if q != player]
    request = belief_request(player, others, rules.phase(state), view.round)
    task = task_for(game, state, request, kind) | {"view": view.model_dump(mode="json")}
    stated = decision_of(run_node(kind, task), request)
    assert stated.beliefs is not None and set(stated.beliefs) == set(others), f"{kind} stated {stated.beliefs}"
    assert stated.usage["calls"] >= 2, f"{kind}: the answer and the parser call are both counted"
    for json in (True, False):
        script = Script(replies=dict.fromkeys(GARBLED, GARBAGE))
        garbled = decision_of(run_node(kind, task, script, json=json), request)
        assert garbled.beliefs is None and garbled.fallback, f"{kind}: garbage belief {garbled.beliefs} kept"
        assert garbled.raw is not None and "Moderator" in garbled.raw, f"{kind}: the raw probe answer is lost"


def check_agent_kind(kind: str) -> None:
    """The whole suite for ``kind`` in every game it plays.

    Raises:
        AssertionError: naming the game and what failed.
    """
    record = AGENT_KINDS[kind]
    playing = [None] if record.needs_model else [dict(record.model_options)] if record.model_options else []
    for game in sorted(record.games):
        try:
            check_legal_decisions(kind, game)
            for options in playing:  # the seats that play a model: the kind's, or those its options make play one
                if options:
                    check_legal_decisions(kind, game, options)
                check_garbage(kind, game, json=True, options=options)
                check_garbage(kind, game, json=False, options=options)
                check_no_leaks(kind, game, options)
            if record.asks_person and not record.needs_model:
                check_no_leaks(kind, game)
            if record.prepares_rounds:
                check_round_notice(kind, game)
            if game in record.probed:
                check_belief_probe(kind, game)
        except AssertionError as error:
            raise AssertionError(f"{kind} in {game}: {error}") from error
