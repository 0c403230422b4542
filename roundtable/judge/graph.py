"""The judge as a LangGraph graph, one node per behaviour (docs/judge.md#the-graph).

::

    START -> load -> deception -> stance -> sharing -> tables -> END      (an Avalon record)
    START -> load -> stance -> camouflage -> tables -> END                (a Werewolf record)

- ``load``: reads the finished record (`roundtable.judge.run.load_record`), checks it and the behaviours asked
  for (`check_record`), keeps its `Transcript` in the state;
- one node per behaviour any game declares (`roundtable.judge.protocol.behaviour_names`), each asking the
  record's questions that are not cached yet (`judge_behaviour`); a node whose behaviour the record's game does
  not have is never reached;
- ``tables``: the one-line summary of what is judged (`GameJudge.summary`).

Input `JudgeInput` (``game_id``, the judge ``model`` spec, ``behaviours``, the data directory ``home``), output
`JudgeOutput`, context `roundtable.judge.context.JudgeContext`. Served to Studio as ``judge`` through the
``roundtable.graphs`` entry points (`roundtable.graphs.served`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Required

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from typing_extensions import TypedDict  # pydantic reads it on Python 3.11 (Studio's schemas)

from roundtable.agents.common.model_calls import FactoryModels, ModelProvider
from roundtable.judge.context import JudgeContext
from roundtable.judge.protocol import behaviour_names, judges
from roundtable.judge.run import check_record, judge_behaviour, judged_record, load_record, records_dir
from roundtable.judge.store import model_key
from roundtable.judge.transcript import Transcript, transcript_of
from roundtable.settings import settings


def _merge(left: dict[str, Any] | None, right: dict[str, Any] | None) -> dict[str, Any]:
    return {**(left or {}), **(right or {})}


class JudgeInput(TypedDict, total=False):
    """What the judge is asked: ``game_id`` (required); ``model``, the judge model's spec (default
    ``$ROUNDTABLE_MODEL`` or ``local``); ``behaviours`` (default: all of the game's); ``home``, the data directory
    (default ``$ROUNDTABLE_HOME`` or ``./.roundtable``)."""

    game_id: Required[str]
    model: str
    behaviours: list[str]
    home: str


class JudgeOutput(TypedDict, total=False):
    """What the judge returns: ``game``; ``judged``, per behaviour ``{"items", "asked", "unusable"}`` (questions,
    calls made by this run, replies that could not be read); ``summary``, one line."""

    game_id: str
    game: str
    model: str
    judged: dict[str, dict[str, int]]
    summary: str


class JudgeState(TypedDict, total=False):
    """The graph's state: `JudgeInput`'s and `JudgeOutput`'s fields, the record's `Transcript` (as a dict) and the
    behaviours to judge (``todo``)."""

    game_id: Required[str]
    model: str
    behaviours: list[str]
    home: str
    game: str
    transcript: dict[str, Any]
    todo: list[str]
    judged: Annotated[dict[str, dict[str, int]], _merge]
    summary: str


def _spec(state: JudgeState) -> str:
    return state.get("model") or settings().model


def load(state: JudgeState) -> dict[str, Any]:
    """Read and check the record; keep its transcript and the behaviours to judge.

    Raises:
        JudgeInputError: see `roundtable.judge.run.check_record` and `load_record`.
    """
    record = load_record(records_dir(state.get("home")), state["game_id"])
    judge, wanted = check_record(record, state.get("behaviours") or None)
    todo = [name for name in behaviour_names() if name in wanted]  # the graph's order, which its edges follow
    model_key(_spec(state))  # a malformed spec fails here, before any call
    return {"game": judge.name, "model": _spec(state), "todo": todo,
            "transcript": transcript_of(record, judge.round_field, judge.facts).model_dump()}


def _behaviour_node(name: str, models: ModelProvider) -> Callable[..., dict[str, Any]]:
    def node(state: JudgeState, runtime: Runtime[Any]) -> dict[str, Any]:
        context = runtime.context if isinstance(runtime.context, JudgeContext) else JudgeContext.model_validate(
            runtime.context or {})
        judge = judges()[state["game"]]
        transcript = Transcript.model_validate(state["transcript"])
        counts = judge_behaviour(judge, judge.behaviours[name], transcript, context, models, _spec(state),
                                 context.temperature, records_dir(state.get("home")))
        return {"judged": {name: counts}}

    node.__name__ = name
    node.__doc__ = f"Judge {name}: ask the record's {name} questions not cached yet."
    return node


def tables(state: JudgeState) -> dict[str, Any]:
    """The summary line of what is judged now."""
    directory = records_dir(state.get("home"))
    record = load_record(directory, state["game_id"])
    judged = judged_record(directory, record, model_key(_spec(state)))
    summary = judges()[state["game"]].summary(judged) if judged is not None else "nothing judged"
    return {"summary": summary}


def _next(state: JudgeState) -> str:
    done = state.get("judged") or {}
    return next((name for name in state.get("todo") or [] if name not in done), "tables")


def build_judge_graph(models: ModelProvider | None = None) -> StateGraph[Any, Any, Any, Any]:
    """The uncompiled judge graph (see the module docstring).

    Args:
        models: where the behaviour nodes get their chat model; default `FactoryModels`. Tests pass scripted
            models.
    """
    models = models or FactoryModels()
    builder = StateGraph(JudgeState, context_schema=JudgeContext, input_schema=JudgeInput,
                         output_schema=JudgeOutput)
    names = behaviour_names()
    builder.add_node("load", load)
    for name in names:
        builder.add_node(name, _behaviour_node(name, models))
    builder.add_node("tables", tables)
    builder.add_edge(START, "load")
    for i, source in enumerate(("load", *names)):
        builder.add_conditional_edges(source, _next, [*names[i:], "tables"])
    builder.add_edge("tables", END)
    return builder


def judge_game(game_id: str, model: str, behaviours: list[str] | None = None, home: str | Path | None = None,
               models: ModelProvider | None = None, context: JudgeContext | None = None) -> JudgeOutput:
    """Judge one finished record (the graph run once, without a checkpointer: the cache is the judgement files).

    Args:
        game_id: the record's game id.
        model: the judge model's spec.
        behaviours: the behaviours to judge (default: all of the record's game's).
        home: the data directory (default ``$ROUNDTABLE_HOME`` or ``./.roundtable``).
        models: the chat models' provider (default `FactoryModels`).
        context: the prompts and temperature (default `JudgeContext()`: the template files, temperature 0).

    Returns:
        The graph's `JudgeOutput`.

    Raises:
        JudgeInputError: a record or request refused before any call.
        roundtable.models.ModelError and connection errors: the endpoint failed mid-run (what was judged stays
        cached).
    """
    compiled = build_judge_graph(models).compile() if models is not None else graph
    state: JudgeInput = {"game_id": game_id, "model": model}
    if behaviours:
        state["behaviours"] = list(behaviours)
    if home is not None:
        state["home"] = str(home)
    return compiled.invoke(state, context=context or JudgeContext.model_validate({}))  # type: ignore[return-value]


graph = build_judge_graph().compile()
graph.name = "judge"
