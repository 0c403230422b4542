"""LangGraph's own cost for a game's shape: the game graph's steps and parallel answers with no game in them.

Usage::

    python benchmarks/bench_graph_floor.py               # 100 bench5 games, seeds 0..99
    python benchmarks/bench_graph_floor.py --games 20

For each seed it plays the all-``naive`` ``bench5`` game with the rules library and notes, decision point by
decision point, how many players were asked (0 for an automatic step). A bare LangGraph graph of the game
graph's shape (a phase node; one ``Send`` per player asked, run in parallel; an ``apply`` node; a route back)
then replays that pattern with nodes that do nothing, no checkpointer. The table sets its milliseconds a game
beside the game graph's own (`roundtable.graphs.avalon.graph`) on the same seeds: the first is the floor no
change of the game code can go below, on this machine and LangGraph version.
"""

from __future__ import annotations

import argparse
import operator
import time
from typing import Annotated, Any, TypedDict

from bench_avalon import PRESET, RUN, game_input
from langgraph.graph import END, START, StateGraph
from langgraph.types import Send

from roundtable.games import avalon as A
from roundtable.graphs.avalon import graph
from roundtable.graphs.phases import agent_seed
from roundtable.testing.policies import rule_policies


class Shape(TypedDict, total=False):
    """The bare graph's state: the pattern (players asked at each decision point), where it is, and answers."""

    asked: list[int]
    step: int
    answers: Annotated[list[int], operator.add]


def pattern(config: A.AvalonConfig, seed: int) -> list[int]:
    """How many players each decision point of the seed's all-naive game asks (0: an automatic step)."""
    policy = rule_policies("avalon")["naive"]
    state, asked = A.new_game(config, seed), []
    while not state.is_over:
        requests = A.pending(state)
        asked.append(len(requests))
        state = A.apply(state, {r.player: policy(A.view(state, r.player), r, agent_seed(seed, r.player))
                                for r in requests})
    return asked


def bare_graph() -> Any:
    """The game graph's shape with nodes that do nothing."""

    def phase(state: Shape) -> dict[str, Any]:
        return {}

    def seat(task: dict[str, Any]) -> dict[str, Any]:
        return {"answers": [task["player"]]}

    def apply(state: Shape) -> dict[str, Any]:
        return {"step": state["step"] + 1}

    def ask(state: Shape) -> list[Send] | str:
        count = state["asked"][state["step"]]
        return [Send("seat", {"player": p}) for p in range(1, count + 1)] or "apply"

    def route(state: Shape) -> str:
        return END if state["step"] >= len(state["asked"]) else "phase"

    builder = StateGraph(Shape)
    builder.add_node("phase", phase)
    builder.add_node("seat", seat)
    builder.add_node("apply", apply)
    builder.add_edge(START, "phase")
    builder.add_conditional_edges("phase", ask, ["seat", "apply"])
    builder.add_edge("seat", "apply")
    builder.add_conditional_edges("apply", route, ["phase", END])
    return builder.compile()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games (seeds 0..N-1)")
    args = parser.parse_args(argv)
    config = A.AvalonConfig.build(PRESET)
    patterns = [pattern(config, seed) for seed in range(args.games)]
    bare = bare_graph()
    bare.invoke({"asked": patterns[0], "step": 0}, RUN)  # warm
    start = time.perf_counter()
    for asked in patterns:
        bare.invoke({"asked": asked, "step": 0}, RUN)
    bare_s = time.perf_counter() - start
    graph.invoke(game_input(config, 0), RUN)  # warm
    start = time.perf_counter()
    for seed in range(args.games):
        graph.invoke(game_input(config, seed), RUN)
    game_s = time.perf_counter() - start
    points = sum(len(p) for p in patterns) / args.games
    sends = sum(sum(p) for p in patterns) / args.games
    print(f"\n### LangGraph's floor: {PRESET}, all seats naive, seeds 0..{args.games - 1}, "
          f"{points:.0f} decision points and {sends:.0f} answers a game\n")
    print("| graph | ms a game | games/s |")
    print("|---|---:|---:|")
    for label, seconds in [("the game's shape, nodes doing nothing", bare_s), ("the game graph", game_s)]:
        print(f"| {label} | {1000 * seconds / args.games:.1f} | {args.games / seconds:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
