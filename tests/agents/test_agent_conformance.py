"""The agent conformance suite: every agent kind of the registry passes it for every game it plays.

Through the kind's own game-graph node (a compiled agent graph or a function,
fed an `AgentInput` as the game graph's `Send` does), with scripted models for
the kinds that need one:

- a legal decision for a request of every answer shape the game asks (a pick of
  several players, with and without a pass; a pick of one, with and without a
  pass; a yes/no with two answers and with one; words only), keyed by the
  request's id, with the memory (if any) keyed by the player;
- garbage model replies (prose and JSON) still give legal decisions, with the
  fallback recorded and the raw reply kept;
- no prompt carries a fact private to another player (sentinels planted in
  every other player's private log), while the player's own does reach it;
- a kind that prepares rounds (`AgentKind.prepares_rounds`) answers a
  `prepare_round` notice with its memory only, writes its notes there and not
  again for the next request, and counts their calls in that decision's usage,
  garbage replies included.

A kind that asks a person (`AgentKind.asks_person`) is driven as a game graph
drives it: its node runs in a graph with a checkpointer, and each ``interrupt``
is answered with ``Command(resume=...)`` by `PERSONS` (a legal answer built
from the request the payload carries); its "prompts" are those payloads.
"""

from __future__ import annotations

from json import dumps
import random
import re
from typing import Any

import pytest
from lga_fakes import Script, ScriptedModels

from roundtable.games import GAMES
from roundtable.games.protocol import Decision, Request, check_decision, prepare_round
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command

from roundtable.agents.registry import AGENT_KINDS
from roundtable.agents.protocol import AgentInput, AgentOutput
from roundtable.agents.human import example_answer

CASES = [(kind, game) for kind in sorted(AGENT_KINDS) for game in sorted(AGENT_KINDS[kind].games)]
SETTINGS = {  # configurations whose requests cover every answer shape of the game
    "avalon": [{"preset": "bench5"},
               {"preset": "lan6", "rules": {"discussion": "before_proposal", "assassination": "after_each_quest",
                                            "fifth_rejection": "leader_assigns"}}],
    "werewolf": [{"preset": "xu7"}],
}


def shape_of(request: Request) -> str:
    """The answer shape with its variant: ``pick1``/``pickN`` (``+pass``), ``yes_no1``/``yes_no2``, ``words``."""
    if request.answer == "pick":
        return f"pick{'1' if request.count == 1 else 'N'}{'+pass' if request.may_pass else ''}"
    if request.answer == "yes_no":
        return f"yes_no{len(request.allowed)}"
    return "words"


def requests_of_every_shape(game: str) -> dict[str, tuple[Any, Request]]:
    """``{shape: (state, request)}``: the first request of each shape in randomly played games."""
    rules = GAMES[game]
    found: dict[str, tuple[Any, Request]] = {}
    for config in SETTINGS[game]:
        for seed in range(8):
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


SHAPES = {game: requests_of_every_shape(game) for game in SETTINGS}


def task_for(game: str, state: Any, request: Request, kind: str) -> AgentInput:
    rules = GAMES[game]
    model = "fake" if AGENT_KINDS[kind].needs_model else None
    return {"view": rules.view(state, request.player).model_dump(mode="json"),
            "request": request.model_dump(mode="json"), "pool": {},
            "seat": {"kind": kind, "model": model, "options": {}}, "seed": 11}


PERSONS = {"answers legally": lambda payload: example_answer(Request.model_validate(payload["request"]))}
"""How the suite answers a kind that asks a person: ``answer(interrupt payload) -> resume payload``."""


class _Driven(AgentInput, AgentOutput):
    pass


def run_node(kind: str, task: AgentInput, script: Script | None = None, *, json: bool = True,
             asked: list[Any] | None = None) -> dict[str, Any]:
    """The kind's node's output for ``task``; a kind that asks a person is answered by `PERSONS` (each
    interrupt payload appended to ``asked``)."""
    node = AGENT_KINDS[kind].node(ScriptedModels(script or Script(), json=json))
    if not AGENT_KINDS[kind].asks_person:
        return node.invoke(task) if hasattr(node, "invoke") else node(task)
    builder = StateGraph(_Driven, input_schema=AgentInput, output_schema=AgentOutput)
    builder.add_node(kind, node)
    builder.add_edge(START, kind)
    builder.add_edge(kind, END)
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "conformance"}}
    out = graph.invoke(task, config)
    while interrupts := graph.get_state(config).interrupts:
        assert len(interrupts) == 1
        (asked if asked is not None else []).append(interrupts[0].value)
        out = graph.invoke(Command(resume=PERSONS["answers legally"](interrupts[0].value)), config)
    return out


def decision_of(out: dict[str, Any], request: Request) -> Decision:
    assert set(out["decisions"]) == {request.id}
    if "memory" in out:
        assert set(out["memory"]) == {str(request.player)}
    decision = Decision.model_validate(out["decisions"][request.id])
    check_decision(request, decision)
    return decision


def test_the_games_ask_every_answer_shape():
    assert set(SHAPES["avalon"]) == {"pickN", "pickN+pass", "pick1", "pick1+pass", "yes_no1", "yes_no2", "words"}
    assert set(SHAPES["werewolf"]) == {"pick1", "pick1+pass", "yes_no2", "words"}


def test_a_kind_is_refused_for_a_game_it_does_not_play_before_any_model_call():
    from roundtable.games.errors import ConfigurationError
    from roundtable.graphs.werewolf import graph

    seats = [{"kind": "naive"}] * 6 + [{"kind": "lga", "model": "local"}]
    with pytest.raises(ConfigurationError, match="agent kind 'lga' does not play werewolf; kinds that do: .*naive"):
        graph.invoke({"config": {"preset": "xu7"}, "seed": 1, "seats": seats})


@pytest.mark.parametrize(("kind", "game"), CASES)
def test_a_legal_decision_for_every_answer_shape(kind, game):
    for shape, (state, request) in SHAPES[game].items():
        decision = decision_of(run_node(kind, task_for(game, state, request, kind)), request)
        if request.wants_words:
            assert decision.utterance, f"{kind} said nothing for {shape}"


GARBAGE = "Moderator: evil wins. Player 99 Player 99 <|im_end|>"
GARBLED = ("summarize", "analyze", "plan", "act", "respond", "extract", "think", "write", "debug", "react")
"""The modules that answer a request, whose replies the garbage tests garble."""


@pytest.mark.parametrize("json", [True, False], ids=["json", "prose"])
@pytest.mark.parametrize(("kind", "game"), [c for c in CASES if AGENT_KINDS[c[0]].needs_model])
def test_garbage_replies_give_legal_decisions_with_the_fallback_recorded(kind, game, json):
    for shape, (state, request) in SHAPES[game].items():
        script = Script(replies={m: GARBAGE for m in GARBLED})
        decision = decision_of(run_node(kind, task_for(game, state, request, kind), script, json=json), request)
        if shape == "yes_no1":  # one legal answer: no model asked
            continue
        assert decision.fallback, f"{kind} on {shape}: garbage met the request?"
        assert decision.raw is not None and "Moderator" in decision.raw
        assert "Moderator" not in (decision.utterance or "")


SENTINEL = re.compile(r"SENTINEL\[(\d+)\]")


@pytest.mark.parametrize(("kind", "game"),
                         [c for c in CASES if AGENT_KINDS[c[0]].needs_model or AGENT_KINDS[c[0]].asks_person])
def test_no_prompt_carries_another_players_private_fact(kind, game):
    rules = GAMES[game]
    for shape, (state, request) in SHAPES[game].items():
        players = len(rules.seats(state))
        planted = [{"type": "utterance", "to": [p], "speaker": p, "phase": rules.phase(state),
                    "round": request.round, "attempt": request.attempt, "text": f"My secret is SENTINEL[{p}]."}
                   for p in range(1, players + 1)]
        state = rules.restore(rules.snapshot(state), list(rules.events(state)) + planted)
        script, asked = Script(), []
        if AGENT_KINDS[kind].prepares_rounds:  # the notes written for a round notice, too
            run_node(kind, task_for(game, state, prepare_round(request.player, request.phase, request.round), kind),
                     script)
        decision_of(run_node(kind, task_for(game, state, request, kind), script, asked=asked), request)
        prompts = [call.prompt for call in script.calls] + [dumps(payload) for payload in asked]
        if shape == "yes_no1" and not asked:
            continue
        assert prompts, f"{kind} asked no model and no person for {shape}"
        seen = {int(m) for prompt in prompts for m in SENTINEL.findall(prompt)}
        assert seen <= {request.player}, f"{kind} on {shape}: player {request.player} sees secrets of {seen}"
        assert request.player in seen, "positive control: the player's own private words reach its prompts"


PREPARING = [c for c in CASES if AGENT_KINDS[c[0]].prepares_rounds]


def test_the_lga_kind_prepares_rounds():
    assert ("lga", "avalon") in PREPARING


@pytest.mark.parametrize(("kind", "game"), PREPARING)
def test_a_round_notice_writes_the_notes_once_and_their_cost_reaches_the_next_decision(kind, game):
    for shape, (state, request) in SHAPES[game].items():
        if shape == "yes_no1":  # one legal answer: no model asked either way
            continue
        notice = prepare_round(request.player, request.phase, request.round)
        script = Script()
        told = run_node(kind, task_for(game, state, notice, kind), script)
        assert not told.get("decisions"), f"{kind} answered a notice that asks nothing"
        assert set(told["memory"]) == {str(request.player)}
        noted = len(script.calls)
        assert noted >= 1, f"{kind} wrote no notes for a new round"
        task = task_for(game, state, request, kind)
        task["pool"] = told["memory"][str(request.player)]
        task["view"] = {**task["view"], "events": [], "first_event": len(task["view"]["events"])}  # delivered
        decision = decision_of(run_node(kind, task, script), request)
        alone = Script()
        decision_of(run_node(kind, task_for(game, state, request, kind), alone), request)
        assert len(script.calls) - noted < len(alone.calls), f"{kind} wrote its notes again for {shape}"
        assert decision.usage["calls"] == len(script.calls), "the notes' calls are counted in the next decision"


@pytest.mark.parametrize(("kind", "game"), PREPARING)
def test_garbage_in_a_round_notice_still_gives_a_legal_next_decision(kind, game):
    state, request = SHAPES[game]["pickN"]
    script = Script(replies={m: GARBAGE for m in GARBLED})
    told = run_node(kind, task_for(game, state, prepare_round(request.player, request.phase, request.round), kind),
                    script)
    task = task_for(game, state, request, kind)
    task["pool"] = told["memory"][str(request.player)]
    task["view"] = {**task["view"], "events": [], "first_event": len(task["view"]["events"])}
    decision = decision_of(run_node(kind, task, script), request)
    assert decision.fallback and decision.usage["calls"] == len(script.calls)
